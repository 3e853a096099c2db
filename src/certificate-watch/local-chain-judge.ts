/**
 * The chain use case as the certificate watcher runs it (CONTRACT §10.1): bound once through
 * src/operations/use-cases.ts with the local limits (the files are the operator's own, like a `nettools`
 * run's: up to 500 certificates, 4 MiB), no hostname, no `expiryWarningDays` (§9.5's default), and
 * §1.7's work bound per file: a time budget that stops the signature checks and the path search
 * (src/local/deadline.ts, the bound every local certificate run uses), so that one hostile file
 * cannot hold the watcher.
 */

import type { RealCertificateDeps } from "../adapters/real-deps.ts";
import { DomainError } from "../domain/errors.ts";
import { Deadline } from "../local/deadline.ts";
import { bindUseCases } from "../operations/use-cases.ts";
import { type ChainJudge, problemsAt } from "./certificate-file.ts";

/** The time one file's verdict may take; past it the file counts as not read this time. */
export const FILE_BUDGET_SECONDS = 10;

/** `deps`' chain use case, one bounded run per file. */
export function localChainJudge(deps: RealCertificateDeps, budgetSeconds = FILE_BUDGET_SECONDS): ChainJudge {
  const useCases = bindUseCases(deps, "local");
  return async (pem) => {
    // Time only: the process's resident size belongs to the server, not to this one file.
    const deadline = new Deadline(budgetSeconds, () => 0);
    try {
      const bounded = await deadline.run(async () =>
        useCases.certificateChain(
          { pem },
          {
            observeClient: () => ({ ok: false, reason: "no connection: a watched file" }),
            verifier: deadline.verifier(deps.verifier),
            budget: deadline,
          },
        ),
      );
      if (!bounded.done)
        return { ok: false, reason: `judging stopped at the time limit (${budgetSeconds} s)` };
      return { ok: true, result: bounded.value };
    } catch (error) {
      if (error instanceof DomainError) return { ok: false, reason: rejectionReason(error) };
      throw error;
    }
  };
}

/**
 * Why the chain use case refused a file, by count and position only: its messages may name text
 * of the file (a block's label), and nothing of a file reaches a log line.
 */
export function rejectionReason(error: DomainError): string {
  return `not a certificate bundle the chain can read: ${problemsAt(error.issues)}`;
}
