/**
 * Where the certificates of `cert` and `chain` come from, as the command line says: FILE
 * arguments (or "-"), `--connect` (connect-source.ts), `--roots FILE|DIR` or NETTOOLS_ROOTS
 * (CONTRACT §7.2, §7.3, §8.3). The reading is src/local/certificate-source.ts's; this module checks
 * the options, keeps the read (and the whole command) within its budget, and prints what it says: notices go to
 * stderr, one line each, never key text or binary bytes.
 */
import {
  readCertificateFiles,
  readRoots as readRootsOnThisMachine,
  readServerCertificates,
  type SuppliedRoots,
} from "../local/certificate-source.ts";
import { Deadline } from "../local/deadline.ts";
import type { Run } from "./args.ts";
import { help, type OptionValues, options } from "./command.ts";
import { type CertificateSource, CONNECT_OPTIONS, refuseConnectOnlyOptions } from "./connect-source.ts";
import { EXIT, stdinOnlyOnce, UsageError } from "./io.ts";
import { REFERENCE_ROOTS_OPTION } from "./reference-roots.ts";

export type { SuppliedRoots } from "../local/certificate-source.ts";
export { hostnameFor, rootsProblem } from "../local/certificate-source.ts";
export type { CertificateSource } from "./connect-source.ts";

export const SOURCE_HELP = help`Where the certificates come from:
${options(24, {
  "FILE… | -": `one or more files read as one bundle, in the order given (Apache's
                        cert.pem chain.pem), or "-" for stdin. PEM, DER (one or several
                        certificates) and DER or PEM PKCS#7 (.p7b) are recognised by content, from
                        a file or from stdin alike; a byte-order mark is ignored; a private key in
                        a file (a leaf+key file) is set aside with a one-line notice giving its
                        position, never its text. Errors name the file and its line`,
  ...CONNECT_OPTIONS,
  "--roots FILE|DIR": `your own trust anchors (CA certificates, PEM or DER; a DIR's *.pem, *.crt
                        and *.cer files), used like shipped roots for this run (default
                        $NETTOOLS_ROOTS, skipped with a notice where it cannot be used). Read as
                        openssl reads a CA file: text outside BEGIN/END blocks is ignored (curl's
                        cacert.pem, openssl x509 -text output), TRUSTED CERTIFICATE blocks count,
                        other blocks are skipped with one notice; any number of certificates`,
  ...REFERENCE_ROOTS_OPTION,
  "--passin SOURCE": `a PKCS#12 (.p12, .pfx) file's password: env:VAR or file:PATH (never the
                        password itself); without it the empty password is tried`,
})}`;

/** The values of the options above. */
export type SourceValues = OptionValues<typeof SOURCE_HELP>;

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
      readServerCertificates(
        run.io,
        { ...values, connect },
        Date.now() + Math.max(1, deadline.remainingMs()),
      ),
    );
    // A failed read has said why in its one line (a timeout included); a list read in time is
    // inspected within what is left of the budget.
    if (!read.ok) {
      if ("failure" in read) run.io.stderr(`${read.failure}\n`);
      else run.io.stderr(`${run.err.red("error")}: ${read.unwritable}\n`);
      return { exit: EXIT.failure };
    }
    run.io.stderr(`${read.line}\n`);
    deadline.check();
    return { pem: read.pem, text: null, defaultHostname: read.defaultHostname };
  }
  refuseConnectOnlyOptions(values);
  if (positionals.length === 0) throw new UsageError(`${command} needs a FILE, "-" for stdin, or --connect`);
  stdinOnlyOnce(positionals);
  const read = await readCertificateFiles(run.io, positionals, values.passin);
  if (!read.ok) {
    run.io.stderr(
      `${run.err.red(run.err.bold("error"))} ${run.err.bold("INVALID_INPUT")}: ${read.message}\n`,
    );
    return { exit: EXIT.invalidInput };
  }
  for (const notice of read.text.notices) run.notice(notice);
  return { pem: read.text.pem, text: read.text, defaultHostname: null };
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
  const read = await readRootsOnThisMachine(run.io, values.roots, run.notice, unusable);
  if (read === undefined || !("invalid" in read)) return read;
  run.io.stderr(`${run.err.red(run.err.bold("error"))} ${run.err.bold("INVALID_INPUT")}: ${read.invalid}\n`);
  return { exit: EXIT.invalidInput };
}

/**
 * Runs `work` within the command's `--timeout` budget (src/local/deadline.ts), `afterChecks` saying
 * where it stopped: its exit code, or one line on stderr and exit 3 when the budget runs out.
 */
export async function withinBudget(
  run: Run,
  afterChecks: string,
  work: (deadline: Deadline) => Promise<number>,
): Promise<number> {
  const deadline = new Deadline(run.timeoutSeconds, run.io.ports.memory.residentBytes);
  deadline.doing({ afterChecks });
  const bounded = await deadline.run(() => work(deadline));
  if (bounded.done) return bounded.value;
  run.io.stderr(`${run.err.red("error")}: ${bounded.line}\n`);
  return EXIT.failure;
}

/** `--leaf-index N`: a whole number, or undefined when the option is absent. */
export function leafIndexOf(text: string | undefined): number | undefined {
  if (text !== undefined && !/^\d+$/.test(text))
    throw new UsageError(`--leaf-index must be a whole number, not "${text}"`);
  return text === undefined ? undefined : Number(text);
}
