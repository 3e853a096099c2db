/**
 * The TLS 1.2 record layer, client side, as far as the server's Certificate message (ADR 0023): the
 * ClientHello sent, the records read and reassembled, the alert that refuses TLS 1.2 told apart
 * from an answer that is not TLS, and the list checked against the local limits.
 */
import { randomBytes } from "node:crypto";
import { pemBlock } from "../../domain/certificates/chain.ts";
import { LOCAL_CERTIFICATE_LIMITS } from "../../domain/limits.ts";
import type { ServerCertificates } from "../../local/ports.ts";

/**
 * Most bytes read from a server's handshake: the largest Certificate message TLS 1.2 allows
 * (2^24 − 1 bytes of body) and room for the ServerHello before it.
 */
const MAX_HANDSHAKE_BYTES = (1 << 24) + (1 << 16);

export type RecordLayerResult =
  | { ok: true; value: ServerCertificates }
  | { ok: false; message: string; tls12Refused: boolean };

const CIPHER_SUITES = [
  0xc02b, 0xc02f, 0xc02c, 0xc030, 0xcca9, 0xcca8, 0xc023, 0xc027, 0xc009, 0xc013, 0xc024, 0xc028, 0xc00a,
  0xc014, 0x009e, 0x009f, 0x009c, 0x009d, 0x003c, 0x003d, 0x002f, 0x0035, 0x000a, 0x00ff,
];
const SUPPORTED_GROUPS = [0x001d, 0x0017, 0x0018, 0x0019, 0x001e];
const SIGNATURE_ALGORITHMS = [
  0x0403, 0x0503, 0x0603, 0x0807, 0x0808, 0x0804, 0x0805, 0x0806, 0x0809, 0x080a, 0x080b, 0x0401, 0x0501,
  0x0601, 0x0303, 0x0203, 0x0301, 0x0201,
];

