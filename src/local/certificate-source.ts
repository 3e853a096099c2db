/**
 * Where the certificates of `cert` and `chain` come from, read on the user's machine (CONTRACT
 * §7.2, §7.3, §8.3, §10.3): FILE arguments as one bundle in order (PEM, DER, PKCS#7, PKCS#12,
 * leaf+key; stdin for "-", read by content); a live server's list through the
 * ServerCertificateSource port (`--connect`, with STARTTLS and `--save`); and the caller's own roots
 * from `--roots FILE|DIR` or NETTOOLS_ROOTS. Nothing here prints: the command says what these
 * return (src/cli/certificate-source.ts, connect-source.ts), and no message holds key text or
 * binary bytes.
 */
import { pemBlock } from "../domain/certificates/chain.ts";
import { addressFormProblem } from "../domain/certificates/hostname.ts";
import { readTrustStoreText, skippedNotice } from "../domain/certificates/trust-store-file.ts";
import { BinaryInputError, CertificateBundleText } from "./certificate-files.ts";
import { INPUT_LIMITS, InputTooLarge } from "./input-limits.ts";
import type { LocalInputs, Notify } from "./local-inputs.ts";
import { looksLikePkcs12, readPkcs12Input } from "./pkcs12-input.ts";
import type { ServerTarget } from "./ports.ts";
import {
  parseStartTlsProtocol,
  STARTTLS_DEFAULT_PORTS,
  type StartTls,
  type StartTlsProtocol,
} from "./starttls-protocols.ts";
import { quoteBytes } from "./terminal-text.ts";
import { UsageError } from "./usage-error.ts";

/** A bundle read, or the one line (INVALID_INPUT) saying why it cannot be. */
export type BundleRead = { ok: true; text: CertificateBundleText } | { ok: false; message: string };

/**
 * The FILE arguments (or `-`) as one bundle, in the order given; a PKCS#12 file adds its
 * certificates (its keys unread), opened with `passin`. The bundle's notices (a key set aside)
 * are in `text.notices`. An unreadable file is a UsageError.
 */
export async function readCertificateFiles(
  io: LocalInputs,
  names: readonly string[],
  passin: string | undefined,
): Promise<BundleRead> {
  const text = new CertificateBundleText();
  for (const name of names) {
    const source = name === "-" ? "stdin" : name;
    const bytes = name === "-" ? await stdinBytes(io) : await fileBytes(io, name, "");
    if (looksLikePkcs12(bytes)) {
      // CONTRACT §10.3: its certificates, in file order, as one more file of the bundle; keys unread.
      const read = await readPkcs12Input(bytes, source, passin, false, io);
      if (!read.ok) return read;
      text.addText(read.certificatesPem, `${source} (PKCS#12)`);
      continue;
    }
    try {
      text.addFile(bytes, source);
    } catch (error) {
      if (!(error instanceof BinaryInputError)) throw error;
      return { ok: false, message: error.message };
    }
  }
  return { ok: true, text };
}

/** stdin's bytes, as they came (DER is not text): the byte-level reader when there is one. */
async function stdinBytes(io: LocalInputs): Promise<Uint8Array> {
  if (io.bytes !== undefined) return io.bytes.readStdin(INPUT_LIMITS.certificates);
  return new TextEncoder().encode(await io.readStdin(INPUT_LIMITS.certificates));
}

