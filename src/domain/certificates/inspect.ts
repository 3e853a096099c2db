/**
 * The certificate-bundle inspection use case (spec §2.8–2.12, §4.4; CONTRACT §4).
 *
 * Observations only: not RFC 5280 path validation, not a trust decision, no revocation, no network.
 * Time enters only through the Clock (read once), signatures only through the SignatureVerifier,
 * DER only through the CertificateDecoder. Identical input and clock give identical output.
 */
import { type Issue, invalidInput } from "../errors.ts";
import type { CertificateDecoder, Clock, RootStore, SignatureOutcome, SignatureVerifier } from "../ports.ts";
import {
  collectFindings,
  type Finding,
  type HostnameOutcome,
  type HostnameStatus,
  rfc3339,
} from "./findings.ts";
import { matchHostname, validateHostname } from "./hostname.ts";
import type { CertificateData } from "./model.ts";
import { DEFAULT_PEM_LIMITS, type PemBlock, type PemLimits, scanPem } from "./pem.ts";
import { analyseRelationships, type Relationship, toRelationship } from "./relationships.ts";

export type { EvidenceValue, Finding, FindingCode, HostnameStatus, Severity } from "./findings.ts";
export type { Relationship } from "./relationships.ts";

/** CertificateBundleRequest (spec §2.8), after the HTTP schema has checked the types. */
export interface CertificateBundleRequest {
  pem: string;
  hostname?: string | undefined;
  leafIndex?: number | undefined;
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
 * How much one inspection reads: most blocks and longest text. The HTTP API uses the spec's values
 * (`DEFAULT_CERTIFICATE_LIMITS`: 16 blocks, 49152 characters and bytes); a local caller such as the
 * CLI may pass larger ones (say 1000 blocks and 2 MB) for system CA bundles. Work grows with the
 * square of `maxBlocks` at worst (signature checks), linearly for ordinary bundles.
 */
export type CertificateLimits = PemLimits;
export const DEFAULT_CERTIFICATE_LIMITS: Readonly<CertificateLimits> = DEFAULT_PEM_LIMITS;

/** Message of the issue for a block whose DER the decoder rejects (the decoder's reason is not echoed). */
export const NOT_A_CERTIFICATE_MESSAGE = "this CERTIFICATE block is not one DER-encoded X.509 certificate";

/**
 * Inspects a PEM bundle (spec §4.4).
 *
 * @throws DomainError `INVALID_INPUT` with every issue found together: PEM problems (located,
 *   including blocks the decoder rejects), then the hostname, then `leafIndex` (an integer from 0
 *   to `limits.maxBlocks` − 1 naming an existing position that holds a non-CA certificate; a
 *   repeat is accepted as given).
 */
export async function inspectCertificateBundle(
  request: CertificateBundleRequest,
  deps: CertificateBundleDeps,
  limits: CertificateLimits = DEFAULT_CERTIFICATE_LIMITS,
): Promise<CertificateBundleResult> {
  const scan = scanPem(request.pem, limits);
  const hostname = validateHostname(request.hostname);
  const decoded = await Promise.all(scan.blocks.map((block) => decodeBlock(block, deps.decoder)));

  const pemIssues = [...scan.issues, ...decoded.flatMap((entry) => (entry.issue ? [entry.issue] : []))];
  pemIssues.sort((a, b) => (a.location?.offset ?? Infinity) - (b.location?.offset ?? Infinity));
  const leafIssues = checkLeafIndex(
    request.leafIndex,
    scan.scanned ? scan.blockCount : null,
    decoded,
    limits.maxBlocks,
  );
  const issues = [...pemIssues, ...hostname.issues, ...leafIssues];
  if (issues.length > 0) throw invalidInput(issues);

  const certificates = decoded.map((entry) => entry.certificate!);
  const now = deps.clock.now();
  const evaluatedAt = new Date(Math.floor(now.getTime() / 1000) * 1000);
  const { selfChecks, links } = await analyseRelationships(certificates, deps.verifier, limits.maxBlocks);

  const leafIndexes = possibleLeaves(certificates);
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
      toEntry(certificate, scan.blocks[position]!, selfChecks[position]?.outcome ?? null),
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

/** Possible leaves (CONTRACT §4.3): first occurrences of distinct non-CA certificates, in input order. */
export function possibleLeaves(certificates: readonly CertificateData[]): number[] {
  const seen = new Set<string>();
  const leaves: number[] = [];
  for (const [index, certificate] of certificates.entries()) {
    if (seen.has(certificate.fingerprintSha256)) continue;
    seen.add(certificate.fingerprintSha256);
    if (!certificate.ca) leaves.push(index);
  }
  return leaves;
}

/** One block after decoding: its certificate, or the located issue that rejects it. */
export interface DecodedBlock {
  /** Position of the block among all blocks. */
  index: number;
  certificate?: CertificateData;
  issue?: Issue;
}

/** Decodes one PEM block; a rejected block becomes a located `pem` issue (the reason is not echoed). */
export async function decodeBlock(block: PemBlock, decoder: CertificateDecoder): Promise<DecodedBlock> {
  const result = await decoder.decode(block.der);
  if (result.ok) return { index: block.index, certificate: result.certificate };
  return {
    index: block.index,
    issue: { message: NOT_A_CERTIFICATE_MESSAGE, path: ["pem"], location: block.location },
  };
}

/**
 * `leafIndex` issues. The range is always checked; the position only when the text was scanned
 * (`blockCount` not null), and the CA test only when that position decoded as a certificate.
 * A position holding a rejected block raises no `leafIndex` issue of its own (the PEM issue
 * covers it).
 */
export function checkLeafIndex(
  leafIndex: number | undefined,
  blockCount: number | null,
  decoded: readonly DecodedBlock[],
  maxBlocks: number,
): Issue[] {
  if (leafIndex === undefined) return [];
  const path = ["leafIndex"];
  if (!Number.isInteger(leafIndex) || leafIndex < 0 || leafIndex >= maxBlocks) {
    return [{ message: `leafIndex must be an integer from 0 to ${maxBlocks - 1}`, path }];
  }
  if (blockCount === null) return [];
  if (leafIndex >= blockCount) {
    return [
      {
        message: `leafIndex ${leafIndex} names no certificate: the bundle has ${blockCount} ${blockCount === 1 ? "block" : "blocks"}`,
        path,
      },
    ];
  }
  const certificate = decoded.find((entry) => entry.index === leafIndex)?.certificate;
  if (certificate?.ca) {
    return [{ message: `leafIndex ${leafIndex} names a CA certificate: choose a non-CA certificate`, path }];
  }
  return [];
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
