/**
 * What the CLI and the web page add on top of a certificate-bundle answer, shared so both say the
 * same thing. Pure functions over the API's types: no Bun or Node APIs, so the page bundles it.
 */
import { privateKeyIssues } from "../domain/certificates/pem.ts";
import { invalidInput } from "../domain/errors.ts";
import type { CertificateChainResultType, ErrorIssue, Finding, ServerError } from "./index.ts";

/** Problems of the bundle as sent that the written chain no longer has (CONTRACT §7.1). */
export const REPAIRED_BY_WRITING: ReadonlySet<string> = new Set([
  "WRONG_ORDER",
  "UNNEEDED_CERTIFICATE",
  "DUPLICATE_CERTIFICATE",
  "ROOT_INCLUDED",
]);

/**
 * The errors left in the chain `nettools chain --fix` would write: every problem of severity
 * error except those writing repairs. `--fix` exits 0 exactly when the chain is complete and this
 * is empty (without `--strict` or `--expires-within`).
 */
export function errorsLeftAfterFix(
  result: CertificateChainResultType,
): CertificateChainResultType["problems"] {
  return result.problems.filter(
    (problem) => problem.severity === "error" && !REPAIRED_BY_WRITING.has(problem.code),
  );
}

/**
 * Whether the corrected chain may be handed out for deployment (CONTRACT §9.6): when `--fix`
 * would exit 0 for it — complete, and no error left in the written chain.
 */
export function deployableByFix(result: CertificateChainResultType): boolean {
  return (
    result.status === "complete" && result.fullchainPem !== "" && errorsLeftAfterFix(result).length === 0
  );
}

/**
 * The bundle's findings read with the roots the chain used (CONTRACT §9.6): the bundle operation
 * has no `roots` field, so an issuer that is one of the user's own roots reads there as "not a
 * known root: an intermediate is most likely missing". When the chain is anchored at that supplied
 * root, its `ISSUER_NOT_IN_BUNDLE` finding says what `cert --roots` says in that case instead
 * (`issuerIsKnownRoot` true, as `cert --roots` answers it).
 */
export function withChainRoots(
  findings: readonly Finding[],
  chain: CertificateChainResultType | null,
): Finding[] {
  const anchor = chain?.status === "complete" ? chain.anchor : null;
  if (anchor?.kind !== "supplied-root") return [...findings];
  return findings.map((finding) => {
    if (finding.code !== "ISSUER_NOT_IN_BUNDLE" || finding.evidence.issuer !== anchor.subject) return finding;
    const [certificate] = finding.observed.split(" was issued by ");
    return {
      ...finding,
      evidence: { ...finding.evidence, issuerIsKnownRoot: true },
      observed: `${certificate} was issued by ${anchor.subject}, one of your own roots (the ones you supplied), so leaving it out is normal.`,
      nextAction: `Nothing needs adding if your clients trust your own root ${anchor.subject}: a served bundle usually leaves the root out.`,
    };
  });
}

/**
 * `ISSUER_NOT_IN_BUNDLE` findings whose issuer is not a known root (CONTRACT §4.3): the chain is
 * most likely broken by a missing intermediate, although the finding itself is informational.
 */
export function missingIntermediates(findings: readonly Finding[]): Finding[] {
  return findings.filter(
    (finding) => finding.code === "ISSUER_NOT_IN_BUNDLE" && finding.evidence.issuerIsKnownRoot === false,
  );
}

/** One warning line for a missing intermediate: the finding's own observation. */
export function missingIntermediateWarning(finding: Finding): string {
  return `The chain looks incomplete. ${finding.observed}`;
}

/**
 * The error the server would answer for the private keys in `pem` (CONTRACT §4.1: message
 * "private key material is not accepted", `path: ["pem"]`, located at each whole block), or null
 * when there is none. Callers refuse with it before sending anything, and show no line of the
 * block: the issue's location is enough to find it.
 */
export function privateKeyRefusal(pem: string): ServerError | null {
  const issues = privateKeyIssues(pem);
  if (issues.length === 0) return null;
  const error = invalidInput(issues);
  return {
    code: "INVALID_INPUT",
    message: error.message,
    issues: issues.map(
      (issue): ErrorIssue => ({ message: issue.message, path: issue.path, location: issue.location! }),
    ),
  };
}
