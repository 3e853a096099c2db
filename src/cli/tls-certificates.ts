/**
 * What a TLS server sends, in wire order (CONTRACT §7.3, §8.3): the CLI's `--connect`.
 *
 * Node's and Bun's `getPeerCertificate(true)` rebuild the chain by issuer and drop certificates
 * that do not link, which would hide the very order problems `chain` reports. So the list is read
 * from the handshake itself: a TLS 1.2 ClientHello is sent and the server's Certificate message,
 * which TLS 1.2 sends in the clear, is read at the record layer, then the connection is closed.
 * Nothing is verified, so the handshake never depends on trust (ADR 0023). With `--starttls` the
 * plain connection is upgraded first (starttls.ts). A server that refuses TLS 1.2 with an alert
 * (TLS 1.3 encrypts the Certificate message) is read with `openssl s_client -showcerts` (and
 * `-starttls`) when openssl is installed, which prints the peer's list as sent; otherwise the
 * failure says so. Only `node:` modules are used, so the same code runs under Bun and under the
 * Node package.
 *
 * One deadline covers the whole read (connection, upgrade, handshake, the openssl fallback), and
 * every failure is one message naming what was observed: refused, closed or reset after N bytes,
 * not TLS (with the server's words, quoted and escaped), timed out after N s, no certificate, more
 * certificates than the local limit. Never the last fallback tried in place of the cause.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { isIP } from "node:net";
import { pemBlock } from "../domain/certificates/chain.ts";
import { LOCAL_CERTIFICATE_LIMITS } from "../domain/limits.ts";
import { ConnectionFailure, PlainConnection, seconds } from "./plain-connection.ts";
import {
  firstLine,
  guessProtocol,
  IMPLICIT_TLS_PORTS,
  NotTheProtocol,
  quotable,
  quote,
  type StartTls,
  startsAsPlainText,
  UpgradeRefused,
  upgrade,
} from "./starttls.ts";

/** Default port of `--connect HOST`. */
export const DEFAULT_TLS_PORT = 443;
/** How long the whole read may take when the caller gives no deadline. */
export const CONNECT_TIMEOUT_MS = 10_000;
/**
 * Most bytes read from a server's handshake: the largest Certificate message TLS 1.2 allows
 * (2^24 − 1 bytes of body) and room for the ServerHello before it.
 */
const MAX_HANDSHAKE_BYTES = (1 << 24) + (1 << 16);

export interface ServerCertificates {
  /** The certificates as sent, DER, in wire order (extra, repeated and unrelated ones kept). */
  ders: Uint8Array[];
  /** How the list was read: `tls1.2-record-layer` or `openssl-s_client`. */
  via: "tls1.2-record-layer" | "openssl-s_client";
}

export type FetchResult = { ok: true; value: ServerCertificates } | { ok: false; message: string };

/** How one read goes; everything is optional. */
export interface ConnectOptions {
  /**
   * When the whole read must be over, an absolute time on `Date.now()`'s clock: the connection,
   * the STARTTLS upgrade, the handshake and the openssl fallback all stop there. Default: now +
   * {@link CONNECT_TIMEOUT_MS}.
   */
  deadline?: number;
  /** Upgrade the plain connection with this protocol's STARTTLS first. */
  startTls?: StartTls;
  /** Most certificates accepted (default: the CLI's local limit, 500). */
  maxCertificates?: number;
  /** Most characters of the list as PEM (default: the CLI's local limit, 4 MiB). */
  maxPemLength?: number;
}

export interface Target {
  host: string;
  port: number;
  /** The SNI name to send, or null for none (an IP literal host without `--servername`). */
  servername: string | null;
}

/**
 * Parses `HOST[:PORT]` (`[v6]:PORT` for IPv6 with a port; `defaultPort` when none is given, 443
 * or the STARTTLS protocol's). SNI defaults to HOST unless HOST is an IP literal; `servername`
 * overrides it.
 */
export function parseTarget(
  text: string,
  servername: string | undefined,
  defaultPort: number = DEFAULT_TLS_PORT,
): { ok: true; target: Target } | { ok: false; message: string } {
  let host = text.trim();
  let port = defaultPort;
  const bracket = /^\[([^\]]+)\](?::(\d+))?$/.exec(host);
  if (bracket) {
    host = bracket[1]!;
    if (bracket[2] !== undefined) port = Number(bracket[2]);
  } else if (isIP(host) !== 6) {
    const colon = host.lastIndexOf(":");
    if (colon !== -1) {
      const portText = host.slice(colon + 1);
      if (!/^\d{1,5}$/.test(portText))
        return { ok: false, message: `--connect: "${portText}" is not a port number` };
      port = Number(portText);
      host = host.slice(0, colon);
    }
  }
  if (host === "") return { ok: false, message: "--connect needs a host name or address" };
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    return { ok: false, message: "--connect: the port must be from 1 to 65535" };
  }
  const sni = servername?.trim() || (isIP(host) === 0 ? host : null);
  return { ok: true, target: { host, port, servername: sni } };
}

