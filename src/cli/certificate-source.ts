/**
 * Where the certificates of `cert` and `chain` come from: FILE arguments read as one bundle in
 * order (PEM, DER, PKCS#7, leaf+key; stdin for "-", read by content), or a live server with
 * `--connect` (CONTRACT §7.3, §8.3; connect-source.ts); and the caller's own roots from
 * `--roots FILE|DIR` or NETTOOLS_ROOTS (§7.2). Notices go to stderr, one line each, never key
 * text or binary bytes.
 */
import { isIP } from "node:net";
import { join } from "node:path";
import { addressFormProblem } from "../domain/certificates/hostname.ts";
import { readTrustStoreText, skippedNotice } from "../domain/certificates/trust-store-file.ts";
import { BinaryInputError, CertificateBundleText } from "../local/certificate-files.ts";
import { INPUT_LIMITS } from "../local/input-limits.ts";
import type { Run } from "./args.ts";
import {
  type CertificateSource,
  CONNECT_HELP,
  CONNECT_OPTIONS,
  type ConnectValues,
  readServerCertificates,
  refuseConnectOnlyOptions,
} from "./connect-source.ts";

export type { CertificateSource } from "./connect-source.ts";

import type { Deadline } from "../local/deadline.ts";
import { looksLikePkcs12, readPkcs12Input } from "../local/pkcs12-input.ts";
import { EXIT, InputTooLarge, UsageError } from "./io.ts";
import { REFERENCE_ROOTS_HELP, REFERENCE_ROOTS_OPTIONS } from "./reference-roots.ts";

export const SOURCE_HELP = `Where the certificates come from:
  FILE… | -             one or more files read as one bundle, in the order given (Apache's
                        cert.pem chain.pem), or "-" for stdin. PEM, DER (one or several
                        certificates) and DER or PEM PKCS#7 (.p7b) are recognised by content, from
                        a file or from stdin alike; a byte-order mark is ignored; a private key in
                        a file (a leaf+key file) is set aside with a one-line notice giving its
                        position, never its text. Errors name the file and its line
${CONNECT_HELP}
  --roots FILE|DIR      your own trust anchors (CA certificates, PEM or DER; a DIR's *.pem, *.crt
                        and *.cer files), used like shipped roots for this run (default
                        $NETTOOLS_ROOTS, skipped with a notice where it cannot be used). Read as
                        openssl reads a CA file: text outside BEGIN/END blocks is ignored (curl's
                        cacert.pem, openssl x509 -text output), TRUSTED CERTIFICATE blocks count,
                        other blocks are skipped with one notice; any number of certificates
${REFERENCE_ROOTS_HELP}
  --passin SOURCE       a PKCS#12 (.p12, .pfx) file's password: env:VAR or file:PATH (never the
                        password itself); without it the empty password is tried`;

export const SOURCE_OPTIONS = {
  ...CONNECT_OPTIONS,
  ...REFERENCE_ROOTS_OPTIONS,
  roots: { type: "string" },
  passin: { type: "string" },
} as const;

export interface SourceValues extends ConnectValues {
  roots?: string | undefined;
  /** A PKCS#12 file's password: env:VAR or file:PATH (CONTRACT §10.3). */
  passin?: string | undefined;
  "reference-roots"?: string | undefined;
}

/**
 * Reads the certificates from the FILE arguments (or `-`) or from `--connect`. Returns an exit
 * code after printing one line for a connection failure (3) or binary input (2).
 */
export async function readCertificateSource(
  run: Run,
  positionals: readonly string[],
  values: SourceValues,
  command: string,
  deadline: Deadline,
): Promise<CertificateSource | { exit: number }> {
  if (values.connect !== undefined) {
    if (positionals.length > 0) throw new UsageError(`${command} takes either FILE or --connect, not both`);
    const connect = values.connect;
    deadline.doing({ doing: `reading the certificates ${connect} sends` });
    const read = await deadline.timedBy(() =>
      readServerCertificates(run, { ...values, connect }, Date.now() + Math.max(1, deadline.remainingMs())),
    );
    // A failed read has said why in its one line (a timeout included); a list read in time is
    // inspected within what is left of the budget.
    if (!("exit" in read)) deadline.check();
    return read;
  }
  refuseConnectOnlyOptions(values);
  if (positionals.length === 0) throw new UsageError(`${command} needs a FILE, "-" for stdin, or --connect`);
  if (positionals.filter((name) => name === "-").length > 1) {
    throw new UsageError('stdin ("-") can be read only once');
  }
  const text = new CertificateBundleText();
  for (const name of positionals) {
    const bytes = name === "-" ? await stdinBytes(run) : await fileBytes(run, name, "");
    if (looksLikePkcs12(bytes)) {
      // CONTRACT §10.3: its certificates, in file order, as one more file of the bundle; keys unread.
      const read = await readPkcs12Input(bytes, name === "-" ? "stdin" : name, values.passin, false, run.io);
      if (!read.ok) {
        run.io.stderr(
          `${run.err.red(run.err.bold("error"))} ${run.err.bold("INVALID_INPUT")}: ${read.message}\n`,
        );
        return { exit: EXIT.invalidInput };
      }
      text.addText(read.certificatesPem, `${name === "-" ? "stdin" : name} (PKCS#12)`);
      continue;
    }
    const added = addOrReport(run, text, bytes, name === "-" ? "stdin" : name);
    if (added !== null) return added;
  }
  for (const notice of text.notices) run.io.stderr(`${run.err.dim("notice")}: ${notice}\n`);
  return { pem: text.pem, text, defaultHostname: null };
}

