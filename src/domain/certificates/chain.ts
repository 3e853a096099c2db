/**
 * The certificate-chain use case (CONTRACT §7.1, §7.2): the chain a server should send, built from
 * the relationships the bundle inspection computes and repaired into the file to deploy.
 *
 * The bundle is read as the inspection reads it (bundle.ts: one signature check per link, never
 * two); a root ends a path only once its key verifies the member (CONTRACT §7.2, checked through
 * the same cache); the path search is chain-path.ts, the problems chain-problems.ts. Time enters through the
 * Clock (read once); identical input and clock give identical output.
 */
import type { Issue } from "../errors.ts";
import type {
  CertificateDecoder,
  Clock,
  RootDistrust,
  RootStore,
  SignatureVerifier,
  WorkBudget,
} from "../ports.ts";
import { type CertificateLimits, DEFAULT_CERTIFICATE_LIMITS, readBundle } from "./bundle.ts";
import {
  type AnchorKind,
  type BuiltPath,
  bestPath,
  type ChainContext,
  type ChainMember,
  judgedAnchorOf,
  servedChain,
} from "./chain-path.ts";
import {
  type ChainProblem,
  type Profile,
  pathProblems,
  problemsWithoutPath,
  sortProblems,
} from "./chain-problems.ts";
import { clientRuleProblems, validityDays } from "./client-rules.ts";
import { rfc3339 } from "./findings.ts";
import { type ExpectedIdentity, matchIdentity, validateIdentity } from "./identity.ts";
import { clockAt, instantIssues } from "./instant.ts";
import type { CertificateData } from "./model.ts";
import type { NameComparisonTally } from "./name-constraints.ts";
import { pemBlock } from "./pem.ts";
import type { SignatureCheckCache } from "./relationships.ts";
import { type IssuerRoot, isReferenceRoot, RequestRootStore, readSuppliedRoots } from "./trust-anchors.ts";

export type { AnchorKind, ChainMember } from "./chain-path.ts";
export {
  type ChainProblem,
  CLIENTS,
  type Client,
  compareProblems,
  PROBLEM_CODES,
  type ProblemCode,
  type Profile,
} from "./chain-problems.ts";
/** Kept for the CLI's file conversions, which import it from here; it lives in pem.ts. */
export { pemBlock } from "./pem.ts";

/** The most days the lifetime-relative warning uses (CONTRACT §9.5), and the bound of `expiryWarningDays`. */
export const DEFAULT_EXPIRY_WARNING_DAYS = 30;
export const MAX_EXPIRY_WARNING_DAYS = 3650;

const SECONDS_PER_DAY = 86_400;

/** CertificateChainRequest (CONTRACT §7.1), after the HTTP schema has checked the types. */
export interface CertificateChainRequest {
  pem: string;
  hostname?: string | undefined;
  leafIndex?: number | undefined;
  roots?: string | undefined;
  includeRoot?: boolean | undefined;
  expiryWarningDays?: number | undefined;
  /** The instant of evaluation (CONTRACT §9.1), RFC 3339; absent means the clock's now. */
  at?: string | undefined;
}

export interface CertificateChainDeps {
  clock: Clock;
  decoder: CertificateDecoder;
  verifier: SignatureVerifier;
  /** The shipped reference root store; the request's `roots` are composed with it. */
  roots: RootStore;
  /** When given, the path search stops (throwing `WorkAbandoned`) once it is exhausted. */
  budget?: WorkBudget;
  /**
   * When given, counts the name-constraint comparisons the request makes (one name against one
   * subtree): at most (bundle + path members²) × names × subtrees, each capped by the limits.
   */
  nameComparisons?: NameComparisonTally;
}

export type ChainStatus = "complete" | "incomplete" | "ambiguous" | "no-leaf";

export interface ChainAnchor {
  kind: AnchorKind;
  /** The anchor's name, or the missing issuer's (the last member's issuer), RFC 4514. */
  subject: string;
  /** `caIssuers` URIs of the last member. */
  caIssuersUrls: string[];
}

/** CertificateChainResult (CONTRACT §7.1), field order as specified. */
export interface CertificateChainResult {
  evaluatedAt: string;
  leafIndex: number | null;
  path: number[];
  status: ChainStatus;
  /** Who judges the chain (CONTRACT §8.1). */
  profile: Profile;
  anchor: ChainAnchor | null;
  certificates: ChainMember[];
  problems: ChainProblem[];
  fullchainPem: string;
}

