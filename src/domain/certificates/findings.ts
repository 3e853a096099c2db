/**
 * The findings of a certificate-bundle inspection (spec §2.12; CONTRACT §4.3): a closed set of
 * seventeen codes, each with a fixed severity, the positions it concerns, evidence and two plain
 * sentences. Nothing here quotes PEM text; names appear only as evidence values.
 */
import type { SignatureCheck } from "../ports.ts";
import type { CertificateData } from "./model.ts";
import type { CandidateLink } from "./relationships.ts";
import { isSelfIssued } from "./relationships.ts";

/** Every finding code, in the order of CONTRACT §4.3's table (also the tie-break order). */
export const FINDING_CODES = [
  "DUPLICATE_CERTIFICATE",
  "CERTIFICATE_EXPIRED",
  "CERTIFICATE_NOT_YET_VALID",
  "SELF_SIGNED_CERTIFICATE",
  "SELF_SIGNATURE_FAILED",
  "SIGNATURE_UNSUPPORTED",
  "SIGNATURE_CHECK_UNAVAILABLE",
  "ISSUER_NOT_IN_BUNDLE",
  "CANDIDATE_SIGNATURE_FAILED",
  "ISSUER_NOT_CA",
  "ISSUER_KEY_USAGE_REJECTED",
  "ISSUER_KEY_ID_MISMATCH",
  "MULTIPLE_ISSUERS",
  "LEAF_SELECTION_REQUIRED",
  "NO_LEAF_CERTIFICATE",
  "HOSTNAME_MATCH",
  "HOSTNAME_MISMATCH",
] as const;

export type FindingCode = (typeof FINDING_CODES)[number];
export type Severity = "error" | "warning" | "info";
export type EvidenceValue = string | number | boolean | null;

/** Severity of each code (CONTRACT §4.3). */
export const SEVERITY_OF: Readonly<Record<FindingCode, Severity>> = {
  DUPLICATE_CERTIFICATE: "warning",
  CERTIFICATE_EXPIRED: "error",
  CERTIFICATE_NOT_YET_VALID: "error",
  SELF_SIGNED_CERTIFICATE: "info",
  SELF_SIGNATURE_FAILED: "error",
  SIGNATURE_UNSUPPORTED: "warning",
  SIGNATURE_CHECK_UNAVAILABLE: "warning",
  ISSUER_NOT_IN_BUNDLE: "info",
  CANDIDATE_SIGNATURE_FAILED: "warning",
  ISSUER_NOT_CA: "error",
  ISSUER_KEY_USAGE_REJECTED: "error",
  ISSUER_KEY_ID_MISMATCH: "warning",
  MULTIPLE_ISSUERS: "info",
  LEAF_SELECTION_REQUIRED: "warning",
  NO_LEAF_CERTIFICATE: "warning",
  HOSTNAME_MATCH: "info",
  HOSTNAME_MISMATCH: "error",
};

/** One finding (spec §2.12), field order as specified. */
export interface Finding {
  code: FindingCode;
  severity: Severity;
  certificateIndexes: number[];
  observed: string;
  evidence: Record<string, EvidenceValue>;
  nextAction: string;
}

export type HostnameStatus = "matched" | "mismatched" | "ambiguous" | "no-leaf";

/** The outcome of the identity check, with what the findings need beyond the result object. */
export interface HostnameOutcome {
  expected: string;
  status: HostnameStatus;
  /** The SAN as written, for `matched`. */
  matchedName: string | null;
}

/** Everything the findings are derived from; all of it already computed by the use case. */
export interface FindingsInput {
  certificates: readonly CertificateData[];
  /** The one evaluation instant (whole seconds). */
  evaluatedAt: Date;
  selfChecks: readonly (SignatureCheck | null)[];
  links: readonly CandidateLink[];
  leafIndexes: readonly number[];
  /** Whether the request named a leaf with `leafIndex`. */
  leafIndexGiven: boolean;
  selectedLeafIndex: number | null;
  /** Null when no hostname check applies. */
  hostname: HostnameOutcome | null;
}

const SEVERITY_RANK: Readonly<Record<Severity, number>> = { error: 0, warning: 1, info: 2 };
const CODE_RANK = new Map<FindingCode, number>(FINDING_CODES.map((code, rank) => [code, rank]));

