/**
 * STARTTLS for `--connect` (CONTRACT §8.3): the plain-text part of ten protocols, client side,
 * before the TLS read of tls-certificates.ts (the protocol table is src/local/starttls-protocols.ts). Names and dialogues follow `openssl s_client
 * -starttls` (OpenSSL 3), so its fallback for TLS 1.3 servers repeats the same upgrade:
 *
 * - smtp, lmtp (RFC 3207, RFC 2033): the 220 greeting, `EHLO name` / `LHLO name`, `STARTTLS`, 220;
 * - pop3 (RFC 2595 §4): `+OK`, `STLS`, `+OK`;
 * - imap (RFC 3501 §6.2.1): `* OK`, `. CAPABILITY`, `. STARTTLS`, `. OK`;
 * - ftp (RFC 4217 §4): 220, `AUTH TLS`, 234;
 * - postgres (PostgreSQL protocol, SSLRequest): the 8-byte request, `S`;
 * - mysql (protocol 10 handshake): CLIENT_SSL (0x0800) announced, the 32-byte SSLRequest;
 * - ldap (RFC 4511 §4.14): ExtendedRequest 1.3.6.1.4.1.1466.20037, resultCode 0;
 * - xmpp, xmpp-server (RFC 6120 §5.4): a stream header with `to`, `<starttls/>` in the features,
 *   `<proceed/>`.
 *
 * A server that answers in its protocol but will not upgrade throws {@link UpgradeRefused}; one
 * that answers something else (garbage, HTTP, a TLS record on a plain port) throws
 * {@link NotTheProtocol}. Both carry what the server said, which {@link quote} makes safe to print.
 * Closes, resets and the deadline are the connection's own {@link ConnectionFailure}.
 */
import type { StartTls, StartTlsProtocol } from "../../local/starttls-protocols.ts";
import { quoteBytes } from "../../local/terminal-text.ts";
import { ConnectionFailure, type PlainConnection } from "./plain-connection.ts";

/** Ports where TLS starts at once, with no STARTTLS (RFC 8314 §7 and the registry's *s ports). */
export const IMPLICIT_TLS_PORTS: readonly number[] = [465, 993, 995, 636, 990, 5223];

/** The server speaks the protocol but would not upgrade; `said` is the part of its answer to quote. */
export class UpgradeRefused extends Error {
  constructor(readonly said: Uint8Array) {
    super("the server refused STARTTLS");
  }
}

/** The server's answer is not the protocol; `said` is the part of it to quote. */
export class NotTheProtocol extends Error {
  constructor(readonly said: Uint8Array) {
    super("the server did not speak the protocol");
  }
}

/** The longest quote of a server's words, in characters after escaping. */
export const MAX_QUOTE_CHARACTERS = 80;

/**
 * What a server said, safe for a terminal: every byte outside printable ASCII (control characters,
 * DEL, non-ASCII) is written `\xHH` in lowercase hex, and the text is cut to
 * {@link MAX_QUOTE_CHARACTERS} characters after escaping (never inside an escape), in double quotes.
 */
export function quote(said: Uint8Array): string {
  return quoteBytes(said, MAX_QUOTE_CHARACTERS);
}

/** The bytes before the first CR or LF. */
export function firstLine(data: Uint8Array): Uint8Array {
  const end = data.findIndex((byte) => byte === 0x0a || byte === 0x0d);
  return end === -1 ? data : data.subarray(0, end);
}

/** True when an answer begins as plain text (a printable ASCII byte): a greeting, an HTTP status line. */
export function startsAsPlainText(said: Uint8Array): boolean {
  const first = said[0];
  return first !== undefined && first >= 0x20 && first < 0x7f;
}

/** What to quote of an answer: its first line when it begins as plain text, else its bytes. */
export function quotable(said: Uint8Array): Uint8Array {
  return startsAsPlainText(said) ? firstLine(said) : said;
}

/** Most bytes one reply (a multi-line greeting, XMPP features, a handshake packet) may take. */
const MAX_REPLY_BYTES = 64 * 1024;

/**
 * Reads one reply: bytes until `end(data)` gives the length of a complete one (the rest is put
 * back). `end` throws {@link NotTheProtocol} as soon as the bytes cannot be the protocol. A close
 * or reset in the middle of a reply means the bytes were not a reply; `said` picks what to quote.
 */