const u16 = (n: number) => [(n >> 8) & 0xff, n & 0xff];
const u24 = (n: number) => [(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];

/** A TLS 1.2 ClientHello record offering common suites, SNI when given. */
export function clientHello(servername: string | null): Uint8Array {
  const extension = (type: number, body: number[]) => [...u16(type), ...u16(body.length), ...body];
  const extensions: number[] = [];
  if (servername !== null) {
    const name = [...Buffer.from(servername, "ascii")];
    const entry = [0, ...u16(name.length), ...name];
    extensions.push(...extension(0x0000, [...u16(entry.length), ...entry]));
  }
  const groups = SUPPORTED_GROUPS.flatMap(u16);
  extensions.push(...extension(0x000a, [...u16(groups.length), ...groups]));
  extensions.push(...extension(0x000b, [1, 0]));
  const algorithms = SIGNATURE_ALGORITHMS.flatMap(u16);
  extensions.push(...extension(0x000d, [...u16(algorithms.length), ...algorithms]));
  extensions.push(...extension(0x0017, []));
  const suites = CIPHER_SUITES.flatMap(u16);
  const body = [
    0x03,
    0x03,
    ...randomBytes(32),
    0,
    ...u16(suites.length),
    ...suites,
    1,
    0,
    ...u16(extensions.length),
    ...extensions,
  ];
  const handshake = [1, ...u24(body.length), ...body];
  return new Uint8Array([0x16, 0x03, 0x01, ...u16(handshake.length), ...handshake]);
}

/** Names of the TLS alerts a refused handshake usually carries. */
const ALERTS: Record<number, string> = {
  40: "handshake_failure",
  47: "illegal_parameter",
  70: "protocol_version",
  71: "insufficient_security",
  80: "internal_error",
  112: "unrecognized_name",
};

/** What a {@link HandshakeReader} ends with short of a certificate list. */
type ReaderFailure = { ok: false; message: string; tls12Refused: boolean };

/**
 * Reads handshake records until the Certificate message (type 11) is complete, from bytes as they
 * arrive. Returns the certificates, a failure, or null when more bytes are needed. `notTls`
 * holds the first bytes when they are not a TLS record, for the caller to quote.
 */
export class HandshakeReader {
  /** The first bytes the server sent (up to 256), to quote when they are not TLS. */
  firstBytes = Buffer.alloc(0);
  private records = Buffer.alloc(0);
  /** Handshake bytes not yet read as messages, in fragments (a Certificate message spans many records). */
  private fragments: Buffer[] = [];
  private handshakeBytes = 0;
  private received = 0;
  private sawServerHello = false;

  constructor(private readonly maxCertificates: number = LOCAL_CERTIFICATE_LIMITS.maxBlocks) {}

  push(chunk: Uint8Array): RecordLayerResult | null {
    if (this.firstBytes.length < 256)
      this.firstBytes = Buffer.concat([this.firstBytes, chunk]).subarray(0, 256);
    this.received += chunk.length;
    if (this.received > MAX_HANDSHAKE_BYTES) {
      return {
        ok: false,
        message: `the server sent more than ${MAX_HANDSHAKE_BYTES >> 20} MiB without finishing its certificates`,
        tls12Refused: false,
      };
    }
    this.records = this.records.length === 0 ? Buffer.from(chunk) : Buffer.concat([this.records, chunk]);
    while (this.records.length >= 5) {
      const type = this.records[0]!;
      const major = this.records[1]!;
      const length = this.records.readUInt16BE(3);
      if ((type !== 0x15 && type !== 0x16 && type !== 0x14) || major !== 3 || length > 18432) {
        return { ok: false, message: NOT_TLS, tls12Refused: false };
      }
      if (this.records.length < 5 + length) return null;
      const fragment = this.records.subarray(5, 5 + length);
      this.records = this.records.subarray(5 + length);
      if (type === 0x15) {
        const code = fragment[1] ?? -1;
        // A warning (level 1) other than close_notify, such as unrecognized_name for an SNI name the
        // server has no certificate for, does not end the handshake.
        if (fragment[0] === 1 && code !== 0) continue;
        const name = ALERTS[code] ?? `alert ${code}`;
        return {
          ok: false,
          message: `the server refused a TLS 1.2 handshake (${name})`,
          tls12Refused: code === 70 || code === 40 || code === 47 || code === 71,
        };
      }
      if (type !== 0x16) continue;
      this.fragments.push(fragment);
      this.handshakeBytes += fragment.length;
      const done = this.readMessages();
      if (done !== null) return done;
    }
    return null;
  }

  /** True when the bytes so far cannot be the start of a TLS record. */
  notTls(): boolean {
    const type = this.firstBytes[0];
    return type !== undefined && (type < 0x14 || type > 0x17 || (this.firstBytes[1] ?? 3) !== 3);
  }

  private readMessages(): RecordLayerResult | null {
    while (this.handshakeBytes >= 4) {
      const head = this.fragments.length === 1 ? this.fragments[0]! : Buffer.concat(this.fragments);
      const type = head[0]!;
      const length = head.readUIntBE(1, 3);
      // Join the fragments only once the whole message is there: a large Certificate message
      // arrives in hundreds of records.
      if (this.handshakeBytes < 4 + length) {
        this.fragments = [head];
        return null;
      }
      const body = head.subarray(4, 4 + length);
      const rest = head.subarray(4 + length);
      this.fragments = rest.length > 0 ? [rest] : [];
      this.handshakeBytes = rest.length;
      if (type === 2) {
        this.sawServerHello = true;
        continue;
      }
      if (type === 11 && this.sawServerHello) return parseCertificateMessage(body, this.maxCertificates);
      return { ok: false, message: NO_CERTIFICATE, tls12Refused: false };
    }
    return null;
  }
}

export const NOT_TLS = "the server did not answer with TLS";
const NO_CERTIFICATE = "the server sent no certificate";

/**
 * TLS 1.2 Certificate message body: a 24-bit total length, then 24-bit length + DER per
 * certificate. More than `maxCertificates` entries is a failure that says how many were sent.
 */
export function parseCertificateMessage(
  body: Uint8Array,
  maxCertificates: number = LOCAL_CERTIFICATE_LIMITS.maxBlocks,
): RecordLayerResult {
  const bad: ReaderFailure = {
    ok: false,
    message: "the server sent a malformed Certificate message",
    tls12Refused: false,
  };
  if (body.length < 3) return bad;
  const total = (body[0]! << 16) | (body[1]! << 8) | body[2]!;
  if (total !== body.length - 3) return bad;
  const entries: [number, number][] = [];
  let count = 0;
  let at = 3;
  while (at < body.length) {
    if (at + 3 > body.length) return bad;
    const length = (body[at]! << 16) | (body[at + 1]! << 8) | body[at + 2]!;
    at += 3;
    if (length === 0 || at + length > body.length) return bad;
    // Counted, not kept, past the limit: a hostile list of tiny entries costs no memory.
    if (++count <= maxCertificates) entries.push([at, at + length]);
    at += length;
  }
  if (count === 0) return { ok: false, message: NO_CERTIFICATE, tls12Refused: false };
  if (count > maxCertificates)
    return { ok: false, message: tooMany(count, maxCertificates), tls12Refused: false };
  return {
    ok: true,
    value: { ders: entries.map(([from, to]) => body.slice(from, to)), via: "tls1.2-record-layer" },
  };
}

export const tooMany = (count: number, max: number) =>
  `the server sent ${count} certificates, more than the ${max} nettools reads`;

/** The list as PEM is larger than the local limit: the failure, or null. */
export function tooLarge(ders: Uint8Array[], maxPemLength: number): string | null {
  const length = ders.reduce((sum, der) => sum + pemBlock(der).length, 0);
  if (length <= maxPemLength) return null;
  return `the server sent ${Math.ceil(length / 1024)} KiB of certificates (as PEM), more than the ${maxPemLength >> 10} KiB nettools reads`;
}