/** RFC 3339 UTC to the second, e.g. `2026-01-01T00:00:00Z` (fractions are dropped, not rounded). */
export function rfc3339(instant: Date): string {
  const whole = new Date(Math.floor(instant.getTime() / 1000) * 1000);
  return whole.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** Every finding of the bundle, in the contract's order (see `compareFindings`). */
export function collectFindings(input: FindingsInput): Finding[] {
  const findings: Finding[] = [
    ...duplicateFindings(input),
    ...validityFindings(input),
    ...selfSignatureFindings(input),
    ...linkFindings(input),
    ...issuerPresenceFindings(input),
    ...multipleIssuerFindings(input),
    ...leafFindings(input),
  ];
  return findings.sort(compareFindings);
}

/**
 * CONTRACT §4.3 order: severity (error, warning, info), then first certificate index (findings with
 * none first), then code in the table's order, then the remaining indexes.
 */
export function compareFindings(a: Finding, b: Finding): number {
  const bySeverity = SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity];
  if (bySeverity !== 0) return bySeverity;
  const byFirst = (a.certificateIndexes[0] ?? -1) - (b.certificateIndexes[0] ?? -1);
  if (byFirst !== 0) return byFirst;
  const byCode = (CODE_RANK.get(a.code) ?? 0) - (CODE_RANK.get(b.code) ?? 0);
  if (byCode !== 0) return byCode;
  const length = Math.max(a.certificateIndexes.length, b.certificateIndexes.length);
  for (let k = 1; k < length; k++) {
    const left = a.certificateIndexes[k] ?? -1;
    const right = b.certificateIndexes[k] ?? -1;
    if (left !== right) return left - right;
  }
  return 0;
}

function finding(
  code: FindingCode,
  certificateIndexes: number[],
  observed: string,
  evidence: Record<string, EvidenceValue>,
  nextAction: string,
): Finding {
  return { code, severity: SEVERITY_OF[code], certificateIndexes, observed, evidence, nextAction };
}

function duplicateFindings({ certificates }: FindingsInput): Finding[] {
  const firstIndexOf = new Map<string, number>();
  const findings: Finding[] = [];
  for (const [index, certificate] of certificates.entries()) {
    const first = firstIndexOf.get(certificate.fingerprintSha256);
    if (first === undefined) {
      firstIndexOf.set(certificate.fingerprintSha256, index);
      continue;
    }
    findings.push(
      finding(
        "DUPLICATE_CERTIFICATE",
        [first, index],
        `Certificate ${index} repeats certificate ${first} (same SHA-256 fingerprint).`,
        { firstIndex: first, fingerprintSha256: certificate.fingerprintSha256 },
        `Remove the repeated copy at position ${index} from the bundle.`,
      ),
    );
  }
  return findings;
}

function validityFindings({ certificates, evaluatedAt }: FindingsInput): Finding[] {
  const now = evaluatedAt.getTime();
  const at = rfc3339(evaluatedAt);
  const findings: Finding[] = [];
  for (const [index, certificate] of certificates.entries()) {
    if (now > certificate.notAfter.getTime()) {
      const notAfter = rfc3339(certificate.notAfter);
      findings.push(
        finding(
          "CERTIFICATE_EXPIRED",
          [index],
          `Certificate ${index} expired at ${notAfter}; the evaluation time is ${at}.`,
          { notAfter, evaluatedAt: at },
          `Renew certificate ${index} and deploy the renewed certificate in its place.`,
        ),
      );
    }
    if (now < certificate.notBefore.getTime()) {
      const notBefore = rfc3339(certificate.notBefore);
      findings.push(
        finding(
          "CERTIFICATE_NOT_YET_VALID",
          [index],
          `Certificate ${index} is not valid before ${notBefore}; the evaluation time is ${at}.`,
          { notBefore, evaluatedAt: at },
          `Wait until ${notBefore} before deploying certificate ${index}, or check the clock of the system that issued it.`,
        ),
      );
    }
  }
  return findings;
}

function selfSignatureFindings({ certificates, selfChecks }: FindingsInput): Finding[] {
  const findings: Finding[] = [];
  for (const [index, certificate] of certificates.entries()) {
    const check = selfChecks[index];
    if (!check) continue;
    const { signatureAlgorithm } = certificate;
    switch (check.outcome) {
      case "verified":
        findings.push(
          finding(
            "SELF_SIGNED_CERTIFICATE",
            [index],
            certificate.ca
              ? `Certificate ${index} is a self-signed CA certificate: its signature verifies with its own key.`
              : `Certificate ${index} is a self-signed certificate that is not a CA: its signature verifies with its own key.`,
            { ca: certificate.ca },
            certificate.ca
              ? "Make sure clients already trust this root; a served bundle usually leaves the root out."
              : `Replace certificate ${index} with one issued by a CA your clients trust, unless every client pins it.`,
          ),
        );
        break;
      case "failed":
        findings.push(
          finding(
            "SELF_SIGNATURE_FAILED",
            [index],
            `Certificate ${index} names itself as its issuer, but its ${signatureAlgorithm} signature does not verify with its own key.`,
            { signatureAlgorithm },
            `Replace certificate ${index}: it was altered, damaged, or signed by a different key under the same name.`,
          ),
        );
        break;
      case "unsupported":
        findings.push(unsupportedFinding([index], certificate, null));
        break;
      case "unavailable":
        findings.push(unavailableFinding([index], certificate, null, check));
        break;
    }
  }
  return findings;
}

