/**
 * Reading a bundle: what the bundle inspection (inspect.ts) and the chain (chain.ts) both do before
 * they differ. The PEM text is scanned (CONTRACT §4.1), every block decoded, every input problem
 * collected and thrown together, the clock read once, every signature relationship checked once
 * (relationships.ts) and the possible leaves listed (CONTRACT §4.3).
 */
import { type Issue, invalidInput } from "../errors.ts";
import type { CertificateDecoder, Clock, SignatureVerifier } from "../ports.ts";
import type { CertificateData } from "./model.ts";
import { DEFAULT_PEM_LIMITS, type PemBlock, type PemLimits, scanPem } from "./pem.ts";
import { analyseRelationships, type RelationshipAnalysis } from "./relationships.ts";

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

/** What reading a bundle needs from outside. */
export interface BundleReadingDeps {
  clock: Clock;
  decoder: CertificateDecoder;
  verifier: SignatureVerifier;
}

/** The issues of the request's other fields, around the `leafIndex` issues in the order they are reported. */
export interface OtherFieldIssues {
  /** Reported after the PEM issues, before `leafIndex`'s (may still be coming: supplied roots decode too). */
  beforeLeafIndex: readonly Issue[] | Promise<readonly Issue[]>;
  /** Reported after `leafIndex`'s. */
  afterLeafIndex?: readonly Issue[];
}

/** A bundle read and checked, with every relationship between its certificates. */
export interface ReadBundle extends RelationshipAnalysis {
  /** The PEM blocks, in text order (`blocks[i]` holds `certificates[i]`). */
  blocks: PemBlock[];
  certificates: CertificateData[];
  /** The one evaluation instant: the clock read once, to the whole second. */
  evaluatedAt: Date;
  /** Possible leaves (`possibleLeaves`). */
  leaves: number[];
}

/**
 * Scans, decodes and checks a bundle, then analyses its relationships.
 *
 * @throws DomainError `INVALID_INPUT` with every issue found together: PEM problems (located,
 *   including blocks the decoder rejects, in text order), then `other.beforeLeafIndex`, then
 *   `leafIndex` (an integer from 0 to `limits.maxBlocks` − 1 naming an existing position that holds
 *   a non-CA certificate; a repeat is accepted as given), then `other.afterLeafIndex`.
 */
export async function readBundle(
  pem: string,
  leafIndex: number | undefined,
  deps: BundleReadingDeps,
  limits: CertificateLimits,
  other: OtherFieldIssues,
): Promise<ReadBundle> {
  const { scan, decoded, issues: pemIssues } = await readCertificateBlocks(pem, deps.decoder, limits);
  const leafIssues = checkLeafIndex(
    leafIndex,
    scan.scanned ? scan.blockCount : null,
    decoded,
    limits.maxBlocks,
  );
  const issues = [
    ...pemIssues,
    ...(await other.beforeLeafIndex),
    ...leafIssues,
    ...(other.afterLeafIndex ?? []),
  ];
  if (issues.length > 0) throw invalidInput(issues);

  const certificates = decoded.map((entry) => entry.certificate!);
  const evaluatedAt = new Date(Math.floor(deps.clock.now().getTime() / 1000) * 1000);
  const analysis = await analyseRelationships(certificates, deps.verifier, limits.maxBlocks);
  return {
    blocks: scan.blocks,
    certificates,
    evaluatedAt,
    ...analysis,
    leaves: possibleLeaves(certificates),
  };
}

/** PEM text scanned and every block decoded: the blocks, and every PEM issue in text order. */
export interface CertificateBlocks {
  scan: ReturnType<typeof scanPem>;
  decoded: DecodedBlock[];
  /** Scanner and decoder issues together, each located, sorted by offset. */
  issues: Issue[];
}

/**
 * Scans `pem` for CERTIFICATE blocks (CONTRACT §4.1) and decodes each: what the bundle, the chain
 * and the CSR's `certificatePem` read their certificates with.
 */
export async function readCertificateBlocks(
  pem: string,
  decoder: CertificateDecoder,
  limits: PemLimits,
): Promise<CertificateBlocks> {
  const scan = scanPem(pem, limits);
  const decoded = await Promise.all(scan.blocks.map((block) => decodeBlock(block, decoder)));
  const issues = [...scan.issues, ...decoded.flatMap((entry) => (entry.issue ? [entry.issue] : []))];
  issues.sort((a, b) => (a.location?.offset ?? Infinity) - (b.location?.offset ?? Infinity));
  return { scan, decoded, issues };
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

/** A position that repeats an earlier one (same fingerprint), with the first position it repeats. */
export interface Repeat {
  first: number;
  repeat: number;
}

/** Every repeat in the bundle, in input order (CONTRACT §4.3: `DUPLICATE_CERTIFICATE`, once per repeat). */
export function repeats(certificates: readonly CertificateData[]): Repeat[] {
  const firstOf = new Map<string, number>();
  const found: Repeat[] = [];
  for (const [index, certificate] of certificates.entries()) {
    const first = firstOf.get(certificate.fingerprintSha256);
    if (first === undefined) firstOf.set(certificate.fingerprintSha256, index);
    else found.push({ first, repeat: index });
  }
  return found;
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
