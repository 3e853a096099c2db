/**
 * The findings of a certificate-bundle inspection (spec §2.12; CONTRACT §4.3): a closed set of
 * seventeen codes, each with a fixed severity, the positions it concerns, evidence and two plain
 * sentences. Nothing here quotes PEM text. Sentences name certificates by position and common name
 * (see wording.ts) and give advice that fits the certificate's role (CONTRACT §4.3, Wording).
 */

import { MAX_CERTIFICATES } from "../limits.ts";
import type { RootStore, SignatureCheck } from "../ports.ts";
import { repeats } from "./bundle.ts";
import { DiagnosticCodes, type Severity } from "./diagnostics.ts";
import type { CertificateData } from "./model.ts";
import type { CandidateLink } from "./relationships.ts";
import { isSelfIssued } from "./relationships.ts";
import { FINDING_CODES, type FindingCode, severities } from "./rule-catalogue.ts";
import { rootOrigin } from "./trust-anchors.ts";
import { capitalize, certificateName, listSome, nameLabel, repeatObserved, showText } from "./wording.ts";

/** The bundle's codes, in CONTRACT §4.3's table order, and their severities (rule-catalogue.ts). */
export { FINDING_CODES, type FindingCode };
export const SEVERITY_OF: Readonly<Record<FindingCode, Severity>> = severities(FINDING_CODES);
export type { Severity } from "./diagnostics.ts";
export type EvidenceValue = string | number | boolean | null;

/** The findings' code set: table order and severities, the order and the builder (diagnostics.ts). */
const FINDINGS = new DiagnosticCodes<FindingCode>(FINDING_CODES, SEVERITY_OF);

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
  /** The reference root store behind `issuerIsKnownRoot` (with the user's own roots in `cert --roots`). */
  roots: RootStore;
}

/** Most DNS names `HOSTNAME_MISMATCH` lists in `observed`; then it says how many more. */
export const MAX_LISTED_DNS_NAMES = 10;

