/**
 * What a TLS server sends, in wire order (CONTRACT §7.3): the CLI's `--connect`.
 *
 * Node's and Bun's `getPeerCertificate(true)` rebuild the chain by issuer and drop certificates
 * that do not link, which would hide the very order problems `chain` reports. So the list is read
 * from the handshake itself: a TLS 1.2 ClientHello is sent and the server's Certificate message,
 * which TLS 1.2 sends in the clear, is read at the record layer, then the connection is closed.
 * Nothing is verified, so the handshake never depends on trust (ADR 0023). A server that refuses
 * TLS 1.2 (TLS 1.3 encrypts the Certificate message) is read with `openssl s_client -showcerts`
 * when openssl is installed, which prints the peer's list as sent; otherwise the failure says so.
 */
import { randomBytes } from "node:crypto";
import { connect, isIP, type Socket } from "node:net";

/** Default port of `--connect HOST`. */
export const DEFAULT_TLS_PORT = 443;
/** How long a connection attempt, and the whole read, may take. */
export const CONNECT_TIMEOUT_MS = 10_000;
/** Most bytes read from a server before giving up (a Certificate message is at most a few dozen KiB). */
const MAX_HANDSHAKE_BYTES = 1 << 20;

export interface ServerCertificates {
  /** The certificates as sent, DER, in wire order (extra, repeated and unrelated ones kept). */
  ders: Uint8Array[];
  /** How the list was read: `tls1.2-record-layer` or `openssl-s_client`. */
  via: "tls1.2-record-layer" | "openssl-s_client";
}

export type FetchResult = { ok: true; value: ServerCertificates } | { ok: false; message: string };

export interface Target {
  host: string;
  port: number;
  /** The SNI name to send, or null for none (an IP literal host without `--servername`). */
  servername: string | null;
}

/**
 * Parses `HOST[:PORT]` (`[v6]:PORT` for IPv6 with a port). SNI defaults to HOST unless HOST is an
 * IP literal; `servername` overrides it.
 */
export function parseTarget(
  text: string,
  servername: string | undefined,
): { ok: true; target: Target } | { ok: false; message: string } {
  let host = text.trim();
  let port = DEFAULT_TLS_PORT;
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

/** Connects and returns the server's certificate list as sent; never throws. */
export async function fetchServerCertificates(
  target: Target,
  timeoutMs: number = CONNECT_TIMEOUT_MS,
): Promise<FetchResult> {
  const first = await readTls12Certificates(target, timeoutMs);
  if (first.ok || !first.tryOpenssl) return first.ok ? first : { ok: false, message: first.message };
  const viaOpenssl = await readWithOpensslClient(target, timeoutMs);
  if (viaOpenssl !== null) return viaOpenssl;
  return {
    ok: false,
    message: `${first.message}; the server seems to need TLS 1.3, which encrypts its certificates, and openssl (used to read them then) is not installed`,
  };
}

type RecordLayerResult =
  | { ok: true; value: ServerCertificates }
  | { ok: false; message: string; tryOpenssl: boolean };

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

/**
 * Reads handshake records until the Certificate message (type 11) is complete, from bytes as they
 * arrive. Returns the certificates, a failure, or null when more bytes are needed.
 */
export class HandshakeReader {
  private records = Buffer.alloc(0);
  private handshake = Buffer.alloc(0);
  private sawServerHello = false;

  push(chunk: Uint8Array): RecordLayerResult | null {
    this.records = Buffer.concat([this.records, chunk]);
    while (this.records.length >= 5) {
      const type = this.records[0]!;
      const major = this.records[1]!;
      const length = this.records.readUInt16BE(3);
      if ((type !== 0x15 && type !== 0x16 && type !== 0x14) || major !== 3 || length > 18432) {
        return { ok: false, message: "the server did not answer with TLS", tryOpenssl: false };
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
          tryOpenssl: code === 70 || code === 40 || code === 47 || code === 71,
        };
      }
      if (type !== 0x16) continue;
      this.handshake = Buffer.concat([this.handshake, fragment]);
      const done = this.readMessages();
      if (done !== null) return done;
    }
    return null;
  }

  private readMessages(): RecordLayerResult | null {
    while (this.handshake.length >= 4) {
      const type = this.handshake[0]!;
      const length = this.handshake.readUIntBE(1, 3);
      if (this.handshake.length < 4 + length) return null;
      const body = this.handshake.subarray(4, 4 + length);
      this.handshake = this.handshake.subarray(4 + length);
      if (type === 2) {
        this.sawServerHello = true;
        continue;
      }
      if (type === 11 && this.sawServerHello) return parseCertificateMessage(body);
      return {
        ok: false,
        message: "the server sent no certificate (an anonymous or PSK-only TLS server)",
        tryOpenssl: false,
      };
    }
    return null;
  }
}

