/**
 * The openssl fallback (ADR 0023): a server that refuses TLS 1.2 (TLS 1.3 encrypts the Certificate
 * message) is read with `openssl s_client -showcerts` (and `-starttls`) when openssl is installed,
 * which prints the peer's list as sent.
 */
import { spawn } from "node:child_process";
import type { FetchResult } from "../../local/ports.ts";
import { seconds } from "./plain-connection.ts";
import { tooLarge, tooMany } from "./record-reader.ts";
import { describeTarget, type Read } from "./target.ts";

/** Most bytes of `openssl s_client` output read (its PEM of the largest list, and its notes). */
const MAX_OPENSSL_OUTPUT = 64 * 1024 * 1024;

/**
 * `openssl s_client -showcerts` (with `-starttls` when asked), when installed: its "Certificate
 * chain" lists the peer's certificates as sent. Resolves with the list, a failure of the list
 * itself (too many certificates), or what went wrong with openssl (`opensslFailed`, null when
 * openssl is not installed). Spawned with node:child_process, so it runs under
 * Bun and under plain Node alike; killed at the deadline.
 */
export function readWithOpensslClient(
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