/**
 * Builds and repairs the chain to serve (CONTRACT §7.1).
 *
 * @throws DomainError `INVALID_INPUT` with every issue found together: `pem` problems (located),
 *   `roots` problems (located, path `["roots"]`), the hostname, `leafIndex`, `expiryWarningDays`,
 *   `at` (CONTRACT §9.1: when valid, the chain is judged at that instant instead of the clock's now).
 */
export async function buildCertificateChain(
  request: CertificateChainRequest,
  deps: CertificateChainDeps,
  limits: CertificateLimits = DEFAULT_CERTIFICATE_LIMITS,
): Promise<CertificateChainResult> {
  const identity = validateIdentity(request.hostname);
  const supplied = readSuppliedRoots(request.roots, deps.decoder, limits);
  // Absent: the threshold is a share of each member's lifetime (CONTRACT §9.5).
  const expiryWarningDays = request.expiryWarningDays ?? null;
  const clock = clockAt(request.at, deps.clock);
  const bundle = await readBundle(request.pem, request.leafIndex, { ...deps, clock }, limits, {
    beforeLeafIndex: supplied.then((roots) => [...roots.issues, ...identity.issues]),
    afterLeafIndex: [
      ...(expiryWarningDays === null ? [] : checkExpiryWarningDays(expiryWarningDays)),
      ...instantIssues(request.at),
    ],
  });
  const { certificates, evaluatedAt, leaves } = bundle;
  const selfSigned = bundle.selfChecks.map((check) => check?.outcome === "verified");
  const ownRoots = (await supplied).roots;
  const store = new RequestRootStore(deps.roots, ownRoots);
  const issuerRoots = await issuerRootsOf(certificates, selfSigned, store, bundle.checks, deps.decoder);

  const leafIndex = chooseLeaf(request.leafIndex, leaves, identity.expected, certificates);
  const context: ChainContext = {
    certificates,
    links: bundle.links,
    selfSigned,
    issuerRoots,
    hasOwnRoots: ownRoots.length > 0,
    evaluatedAt,
    expiryWarningDays,
    nameComparisons: deps.nameComparisons,
  };
  if (leafIndex === null) {
    const status = leaves.length === 0 ? "no-leaf" : "ambiguous";
    return {
      evaluatedAt: rfc3339(evaluatedAt),
      leafIndex: null,
      path: [],
      status,
      profile: "unknown",
      anchor: null,
      certificates: [],
      problems: problemsWithoutPath(context, status, leaves),
      fullchainPem: "",
    };
  }

  const best = await bestPath(leafIndex, context, deps.budget);
  const last = best.members.at(-1)!;
  const lastCertificate = certificates[last]!;
  const anchorSubject = best.anchor === "in-bundle" ? lastCertificate.subject : lastCertificate.issuer;
  const members = best.members.map((index) => toMember(certificates[index]!, index, evaluatedAt));
  const status: ChainStatus = best.anchor === "missing" ? "incomplete" : "complete";
  const profile = profileOf(best, lastCertificate, deps.roots);
  const served = servedChain(best, certificates, request.includeRoot === true);
  const anchor = judgedAnchorOf(best, certificates);
  return {
    evaluatedAt: rfc3339(evaluatedAt),
    leafIndex,
    path: best.members,
    status,
    profile,
    anchor: { kind: best.anchor, subject: anchorSubject, caIssuersUrls: [...lastCertificate.caIssuersUrls] },
    certificates: members,
    problems: sortProblems([
      ...pathProblems(context, best, members, identity.expected, served, anchor),
      ...clientRuleProblems({
        context,
        path: best,
        profile,
        anchor,
        distrust: distrustOf(best, certificates, profile, deps.roots),
      }),
    ]),
    fullchainPem: served.map((block) => pemBlock(block.der)).join(""),
  };
}

/**
 * For each position, the root that issued it (CONTRACT §7.2: its key verifies the certificate),
 * asked once per distinct certificate, checked through the request's cache (no check twice). A
 * self-signed certificate ends a path itself and asks nothing.
 */
