/**
 * The certificate-chain use case (CONTRACT §7.1, §7.2): the chain a server should send, built from
 * the relationships the bundle inspection computes and repaired into the file to deploy.
 *
 * The path builder works on the candidate links of `analyseRelationships` (one signature check
 * per link, never two) and the self-checks; it checks no signature of its own. Of every path the
 * rule allows it reports the best by the contract's ranking. Time enters through the Clock (read
 * once); identical input and clock give identical output.
 */
import { type Issue, invalidInput, WorkAbandoned } from "../errors.ts";
import type { CertificateDecoder, Clock, RootStore, SignatureVerifier, WorkBudget } from "../ports.ts";
import { MAX_LISTED_DNS_NAMES, publishedAt, rfc3339 } from "./findings.ts";
import { type ExpectedIdentity, identityText, matchIdentity, validateIdentity } from "./identity.ts";
import {
  type CertificateLimits,
  checkLeafIndex,
  DEFAULT_CERTIFICATE_LIMITS,
  decodeBlock,
  possibleLeaves,
} from "./inspect.ts";
import type { CertificateData } from "./model.ts";
import { scanPem } from "./pem.ts";
import { analyseRelationships, type CandidateLink, isSelfIssued } from "./relationships.ts";
import { RequestRootStore, type RootMatch, readSuppliedRoots } from "./trust-anchors.ts";
import { capitalize, certificateName, listSome, nameLabel } from "./wording.ts";

/** Default and bounds of `expiryWarningDays`. */
export const DEFAULT_EXPIRY_WARNING_DAYS = 30;
export const MAX_EXPIRY_WARNING_DAYS = 3650;

const SECONDS_PER_DAY = 86_400;
/** How many search states the used-set search visits between yields to the event loop. */
const YIELD_EVERY_STATES = 2048;

/** CertificateChainRequest (CONTRACT §7.1), after the HTTP schema has checked the types. */
export interface CertificateChainRequest {
  pem: string;
  hostname?: string | undefined;
  leafIndex?: number | undefined;
  roots?: string | undefined;
  includeRoot?: boolean | undefined;
  expiryWarningDays?: number | undefined;
}

export interface CertificateChainDeps {
  clock: Clock;
  decoder: CertificateDecoder;
  verifier: SignatureVerifier;
  /** The shipped reference root store; the request's `roots` are composed with it. */
  roots: RootStore;
  /** When given, the path search stops (throwing `WorkAbandoned`) once it is exhausted. */
  budget?: WorkBudget;
}

export type ChainStatus = "complete" | "incomplete" | "ambiguous" | "no-leaf";
export type AnchorKind = "in-bundle" | "known-root" | "supplied-root" | "missing";

export interface ChainAnchor {
  kind: AnchorKind;
  /** The anchor's name, or the missing issuer's (the last member's issuer), RFC 4514. */
  subject: string;
  /** `caIssuers` URIs of the last member. */
  caIssuersUrls: string[];
}

/** One path member (CONTRACT §7.1 `certificates`), field order as specified. */
export interface ChainMember {
  index: number;
  subject: string;
  commonName: string | null;
  notAfter: string;
  /** floor((notAfter − evaluatedAt) / 86400 s): negative once expired. */
  expiresInDays: number;
  caIssuersUrls: string[];
  ocspUrls: string[];
}

export const PROBLEM_CODES = [
  "INCOMPLETE_CHAIN",
  "WRONG_ORDER",
  "EXPIRED",
  "NOT_YET_VALID",
  "HOSTNAME_MISMATCH",
  "EXPIRING",
  "UNNEEDED_CERTIFICATE",
  "DUPLICATE_CERTIFICATE",
  "LEAF_SELECTION_REQUIRED",
  "NO_LEAF_CERTIFICATE",
  "ROOT_INCLUDED",
] as const;
export type ProblemCode = (typeof PROBLEM_CODES)[number];
export type ProblemSeverity = "error" | "warning" | "info";

export interface ChainProblem {
  code: ProblemCode;
  severity: ProblemSeverity;
  certificateIndexes: number[];
  observed: string;
  nextAction: string;
}