/** `HOST:PORT` as the failure lines name it (`[v6]:PORT`). */
export function describeTarget(target: Target): string {
  return `${isIP(target.host) === 6 ? `[${target.host}]` : target.host}:${target.port}`;
}

/**
 * Connects (upgrading with STARTTLS when asked) and returns the server's certificate list as
 * sent; never throws. A failure's message names the observed cause, and with `--starttls` on an
 * implicit-TLS port (RFC 8314) says to drop it.
 */
export async function fetchServerCertificates(
  target: Target,
  options: ConnectOptions = {},
): Promise<FetchResult> {
  const startedAt = Date.now();
  const deadline = options.deadline ?? startedAt + CONNECT_TIMEOUT_MS;
  const limits = {
    maxCertificates: options.maxCertificates ?? LOCAL_CERTIFICATE_LIMITS.maxBlocks,
    maxPemLength: options.maxPemLength ?? LOCAL_CERTIFICATE_LIMITS.maxPemLength,
  };
  const read = { target, startTls: options.startTls ?? null, deadline, startedAt, limits };
  let result: FetchResult;
  const first = await readTls12Certificates(read);
  if (first.ok) result = first;
  else if (!first.tls12Refused) result = { ok: false, message: first.message };
  else {
    const viaOpenssl = await readWithOpensslClient(read);
    if (!("opensslFailed" in viaOpenssl)) result = viaOpenssl;
    else if (viaOpenssl.opensslFailed === null) {
      result = {
        ok: false,
        message: `${first.message}; it seems to need TLS 1.3, which encrypts its certificates, and openssl (used to read them then) is not installed`,
      };
    } else
      result = {
        ok: false,
        message: `${first.message}; trying TLS 1.3, openssl s_client ${viaOpenssl.opensslFailed}`,
      };
  }
  if (!result.ok && read.startTls !== null && IMPLICIT_TLS_PORTS.includes(target.port)) {
    return { ok: false, message: `${result.message}; port ${target.port} is implicit TLS: drop --starttls` };
  }
  return result;
}

interface Read {
  target: Target;
  startTls: StartTls | null;
  deadline: number;
  startedAt: number;
  limits: { maxCertificates: number; maxPemLength: number };
}

type RecordLayerResult =
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

const NOT_TLS = "the server did not answer with TLS";
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

const tooMany = (count: number, max: number) =>
  `the server sent ${count} certificates, more than the ${max} nettools reads`;

/** The list as PEM is larger than the local limit: the failure, or null. */
function tooLarge(ders: Uint8Array[], maxPemLength: number): string | null {
  const length = ders.reduce((sum, der) => sum + pemBlock(der).length, 0);
  if (length <= maxPemLength) return null;
  return `the server sent ${Math.ceil(length / 1024)} KiB of certificates (as PEM), more than the ${maxPemLength >> 10} KiB nettools reads`;
}

/**
 * The message for an answer that is not TLS: the server's words quoted (its first line when it is
 * plain text), and without `--starttls` a hint naming it, with the protocol its greeting suggests.
 */
function notTlsMessage(first: Uint8Array, startTls: StartTls | null): string {
  const plainText = startsAsPlainText(first);
  const said = quote(quotable(first));
  if (startTls !== null) return `${NOT_TLS} after STARTTLS: ${said}`;
  if (!plainText) return `${NOT_TLS}: ${said}`;
  const guesses = guessProtocol(Buffer.from(firstLine(first)).toString("latin1"));
  const hint =
    guesses.length === 0
      ? "--starttls PROTO upgrades a plain-text protocol"
      : `try ${guesses.map((protocol) => `--starttls ${protocol}`).join(" or ")}`;
  return `${NOT_TLS}: ${said} (plain text: ${hint})`;
}

/** The STARTTLS upgrade (when asked), a TLS 1.2 ClientHello, and the server's records until its certificates. */
async function readTls12Certificates(read: Read): Promise<RecordLayerResult> {
  const { target, startTls } = read;
  let connection: PlainConnection;
  try {
    connection = await PlainConnection.open(target.host, target.port, read.deadline, read.startedAt);
  } catch (error) {
    if (error instanceof ConnectionFailure) return { ok: false, message: error.message, tls12Refused: false };
    throw error;
  }
  const reader = new HandshakeReader(read.limits.maxCertificates);
  try {
    if (startTls !== null) await upgrade(connection, startTls);
    connection.write(clientHello(target.servername));
    for (;;) {
      const result = reader.push(await connection.next("its certificates"));
      if (result === null) continue;
      if (!result.ok && result.message === NOT_TLS)
        return { ...result, message: notTlsMessage(reader.firstBytes, startTls) };
      if (result.ok) {
        const large = tooLarge(result.value.ders, read.limits.maxPemLength);
        if (large !== null) return { ok: false, message: large, tls12Refused: false };
      }
      return result;
    }
  } catch (error) {
    const failed = (message: string): RecordLayerResult => ({ ok: false, message, tls12Refused: false });
    if (error instanceof UpgradeRefused) return failed(`the server refused STARTTLS: ${quote(error.said)}`);
    if (error instanceof NotTheProtocol)
      return failed(`the server did not speak ${startTls?.protocol}: ${quote(quotable(error.said))}`);
    if (error instanceof ConnectionFailure) {
      // A few plain-text bytes and then a close: not TLS, and the words say what it is.
      if (error.kind === "ended" && reader.notTls())
        return failed(notTlsMessage(reader.firstBytes, startTls));
      return failed(error.message);
    }
    throw error;
  } finally {
    connection.close();
  }
}

