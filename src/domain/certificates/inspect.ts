/**
 * The certificate-bundle inspection use case (spec §2.8–2.12, §4.4; CONTRACT §4).
 *
 * Observations only: not RFC 5280 path validation, not a trust decision, no revocation, no network.
 * Time enters only through the Clock (read once), signatures only through the SignatureVerifier,
 * DER only through the CertificateDecoder. Identical input and clock give identical output.
 */
import type { CertificateDecoder, Clock, RootStore, SignatureOutcome, SignatureVerifier } from "../ports.ts";
import { type CertificateLimits, DEFAULT_CERTIFICATE_LIMITS, readBundle } from "./bundle.ts";
import {
  collectFindings,
  type Finding,
  type HostnameOutcome,
  type HostnameStatus,
  rfc3339,
} from "./findings.ts";
import { matchHostname, validateHostname } from "./hostname.ts";
import { clockAt, instantIssues } from "./instant.ts";
import type { CertificateData } from "./model.ts";
import type { PemBlock } from "./pem.ts";
import { type Relationship, toRelationship } from "./relationships.ts";

export {
  type CertificateLimits,
  DEFAULT_CERTIFICATE_LIMITS,
  NOT_A_CERTIFICATE_MESSAGE,
  possibleLeaves,
} from "./bundle.ts";
export type { EvidenceValue, Finding, FindingCode, HostnameStatus, Severity } from "./findings.ts";
export type { Relationship } from "./relationships.ts";

/** CertificateBundleRequest (spec §2.8), after the HTTP schema has checked the types. */
export interface CertificateBundleRequest {
  pem: string;
  hostname?: string | undefined;
  leafIndex?: number | undefined;
  /** The instant of evaluation (CONTRACT §9.1), RFC 3339; absent means the clock's now. */
  at?: string | undefined;
}

export interface CertificateBundleDeps {
  clock: Clock;
  decoder: CertificateDecoder;
  verifier: SignatureVerifier;
  /** The reference root store behind `issuerIsKnownRoot` (CONTRACT §4.3). */
  roots: RootStore;
}

/** Certificate entry (spec §2.10), field order as specified. */
export interface CertificateEntry {
  index: number;
  line: number;
  subject: string;
  issuer: string;
  commonName: string | null;
  serialNumber: string;
  sans: { type: string; value: string }[];
  notBefore: string;
  notAfter: string;
  ca: boolean;
  basicConstraintsPresent: boolean;
  keyCertSign: boolean | null;
  fingerprintSha256: string;
  signatureAlgorithm: string;
  selfSignature: SignatureOutcome | null;
}

/** The `hostname` object of the result (spec §2.9). */
export interface HostnameCheck {
  expected: string;
  status: HostnameStatus;
}

/** CertificateBundleResult (spec §2.9), field order as specified. */
export interface CertificateBundleResult {
  evaluatedAt: string;
  certificates: CertificateEntry[];
  relationships: Relationship[];
  leafIndexes: number[];
  selectedLeafIndex: number | null;
  hostname: HostnameCheck | null;
  findings: Finding[];
}

/**
 * Inspects a PEM bundle (spec §4.4).
 *
 * @throws DomainError `INVALID_INPUT` with every issue found together: PEM problems (located,
 *   including blocks the decoder rejects), then the hostname, then `leafIndex` (an integer from 0
 *   to `limits.maxBlocks` − 1 naming an existing position that holds a non-CA certificate; a
 *   repeat is accepted as given), then `at` (CONTRACT §9.1: when valid, every expiry finding is
 *   judged at that instant instead of the clock's now).
 */
export async function inspectCertificateBundle(
  request: CertificateBundleRequest,
  deps: CertificateBundleDeps,
  limits: CertificateLimits = DEFAULT_CERTIFICATE_LIMITS,
): Promise<CertificateBundleResult> {
  const hostname = validateHostname(request.hostname);
  const clock = clockAt(request.at, deps.clock);
  const bundle = await readBundle(request.pem, request.leafIndex, { ...deps, clock }, limits, {
    beforeLeafIndex: hostname.issues,
    afterLeafIndex: instantIssues(request.at),
  });
  const { blocks, certificates, evaluatedAt, selfChecks, links, leaves: leafIndexes } = bundle;

  const leafIndexGiven = request.leafIndex !== undefined;
  const selectedLeafIndex = leafIndexGiven
    ? request.leafIndex!
    : leafIndexes.length === 1
      ? leafIndexes[0]!
      : null;
  const hostnameOutcome =
    hostname.expected === null
      ? null
      : checkHostname(hostname.expected, selectedLeafIndex, leafIndexes, certificates);

  return {
    evaluatedAt: rfc3339(evaluatedAt),
    certificates: certificates.map((certificate, position) =>
      toEntry(certificate, blocks[position]!, selfChecks[position]?.outcome ?? null),
    ),
    relationships: links.map(toRelationship),
    leafIndexes,
    selectedLeafIndex,
    hostname: hostnameOutcome ? { expected: hostnameOutcome.expected, status: hostnameOutcome.status } : null,
    findings: collectFindings({
      certificates,
      evaluatedAt,
      selfChecks,
      links,
      leafIndexes,
      leafIndexGiven,
      selectedLeafIndex,
      hostname: hostnameOutcome,
      roots: deps.roots,
    }),
  };
}

function checkHostname(
  expected: string,
  selectedLeafIndex: number | null,
  leafIndexes: readonly number[],
  certificates: readonly CertificateData[],
): HostnameOutcome {
  if (selectedLeafIndex === null) {
    return { expected, status: leafIndexes.length === 0 ? "no-leaf" : "ambiguous", matchedName: null };
  }
  const matchedName = matchHostname(expected, certificates[selectedLeafIndex]!.sans);
  return { expected, status: matchedName === null ? "mismatched" : "matched", matchedName };
}

function toEntry(
  certificate: CertificateData,
  block: PemBlock,
  selfSignature: SignatureOutcome | null,
): CertificateEntry {
  return {
    index: block.index,
    line: block.line,
    subject: certificate.subject,
    issuer: certificate.issuer,
    commonName: certificate.commonName,
    serialNumber: certificate.serialNumber,
    sans: certificate.sans.map((san) => ({ type: san.type, value: san.value })),
    notBefore: rfc3339(certificate.notBefore),
    notAfter: rfc3339(certificate.notAfter),
    ca: certificate.ca,
    basicConstraintsPresent: certificate.basicConstraintsPresent,
    keyCertSign: certificate.keyCertSign,
    fingerprintSha256: certificate.fingerprintSha256,
    signatureAlgorithm: certificate.signatureAlgorithm,
    selfSignature,
  };
}