/** CertificateChainResult (CONTRACT §7.1), field order as specified. */
export interface CertificateChainResult {
  evaluatedAt: string;
  leafIndex: number | null;
  path: number[];
  status: ChainStatus;
  anchor: ChainAnchor | null;
  certificates: ChainMember[];
  problems: ChainProblem[];
  fullchainPem: string;
}

/**
 * Builds and repairs the chain to serve (CONTRACT §7.1).
 *
 * @throws DomainError `INVALID_INPUT` with every issue found together: `pem` problems (located),
 *   `roots` problems (located, path `["roots"]`), the hostname, `leafIndex`, `expiryWarningDays`.
 */
export async function buildCertificateChain(
  request: CertificateChainRequest,
  deps: CertificateChainDeps,
  limits: CertificateLimits = DEFAULT_CERTIFICATE_LIMITS,
): Promise<CertificateChainResult> {
  const scan = scanPem(request.pem, limits);
  const identity = validateIdentity(request.hostname);
  const [decoded, supplied] = await Promise.all([
    Promise.all(scan.blocks.map((block) => decodeBlock(block, deps.decoder))),
    readSuppliedRoots(request.roots, deps.decoder, limits),
  ]);
  const pemIssues = [...scan.issues, ...decoded.flatMap((entry) => (entry.issue ? [entry.issue] : []))];
  pemIssues.sort((a, b) => (a.location?.offset ?? Infinity) - (b.location?.offset ?? Infinity));
  const leafIssues = checkLeafIndex(
    request.leafIndex,
    scan.scanned ? scan.blockCount : null,
    decoded,
    limits.maxBlocks,
  );
  const expiryWarningDays = request.expiryWarningDays ?? DEFAULT_EXPIRY_WARNING_DAYS;
  const issues: Issue[] = [
    ...pemIssues,
    ...supplied.issues,
    ...identity.issues,
    ...leafIssues,
    ...checkExpiryWarningDays(expiryWarningDays),
  ];
  if (issues.length > 0) throw invalidInput(issues);

  const certificates = decoded.map((entry) => entry.certificate!);
  const evaluatedAt = new Date(Math.floor(deps.clock.now().getTime() / 1000) * 1000);
  const analysis = await analyseRelationships(certificates, deps.verifier, limits.maxBlocks);
  const selfSigned = analysis.selfChecks.map((check) => check?.outcome === "verified");
  const store = new RequestRootStore(deps.roots, supplied.roots);

  const leaves = possibleLeaves(certificates);
  const leafIndex = chooseLeaf(request.leafIndex, leaves, identity.expected, certificates);
  const context: ChainContext = {
    certificates,
    links: analysis.links,
    selfSigned,
    evaluatedAt,
    expiryWarningDays,
  };
  if (leafIndex === null) {
    const status: ChainStatus = leaves.length === 0 ? "no-leaf" : "ambiguous";
    return {
      evaluatedAt: rfc3339(evaluatedAt),
      leafIndex: null,
      path: [],
      status,
      anchor: null,
      certificates: [],
      problems: sortProblems([
        ...duplicateProblems(context),
        status === "no-leaf" ? noLeafProblem(certificates.length) : leafSelectionProblem(context, leaves),
      ]),
      fullchainPem: "",
    };
  }

  const best = await bestPath(leafIndex, context, store, deps.budget);
  const last = best.members.at(-1)!;
  const lastCertificate = certificates[last]!;
  const anchorSubject = best.anchor === "in-bundle" ? lastCertificate.subject : lastCertificate.issuer;
  const members = best.members.map((index) => toMember(certificates[index]!, index, evaluatedAt));
  const status: ChainStatus = best.anchor === "missing" ? "incomplete" : "complete";
  return {
    evaluatedAt: rfc3339(evaluatedAt),
    leafIndex,
    path: best.members,
    status,
    anchor: { kind: best.anchor, subject: anchorSubject, caIssuersUrls: [...lastCertificate.caIssuersUrls] },
    certificates: members,
    problems: sortProblems(pathProblems(context, best, members, identity.expected)),
    fullchainPem: fullchainPem(best, certificates, request.includeRoot === true),
  };
}