async function readReply(
  connection: PlainConnection,
  awaited: string,
  end: (data: Buffer) => number | null,
  said: (data: Buffer) => Uint8Array,
): Promise<Buffer> {
  let data: Buffer = Buffer.alloc(0);
  for (;;) {
    let chunk: Buffer;
    try {
      chunk = await connection.next(awaited);
    } catch (error) {
      if (error instanceof ConnectionFailure && error.kind === "ended" && data.length > 0)
        throw new NotTheProtocol(said(data));
      throw error;
    }
    data = data.length === 0 ? chunk : Buffer.concat([data, chunk]);
    const length = end(data);
    if (length !== null) {
      connection.unread(data.subarray(length));
      return data.subarray(0, length);
    }
    if (data.length > MAX_REPLY_BYTES) throw new NotTheProtocol(said(data));
  }
}

const text = (data: Uint8Array) => Buffer.from(data).toString("latin1");

/** The lines of `data` that are complete (LF-terminated), with where each ends. */
function* completeLines(data: Buffer): Generator<{ line: string; end: number }> {
  let at = 0;
  for (let lf = data.indexOf(0x0a, at); lf !== -1; lf = data.indexOf(0x0a, at)) {
    yield { line: text(data.subarray(at, lf)).replace(/\r$/, ""), end: lf + 1 };
    at = lf + 1;
  }
}

const REPLY_LINE = /^\d{3}(?:[ -]|$)/;

/**
 * One SMTP/LMTP reply (RFC 5321 §4.2.1): lines `NNN-…` then a last `NNN …`. Or one FTP reply
 * (RFC 959 §4.2): `NNN-` opens lines of any text closed by `NNN ` with the same code.
 */
function replyEnd(ftp: boolean) {
  return (data: Buffer): number | null => {
    let code: string | null = null;
    for (const { line, end } of completeLines(data)) {
      if (code === null) {
        if (!REPLY_LINE.test(line)) throw new NotTheProtocol(firstLine(data));
        code = line.slice(0, 3);
        if (line[3] !== "-") return end;
      } else if (ftp) {
        if (line.startsWith(`${code} `) || line === code) return end;
      } else {
        if (!REPLY_LINE.test(line)) throw new NotTheProtocol(firstLine(data));
        if (line[3] !== "-") return end;
      }
    }
    return null;
  };
}

async function lineReply(
  connection: PlainConnection,
  protocol: StartTlsProtocol,
  awaited: string,
): Promise<{ code: string; reply: Buffer }> {
  const reply = await readReply(connection, awaited, replyEnd(protocol === "ftp"), firstLine);
  return { code: text(reply.subarray(0, 3)), reply };
}

async function smtp(connection: PlainConnection, protocol: "smtp" | "lmtp", identity: string): Promise<void> {
  const greeting = await lineReply(connection, protocol, `the ${protocol} greeting`);
  if (greeting.code !== "220") throw new UpgradeRefused(firstLine(greeting.reply));
  connection.write(`${protocol === "lmtp" ? "LHLO" : "EHLO"} ${identity}\r\n`);
  await lineReply(connection, protocol, `the answer to ${protocol === "lmtp" ? "LHLO" : "EHLO"}`);
  connection.write("STARTTLS\r\n");
  const answer = await lineReply(connection, protocol, "the answer to STARTTLS");
  if (answer.code !== "220") throw new UpgradeRefused(firstLine(answer.reply));
}

async function ftp(connection: PlainConnection): Promise<void> {
  const greeting = await lineReply(connection, "ftp", "the ftp greeting");
  if (greeting.code !== "220") throw new UpgradeRefused(firstLine(greeting.reply));
  connection.write("AUTH TLS\r\n");
  const answer = await lineReply(connection, "ftp", "the answer to AUTH TLS");
  if (answer.code !== "234") throw new UpgradeRefused(firstLine(answer.reply));
}

/** One line; `accept` and `refuse` say which beginnings are which, anything else is not the protocol. */
async function statusLine(
  connection: PlainConnection,
  awaited: string,
  accept: RegExp,
  refuse: RegExp,
): Promise<void> {
  const line = await readReply(
    connection,
    awaited,
    (data) => {
      const lf = data.indexOf(0x0a);
      return lf === -1 ? null : lf + 1;
    },
    firstLine,
  );
  const said = firstLine(line);
  if (accept.test(text(said))) return;
  throw refuse.test(text(said)) ? new UpgradeRefused(said) : new NotTheProtocol(said);
}