/** A file's bytes; an unreadable file is a UsageError naming it (after `origin`, e.g. `--roots: `). */
async function fileBytes(io: LocalInputs, name: string, origin: string): Promise<Uint8Array> {
  try {
    return await io.ports.files.read(name, INPUT_LIMITS.certificates);
  } catch (error) {
    if (error instanceof InputTooLarge) throw error;
    throw new UsageError(
      `${origin}cannot read ${name}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** The caller's roots as read: their PEM, the files behind it, and whether they came from NETTOOLS_ROOTS. */
export interface SuppliedRoots {
  pem: string;
  text: CertificateBundleText;
  fromEnvironment: boolean;
}

/**
 * The caller's roots: `option` (`--roots FILE|DIR`), else NETTOOLS_ROOTS; undefined for none.
 * `unusable` says why this run cannot use roots at all (`cert --server`). A flag that cannot be
 * used or read is an error (a UsageError, or binary input as `{ invalid }`); the environment
 * default is then skipped with one notice (CONTRACT §7.6).
 */
export async function readRoots(
  io: LocalInputs,
  option: string | undefined,
  notify: Notify,
  unusable?: string,
): Promise<SuppliedRoots | undefined | { invalid: string }> {
  const fromEnvironment = option === undefined;
  const spec = option ?? io.env.NETTOOLS_ROOTS;
  if (spec === undefined || spec === "") return undefined;
  const skip = (why: string) => {
    notify(`NETTOOLS_ROOTS is not used: ${why}`);
    return undefined;
  };
  if (unusable !== undefined) {
    if (fromEnvironment) return skip(unusable);
    throw new UsageError(`--roots cannot be used here: ${unusable}`);
  }
  try {
    const text = await readRootFiles(io, spec, fromEnvironment ? "NETTOOLS_ROOTS: " : "--roots: ");
    const notice = skippedNotice(readTrustStoreText(text.pem).skippedLabels);
    if (notice !== null) notify(`${fromEnvironment ? "NETTOOLS_ROOTS" : "--roots"}: ${notice}`);
    return { pem: text.pem, text, fromEnvironment };
  } catch (error) {
    if (
      fromEnvironment &&
      (error instanceof UsageError || error instanceof BinaryInputError || error instanceof InputTooLarge)
    ) {
      return skip(error.message.replace(/^NETTOOLS_ROOTS: /, ""));
    }
    if (error instanceof BinaryInputError) return { invalid: `--roots: ${error.message}` };
    throw error;
  }
}

/**
 * One line for a roots text the operation refused: the first problem at its file and line, and
 * how many more there were.
 */
export function rootsProblem(
  error: { message: string; issues?: readonly { message: string; location?: { line: number } }[] },
  text: CertificateBundleText,
): string {
  const first = error.issues?.[0];
  if (first === undefined) return error.message;
  const place = first.location === undefined ? null : text.place(first.location.line);
  const more = (error.issues?.length ?? 1) - 1;
  return `${place === null ? "" : `${place}: `}${first.message}${more > 0 ? ` (and ${more} more problems)` : ""}`;
}

/** The files of `--roots FILE|DIR` as one text (a DIR's *.pem, *.crt and *.cer, by name). */
async function readRootFiles(io: LocalInputs, spec: string, origin: string): Promise<CertificateBundleText> {
  let files: string[];
  try {
    const entries = await io.ports.files.directoryEntries(spec);
    files = entries !== null ? entries.filter((file) => /\.(pem|crt|cer)$/i.test(file)).sort() : [spec];
  } catch (error) {
    throw new UsageError(
      `${origin}cannot read ${spec}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const text = new CertificateBundleText();
  for (const file of files) text.addFile(await fileBytes(io, file, origin), file);
  if (text.pem.trim() === "") throw new UsageError(`${origin}${spec} holds no certificate`);
  return text;
}

/** `--connect` and the options that go with it, as given. */
export interface ConnectValues {
  connect?: string | undefined;
  servername?: string | undefined;
  save?: string | undefined;
  starttls?: string | undefined;
  "start-tls"?: string | undefined;
  identity?: string | undefined;
}

/**
 * A server's list read: its PEM, the hostname to check by default (`--servername`, else HOST) and
 * the line saying how many came and how; or the line of a failed read (`HOST:PORT: cause`), or
 * of a `--save` FILE that cannot be written.
 */
export type ServerRead =
  | { ok: true; pem: string; defaultHostname: string; line: string }
  | { ok: false; failure: string }
  | { ok: false; unwritable: string };

/** The longest quote of a user's word in a usage error, in characters after escaping (as a server's). */
const MAX_QUOTE_CHARACTERS = 80;
const quote = (said: string) => quoteBytes(new TextEncoder().encode(said), MAX_QUOTE_CHARACTERS);

const PROTOCOLS = Object.keys(STARTTLS_DEFAULT_PORTS).join(", ");

/** A name that is safe in an SMTP command and an XML attribute: printable ASCII, no space or quote. */
const SAFE_NAME = /^[!#-%(-;=?-~]+$/;

function startTlsFrom(values: ConnectValues, host: string): StartTls | null {
  if (values.starttls !== undefined && values["start-tls"] !== undefined)
    throw new UsageError("give --starttls or --start-tls, not both");
  const name = values.starttls ?? values["start-tls"];
  if (name === undefined) {
    if (values.identity !== undefined) throw new UsageError("--identity goes with --starttls");
    return null;
  }
  const protocol = parseStartTlsProtocol(name);
  if (protocol === null) {
    throw new UsageError(`--starttls: ${quote(name)} is not one of ${PROTOCOLS} (or psql)`);
  }
  const identity = values.identity ?? defaultIdentity(protocol, values.servername?.trim() || host);
  if (!SAFE_NAME.test(identity)) {
    const origin = values.identity !== undefined ? "--identity" : "the XMPP name (--servername or HOST)";
    throw new UsageError(`${origin} must be a name without spaces, quotes or <>&, not ${quote(identity)}`);
  }
  return { protocol, identity };
}

function defaultIdentity(protocol: StartTlsProtocol, serverName: string): string {
  return protocol === "xmpp" || protocol === "xmpp-server" ? serverName : "localhost";
}

/**
 * Reads the certificates a server sends (`--connect`, with `--starttls` when given) through the
 * ServerCertificateSource port and writes `--save`. `deadline` (an absolute time on `Date.now()`'s
 * clock) ends the whole read; by default it is 10 s away. Options that do not fit are a UsageError.
 */
export async function readServerCertificates(
  io: LocalInputs,
  values: ConnectValues & { connect: string },
  deadline?: number,
): Promise<ServerRead> {
  const { parseTarget, describeTarget, fetchCertificates } = io.ports.serverCertificates;
  const parsedHost = parseTarget(values.connect, values.servername);
  if (!parsedHost.ok) throw new UsageError(parsedHost.message);
  const startTls = startTlsFrom(values, parsedHost.target.host);
  const parsed =
    startTls === null
      ? parsedHost
      : parseTarget(values.connect, values.servername, STARTTLS_DEFAULT_PORTS[startTls.protocol]);
  if (!parsed.ok) throw new UsageError(parsed.message);
  const target: ServerTarget = parsed.target;
  const fetched = await fetchCertificates(target, {
    ...(deadline === undefined ? {} : { deadline }),
    ...(startTls === null ? {} : { startTls }),
  });
  // The line CONTRACT §7.3 and §8.3 write: `HOST:PORT: what was observed` (no prefix).
  if (!fetched.ok) return { ok: false, failure: `${describeTarget(target)}: ${fetched.message}` };
  const pem = fetched.value.ders.map(pemBlock).join("");
  if (values.save !== undefined) {
    try {
      await io.ports.files.replace(values.save, pem);
    } catch (error) {
      return { ok: false, unwritable: `cannot write ${values.save}: ${(error as Error).message}` };
    }
  }
  const sent = fetched.value.ders.length;
  const how =
    fetched.value.via === "openssl-s_client"
      ? `with openssl s_client${startTls === null ? "" : ` -starttls ${startTls.protocol}`}`
      : `from its TLS 1.2 handshake${startTls === null ? "" : ` after STARTTLS (${startTls.protocol})`}`;
  return {
    ok: true,
    pem,
    defaultHostname: values.servername?.trim() || target.host,
    line: `${describeTarget(target)} sent ${sent === 1 ? "1 certificate" : `${sent} certificates`} (read ${how})`,
  };
}

/**
 * The hostname to check: the option, else the `--connect` default of `source`. With `bundleOnly`
 * (cert: the bundle operation takes DNS names only) an address is left out of the request: the CLI
 * checks it itself against the leaf's IP SANs (src/local/hostname-answer.ts).
 */
export function hostnameFor(
  given: string | undefined,
  source: { readonly defaultHostname: string | null },
  bundleOnly: boolean,
): { request?: string; address?: string } {
  const name = given ?? source.defaultHostname ?? undefined;
  if (name === undefined) return {};
  // `cert` checks an address given with -H against the leaf's IP SANs (CONTRACT §7.6); a
  // `--connect` HOST that is an address is no hostname to check (§7.3: skipped by `cert`).
  if (bundleOnly && looksLikeAddress(name)) return given === undefined ? {} : { address: name };
  return { request: name };
}

/**
 * Text the chain would read as an address, or as an address in a form it refuses (brackets, a
 * zone, a prefix length): `cert` answers these itself instead of sending them to the bundle
 * operation, which takes DNS names only.
 */
function looksLikeAddress(text: string): boolean {
  const trimmed = text.trim();
  // Every IPv4 address is digits and dots, every IPv6 address has two colons or more.
  return /^[0-9.]+$/.test(trimmed) || addressFormProblem(trimmed) !== null || trimmed.split(":").length > 2;
}