/** Most bytes of `openssl s_client` output read (its PEM of the largest list, and its notes). */
const MAX_OPENSSL_OUTPUT = 64 * 1024 * 1024;

/**
 * `openssl s_client -showcerts` (with `-starttls` when asked), when installed: its "Certificate
 * chain" lists the peer's certificates as sent. Resolves with the list, a failure of the list
 * itself (too many certificates), or what went wrong with openssl (`opensslFailed`, null when
 * openssl is not installed). Spawned with node:child_process, so it runs under
 * Bun and under plain Node alike; killed at the deadline.
 */
function readWithOpensslClient(
  read: Read,
): Promise<FetchResult | { ok: false; opensslFailed: string | null }> {
  const { target, startTls } = read;
  const args = ["s_client", "-connect", describeTarget(target), "-showcerts"];
  if (target.servername !== null) args.push("-servername", target.servername);
  else args.push("-noservername");
  if (startTls !== null) {
    args.push("-starttls", startTls.protocol);
    const named = ["smtp", "lmtp", "xmpp", "xmpp-server"].includes(startTls.protocol);
    if (named) args.push("-name", startTls.identity);
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let timedOut = false;
    let failed: string | null = null;
    const child = spawn("openssl", args, { stdio: ["ignore", "pipe", "ignore"] });
    const timer = setTimeout(
      () => {
        timedOut = true;
        child.kill();
      },
      Math.max(0, read.deadline - Date.now()),
    );
    let handshakeRead = false;
    child.stdout.on("data", (chunk: Buffer) => {
      if (handshakeRead) return;
      size += chunk.length;
      if (size > MAX_OPENSSL_OUTPUT) {
        failed = `printed more than ${MAX_OPENSSL_OUTPUT >> 20} MiB`;
        child.kill();
        return;
      }
      chunks.push(chunk);
      // The list is complete once its section ends: what the server sends after its handshake
      // (application data, which s_client prints too) is never read.
      if (handshakeSection(Buffer.concat(chunks).toString("latin1")) !== null) {
        handshakeRead = true;
        child.kill();
      }
    });
    child.on("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ ok: false, opensslFailed: error.code === "ENOENT" ? null : `could not run (${error.code})` });
    });
    child.on("close", () => {
      clearTimeout(timer);
      if (timedOut && !handshakeRead)
        return resolve({
          ok: false,
          message: `timed out after ${seconds(read.deadline - read.startedAt)} s`,
        });
      if (failed !== null) return resolve({ ok: false, opensslFailed: failed });
      resolve(certificatesFromOpenssl(Buffer.concat(chunks).toString("latin1"), read.limits));
    });
  });
}

/**
 * The "Certificate chain" section of `s_client -showcerts`'s output: from that line to the `---`
 * line that ends it, which openssl prints once the server's Certificate message is read; null
 * until it is complete. Anything after it (the session, and what the server sent after its
 * handshake, printed as it came) is never taken for a certificate.
 */
export function handshakeSection(output: string): string | null {
  const start = /^Certificate chain\r?$/m.exec(output);
  if (start === null) return null;
  const from = start.index + start[0].length;
  const end = /^---\r?$/m.exec(output.slice(from));
  return end === null ? null : output.slice(from, from + end.index);
}

/** The PEM blocks of `s_client -showcerts`'s certificate chain, in the order printed (the order received). */
function certificatesFromOpenssl(
  output: string,
  limits: Read["limits"],
): FetchResult | { ok: false; opensslFailed: string } {
  const section = handshakeSection(output);
  if (section === null) return { ok: false, opensslFailed: "read no certificate" };
  const blocks = [...section.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)];
  if (blocks.length === 0) return { ok: false, opensslFailed: "read no certificate" };
  if (blocks.length > limits.maxCertificates)
    return { ok: false, message: tooMany(blocks.length, limits.maxCertificates) };
  const ders = blocks.map((block) => new Uint8Array(Buffer.from(block[1]!.replace(/\s+/g, ""), "base64")));
  const large = tooLarge(ders, limits.maxPemLength);
  if (large !== null) return { ok: false, message: large };
  return { ok: true, value: { ders, via: "openssl-s_client" } };
}
