/**
 * `nettools chain --format prom FILE…` (CONTRACT §10.1): each FILE read as the certificate watch
 * reads it and judged as its own chain, printed as the same series the metrics listener exposes
 * with CERT_WATCH, in the text exposition format, for node_exporter's textfile collector:
 *
 *   nettools chain --format prom /etc/ssl/site/*.pem > /var/lib/node_exporter/chains.prom.$$ &&
 *     mv /var/lib/node_exporter/chains.prom.$$ /var/lib/node_exporter/chains.prom
 *
 * The exit status is `chain`'s, over all the files: 0 when every chain is complete with no error
 * (with --strict no warning, with --expires-within no EXPIRING), 1 otherwise, 2 when a file cannot
 * be read as certificates (its `x509_read_errors` is 1 then), 3 when the time limit stops a file.
 * A file that holds only a private key is skipped with a notice. Nothing of a file's content is
 * printed but the series, which hold no key material.
 */
import { type ChainJudge, problemsAt } from "../certificate-watch/certificate-file.ts";
import { exposeChainFiles } from "../certificate-watch/chain-files.ts";
import type { RequestOf } from "../contract/operations.ts";
import type { CertificateChainResult } from "../domain/certificates/chain.ts";
import { Deadline } from "../local/deadline.ts";
import type { Run } from "./args.ts";
import { certificateDecoder } from "./composition-root.ts";
import { EXIT } from "./io.ts";
import { runOperation } from "./run-operation.ts";

/** Judges one file's chain: chain's exit status for it, or why it has no verdict. */
export type FileExit = (result: CertificateChainResult) => number;

/**
 * Prints the series of `files` (each its own chain, judged with `request`'s options; the reading
 * and judging are src/certificate-watch/chain-files.ts's) and returns the exit status. `exitOf` is
 * chain's exit rule for one verdict.
 */
export async function printChainSeries(
  run: Run,
  files: readonly string[],
  request: Omit<RequestOf<"certificateChain">, "pem">,
  exitOf: FileExit,
): Promise<number> {
  let exit: number = EXIT.ok;
  /** Whether the time limit stopped the file being judged (exit 3, not 2). */
  let stopped = false;
  const judge: ChainJudge = async (pem) => {
    const deadline = new Deadline(run.timeoutSeconds, run.io.ports.memory.residentBytes);
    const bounded = await deadline.run(() =>
      runOperation(run, "certificateChain", { ...request, pem }, run.client === null ? deadline : undefined),
    );
    if (!bounded.done) {
      stopped = true;
      return { ok: false, reason: bounded.line };
    }
    const answer = bounded.value;
    if (answer.ok) return { ok: true, result: answer.value };
    const issues = (answer.error as { issues?: { location?: { line: number } }[] }).issues ?? [];
    return {
      ok: false,
      reason: `${answer.error.code}: not a certificate bundle the chain can read (${problemsAt(issues)})`,
    };
  };
  const exposition = await exposeChainFiles({
    files,
    read: async (file) => {
      try {
        return await run.io.ports.files.readWhole(file);
      } catch (error) {
        return { reason: `cannot read: ${(error as NodeJS.ErrnoException).code ?? "error"}` };
      }
    },
    judge,
    decoder: certificateDecoder(),
    now: () => Math.floor(Date.now() / 1000),
    tell: (file, outcome) => {
      if (outcome.kind === "judged") exit = Math.max(exit, exitOf(outcome.result));
      else if (outcome.kind === "key-only")
        run.notice(`${file} holds only a private key: skipped (no certificate)`);
      else {
        run.io.stderr(`${run.err.red("error")}: ${file}: ${outcome.reason}\n`);
        exit = Math.max(exit, outcome.kind === "unjudged" && stopped ? EXIT.failure : EXIT.invalidInput);
      }
      stopped = false;
    },
  });
  run.io.stdout(exposition);
  return exit;
}
