/**
 * Candidate-issuer links between the certificates of one bundle and their signature checks
 * (spec §2.10, §2.11, §4.4 rule 3; CONTRACT §4.2, §4.3).
 *
 * Candidates come from an index of subject-name keys, so finding them costs one lookup per
 * certificate, not one comparison per pair: a system CA bundle of hundreds of roots is cheap.
 * Work on untrusted input is bounded by the caller's block limit n (16 for the HTTP API): at most
 * n·(n−1) links and n² calls to the verifier, because a check is made at most once per (child
 * fingerprint, issuer public key) pair within one request.
 */
import { MAX_CERTIFICATES } from "../limits.ts";
import type { SignatureCheck, SignatureOutcome, SignatureVerifier } from "../ports.ts";
import type { CertificateData } from "./model.ts";

/**
 * Most distinct signature checks in one API request: every certificate against every distinct key
 * in the bundle (its candidates' keys and its own), 16 × 16.
 */
export const MAX_SIGNATURE_CHECKS = MAX_CERTIFICATES * MAX_CERTIFICATES;

/** The closed set of outcomes (spec §2.10); anything else a verifier returns is `unavailable`. */
export const SIGNATURE_OUTCOMES: readonly SignatureOutcome[] = [
  "verified",
  "failed",
  "unsupported",
  "unavailable",
];

/** One candidate-issuer link as the result shows it (spec §2.11), field order as specified. */
export interface Relationship {
  childIndex: number;
  issuerIndex: number;
  signature: SignatureOutcome;
  issuerEligible: boolean;
  keyIdentifierMatch: boolean | null;
}

/** A link with the whole check behind it (the reason feeds SIGNATURE_CHECK_UNAVAILABLE). */
export interface CandidateLink {
  childIndex: number;
  issuerIndex: number;
  check: SignatureCheck;
  issuerEligible: boolean;
  keyIdentifierMatch: boolean | null;
}

export interface RelationshipAnalysis {
  /** Per position: the check against its own key when self-issued, else null. */
  selfChecks: (SignatureCheck | null)[];
  /** Ordered by childIndex, then issuerIndex. */
  links: CandidateLink[];
  /** Every check made, for later questions of the same request (a root's key, CONTRACT §7.2). */
  checks: SignatureCheckCache;
}

/** Self-issued: the issuer name equals the subject name (compared as DER). */
export function isSelfIssued(certificate: CertificateData): boolean {
  return certificate.issuerNameKey === certificate.subjectNameKey;
}

/**
 * Candidate issuers (CONTRACT §4.3): every j ≠ i whose subject name equals i's issuer name, except a
 * j that is a duplicate (same fingerprint) of i; ordered by childIndex, then issuerIndex. Found
 * through an index of subject-name keys (positions in increasing order), not by trying all pairs.
 */
export function candidatePairs(
  certificates: readonly CertificateData[],
): { childIndex: number; issuerIndex: number }[] {
  const bySubject = new Map<string, number[]>();
  for (const [index, certificate] of certificates.entries()) {
    const positions = bySubject.get(certificate.subjectNameKey);
    if (positions === undefined) bySubject.set(certificate.subjectNameKey, [index]);
    else positions.push(index);
  }
  const pairs: { childIndex: number; issuerIndex: number }[] = [];
  for (const [childIndex, child] of certificates.entries()) {
    for (const issuerIndex of bySubject.get(child.issuerNameKey) ?? []) {
      if (issuerIndex === childIndex) continue;
      if (certificates[issuerIndex]!.fingerprintSha256 === child.fingerprintSha256) continue;
      pairs.push({ childIndex, issuerIndex });
    }
  }
  return pairs;
}

/** cA true and, when keyUsage is present, keyCertSign (spec §2.11): no validity, trust or path constraints. */
export function issuerEligible(issuer: CertificateData): boolean {
  return issuer.ca && issuer.keyCertSign !== false;
}

/** Child's authorityKeyIdentifier vs issuer's subjectKeyIdentifier; null when either is absent. */
export function keyIdentifierMatch(child: CertificateData, issuer: CertificateData): boolean | null {
  if (child.authorityKeyIdentifier === null || issuer.subjectKeyIdentifier === null) return null;
  return normalizeKeyId(child.authorityKeyIdentifier) === normalizeKeyId(issuer.subjectKeyIdentifier);
}

/**
 * Signature checks cached for one request: the verifier runs at most once per (child fingerprint,
 * issuer public key), so repeats, cross-certificates sharing a key and self-checks cost nothing
 * extra. A verifier that throws or answers outside the closed set counts as `unavailable`.
 *
 * The pair is keyed by two small numbers, not by its text: a public key's text is its whole
 * SubjectPublicKeyInfo in hex (316 characters for P-521), and a local run of 500 same-name CAs
 * asks for 250,000 pairs at once (CONTRACT §7.3: no input of the local limits may take 512 MB).
 */
