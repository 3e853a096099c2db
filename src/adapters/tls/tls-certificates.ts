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

import { LOCAL_CERTIFICATE_LIMITS } from "../../domain/limits.ts";
import type {
  ConnectOptions,
  FetchResult,
  ServerCertificateSource,
  ServerTarget,
} from "../../local/ports.ts";
import type { StartTls } from "../../local/starttls-protocols.ts";
import { readWithOpensslClient } from "./openssl-fallback.ts";
import { ConnectionFailure, PlainConnection } from "./plain-connection.ts";
import { clientHello, HandshakeReader, NOT_TLS, type RecordLayerResult, tooLarge } from "./record-reader.ts";
import {
  firstLine,
  guessProtocol,
  IMPLICIT_TLS_PORTS,
  NotTheProtocol,
  quotable,
  quote,
  startsAsPlainText,
  UpgradeRefused,
  upgrade,
} from "./starttls.ts";
import { describeTarget, parseTarget, type Read } from "./target.ts";

/** How long the whole read may take when the caller gives no deadline. */
export const CONNECT_TIMEOUT_MS = 10_000;

/**
 * Connects (upgrading with STARTTLS when asked) and returns the server's certificate list as
 * sent; never throws. A failure's message names the observed cause, and with `--starttls` on an
 * implicit-TLS port (RFC 8314) says to drop it.
 */
export async function fetchServerCertificates(
  target: ServerTarget,
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

/** The outbound TLS adapter of the ServerCertificateSource port (src/local/ports.ts). */
export const TLS_SERVER_CERTIFICATES: ServerCertificateSource = {
  parseTarget,
  describeTarget,
  fetchCertificates: fetchServerCertificates,
};