async function pop3(connection: PlainConnection): Promise<void> {
  await statusLine(connection, "the pop3 greeting", /^\+OK/, /^-ERR/);
  connection.write("STLS\r\n");
  await statusLine(connection, "the answer to STLS", /^\+OK/, /^-ERR/);
}

/** Untagged `* …` lines up to the tagged `. …` one (the tag openssl uses); returns that line. */
async function imapTagged(connection: PlainConnection, awaited: string): Promise<Uint8Array> {
  const reply = await readReply(
    connection,
    awaited,
    (data) => {
      for (const { line, end } of completeLines(data)) {
        if (line.startsWith(". ")) return end;
        if (!line.startsWith("* ")) throw new NotTheProtocol(firstLine(data));
      }
      return null;
    },
    firstLine,
  );
  const lines = [...completeLines(reply)];
  return Buffer.from(lines[lines.length - 1]?.line ?? "", "latin1");
}

async function imap(connection: PlainConnection): Promise<void> {
  // A greeting of PREAUTH or BYE is IMAP that allows no STARTTLS (RFC 3501 §6.2.1).
  await statusLine(connection, "the imap greeting", /^\* OK\b/i, /^\* (?:PREAUTH|BYE)\b/i);
  connection.write(". CAPABILITY\r\n");
  await imapTagged(connection, "the answer to CAPABILITY");
  connection.write(". STARTTLS\r\n");
  const answer = await imapTagged(connection, "the answer to STARTTLS");
  if (/^\. OK\b/i.test(text(answer))) return;
  if (/^\. (?:NO|BAD)\b/i.test(text(answer))) throw new UpgradeRefused(answer);
  throw new NotTheProtocol(answer);
}

/** The PostgreSQL SSLRequest: length 8, code 80877103 (1234 << 16 | 5679). */
const POSTGRES_SSL_REQUEST = new Uint8Array([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f]);

async function postgres(connection: PlainConnection): Promise<void> {
  connection.write(POSTGRES_SSL_REQUEST);
  const answer = await connection.next("the answer to SSLRequest");
  const first = answer[0];
  if (first === 0x53) {
    connection.unread(answer.subarray(1));
    return;
  }
  if (first === 0x4e) throw new UpgradeRefused(answer.subarray(0, 1));
  if (first === 0x45) throw new UpgradeRefused(postgresErrorMessage(answer));
  throw new NotTheProtocol(answer);
}

/** The `M` (message) field of an ErrorResponse, or its bytes when it has none. */
function postgresErrorMessage(answer: Buffer): Uint8Array {
  let at = 5;
  while (at < answer.length && answer[at] !== 0) {
    const end = answer.indexOf(0, at + 1);
    if (end === -1) break;
    if (answer[at] === 0x4d) return answer.subarray(at + 1, end);
    at = end + 1;
  }
  return answer;
}

/** CLIENT_SSL in the capability flags of a MySQL handshake. */
const MYSQL_CLIENT_SSL = 0x0800;
/** The SSLRequest openssl sends: a 32-byte payload, sequence 1, capabilities with CLIENT_SSL, charset 33. */
const MYSQL_SSL_REQUEST = new Uint8Array([
  0x20,
  0x00,
  0x00,
  0x01,
  0x85,
  0xae,
  0x7f,
  0x00,
  0x00,
  0x00,
  0x00,
  0x01,
  0x21,
  ...new Array<number>(23).fill(0),
]);