function unsupportedFinding(indexes: number[], child: CertificateData, issuerIndex: number | null): Finding {
  const childIndex = indexes[0]!;
  const { signatureAlgorithm } = child;
  return finding(
    "SIGNATURE_UNSUPPORTED",
    indexes,
    issuerIndex === null
      ? `The self-signature of certificate ${childIndex} uses ${signatureAlgorithm}, which this service cannot check.`
      : `The signature of certificate ${childIndex} uses ${signatureAlgorithm}, which this service cannot check against candidate issuer ${issuerIndex}.`,
    { signatureAlgorithm },
    "Check this signature with another tool, or reissue the certificate with a current algorithm such as ECDSA or RSA with SHA-256.",
  );
}

function unavailableFinding(
  indexes: number[],
  child: CertificateData,
  issuerIndex: number | null,
  check: SignatureCheck,
): Finding {
  const childIndex = indexes[0]!;
  const reason = check.reason ?? null;
  const against = issuerIndex === null ? "its own key" : `the key of candidate issuer ${issuerIndex}`;
  return finding(
    "SIGNATURE_CHECK_UNAVAILABLE",
    indexes,
    `The signature of certificate ${childIndex} could not be checked against ${against}${reason ? ` (${reason})` : ""}.`,
    { signatureAlgorithm: child.signatureAlgorithm, reason },
    issuerIndex === null
      ? `Check that the public key of certificate ${childIndex} is intact, or check its signature with another tool.`
      : `Check that the public key of certificate ${issuerIndex} is intact, or check this signature with another tool.`,
  );
}

function linkFindings({ certificates, links }: FindingsInput): Finding[] {
  const findings: Finding[] = [];
  for (const link of links) {
    const { childIndex, issuerIndex, check } = link;
    const child = certificates[childIndex]!;
    const issuer = certificates[issuerIndex]!;
    const pair = [childIndex, issuerIndex];
    if (check.outcome === "unsupported") findings.push(unsupportedFinding(pair, child, issuerIndex));
    if (check.outcome === "unavailable") findings.push(unavailableFinding(pair, child, issuerIndex, check));
    if (check.outcome === "failed") {
      findings.push(
        finding(
          "CANDIDATE_SIGNATURE_FAILED",
          pair,
          `Certificate ${issuerIndex} carries the issuer name of certificate ${childIndex}, but its key does not verify that certificate's signature.`,
          { childIndex, issuerIndex },
          `Remove certificate ${issuerIndex} or replace it with the CA certificate whose key signed certificate ${childIndex}.`,
        ),
      );
      continue;
    }
    if (!issuer.ca) {
      findings.push(
        finding(
          "ISSUER_NOT_CA",
          pair,
          issuer.basicConstraintsPresent
            ? `Candidate issuer ${issuerIndex} of certificate ${childIndex} is not a CA: its basicConstraints has cA false.`
            : `Candidate issuer ${issuerIndex} of certificate ${childIndex} is not a CA: it has no basicConstraints extension.`,
          { childIndex, issuerIndex, basicConstraintsPresent: issuer.basicConstraintsPresent },
          `Replace certificate ${issuerIndex} with the issuing CA's certificate, which must have basicConstraints with cA true.`,
        ),
      );
    }
    if (issuer.keyCertSign === false) {
      findings.push(
        finding(
          "ISSUER_KEY_USAGE_REJECTED",
          pair,
          `Candidate issuer ${issuerIndex} of certificate ${childIndex} has a keyUsage extension without keyCertSign.`,
          { childIndex, issuerIndex },
          `Use an issuer certificate whose keyUsage permits keyCertSign in place of certificate ${issuerIndex}.`,
        ),
      );
    }
    if (link.keyIdentifierMatch === false) {
      findings.push(
        finding(
          "ISSUER_KEY_ID_MISMATCH",
          pair,
          `The authorityKeyIdentifier of certificate ${childIndex} differs from the subjectKeyIdentifier of candidate issuer ${issuerIndex}.`,
          {
            childIndex,
            issuerIndex,
            authorityKeyIdentifier: child.authorityKeyIdentifier,
            subjectKeyIdentifier: issuer.subjectKeyIdentifier,
          },
          `Check that certificate ${issuerIndex} is the CA certificate that signed certificate ${childIndex}; a CA reissued with a new key needs its new certificate in the bundle.`,
        ),
      );
    }
  }
  return findings;
}