async function issuerRootsOf(
  certificates: readonly CertificateData[],
  selfSigned: readonly boolean[],
  store: RequestRootStore,
  checks: SignatureCheckCache,
  decoder: CertificateDecoder,
): Promise<IssuerRoot[]> {
  const none: IssuerRoot = { match: null, refused: null };
  const byFingerprint = new Map<string, Promise<IssuerRoot>>();
  return Promise.all(
    certificates.map((certificate, index) => {
      if (selfSigned[index]) return none;
      let answer = byFingerprint.get(certificate.fingerprintSha256);
      if (answer === undefined) {
        checks.allowMore(store.answering(certificate));
        answer = store.issuerRoot(certificate, (child, root) => checks.check(child, root), decoder);
        byFingerprint.set(certificate.fingerprintSha256, answer);
      }
      return answer;
    }),
  );
}

/**
 * `leafIndex` when given; else the only possible leaf; else, with a hostname, the only possible
 * leaf that covers it; else null.
 */
function chooseLeaf(
  given: number | undefined,
  leaves: readonly number[],
  identity: ExpectedIdentity | null,
  certificates: readonly CertificateData[],
): number | null {
  if (given !== undefined) return given;
  if (leaves.length === 1) return leaves[0]!;
  if (identity === null) return null;
  const covering = leaves.filter((index) => matchIdentity(identity, certificates[index]!.sans) !== null);
  return covering.length === 1 ? covering[0]! : null;
}

function checkExpiryWarningDays(days: number): Issue[] {
  if (Number.isInteger(days) && days >= 0 && days <= MAX_EXPIRY_WARNING_DAYS) return [];
  return [
    {
      message: `expiryWarningDays must be an integer from 0 to ${MAX_EXPIRY_WARNING_DAYS}`,
      path: ["expiryWarningDays"],
    },
  ];
}

function toMember(certificate: CertificateData, index: number, evaluatedAt: Date): ChainMember {
  return {
    index,
    subject: certificate.subject,
    commonName: certificate.commonName,
    notAfter: rfc3339(certificate.notAfter),
    expiresInDays: expiresInDays(certificate.notAfter, evaluatedAt),
    caIssuersUrls: [...certificate.caIssuersUrls],
    ocspUrls: [...certificate.ocspUrls],
    notBefore: rfc3339(certificate.notBefore),
    validityDays: validityDays(certificate),
    keyType: certificate.keyType,
    keyBits: certificate.keyBits,
    keyCurve: certificate.keyCurve,
    signatureAlgorithm: certificate.signatureAlgorithm,
    publicKeySha256: certificate.publicKeySha256,
    extendedKeyUsage: certificate.extendedKeyUsage === null ? null : [...certificate.extendedKeyUsage],
    pathLenConstraint: certificate.pathLenConstraint,
    sctCount: certificate.sctCount,
    crlUrls: [...certificate.crlUrls],
  };
}

/**
 * CONTRACT §8.1: `webpki` when the anchor is a reference root (`known-root`, or an in-bundle
 * self-signed anchor byte-equal to one), `private` for a supplied root or another in-bundle anchor,
 * `unknown` when the path is incomplete.
 */
function profileOf(path: BuiltPath, last: CertificateData, reference: RootStore): Profile {
  switch (path.anchor) {
    case "known-root":
      return "webpki";
    case "supplied-root":
      return "private";
    case "in-bundle":
      return isReferenceRoot(reference, last) ? "webpki" : "private";
    default:
      return "unknown";
  }
}

/**
 * The distrust dates of the reference root that anchors a `webpki` path (CONTRACT §9.5), through
 * the store's optional `distrustOf`; null for any other path or a store without dates.
 */
function distrustOf(
  path: BuiltPath,
  certificates: readonly CertificateData[],
  profile: Profile,
  reference: RootStore,
): RootDistrust | null {
  if (profile !== "webpki" || reference.distrustOf === undefined) return null;
  const der = path.anchor === "in-bundle" ? certificates[path.members.at(-1)!]!.der : path.root?.der;
  return der === undefined ? null : reference.distrustOf(der);
}

/** floor((notAfter − evaluatedAt) / 86400 s), exact on whole seconds: negative once expired. */
export function expiresInDays(notAfter: Date, evaluatedAt: Date): number {
  const seconds = Math.floor(notAfter.getTime() / 1000) - Math.floor(evaluatedAt.getTime() / 1000);
  return Math.floor(seconds / SECONDS_PER_DAY);
}