async function mysql(connection: PlainConnection): Promise<void> {
  const packet = await readReply(
    connection,
    "the mysql handshake",
    (data) => {
      if (data.length < 4) return null;
      const length = data.readUIntLE(0, 3);
      if (data[3] !== 0 || length === 0 || length > MAX_REPLY_BYTES) throw new NotTheProtocol(data);
      return data.length >= 4 + length ? 4 + length : null;
    },
    (data) => data,
  );
  const payload = packet.subarray(4);
  if (payload[0] === 0xff) {
    // An ERR packet (a host the server will not talk to): code, then `#` and a SQLSTATE, then text.
    throw new UpgradeRefused(payload.subarray(payload[3] === 0x23 ? 9 : 3));
  }
  const versionEnd = payload.indexOf(0, 1);
  const capabilitiesAt = versionEnd + 1 + 4 + 8 + 1;
  if (payload[0] !== 10 || versionEnd === -1 || payload.length < capabilitiesAt + 2)
    throw new NotTheProtocol(packet);
  const version = payload.subarray(1, versionEnd);
  if ((payload.readUInt16LE(capabilitiesAt) & MYSQL_CLIENT_SSL) === 0) throw new UpgradeRefused(version);
  connection.write(MYSQL_SSL_REQUEST);
}

/** LDAPMessage { messageID 1, ExtendedRequest { requestName "1.3.6.1.4.1.1466.20037" } } (RFC 4511 §4.14.1). */
const LDAP_STARTTLS_REQUEST = new Uint8Array([
  0x30,
  0x1d,
  0x02,
  0x01,
  0x01,
  0x77,
  0x18,
  0x80,
  0x16,
  ...Buffer.from("1.3.6.1.4.1.1466.20037", "latin1"),
]);

/** A BER identifier and definite length at `at` (non-minimal lengths allowed, as Active Directory sends). */
function berHeader(data: Uint8Array, at: number): { tag: number; body: number; end: number } | null {
  if (at + 2 > data.length) return null;
  const tag = data[at]!;
  let length = data[at + 1]!;
  let body = at + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 4 || body + count > data.length) return null;
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + data[body + i]!;
    body += count;
  }
  return { tag, body, end: body + length };
}

const LDAP_RESULT_NAMES: Readonly<Record<number, string>> = {
  1: "operationsError",
  2: "protocolError",
  7: "authMethodNotSupported",
  12: "unavailableCriticalExtension",
  51: "busy",
  52: "unavailable",
  53: "unwillingToPerform",
  80: "other",
};

async function ldap(connection: PlainConnection): Promise<void> {
  connection.write(LDAP_STARTTLS_REQUEST);
  const message = await readReply(
    connection,
    "the answer to the StartTLS request",
    (data) => {
      const header = data[0] === 0x30 ? berHeader(data, 0) : null;
      if (data[0] !== 0x30 || (header === null && data.length >= 6)) throw new NotTheProtocol(data);
      if (header === null) return null;
      if (header.end - header.body > MAX_REPLY_BYTES) throw new NotTheProtocol(data);
      return data.length >= header.end ? header.end : null;
    },
    (data) => data,
  );
  // messageID, then the ExtendedResponse ([APPLICATION 24]) whose first fields are the
  // LDAPResult: resultCode (ENUMERATED), matchedDN and diagnosticMessage (OCTET STRINGs).
  const id = berHeader(message, berHeader(message, 0)!.body);
  const response = id?.tag === 0x02 ? berHeader(message, id.end) : null;
  const code = response?.tag === 0x78 ? berHeader(message, response.body) : null;
  const matched = code?.tag === 0x0a ? berHeader(message, code.end) : null;
  const diagnostic = matched?.tag === 0x04 ? berHeader(message, matched.end) : null;
  if (code === null || diagnostic?.tag !== 0x04 || diagnostic.end > message.length)
    throw new NotTheProtocol(message);
  const resultCode = message.subarray(code.body, code.end).reduce((value, byte) => value * 256 + byte, 0);
  if (resultCode === 0) return;
  const name = LDAP_RESULT_NAMES[resultCode];
  const words = `resultCode ${resultCode}${name === undefined ? "" : ` (${name})`}`;
  const said = message.subarray(diagnostic.body, diagnostic.end);
  throw new UpgradeRefused(
    Buffer.concat([Buffer.from(said.length > 0 ? `${words}: ` : words, "latin1"), said]),
  );
}