function issuerPresenceFindings({ certificates, links }: FindingsInput): Finding[] {
  const findings: Finding[] = [];
  for (const [index, certificate] of certificates.entries()) {
    if (isSelfIssued(certificate)) continue;
    const candidates = links.filter((link) => link.childIndex === index);
    if (candidates.some((link) => link.check.outcome !== "failed")) continue;
    findings.push(
      finding(
        "ISSUER_NOT_IN_BUNDLE",
        [index],
        candidates.length === 0
          ? `No certificate in the bundle carries the issuer name of certificate ${index}.`
          : `No certificate in the bundle with the issuer name of certificate ${index} has a key that verifies its signature.`,
        { issuer: certificate.issuer },
        `If the issuer of certificate ${index} is an intermediate CA, add its certificate to the bundle; a root that clients already trust can stay out.`,
      ),
    );
  }
  return findings;
}

function multipleIssuerFindings({ certificates, links }: FindingsInput): Finding[] {
  const findings: Finding[] = [];
  for (const childIndex of certificates.keys()) {
    const verified = links
      .filter((link) => link.childIndex === childIndex && link.check.outcome === "verified")
      .map((link) => link.issuerIndex);
    const issuerCount = new Set(verified.map((index) => certificates[index]!.fingerprintSha256)).size;
    if (issuerCount < 2) continue;
    findings.push(
      finding(
        "MULTIPLE_ISSUERS",
        [childIndex, ...verified],
        `The signature of certificate ${childIndex} verifies with ${issuerCount} different issuer certificates in the bundle (positions ${verified.join(", ")}).`,
        { childIndex, issuerCount },
        "Keep the issuer certificate that the clients' trust path needs and remove the others, unless a cross-signed path is intended.",
      ),
    );
  }
  return findings;
}

function leafFindings(input: FindingsInput): Finding[] {
  const { certificates, leafIndexes, hostname, selectedLeafIndex } = input;
  const findings: Finding[] = [];
  if (leafIndexes.length === 0) {
    findings.push(
      finding(
        "NO_LEAF_CERTIFICATE",
        [],
        certificates.length === 1
          ? "The only certificate is a CA certificate, so no certificate could serve as a leaf."
          : `All ${certificates.length} certificates are CA certificates, so none could serve as a leaf.`,
        { certificateCount: certificates.length },
        "Add the server's own (leaf) certificate to the bundle, by convention as the first block.",
      ),
    );
  }
  if (hostname === null) return findings;
  if (hostname.status === "ambiguous" && !input.leafIndexGiven) {
    findings.push(
      finding(
        "LEAF_SELECTION_REQUIRED",
        [...leafIndexes],
        `The bundle holds ${leafIndexes.length} possible leaf certificates (positions ${leafIndexes.join(", ")}), so the hostname was not checked.`,
        { leafCount: leafIndexes.length },
        "Send leafIndex with the position of the certificate to check against the hostname.",
      ),
    );
  }
  if (selectedLeafIndex === null) return findings;
  const leaf = certificates[selectedLeafIndex]!;
  if (hostname.status === "matched") {
    findings.push(
      finding(
        "HOSTNAME_MATCH",
        [selectedLeafIndex],
        `Certificate ${selectedLeafIndex} covers the hostname with one of its DNS subjectAltNames.`,
        { hostname: hostname.expected, matchedName: hostname.matchedName },
        "No action is needed for the hostname.",
      ),
    );
  } else if (hostname.status === "mismatched") {
    const dnsNameCount = leaf.sans.filter((san) => san.type === "dns").length;
    findings.push(
      finding(
        "HOSTNAME_MISMATCH",
        [selectedLeafIndex],
        dnsNameCount === 0
          ? `Certificate ${selectedLeafIndex} has no DNS subjectAltName, so it cannot match the hostname.`
          : `None of the ${dnsNameCount} DNS subjectAltNames of certificate ${selectedLeafIndex} matches the hostname.`,
        { hostname: hostname.expected, dnsNameCount },
        `Reissue certificate ${selectedLeafIndex} with the hostname among its DNS subjectAltNames, or check that the right certificate is deployed; the Common Name is not used.`,
      ),
    );
  }
  return findings;
}