/** stdin's bytes, as they came (DER is not text): the byte-level reader when the Io has one. */
async function stdinBytes(run: Run): Promise<Uint8Array> {
  if (run.io.bytes !== undefined) return run.io.bytes.readStdin(INPUT_LIMITS.certificates);
  return new TextEncoder().encode(await run.io.readStdin(INPUT_LIMITS.certificates));
}

/** A file's bytes; an unreadable file is a UsageError naming it (after `origin`, e.g. `--roots: `). */
async function fileBytes(run: Run, name: string, origin: string): Promise<Uint8Array> {
  try {
    return await run.io.ports.files.read(name, INPUT_LIMITS.certificates);
  } catch (error) {
    if (error instanceof InputTooLarge) throw error;
    throw new UsageError(
      `${origin}cannot read ${name}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** Adds a file to the bundle; binary input is one line and exit 2. */
function addOrReport(
  run: Run,
  text: CertificateBundleText,
  bytes: Uint8Array,
  source: string,
): { exit: number } | null {
  try {
    text.addFile(bytes, source);
    return null;
  } catch (error) {
    if (!(error instanceof BinaryInputError)) throw error;
    run.io.stderr(
      `${run.err.red(run.err.bold("error"))} ${run.err.bold("INVALID_INPUT")}: ${error.message}\n`,
    );
    return { exit: EXIT.invalidInput };
  }
}

/** The caller's roots as read: their PEM, the files behind it, and whether they came from NETTOOLS_ROOTS. */
export interface SuppliedRoots {
  pem: string;
  text: CertificateBundleText;
  fromEnvironment: boolean;
}

/**
 * The caller's roots: `--roots FILE|DIR`, else NETTOOLS_ROOTS; undefined for none. `unusable` says
 * why this run cannot use roots at all (`cert --server`). A flag that cannot be used or read is
 * an error; the environment default is then skipped with one notice (CONTRACT §7.6).
 */
export async function readRoots(
  run: Run,
  values: SourceValues,
  unusable?: string,
): Promise<SuppliedRoots | undefined | { exit: number }> {
  const fromEnvironment = values.roots === undefined;
  const spec = values.roots ?? run.io.env.NETTOOLS_ROOTS;
  if (spec === undefined || spec === "") return undefined;
  const skip = (why: string) => {
    run.io.stderr(`${run.err.dim("notice")}: NETTOOLS_ROOTS is not used: ${why}\n`);
    return undefined;
  };
  if (unusable !== undefined) {
    if (fromEnvironment) return skip(unusable);
    throw new UsageError(`--roots cannot be used here: ${unusable}`);
  }
  try {
    const text = await readRootFiles(run, spec, fromEnvironment ? "NETTOOLS_ROOTS: " : "--roots: ");
    const notice = skippedNotice(readTrustStoreText(text.pem).skippedLabels);
    if (notice !== null)
      run.io.stderr(
        `${run.err.dim("notice")}: ${fromEnvironment ? "NETTOOLS_ROOTS" : "--roots"}: ${notice}\n`,
      );
    return { pem: text.pem, text, fromEnvironment };
  } catch (error) {
    if (
      fromEnvironment &&
      (error instanceof UsageError || error instanceof BinaryInputError || error instanceof InputTooLarge)
    ) {
      return skip(error.message.replace(/^NETTOOLS_ROOTS: /, ""));
    }
    if (error instanceof BinaryInputError) {
      run.io.stderr(
        `${run.err.red(run.err.bold("error"))} ${run.err.bold("INVALID_INPUT")}: --roots: ${error.message}\n`,
      );
      return { exit: EXIT.invalidInput };
    }
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
async function readRootFiles(run: Run, spec: string, origin: string): Promise<CertificateBundleText> {
  let files: string[];
  try {
    const entries = await run.io.ports.files.directoryEntries(spec);
    files =
      entries !== null
        ? entries
            .filter((file) => /\.(pem|crt|cer)$/i.test(file))
            .sort()
            .map((file) => join(spec, file))
        : [spec];
  } catch (error) {
    throw new UsageError(
      `${origin}cannot read ${spec}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const text = new CertificateBundleText();
  for (const file of files) text.addFile(await fileBytes(run, file, origin), file);
  if (text.pem.trim() === "") throw new UsageError(`${origin}${spec} holds no certificate`);
  return text;
}

/**
 * The hostname to check: the option, else the connection's default. With `bundleOnly` (cert: the
 * bundle operation takes DNS names only) an address is left out of the request: the CLI checks it
 * itself against the leaf's IP SANs (src/local/hostname-answer.ts).
 */
export function hostnameFor(
  given: string | undefined,
  source: CertificateSource,
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
  return (
    isIP(trimmed) !== 0 ||
    /^[0-9.]+$/.test(trimmed) ||
    addressFormProblem(trimmed) !== null ||
    trimmed.split(":").length > 2
  );
}