/** What the path builder and the problems read, all computed once per request. */
export interface ChainContext {
  certificates: readonly CertificateData[];
  links: readonly CandidateLink[];
  /** Per position: self-issued with a `verified` self-signature. */
  selfSigned: readonly boolean[];
  evaluatedAt: Date;
  expiryWarningDays: number;
}

/** A path the rule allows, with what ranks it. */
export interface BuiltPath {
  /** Positions, leaf first. */
  members: number[];
  anchor: AnchorKind;
  /** The anchor certificate from the root store, for `includeRoot` (null for `in-bundle`/`missing`). */
  rootDer: Uint8Array | null;
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

/**
 * The best rest of a path from one member (the member included), as the search memoizes it: the
 * rank's sums, and the next member as a link, so no path is copied while candidates are compared.
 */
interface Suffix {
  incomplete: number;
  keyIdMismatches: number;
  invalidMembers: number;
  length: number;
  member: number;
  next: Suffix | null;
  anchor: AnchorKind;
  rootDer: Uint8Array | null;
}

/** Lower is better: complete, fewer key-id mismatches, fewer invalid members, fewer members, lowest positions. */
function compareSuffixes(a: Suffix, b: Suffix): number {
  const bySums =
    a.incomplete - b.incomplete ||
    a.keyIdMismatches - b.keyIdMismatches ||
    a.invalidMembers - b.invalidMembers ||
    a.length - b.length;
  if (bySums !== 0) return bySums;
  let left: Suffix | null = a;
  let right: Suffix | null = b;
  while (left !== null && right !== null) {
    if (left === right) return 0;
    if (left.member !== right.member) return left.member - right.member;
    left = left.next;
    right = right.next;
  }
  return 0;
}

function compareMembers(a: readonly number[], b: readonly number[]): number {
  for (let k = 0; k < Math.min(a.length, b.length); k++) {
    if (a[k] !== b[k]) return a[k]! - b[k]!;
  }
  return a.length - b.length;
}

/**
 * The best path from `leafIndex` (CONTRACT §7.1): from the leaf, repeatedly, a self-signed member
 * ends it (`in-bundle`); else a member whose issuer is a supplied or known root ends it; else it
 * continues to a verified, `issuerEligible` candidate issuer whose certificate (by fingerprint) is
 * not already on it; with none it ends (`missing`). Ranked: complete first, then fewer links whose
 * `keyIdentifierMatch` is false, then fewer members not valid at `evaluatedAt`, then fewer
 * members, then the lowest positions, compared member by member.
 *
 * Every component of the rank adds up along the path and the positions compare member by member,
 * so the best rest of a path depends only on its current member and the certificates already on
 * it: the search memoizes on (member, fingerprints used) instead of enumerating paths one by one,
 * which same-name CAs signing each other would make factorial (ADR 0022).
 */
export async function bestPath(
  leafIndex: number,
  context: ChainContext,
  store: RequestRootStore,
  budget?: WorkBudget,
): Promise<BuiltPath> {
  const { certificates, links, selfSigned, evaluatedAt } = context;
  const fingerprintId = new Map<string, number>();
  const idOf = certificates.map((certificate) => {
    let id = fingerprintId.get(certificate.fingerprintSha256);
    if (id === undefined) {
      id = fingerprintId.size;
      fingerprintId.set(certificate.fingerprintSha256, id);
    }
    return id;
  });
  // A repeat has the same links as its first occurrence at a higher position, so a path through
  // it is never the first by the ranking: only first occurrences are followed.
  const firstPosition = new Map<number, number>();
  idOf.forEach((id, position) => {
    if (!firstPosition.has(id)) firstPosition.set(id, position);
  });
  const next: CandidateLink[][] = certificates.map(() => []);
  for (const link of links) {
    if (link.check.outcome !== "verified" || !link.issuerEligible) continue;
    if (firstPosition.get(idOf[link.issuerIndex]!) !== link.issuerIndex) continue;
    next[link.childIndex]!.push(link);
  }
  const now = evaluatedAt.getTime();
  const invalid = certificates.map(
    (certificate) => now > certificate.notAfter.getTime() || now < certificate.notBefore.getTime(),
  );
  const rootOf = new Map<number, RootMatch | null>();
  const rootMatch = (index: number): RootMatch | null => {
    if (!rootOf.has(index)) {
      const certificate = certificates[index]!;
      rootOf.set(index, store.match(certificate.issuerNameKey, certificate.authorityKeyIdentifier));
    }
    return rootOf.get(index)!;
  };
  // Interchangeable issuers: two certificates with the same links in and out (same key-id
  // outcomes), the same end rule (self-signed, issuer name and key id for the root match) and the
  // same validity can swap places on any path without changing its rank's sums, so a path always
  // takes the lowest unused one of its kind first (that wins the positions tie-break) and the used
  // set is just how many of each kind are on the path (ADR 0022).
  const inLinks = new Map<number, string[]>();
  for (const [child, childLinks] of next.entries()) {
    for (const link of childLinks) {
      const list = inLinks.get(link.issuerIndex) ?? [];
      list.push(`${child}:${link.keyIdentifierMatch}`);
      inLinks.set(link.issuerIndex, list);
    }
  }
  const kindOf = new Map<number, { kind: number; rank: number }>();
  const kinds = new Map<string, number[]>();
  for (const target of [...inLinks.keys()].sort((a, b) => a - b)) {
    const certificate = certificates[target]!;
    const signature = [
      selfSigned[target],
      invalid[target],
      certificate.issuerNameKey,
      certificate.authorityKeyIdentifier,
      next[target]!.map((link) => `${link.issuerIndex}:${link.keyIdentifierMatch}`).join(","),
      inLinks.get(target)!.sort().join(","),
    ].join("|");
    const members = kinds.get(signature) ?? [];
    if (members.length === 0) kinds.set(signature, members);
    kindOf.set(target, { kind: [...kinds.keys()].indexOf(signature), rank: members.length });
    members.push(target);
  }
  // The counts as one mixed-radix number (at most 2¹⁶ values for 16 certificates), times the
  // number of positions, plus the member: an integer key, cheaper than text.
  const radix: number[] = [];
  let states = 1;
  for (const members of kinds.values()) {
    radix.push(states);
    states *= members.length + 1;
  }
  const memo = new Map<number, Suffix>();

  let visited = 0;
  const best = async (member: number, used: number[], code: number): Promise<Suffix> => {
    const key = code * certificates.length + member;
    const known = memo.get(key);
    if (known !== undefined) return known;
    // A search over many states (only adversarial bundles get there) lets other requests run.
    if (++visited % YIELD_EVERY_STATES === 0) {
      await new Promise<void>((resume) => setTimeout(resume, 0));
      // An answer past the deadline is refused anyway: stop rather than finish it.
      if (budget?.exhausted() === true) throw new WorkAbandoned();
    }
    const invalidHere = invalid[member] ? 1 : 0;
    const end = (anchor: AnchorKind, rootDer: Uint8Array | null): Suffix => ({
      incomplete: anchor === "missing" ? 1 : 0,
      keyIdMismatches: 0,
      invalidMembers: invalidHere,
      length: 1,
      member,
      next: null,
      anchor,
      rootDer,
    });
    let result: Suffix;
    const root = selfSigned[member] ? null : rootMatch(member);
    if (selfSigned[member]) result = end("in-bundle", null);
    else if (root !== null) result = end(root.kind, root.der);
    else {
      let chosen: Suffix | null = null;
      for (const link of next[member]!) {
        const { kind, rank } = kindOf.get(link.issuerIndex)!;
        // Only the lowest unused certificate of its kind: the ones before it are on the path.
        if (rank !== used[kind]) continue;
        used[kind]!++;
        const rest = await best(link.issuerIndex, used, code + radix[kind]!);
        used[kind]!--;
        const candidate: Suffix = {
          incomplete: rest.incomplete,
          keyIdMismatches: rest.keyIdMismatches + (link.keyIdentifierMatch === false ? 1 : 0),
          invalidMembers: rest.invalidMembers + invalidHere,
          length: rest.length + 1,
          member,
          next: rest,
          anchor: rest.anchor,
          rootDer: rest.rootDer,
        };
        if (chosen === null || compareSuffixes(candidate, chosen) < 0) chosen = candidate;
      }
      result = chosen ?? end("missing", null);
    }
    memo.set(key, result);
    return result;
  };

  const top =
    bestCompletePath(leafIndex, next, invalid, selfSigned, rootMatch) ??
    (await best(leafIndex, new Array<number>(kinds.size).fill(0), 0));
  const members: number[] = [];
  for (let at: Suffix | null = top; at !== null; at = at.next) members.push(at.member);
  return { members, anchor: top.anchor, rootDer: top.rootDer };
}

/**
 * The best complete path, or null when no complete path exists. A complete path ends at a
 * member that is self-signed or issued by a root, whatever else is on the path, so the best one
 * is a shortest path (the rank's sums are non-negative and each member adds one to the length):
 * a path that visits a certificate twice is beaten by the same path without the loop, so the
 * "not already on it" rule never binds and a Bellman-Ford relaxation over at most n rounds finds
 * it, in O(n · links) instead of the search over used sets that an incomplete path needs.
 */
function bestCompletePath(
  leafIndex: number,
  next: readonly (readonly CandidateLink[])[],
  invalid: readonly boolean[],
  selfSigned: readonly boolean[],
  rootMatch: (index: number) => RootMatch | null,
): Suffix | null {
  const count = next.length;
  const best: (Suffix | null)[] = new Array(count).fill(null);
  for (let member = 0; member < count; member++) {
    const root = selfSigned[member] ? null : rootMatch(member);
    if (!selfSigned[member] && root === null) continue;
    best[member] = {
      incomplete: 0,
      keyIdMismatches: 0,
      invalidMembers: invalid[member] ? 1 : 0,
      length: 1,
      member,
      next: null,
      anchor: root === null ? "in-bundle" : root.kind,
      rootDer: root === null ? null : root.der,
    };
  }
  const terminal = best.map((suffix) => suffix !== null);
  for (let round = 0; round <= count; round++) {
    let changed = false;
    for (let member = 0; member < count; member++) {
      if (terminal[member]) continue;
      for (const link of next[member]!) {
        const rest = best[link.issuerIndex];
        if (rest === null || rest === undefined) continue;
        const candidate: Suffix = {
          incomplete: 0,
          keyIdMismatches: rest.keyIdMismatches + (link.keyIdentifierMatch === false ? 1 : 0),
          invalidMembers: rest.invalidMembers + (invalid[member] ? 1 : 0),
          length: rest.length + 1,
          member,
          next: rest,
          anchor: rest.anchor,
          rootDer: rest.rootDer,
        };
        const current = best[member];
        if (current === null || current === undefined || compareSuffixes(candidate, current) < 0) {
          best[member] = candidate;
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  return best[leafIndex] ?? null;
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
  };
}

/** floor((notAfter − evaluatedAt) / 86400 s), exact on whole seconds: negative once expired. */
export function expiresInDays(notAfter: Date, evaluatedAt: Date): number {
  const seconds = Math.floor(notAfter.getTime() / 1000) - Math.floor(evaluatedAt.getTime() / 1000);
  return Math.floor(seconds / SECONDS_PER_DAY);
}

/**
 * The file to deploy: the path in order, a self-signed last member other than the leaf left out;
 * with `includeRoot`, the anchor's certificate appended unless it is already the last block. Each
 * block re-encoded from its DER, 64-character base64 lines, `\n` line ends, a final `\n`.
 */
export function fullchainPem(
  path: BuiltPath,
  certificates: readonly CertificateData[],
  includeRoot: boolean,
): string {
  const blocks = path.members.map((index) => certificates[index]!.der);
  let anchorDer: Uint8Array | null = path.rootDer;
  if (path.anchor === "in-bundle") {
    anchorDer = blocks.at(-1)!;
    if (blocks.length > 1) blocks.pop();
  }
  if (includeRoot && anchorDer !== null && !sameBytes(blocks.at(-1)!, anchorDer)) blocks.push(anchorDer);
  return blocks.map(pemBlock).join("");
}

const BASE64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** RFC 4648 base64 with padding, in plain code so that the domain needs no runtime API. */
function base64Of(bytes: Uint8Array): string {
  let out = "";
  let at = 0;
  for (; at + 2 < bytes.length; at += 3) {
    const n = (bytes[at]! << 16) | (bytes[at + 1]! << 8) | bytes[at + 2]!;
    out +=
      BASE64_ALPHABET[n >>> 18]! +
      BASE64_ALPHABET[(n >>> 12) & 63]! +
      BASE64_ALPHABET[(n >>> 6) & 63]! +
      BASE64_ALPHABET[n & 63]!;
  }
  const rest = bytes.length - at;
  if (rest === 1) {
    const n = bytes[at]! << 16;
    out += `${BASE64_ALPHABET[n >>> 18]!}${BASE64_ALPHABET[(n >>> 12) & 63]!}==`;
  } else if (rest === 2) {
    const n = (bytes[at]! << 16) | (bytes[at + 1]! << 8);
    out += `${BASE64_ALPHABET[n >>> 18]!}${BASE64_ALPHABET[(n >>> 12) & 63]!}${BASE64_ALPHABET[(n >>> 6) & 63]!}=`;
  }
  return out;
}

/** One CERTIFICATE block: 64-character base64 lines, `\n` line ends. */
export function pemBlock(der: Uint8Array): string {
  const base64 = base64Of(der);
  const lines: string[] = [];
  for (let at = 0; at < base64.length; at += 64) lines.push(base64.slice(at, at + 64));
  return `-----BEGIN CERTIFICATE-----\n${lines.join("\n")}\n-----END CERTIFICATE-----\n`;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Problems.

const SEVERITY_OF: Readonly<Record<ProblemCode, ProblemSeverity>> = {
  INCOMPLETE_CHAIN: "error",
  WRONG_ORDER: "error",
  EXPIRED: "error",
  NOT_YET_VALID: "error",
  HOSTNAME_MISMATCH: "error",
  EXPIRING: "warning",
  UNNEEDED_CERTIFICATE: "warning",
  DUPLICATE_CERTIFICATE: "warning",
  LEAF_SELECTION_REQUIRED: "warning",
  NO_LEAF_CERTIFICATE: "warning",
  ROOT_INCLUDED: "info",
};

function problem(
  code: ProblemCode,
  certificateIndexes: number[],
  observed: string,
  nextAction: string,
  severity: ProblemSeverity = SEVERITY_OF[code],
): ChainProblem {
  return { code, severity, certificateIndexes, observed, nextAction };
}

const SEVERITY_RANK: Readonly<Record<ProblemSeverity, number>> = { error: 0, warning: 1, info: 2 };
const CODE_RANK = new Map<ProblemCode, number>(PROBLEM_CODES.map((code, rank) => [code, rank]));

/**
 * The order of findings (CONTRACT §4.3, §7.1): severity, then first index (problems with none
 * first), then code in the table's order, then the other indexes.
 */
export function compareProblems(a: ChainProblem, b: ChainProblem): number {
  const bySeverity = SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity];
  if (bySeverity !== 0) return bySeverity;
  const byFirst = (a.certificateIndexes[0] ?? -1) - (b.certificateIndexes[0] ?? -1);
  if (byFirst !== 0) return byFirst;
  const byCode = CODE_RANK.get(a.code)! - CODE_RANK.get(b.code)!;
  if (byCode !== 0) return byCode;
  return compareMembers(a.certificateIndexes.slice(1), b.certificateIndexes.slice(1));
}

function sortProblems(problems: ChainProblem[]): ChainProblem[] {
  return problems.sort(compareProblems);
}

function named(context: ChainContext, index: number): string {
  return certificateName(context.certificates[index]!, index);
}

function duplicateProblems(context: ChainContext): ChainProblem[] {
  const first = new Map<string, number>();
  const problems: ChainProblem[] = [];
  for (const [index, certificate] of context.certificates.entries()) {
    const earlier = first.get(certificate.fingerprintSha256);
    if (earlier === undefined) {
      first.set(certificate.fingerprintSha256, index);
      continue;
    }
    problems.push(
      problem(
        "DUPLICATE_CERTIFICATE",
        [earlier, index],
        `${capitalize(named(context, index))} repeats ${named(context, earlier)}: same SHA-256 fingerprint.`,
        `Remove the repeated copy, ${named(context, index)}; the corrected chain (fullchainPem) lists each certificate once.`,
      ),
    );
  }
  return problems;
}

function noLeafProblem(count: number): ChainProblem {
  return problem(
    "NO_LEAF_CERTIFICATE",
    [],
    `None of the ${count} ${count === 1 ? "certificate is a" : "certificates is a"} server (non-CA) certificate, so there is no chain to build.`,
    "Add the server's own certificate (the one issued for its name) as the first block.",
  );
}

function leafSelectionProblem(context: ChainContext, leaves: readonly number[]): ChainProblem {
  const names = leaves.map((index) => named(context, index));
  return problem(
    "LEAF_SELECTION_REQUIRED",
    [...leaves],
    `The bundle holds ${leaves.length} possible server certificates (${listSome(names, MAX_LISTED_DNS_NAMES)}) and none was chosen.`,
    "Give leafIndex (or a hostname that only one of them covers), or keep only the server's own certificate in the bundle.",
  );
}

function pathProblems(
  context: ChainContext,
  path: BuiltPath,
  members: readonly ChainMember[],
  identity: ExpectedIdentity | null,
): ChainProblem[] {
  const { certificates } = context;
  const problems: ChainProblem[] = [...duplicateProblems(context)];
  const leaf = path.members[0]!;
  const last = path.members.at(-1)!;
  const lastCertificate = certificates[last]!;

  if (path.anchor === "missing") {
    const issuer = nameLabel(lastCertificate.issuer) ?? "an issuer with an empty name";
    const url = lastCertificate.caIssuersUrls[0] ?? null;
    problems.push(
      problem(
        "INCOMPLETE_CHAIN",
        [last],
        `The chain stops at ${named(context, last)}: its issuer, ${issuer}, is neither in the bundle nor a known or supplied root.`,
        `Add the certificate of ${issuer} right after ${named(context, last)}; ${publishedAt(url)} (if ${issuer} is a private root, supply it as a root instead).`,
      ),
    );
  }

  problems.push(...orderProblems(context, path));

  const evaluatedAt = rfc3339(context.evaluatedAt);
  for (const member of members) {
    const certificate = certificates[member.index]!;
    const name = named(context, member.index);
    const role = member.index === leaf ? "renew it" : "fetch the current certificate from its issuer";
    if (member.expiresInDays < 0) {
      problems.push(
        problem(
          "EXPIRED",
          [member.index],
          `${capitalize(name)} expired at ${member.notAfter}; the evaluation time is ${evaluatedAt}.`,
          `Replace ${name}: ${role}.`,
        ),
      );
    } else if (member.expiresInDays < context.expiryWarningDays) {
      problems.push(
        problem(
          "EXPIRING",
          [member.index],
          `${capitalize(name)} expires in ${member.expiresInDays} ${member.expiresInDays === 1 ? "day" : "days"}, at ${member.notAfter}.`,
          `Replace ${name} before ${member.notAfter}: ${role}.`,
        ),
      );
    }
    if (context.evaluatedAt.getTime() < certificate.notBefore.getTime()) {
      problems.push(
        problem(
          "NOT_YET_VALID",
          [member.index],
          `${capitalize(name)} is not valid before ${rfc3339(certificate.notBefore)}; the evaluation time is ${evaluatedAt}.`,
          `Check the clock of the machine that issued ${name}, or wait until it becomes valid before serving it.`,
        ),
      );
    }
  }

  if (identity !== null) {
    const leafCertificate = certificates[leaf]!;
    if (matchIdentity(identity, leafCertificate.sans) === null) {
      const kind = identity.kind === "dns" ? "dns" : "ip";
      const listed = leafCertificate.sans.filter((san) => san.type === kind).map((san) => san.value);
      const what = kind === "dns" ? "DNS names" : "IP addresses";
      problems.push(
        problem(
          "HOSTNAME_MISMATCH",
          [leaf],
          listed.length === 0
            ? `${capitalize(named(context, leaf))} lists no ${what}, so it does not cover ${identityText(identity)}.`
            : `${capitalize(named(context, leaf))} does not cover ${identityText(identity)}; its ${what}: ${listSome(listed, MAX_LISTED_DNS_NAMES)}.`,
          `Use a certificate issued for ${identityText(identity)}, or check the name the clients connect to.`,
        ),
      );
    }
  }

  const onPath = new Set(path.members.map((index) => certificates[index]!.fingerprintSha256));
  const includedRoots = includedRootPositions(context, path);
  const seen = new Set<string>();
  for (const [index, certificate] of certificates.entries()) {
    const fingerprint = certificate.fingerprintSha256;
    const repeat = seen.has(fingerprint);
    seen.add(fingerprint);
    if (repeat || onPath.has(fingerprint) || includedRoots.has(index)) continue;
    problems.push(
      problem(
        "UNNEEDED_CERTIFICATE",
        [index],
        `${capitalize(named(context, index))} is not part of the chain from ${named(context, leaf)} to its anchor.`,
        `Remove ${named(context, index)} from the served chain; the corrected chain (fullchainPem) leaves it out.`,
      ),
    );
  }
  for (const index of includedRoots) {
    problems.push(
      problem(
        "ROOT_INCLUDED",
        [index],
        `${capitalize(named(context, index))} is a self-signed root served with the chain.`,
        "Leave the root out of the served chain: clients use their own copy of it (the corrected chain, fullchainPem, omits it unless includeRoot is set).",
      ),
    );
  }
  return problems;
}

/**
 * ROOT_INCLUDED positions: first occurrences of self-signed certificates, other than the leaf,
 * that are the last member or a verified candidate issuer of it.
 */
function includedRootPositions(context: ChainContext, path: BuiltPath): Set<number> {
  const { certificates, links, selfSigned } = context;
  const leafFingerprint = certificates[path.members[0]!]!.fingerprintSha256;
  const last = path.members.at(-1)!;
  const candidates = new Set<number>([last]);
  for (const link of links) {
    if (link.childIndex === last && link.check.outcome === "verified") candidates.add(link.issuerIndex);
  }
  const firstOf = new Map<string, number>();
  for (const [index, certificate] of certificates.entries()) {
    if (!firstOf.has(certificate.fingerprintSha256)) firstOf.set(certificate.fingerprintSha256, index);
  }
  const positions = new Set<number>();
  for (const index of candidates) {
    const certificate = certificates[index]!;
    if (!selfSigned[index] || certificate.fingerprintSha256 === leafFingerprint) continue;
    if (!isSelfIssued(certificate)) continue;
    positions.add(firstOf.get(certificate.fingerprintSha256)!);
  }
  return positions;
}

/**
 * WRONG_ORDER: an error when position 0 does not hold the leaf (a server sends its first
 * certificate as its own); a warning when it does but the path members, read in bundle order with
 * repeats and certificates off the path ignored, are not in path order.
 */
function orderProblems(context: ChainContext, path: BuiltPath): ChainProblem[] {
  const { certificates } = context;
  const leaf = path.members[0]!;
  const leafFingerprint = certificates[leaf]!.fingerprintSha256;
  const pathFingerprints = path.members.map((index) => certificates[index]!.fingerprintSha256);
  const wanted = new Set(pathFingerprints);
  const seen = new Set<string>();
  const inBundleOrder: string[] = [];
  for (const certificate of certificates) {
    const fingerprint = certificate.fingerprintSha256;
    if (seen.has(fingerprint)) continue;
    seen.add(fingerprint);
    if (wanted.has(fingerprint)) inBundleOrder.push(fingerprint);
  }
  const order = path.members.map((index) => named(context, index)).join(", then ");
  if (certificates[0]!.fingerprintSha256 !== leafFingerprint) {
    return [
      problem(
        "WRONG_ORDER",
        [...path.members],
        `Position 0 holds ${named(context, 0)} instead of the server's own certificate, ${named(context, leaf)}: a server sends its first certificate as its own.`,
        `Serve the certificates in this order: ${order}, as the corrected chain (fullchainPem) does.`,
        "error",
      ),
    ];
  }
  if (inBundleOrder.some((fingerprint, k) => fingerprint !== pathFingerprints[k])) {
    return [
      problem(
        "WRONG_ORDER",
        [...path.members],
        `The issuers after ${named(context, leaf)} are not in chain order: each certificate should be followed by the one that issued it.`,
        `Serve the certificates in this order: ${order}, as the corrected chain (fullchainPem) does.`,
        "warning",
      ),
    ];
  }
  return [];
}