/** RFC 3339 UTC to the second, e.g. `2026-01-01T00:00:00Z` (fractions are dropped, not rounded). */
export function rfc3339(instant: Date): string {
  const whole = new Date(Math.floor(instant.getTime() / 1000) * 1000);
  return whole.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** Every finding of the bundle, in the contract's order (see `compareFindings`). */
export function collectFindings(input: FindingsInput): Finding[] {
  return FINDINGS.sort([
    ...duplicateFindings(input),
    ...validityFindings(input),
    ...selfSignatureFindings(input),
    ...linkFindings(input),
    ...issuerPresenceFindings(input),
    ...multipleIssuerFindings(input),
    ...leafFindings(input),
  ]);
}

/**
 * CONTRACT §4.3 order: severity (error, warning, info), then first certificate index (findings with
 * none first), then code in the table's order, then the remaining indexes.
 */
export const compareFindings: (a: Finding, b: Finding) => number = FINDINGS.compare;

function finding(
  code: FindingCode,
  certificateIndexes: number[],
  observed: string,
  evidence: Record<string, EvidenceValue>,
  nextAction: string,
): Finding {
  return FINDINGS.make(code, certificateIndexes, { observed, evidence, nextAction });
}

/** `certificate 1 (CN=R11)` for position `index` of the input. */
function named({ certificates }: FindingsInput, index: number): string {
  return certificateName(certificates[index]!, index);
}

/** The issuer of a certificate named by its CN (or first attribute), for advice. */
function issuerLabel(certificate: CertificateData): string {
  return nameLabel(certificate.issuer) ?? "an issuer with an empty name";
}

function duplicateFindings(input: FindingsInput): Finding[] {
  const { certificates } = input;
  return repeats(certificates).map(({ first, repeat }) =>
    finding(
      "DUPLICATE_CERTIFICATE",
      [first, repeat],
      repeatObserved(certificates, first, repeat),
      { firstIndex: first, fingerprintSha256: certificates[repeat]!.fingerprintSha256 },
      `Remove the repeated copy, ${named(input, repeat)}, from the bundle.`,
    ),
  );
}

function validityFindings(input: FindingsInput): Finding[] {
  const { certificates, evaluatedAt } = input;
  const now = evaluatedAt.getTime();
  const at = rfc3339(evaluatedAt);
  const findings: Finding[] = [];
  for (const [index, certificate] of certificates.entries()) {
    const name = named(input, index);
    if (now > certificate.notAfter.getTime()) {
      const notAfter = rfc3339(certificate.notAfter);
      findings.push(
        finding(
          "CERTIFICATE_EXPIRED",
          [index],
          `${capitalize(name)}${roleNote(certificate)} expired at ${notAfter}; the evaluation time is ${at}.`,
          { notAfter, evaluatedAt: at },
          expiredAdvice(certificate, name),
        ),
      );
    }
    if (now < certificate.notBefore.getTime()) {
      const notBefore = rfc3339(certificate.notBefore);
      findings.push(
        finding(
          "CERTIFICATE_NOT_YET_VALID",
          [index],
          `${capitalize(name)}${roleNote(certificate)} is not valid before ${notBefore}; the evaluation time is ${at}.`,
          { notBefore, evaluatedAt: at },
          certificate.ca
            ? `Use the CA certificate that is valid now in place of ${name}: fetch the current one from its issuer (${issuerLabel(certificate)}), or check the clock of the system that issued it.`
            : `Wait until ${notBefore} before deploying ${name}, or check the clock of the system that issued it.`,
        ),
      );
    }
  }
  return findings;
}

/** `, a root CA certificate,` / `, an intermediate CA certificate,` / nothing for a leaf. */
function roleNote(certificate: CertificateData): string {
  if (!certificate.ca) return "";
  return isSelfIssued(certificate) ? ", a root CA certificate," : ", an intermediate CA certificate,";
}

/** A leaf is renewed; a CA certificate is replaced by the current one its issuer publishes. */
function expiredAdvice(certificate: CertificateData, name: string): string {
  if (!certificate.ca) return `Renew ${name} and deploy the renewed certificate in its place.`;
  if (isSelfIssued(certificate)) {
    return `Replace ${name} with the current root of the same CA, or leave the root out of the bundle: clients use the copy in their own trust store.`;
  }
  return `Fetch the current certificate of this intermediate CA from its issuer (${issuerLabel(certificate)}) and put it in place of ${name}; a renewed leaf does not fix an expired intermediate.`;
}

function selfSignatureFindings(input: FindingsInput): Finding[] {
  const { certificates, selfChecks } = input;
  const findings: Finding[] = [];
  for (const [index, certificate] of certificates.entries()) {
    const check = selfChecks[index];
    if (!check) continue;
    const { signatureAlgorithm } = certificate;
    const name = named(input, index);
    switch (check.outcome) {
      case "verified":
        findings.push(
          finding(
            "SELF_SIGNED_CERTIFICATE",
            [index],
            certificate.ca
              ? `${capitalize(name)} is a self-signed CA certificate: its signature verifies with its own key.`
              : `${capitalize(name)} is a self-signed certificate that is not a CA: its signature verifies with its own key.`,
            { ca: certificate.ca },
            certificate.ca
              ? "Make sure clients already trust this root; a served bundle usually leaves the root out."
              : `Replace ${name} with one issued by a CA your clients trust, unless every client pins it.`,
          ),
        );
        break;
      case "failed":
        findings.push(
          finding(
            "SELF_SIGNATURE_FAILED",
            [index],
            `${capitalize(name)} names itself as its issuer, but its ${signatureAlgorithm} signature does not verify with its own key.`,
            { signatureAlgorithm },
            `Replace ${name}: it was altered, damaged, or signed by a different key under the same name.`,
          ),
        );
        break;
      case "unsupported":
        findings.push(unsupportedFinding(input, [index], certificate, null));
        break;
      case "unavailable":
        findings.push(unavailableFinding(input, [index], certificate, null, check));
        break;
    }
  }
  return findings;
}

function unsupportedFinding(
  input: FindingsInput,
  indexes: number[],
  child: CertificateData,
  issuerIndex: number | null,
): Finding {
  const name = named(input, indexes[0]!);
  const { signatureAlgorithm } = child;
  return finding(
    "SIGNATURE_UNSUPPORTED",
    indexes,
    issuerIndex === null
      ? `The self-signature of ${name} uses ${signatureAlgorithm}, which this service cannot check.`
      : `The signature of ${name} uses ${signatureAlgorithm}, which this service cannot check against candidate issuer ${named(input, issuerIndex)}.`,
    { signatureAlgorithm },
    "Check this signature with another tool, or reissue the certificate with a current algorithm such as ECDSA or RSA with SHA-256.",
  );
}

function unavailableFinding(
  input: FindingsInput,
  indexes: number[],
  child: CertificateData,
  issuerIndex: number | null,
  check: SignatureCheck,
): Finding {
  const name = named(input, indexes[0]!);
  const reason = check.reason ?? null;
  const against =
    issuerIndex === null ? "its own key" : `the key of candidate issuer ${named(input, issuerIndex)}`;
  return finding(
    "SIGNATURE_CHECK_UNAVAILABLE",
    indexes,
    `The signature of ${name} could not be checked against ${against}${reason ? ` (${reason})` : ""}.`,
    { signatureAlgorithm: child.signatureAlgorithm, reason },
    issuerIndex === null
      ? `Check that the public key of ${name} is intact, or check its signature with another tool.`
      : `Check that the public key of ${named(input, issuerIndex)} is intact, or check this signature with another tool.`,
  );
}

function linkFindings(input: FindingsInput): Finding[] {
  const { certificates, links } = input;
  const findings: Finding[] = [];
  for (const link of links) {
    const { childIndex, issuerIndex, check } = link;
    const child = certificates[childIndex]!;
    const issuer = certificates[issuerIndex]!;
    const childName = named(input, childIndex);
    const issuerName = named(input, issuerIndex);
    const pair = [childIndex, issuerIndex];
    if (check.outcome === "unsupported") findings.push(unsupportedFinding(input, pair, child, issuerIndex));
    if (check.outcome === "unavailable")
      findings.push(unavailableFinding(input, pair, child, issuerIndex, check));
    if (check.outcome === "failed") {
      findings.push(
        finding(
          "CANDIDATE_SIGNATURE_FAILED",
          pair,
          `${capitalize(issuerName)} carries the issuer name of ${childName}, but its key does not verify that certificate's signature.`,
          { childIndex, issuerIndex },
          `Remove ${issuerName} or replace it with the CA certificate whose key signed ${childName}.`,
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
            ? `Candidate issuer ${issuerName} of ${childName} is not a CA: its basicConstraints has cA false.`
            : `Candidate issuer ${issuerName} of ${childName} is not a CA: it has no basicConstraints extension.`,
          { childIndex, issuerIndex, basicConstraintsPresent: issuer.basicConstraintsPresent },
          `Replace ${issuerName} with the issuing CA's certificate, which must have basicConstraints with cA true.`,
        ),
      );
    }
    if (issuer.keyCertSign === false) {
      findings.push(
        finding(
          "ISSUER_KEY_USAGE_REJECTED",
          pair,
          `Candidate issuer ${issuerName} of ${childName} has a keyUsage extension without keyCertSign.`,
          { childIndex, issuerIndex },
          `Use an issuer certificate whose keyUsage permits keyCertSign in place of ${issuerName}.`,
        ),
      );
    }
    if (link.keyIdentifierMatch === false) {
      findings.push(
        finding(
          "ISSUER_KEY_ID_MISMATCH",
          pair,
          `The authorityKeyIdentifier of ${childName} differs from the subjectKeyIdentifier of candidate issuer ${issuerName}.`,
          {
            childIndex,
            issuerIndex,
            authorityKeyIdentifier: child.authorityKeyIdentifier,
            subjectKeyIdentifier: issuer.subjectKeyIdentifier,
          },
          `Check that ${issuerName} is the CA certificate that signed ${childName}; a CA reissued with a new key needs its new certificate in the bundle.`,
        ),
      );
    }
  }
  return findings;
}

/**
 * ISSUER_NOT_IN_BUNDLE, with `issuerIsKnownRoot` from the reference root store (and, in the CLI's
 * `cert --roots`, the user's own roots, which the wording calls theirs: CONTRACT §7.6): a known root
 * left out is normal; any other missing issuer is most likely an intermediate that must be added.
 */
function issuerPresenceFindings(input: FindingsInput): Finding[] {
  const { certificates, roots } = input;
  const byChild = linksByChild(input.links);
  const findings: Finding[] = [];
  for (const [index, certificate] of certificates.entries()) {
    if (isSelfIssued(certificate)) continue;
    const candidates = byChild.get(index) ?? [];
    if (candidates.some((link) => link.check.outcome !== "failed")) continue;
    const origin = rootOrigin(roots, certificate.issuerNameKey, certificate.authorityKeyIdentifier);
    const known = origin !== null;
    const caIssuersUrl = certificate.caIssuersUrls[0] ?? null;
    const name = named(input, index);
    const issuer = issuerLabel(certificate);
    const where =
      candidates.length === 0
        ? `no certificate in the bundle carries that name`
        : `no certificate in the bundle with that name has a key that verifies its signature`;
    findings.push(
      finding(
        "ISSUER_NOT_IN_BUNDLE",
        [index],
        origin === "supplied-root"
          ? `${capitalize(name)} was issued by ${issuer} and ${where}; ${issuer} is one of your own roots (the ones you supplied), so leaving it out is normal.`
          : known
            ? `${capitalize(name)} was issued by ${issuer} and ${where}; ${issuer} is a root in the reference root store (Mozilla's), so leaving it out is normal.`
            : `${capitalize(name)} was issued by ${issuer}, ${where}, and it is not a known root: an intermediate CA certificate is most likely missing.`,
        { issuer: certificate.issuer, issuerIsKnownRoot: known, caIssuersUrl },
        origin === "supplied-root"
          ? `Nothing needs adding if your clients trust your own root ${issuer}: a served bundle usually leaves the root out.`
          : known
            ? `Nothing needs adding: clients that trust ${issuer} already hold it, and a served bundle usually leaves the root out.`
            : `Add the certificate of ${issuer} to the bundle right after ${name}; ${publishedAt(caIssuersUrl)} (if ${issuer} is a private root that every client already trusts, nothing needs adding).`,
      ),
    );
  }
  return findings;
}

/**
 * Where the missing issuer's certificate can be fetched: the child's first `caIssuers` URI when it
 * has one (shown with control characters replaced and long text shortened), else the usual place.
 */
export function publishedAt(caIssuersUrl: string | null): string {
  return caIssuersUrl === null
    ? "its CA publishes it, usually at the address in the Authority Information Access extension"
    : `its CA publishes it at ${showUrl(caIssuersUrl)} (the child's Authority Information Access extension)`;
}

/** Longest URL shown in a sentence; longer ones end with "…". */
export const MAX_SHOWN_URL = 200;

/** A URL fit for a one-line sentence: control characters as `?`, at most MAX_SHOWN_URL characters. */
export function showUrl(url: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced
  const clean = url.replace(/[\u0000-\u001f\u007f]/g, "?");
  return clean.length > MAX_SHOWN_URL ? `${clean.slice(0, MAX_SHOWN_URL)}…` : clean;
}

/** The links of each child, in order (links are sorted by child, then issuer). */
function linksByChild(links: readonly CandidateLink[]): Map<number, CandidateLink[]> {
  const byChild = new Map<number, CandidateLink[]>();
  for (const link of links) {
    const list = byChild.get(link.childIndex);
    if (list === undefined) byChild.set(link.childIndex, [link]);
    else list.push(link);
  }
  return byChild;
}

function multipleIssuerFindings(input: FindingsInput): Finding[] {
  const { certificates } = input;
  const byChild = linksByChild(input.links);
  const findings: Finding[] = [];
  for (const childIndex of certificates.keys()) {
    const verified = (byChild.get(childIndex) ?? [])
      .filter((link) => link.check.outcome === "verified")
      .map((link) => link.issuerIndex);
    const issuerCount = new Set(verified.map((index) => certificates[index]!.fingerprintSha256)).size;
    if (issuerCount < 2) continue;
    findings.push(
      finding(
        "MULTIPLE_ISSUERS",
        [childIndex, ...verified],
        `The signature of ${named(input, childIndex)} verifies with ${issuerCount} different issuer certificates in the bundle: ${listSome(
          verified.map((index) => named(input, index)),
          MAX_CERTIFICATES,
        )}.`,
        { childIndex, issuerCount },
        "Keep the issuer certificate that the clients' trust path needs and remove the others, unless a cross-signed path is intended.",
      ),
    );
  }
  return findings;
}

/** True when every position holds one and the same self-issued CA certificate. */
function onlySelfSignedCa(certificates: readonly CertificateData[]): boolean {
  const first = certificates[0];
  if (first === undefined || !first.ca || !isSelfIssued(first)) return false;
  return certificates.every((certificate) => certificate.fingerprintSha256 === first.fingerprintSha256);
}

function noLeafFinding(input: FindingsInput): Finding {
  const { certificates } = input;
  const evidence = { certificateCount: certificates.length };
  if (onlySelfSignedCa(certificates)) {
    return finding(
      "NO_LEAF_CERTIFICATE",
      [],
      `The only certificate, ${named(input, 0)}, is a self-signed CA certificate, so none could serve as a leaf; openssl req -x509 makes CA certificates (basicConstraints CA:TRUE) unless told otherwise.`,
      evidence,
      "To make a self-signed leaf instead, add -addext basicConstraints=critical,CA:FALSE to the openssl req -x509 command; or keep this certificate as a CA, sign a separate leaf with it (openssl x509 -req -CA), and put the leaf first in the bundle.",
    );
  }
  return finding(
    "NO_LEAF_CERTIFICATE",
    [],
    certificates.length === 1
      ? `The only certificate, ${named(input, 0)}, is a CA certificate, so no certificate could serve as a leaf.`
      : `All ${certificates.length} certificates are CA certificates, so none could serve as a leaf.`,
    evidence,
    "Add the server's own (leaf) certificate to the bundle, by convention as the first block.",
  );
}

function leafFindings(input: FindingsInput): Finding[] {
  const { certificates, leafIndexes, hostname, selectedLeafIndex } = input;
  const findings: Finding[] = [];
  if (leafIndexes.length === 0) findings.push(noLeafFinding(input));
  if (hostname === null) return findings;
  if (hostname.status === "ambiguous" && !input.leafIndexGiven) {
    findings.push(
      finding(
        "LEAF_SELECTION_REQUIRED",
        [...leafIndexes],
        `The bundle holds ${leafIndexes.length} possible leaf certificates (${listSome(
          leafIndexes.map((index) => named(input, index)),
          MAX_CERTIFICATES,
        )}), so the hostname was not checked.`,
        { leafCount: leafIndexes.length },
        "Send leafIndex with the position of the certificate to check against the hostname.",
      ),
    );
  }
  if (selectedLeafIndex === null) return findings;
  const leaf = certificates[selectedLeafIndex]!;
  const name = named(input, selectedLeafIndex);
  if (hostname.status === "matched") {
    findings.push(
      finding(
        "HOSTNAME_MATCH",
        [selectedLeafIndex],
        `${capitalize(name)} covers the hostname with one of its DNS subjectAltNames.`,
        { hostname: hostname.expected, matchedName: hostname.matchedName },
        "No action is needed for the hostname.",
      ),
    );
  } else if (hostname.status === "mismatched") {
    const dnsNames = leaf.sans.filter((san) => san.type === "dns").map((san) => showText(san.value));
    findings.push(
      finding(
        "HOSTNAME_MISMATCH",
        [selectedLeafIndex],
        dnsNames.length === 0
          ? `${capitalize(name)} has no DNS subjectAltName, so it cannot match the hostname.`
          : `None of the ${dnsNames.length} DNS subjectAltNames of ${name} matches the hostname; it covers ${listSome(dnsNames, MAX_LISTED_DNS_NAMES)}.`,
        { hostname: hostname.expected, dnsNameCount: dnsNames.length },
        `Reissue ${name} with the hostname among its DNS subjectAltNames, or check that the right certificate is deployed; the Common Name is not used.`,
      ),
    );
  }
  return findings;
}