export class SignatureCheckCache {
  private readonly checks = new Map<number, Promise<SignatureCheck>>();
  private readonly childIds = new Map<string, number>();
  private readonly keyIds = new Map<string, number>();

  /** `maxChecks`: the bound for this request, n² for a limit of n blocks. */
  constructor(
    private readonly verifier: SignatureVerifier,
    private maxChecks: number = MAX_SIGNATURE_CHECKS,
  ) {}

  /**
   * Raises the bound by `count` checks that the caller has counted before asking: the chain's
   * checks of certificates against roots outside the bundle (at most one per certificate and
   * root that answers for its issuer).
   */
  allowMore(count: number): void {
    this.maxChecks += count;
  }

  /** Number of distinct checks requested so far (each one verifier call). */
  get size(): number {
    return this.checks.size;
  }

  check(child: CertificateData, issuer: CertificateData): Promise<SignatureCheck> {
    // At most maxChecks distinct keys can ever be asked for, so the pair's number is unique.
    const key =
      idOf(this.childIds, child.fingerprintSha256) * (this.maxChecks + 1) +
      idOf(this.keyIds, issuer.publicKeyKey);
    let pending = this.checks.get(key);
    if (pending === undefined) {
      if (this.checks.size >= this.maxChecks) {
        throw new Error(`more than ${this.maxChecks} signature checks in one request`);
      }
      pending = runCheck(this.verifier, child, issuer);
      this.checks.set(key, pending);
    }
    return pending;
  }
}

/**
 * Runs every self-check and candidate check of a bundle (at most `maxCertificates`² verifier
 * calls) and returns them per position and per link. `maxCertificates` is the caller's block
 * limit (16 for the HTTP API); more certificates than that is a programming error.
 */
export async function analyseRelationships(
  certificates: readonly CertificateData[],
  verifier: SignatureVerifier,
  maxCertificates: number = MAX_CERTIFICATES,
): Promise<RelationshipAnalysis> {
  if (certificates.length > maxCertificates) {
    throw new Error(`more than ${maxCertificates} certificates reached the relationship analysis`);
  }
  const cache = new SignatureCheckCache(verifier, maxCertificates * maxCertificates);
  const pairs = candidatePairs(certificates);
  if (pairs.length > maxCertificates * (maxCertificates - 1)) {
    throw new Error(`more than ${maxCertificates * (maxCertificates - 1)} candidate-issuer relationships`);
  }
  const selfChecks = Promise.all(
    certificates.map((certificate) =>
      isSelfIssued(certificate) ? cache.check(certificate, certificate) : null,
    ),
  );
  const links = Promise.all(
    pairs.map(async ({ childIndex, issuerIndex }): Promise<CandidateLink> => {
      const child = certificates[childIndex]!;
      const issuer = certificates[issuerIndex]!;
      return {
        childIndex,
        issuerIndex,
        check: await cache.check(child, issuer),
        issuerEligible: issuerEligible(issuer),
        keyIdentifierMatch: keyIdentifierMatch(child, issuer),
      };
    }),
  );
  return { selfChecks: await selfChecks, links: await links, checks: cache };
}

/** The public shape of a link (spec §2.11). */
export function toRelationship(link: CandidateLink): Relationship {
  return {
    childIndex: link.childIndex,
    issuerIndex: link.issuerIndex,
    signature: link.check.outcome,
    issuerEligible: link.issuerEligible,
    keyIdentifierMatch: link.keyIdentifierMatch,
  };
}

async function runCheck(
  verifier: SignatureVerifier,
  child: CertificateData,
  issuer: CertificateData,
): Promise<SignatureCheck> {
  try {
    const check = await verifier.verify(child, issuer);
    if (!SIGNATURE_OUTCOMES.includes(check.outcome)) {
      return { outcome: "unavailable", reason: "the verifier gave no usable outcome" };
    }
    return check.reason === undefined
      ? { outcome: check.outcome }
      : { outcome: check.outcome, reason: check.reason };
  } catch {
    return { outcome: "unavailable", reason: "the verifier failed" };
  }
}

/** The small number standing for `text` in `ids`, given in order of first use. */
function idOf(ids: Map<string, number>, text: string): number {
  let id = ids.get(text);
  if (id === undefined) {
    id = ids.size;
    ids.set(text, id);
  }
  return id;
}

function normalizeKeyId(keyId: string): string {
  return keyId.replace(/:/g, "").toUpperCase();
}