const XMPP_TLS_NAMESPACE = "urn:ietf:params:xml:ns:xmpp-tls";
const XMPP_STARTTLS_OFFERED = /<starttls\s+xmlns\s*=\s*(['"])urn:ietf:params:xml:ns:xmpp-tls\1/;

/** The first complete element named `name` (`<name …/>` or `<name …>…</name>`), or null. */
function xmlElement(data: string, name: string): { start: number; end: number } | null {
  const start = data.search(new RegExp(`<${name}[\\s/>]`));
  if (start === -1) return null;
  const open = data.indexOf(">", start);
  if (open === -1) return null;
  if (data[open - 1] === "/") return { start, end: open + 1 };
  const close = data.indexOf(`</${name}>`, open);
  return close === -1 ? null : { start, end: close + name.length + 3 };
}

/** XMPP's answer so far: something other than XML from the start is not XMPP. */
function xmppEnd(names: string[]) {
  return (data: Buffer): number | null => {
    const received = text(data);
    const trimmed = received.trimStart();
    if (trimmed.length > 0 && !trimmed.startsWith("<")) throw new NotTheProtocol(firstLine(data));
    const ends = names.map((name) => xmlElement(received, name)?.end ?? -1).filter((end) => end !== -1);
    if (ends.length > 0) return Math.min(...ends);
    const closed = received.indexOf("</stream:stream>");
    return closed === -1 ? null : closed + "</stream:stream>".length;
  };
}

async function xmpp(connection: PlainConnection, server: boolean, to: string): Promise<void> {
  connection.write(
    `<?xml version='1.0'?><stream:stream xmlns:stream='http://etherx.jabber.org/streams' xmlns='jabber:${server ? "server" : "client"}' to='${to}' version='1.0'>`,
  );
  const said = (data: Buffer, names: string[]) => {
    for (const name of names) {
      const element = xmlElement(text(data), name);
      if (element !== null) return data.subarray(element.start, element.end);
    }
    return firstLine(data);
  };
  const features = await readReply(
    connection,
    "the xmpp stream features",
    xmppEnd(["stream:features", "stream:error"]),
    (data) => said(data, []),
  );
  if (!text(features).includes("<stream:stream")) throw new NotTheProtocol(said(features, []));
  const offered = xmlElement(text(features), "stream:features");
  if (offered === null) throw new UpgradeRefused(said(features, ["stream:error"]));
  if (!XMPP_STARTTLS_OFFERED.test(text(features).slice(offered.start, offered.end)))
    throw new UpgradeRefused(features.subarray(offered.start, offered.end));
  connection.write(`<starttls xmlns='${XMPP_TLS_NAMESPACE}'/>`);
  const answer = await readReply(
    connection,
    "the answer to <starttls/>",
    xmppEnd(["proceed", "failure", "stream:error"]),
    (data) => said(data, []),
  );
  if (xmlElement(text(answer), "proceed") !== null) return;
  const refusal = said(answer, ["failure", "stream:error"]);
  const refused = xmlElement(text(answer), "failure") ?? xmlElement(text(answer), "stream:error");
  throw refused === null ? new NotTheProtocol(refusal) : new UpgradeRefused(refusal);
}

/**
 * Runs the protocol's upgrade on `connection`; resolves when the server is ready for the TLS
 * ClientHello. Throws {@link UpgradeRefused}, {@link NotTheProtocol} or a {@link ConnectionFailure}.
 */
export function upgrade(connection: PlainConnection, startTls: StartTls): Promise<void> {
  switch (startTls.protocol) {
    case "smtp":
    case "lmtp":
      return smtp(connection, startTls.protocol, startTls.identity);
    case "pop3":
      return pop3(connection);
    case "imap":
      return imap(connection);
    case "ftp":
      return ftp(connection);
    case "postgres":
      return postgres(connection);
    case "mysql":
      return mysql(connection);
    case "ldap":
      return ldap(connection);
    case "xmpp":
    case "xmpp-server":
      return xmpp(connection, startTls.protocol === "xmpp-server", startTls.identity);
  }
}

/**
 * Which `--starttls PROTO` a plain-text greeting suggests: 220 smtp or ftp (one of them when the
 * greeting names it), `+OK` pop3, `* OK` imap; none for anything else.
 */
export function guessProtocol(greeting: string): StartTlsProtocol[] {
  if (/^220(?:[ -]|$)/.test(greeting)) {
    if (/smtp/i.test(greeting)) return ["smtp"];
    return /ftp/i.test(greeting) ? ["ftp"] : ["smtp", "ftp"];
  }
  if (greeting.startsWith("+OK")) return ["pop3"];
  if (/^\* OK\b/i.test(greeting)) return ["imap"];
  return [];
}
