/**
 * What the CLI and the web page add on top of a certificate-bundle answer, shared so both say the
 * same thing. Pure functions over the API's types: no Bun or Node APIs, so the page bundles it.
 */
import type { Finding } from "./index.ts";

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
