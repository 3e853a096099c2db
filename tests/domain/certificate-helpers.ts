/**
 * Shared set-up for the certificate-bundle domain tests: runs the use case over fake certificates
 * with the fakes of tests/fakes, and checks the invariants every finding must keep.
 */
import { expect } from "bun:test";
import {
  type CertificateBundleResult,
  type Finding,
  type FindingCode,
  inspectCertificateBundle,
} from "../../src/domain/certificates/inspect.ts";
import type { CertificateData } from "../../src/domain/certificates/model.ts";
import { bundleOf, fakeDecoder, makeCertificate } from "../fakes/certificates.ts";
import { fixedClock } from "../fakes/clock.ts";
import { fakeRootStore } from "../fakes/roots.ts";
import { scriptedVerifier, type VerifierScript } from "../fakes/verifier.ts";

/** Inside the default validity of the fake certificates (2025-01-01 to 2027-01-01). */
export const NOW = "2026-01-01T00:00:00Z";

export interface RunOptions {
  now?: string;
  hostname?: string;
  leafIndex?: number;
  script?: VerifierScript;
  /** PEM text to use instead of the bundle of `certificates`. */
  pem?: string;
  /** Certificates the reference root store knows (none by default). */
  knownRoots?: CertificateData[];
}

export async function run(certificates: CertificateData[], options: RunOptions = {}) {
  const clock = fixedClock(options.now ?? NOW);
  const decoder = fakeDecoder(certificates);
  const verifier = scriptedVerifier(options.script);
  const pem = options.pem ?? bundleOf(certificates);
  const result = await inspectCertificateBundle(
    { pem, hostname: options.hostname, leafIndex: options.leafIndex },
    { clock, decoder, verifier, roots: fakeRootStore(options.knownRoots) },
  );
  checkFindingInvariants(result, pem);
  return { result, clock, decoder, verifier, pem };
}

/** Evidence keys of every code, in CONTRACT §4.3's table. */
export const EVIDENCE_KEYS: Record<FindingCode, string[]> = {
  DUPLICATE_CERTIFICATE: ["firstIndex", "fingerprintSha256"],
  CERTIFICATE_EXPIRED: ["notAfter", "evaluatedAt"],
  CERTIFICATE_NOT_YET_VALID: ["notBefore", "evaluatedAt"],
  SELF_SIGNED_CERTIFICATE: ["ca"],
  SELF_SIGNATURE_FAILED: ["signatureAlgorithm"],
  SIGNATURE_UNSUPPORTED: ["signatureAlgorithm"],
  SIGNATURE_CHECK_UNAVAILABLE: ["signatureAlgorithm", "reason"],
  ISSUER_NOT_IN_BUNDLE: ["issuer", "issuerIsKnownRoot", "caIssuersUrl"],
  CANDIDATE_SIGNATURE_FAILED: ["childIndex", "issuerIndex"],
  ISSUER_NOT_CA: ["childIndex", "issuerIndex", "basicConstraintsPresent"],
  ISSUER_KEY_USAGE_REJECTED: ["childIndex", "issuerIndex"],
  ISSUER_KEY_ID_MISMATCH: ["childIndex", "issuerIndex", "authorityKeyIdentifier", "subjectKeyIdentifier"],
  MULTIPLE_ISSUERS: ["childIndex", "issuerCount"],
  LEAF_SELECTION_REQUIRED: ["leafCount"],
  NO_LEAF_CERTIFICATE: ["certificateCount"],
  HOSTNAME_MATCH: ["hostname", "matchedName"],
  HOSTNAME_MISMATCH: ["hostname", "dnsNameCount"],
};

const RFC3339_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** Field order, evidence keys and value types, plain sentences without PEM text. */
export function checkFindingInvariants(result: CertificateBundleResult, pem: string): void {
  const bodies = pem
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line.length >= 16 && !line.startsWith("-----"));
  for (const finding of result.findings) {
    expect(Object.keys(finding)).toEqual([
      "code",
      "severity",
      "certificateIndexes",
      "observed",
      "evidence",
      "nextAction",
    ]);
    expect(Object.keys(finding.evidence)).toEqual(EVIDENCE_KEYS[finding.code]);
    for (const [key, value] of Object.entries(finding.evidence)) {
      expect(value === null || ["string", "number", "boolean"].includes(typeof value)).toBe(true);
      if (["notAfter", "notBefore", "evaluatedAt"].includes(key))
        expect(value as string).toMatch(RFC3339_SECONDS);
    }
    for (const sentence of [finding.observed, finding.nextAction]) {
      expect(sentence).toMatch(/^[A-Z][^\n]*\.$/);
      expect(sentence).not.toContain("-----");
      for (const body of bodies) expect(sentence).not.toContain(body);
    }
    for (const index of finding.certificateIndexes) {
      expect(index).toBeGreaterThanOrEqual(0);
      expect(index).toBeLessThan(result.certificates.length);
    }
  }
}

export function codes(result: CertificateBundleResult): FindingCode[] {
  return result.findings.map((finding) => finding.code);
}

export function findingsOf(result: CertificateBundleResult, code: FindingCode): Finding[] {
  return result.findings.filter((finding) => finding.code === code);
}

/** A typical chain: leaf ← intermediate ← root, with matching key identifiers. */
export function chain() {
  const root = makeCertificate({
    subject: "CN=Example Root,O=Example",
    ca: true,
    subjectKeyIdentifier: "AA:AA",
  });
  const intermediate = makeCertificate({
    subject: "CN=Example Intermediate,O=Example",
    issuer: "CN=Example Root,O=Example",
    ca: true,
    subjectKeyIdentifier: "BB:BB",
    authorityKeyIdentifier: "AA:AA",
  });
  const leaf = makeCertificate({
    subject: "CN=www.example.com",
    issuer: "CN=Example Intermediate,O=Example",
    sans: ["www.example.com", "*.api.example.com", { type: "ip", value: "192.0.2.1" }],
    authorityKeyIdentifier: "BB:BB",
    subjectKeyIdentifier: "CC:CC",
  });
  return { root, intermediate, leaf };
}
