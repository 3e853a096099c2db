/**
 * What the CLI and the web page add on top of a certificate-bundle answer, shared so both say the
 * same thing. Pure functions over the API's types: no Bun or Node APIs, so the page bundles it.
 */
import { privateKeyIssues } from "../domain/certificates/pem.ts";
import { invalidInput } from "../domain/errors.ts";
import type { ErrorIssue, Finding, ServerError } from "./index.ts";

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