/** TLS 1.2 Certificate message body: a 24-bit total length, then 24-bit length + DER per certificate. */
export function parseCertificateMessage(body: Uint8Array): RecordLayerResult {
  const bad: RecordLayerResult = {
    ok: false,
    message: "the server sent a malformed Certificate message",
    tryOpenssl: false,
  };
  if (body.length < 3) return bad;
  const total = (body[0]! << 16) | (body[1]! << 8) | body[2]!;
  if (total !== body.length - 3) return bad;
  const ders: Uint8Array[] = [];
  let at = 3;
  while (at < body.length) {
    if (at + 3 > body.length) return bad;
    const length = (body[at]! << 16) | (body[at + 1]! << 8) | body[at + 2]!;
    at += 3;
    if (length === 0 || at + length > body.length) return bad;
    ders.push(body.slice(at, at + length));
    at += length;
  }
  if (ders.length === 0)
    return { ok: false, message: "the server sent an empty certificate list", tryOpenssl: false };
  return { ok: true, value: { ders, via: "tls1.2-record-layer" } };
}

function readTls12Certificates(target: Target, timeoutMs: number): Promise<RecordLayerResult> {
  return new Promise((resolve) => {
    let settled = false;
    let received = 0;
    const reader = new HandshakeReader();
    const socket: Socket = connect({ host: target.host, port: target.port });
    const finish = (result: RecordLayerResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(
      () =>
        finish({
          ok: false,
          message: `no TLS answer within ${Math.round(timeoutMs / 1000)} s`,
          tryOpenssl: false,
        }),
      timeoutMs,
    );
    socket.on("connect", () => socket.write(clientHello(target.servername)));
    socket.on("data", (chunk: Buffer) => {
      received += chunk.length;
      if (received > MAX_HANDSHAKE_BYTES) {
        finish({
          ok: false,
          message: "the server sent more than 1 MiB before its certificates",
          tryOpenssl: false,
        });
        return;
      }
      const result = reader.push(chunk);
      if (result !== null) finish(result);
    });
    socket.on("error", (error: NodeJS.ErrnoException) =>
      finish({ ok: false, message: describeError(error), tryOpenssl: false }),
    );
    socket.on("close", () =>
      finish({
        ok: false,
        message: "the server closed the connection before sending its certificates",
        tryOpenssl: true,
      }),
    );
  });
}

function describeError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "the host name does not resolve";
    case "ETIMEDOUT":
      return "the connection timed out";
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "the host is unreachable";
    case "ECONNRESET":
      return "the server reset the connection";
    default:
      return `the connection failed (${error.code ?? "unknown error"})`;
  }
}

/** `openssl s_client -showcerts`, when installed: its "Certificate chain" lists the peer's certificates as sent. */
async function readWithOpensslClient(target: Target, timeoutMs: number): Promise<FetchResult | null> {
  const openssl = Bun.which("openssl");
  if (openssl === null) return null;
  const host = isIP(target.host) === 6 ? `[${target.host}]` : target.host;
  const args = [openssl, "s_client", "-connect", `${host}:${target.port}`, "-showcerts"];
  if (target.servername !== null) args.push("-servername", target.servername);
  else args.push("-noservername");
  const child = Bun.spawn(args, { stdin: "ignore", stdout: "pipe", stderr: "ignore" });
  const timer = setTimeout(() => child.kill(), timeoutMs);
  const output = await new Response(child.stdout).text();
  await child.exited;
  clearTimeout(timer);
  const ders: Uint8Array[] = [];
  const re = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g;
  for (let m = re.exec(output); m !== null; m = re.exec(output)) {
    ders.push(new Uint8Array(Buffer.from(m[1]!.replace(/\s+/g, ""), "base64")));
  }
  if (ders.length === 0)
    return { ok: false, message: "openssl s_client read no certificate from the server" };
  return { ok: true, value: { ders, via: "openssl-s_client" } };
}
