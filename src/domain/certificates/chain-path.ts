/**
 * The path search of the certificate chain (CONTRACT §7.1, §7.2; ADR 0022): of every path from
 * the leaf that the rule allows, the best by the contract's ranking. It works on the candidate
 * links of `analyseRelationships` (one signature check per link, never two), the self-checks, and
 * the root whose key verifies each member (`issuerRoots`, computed once before the search).
 */
import { WorkAbandoned } from "../errors.ts";
import type { WorkBudget } from "../ports.ts";
import { pathErrorCount } from "./member-checks.ts";
import type { CertificateData } from "./model.ts";
import type { NameComparisonTally } from "./name-constraints.ts";
import type { CandidateLink } from "./relationships.ts";
import { type IssuerRoot, type RootMatch, sameBytes } from "./trust-anchors.ts";

/** Where a path ends: a self-signed member, a supplied or known root, or nowhere (its issuer is missing). */
export type AnchorKind = "in-bundle" | "known-root" | "supplied-root" | "missing";

/** How many search states the used-set search visits between yields to the event loop. */
const YIELD_EVERY_STATES = 2048;

/** What the path builder and the problems read, all computed once per request. */
export interface ChainContext {
  certificates: readonly CertificateData[];
  links: readonly CandidateLink[];
  /** Per position: self-issued with a `verified` self-signature. */
  selfSigned: readonly boolean[];
  /** Per position: the root whose key verifies it (ends a path there), or the origin of one that did not. */
  issuerRoots: readonly IssuerRoot[];
  /** Whether the caller supplied roots (the wording names them as the user's own). */
  hasOwnRoots: boolean;
  evaluatedAt: Date;
  /** `expiryWarningDays` as given, or null: then a share of each member's lifetime (CONTRACT §9.5). */
  expiryWarningDays: number | null;
  /** CLI only (`--expires-within N%`): the warning threshold as a percentage of each member's lifetime. */
  expiryWarningPercent?: number | undefined;
  /** When given, counts every name-constraint comparison the path search and the rules make. */
  nameComparisons?: NameComparisonTally | undefined;
}

/** One path member (CONTRACT §7.1 `certificates`, with §8.1's fields), field order as specified. */
export interface ChainMember {
  index: number;
  subject: string;
  commonName: string | null;
  notAfter: string;
  /** floor((notAfter − evaluatedAt) / 86400 s): negative once expired. */
  expiresInDays: number;
  caIssuersUrls: string[];
  ocspUrls: string[];
  notBefore: string;
  /** ceil((notAfter − notBefore + 1 s) / 86400 s): RFC 5280's inclusive period in whole days. */
  validityDays: number;
  keyType: string;
  keyBits: number | null;
  keyCurve: string | null;
  signatureAlgorithm: string;
  publicKeySha256: string;
  extendedKeyUsage: string[] | null;
  pathLenConstraint: number | null;
  sctCount: number;
  crlUrls: string[];
}

/** A path the rule allows, with what ranks it. */
export interface BuiltPath {
  /** Positions, leaf first. */
  members: number[];
  anchor: AnchorKind;
  /** The root that ends the path, for `includeRoot` and the wording (null for `in-bundle`/`missing`). */
  root: RootMatch | null;
}

/** A supplied root as a problem names it (CONTRACT §9.4 `suppliedRoot`). */
export interface SuppliedRootRef {
  /** Its 0-based position among the `roots` blocks. */
  index: number;
  subject: string;
}

/**
 * The anchor the rules judge (CONTRACT §9.4): the in-bundle self-signed last member, or a supplied
 * root; null for a reference root (its curators judge it) and for an incomplete path.
 */
export interface JudgedAnchor {
  certificate: CertificateData;
  /** Its bundle position (in-bundle), or null (supplied). */
  position: number | null;
  supplied: SuppliedRootRef | null;
}

/** The judged anchor of `path`, if any. */
export function judgedAnchorOf(
  path: BuiltPath,
  certificates: readonly CertificateData[],
): JudgedAnchor | null {
  if (path.anchor === "in-bundle") {
    const position = path.members.at(-1)!;
    return { certificate: certificates[position]!, position, supplied: null };
  }
  const supplied = path.root?.supplied;
  if (path.anchor !== "supplied-root" || supplied === undefined) return null;
  return {
    certificate: supplied.certificate,
    position: null,
    supplied: { index: supplied.index, subject: supplied.certificate.subject },
  };
}

/** One certificate of the served chain, and its position in the bundle (null: a root from outside it). */
export interface ServedCertificate {
  der: Uint8Array;
  position: number | null;
}

/**
 * The chain to serve, the content of `fullchainPem` (CONTRACT §7.1): the path in order, a
 * self-signed last member other than the leaf left out; with `includeRoot`, the anchor's
 * certificate (the bundle's, the supplied or the reference root) appended unless it is already
 * the last one.
 */
export function servedChain(
  path: BuiltPath,
  certificates: readonly CertificateData[],
  includeRoot: boolean,
): ServedCertificate[] {
  const served: ServedCertificate[] = path.members.map((position) => ({
    der: certificates[position]!.der,
    position,
  }));
  let anchor: ServedCertificate | null = path.root === null ? null : { der: path.root.der, position: null };
  if (path.anchor === "in-bundle") {
    anchor = served.at(-1)!;
    if (served.length > 1) served.pop();
  }
  if (includeRoot && anchor !== null && !sameBytes(served.at(-1)!.der, anchor.der)) served.push(anchor);
  return served;
}

/**
 * The best rest of a path from one member (the member included), as the search memoizes it: the
 * rank's sums, and the next member as a link, so no path is copied while candidates are compared.
 */
interface Suffix {
  incomplete: number;
  /** Error problems the path-dependent rules raise on the members (and a supplied anchor), CONTRACT §9.3. */
  pathErrors: number;
  keyIdMismatches: number;
  invalidMembers: number;
  length: number;
  member: number;
  next: Suffix | null;
  anchor: AnchorKind;
  root: RootMatch | null;
}

/**
 * Lower is better: complete, fewer path-dependent errors (CONTRACT §9.3), fewer key-id mismatches,
 * fewer invalid members, fewer members, lowest positions.
 */
function compareSuffixes(a: Suffix, b: Suffix): number {
  const bySums =
    a.incomplete - b.incomplete ||
    a.pathErrors - b.pathErrors ||
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
/**
 * The best path from `leafIndex` (CONTRACT §7.1): from the leaf, repeatedly, a self-signed member
 * ends it (`in-bundle`); else a member whose issuer is a supplied or known root ends it; else it
 * continues to a verified, `issuerEligible` candidate issuer whose certificate (by fingerprint) is
 * not already on it; with none it ends (`missing`). Ranked: complete first, then fewer error
 * problems of the path-dependent rules (CONTRACT §9.3: the route clients accept), then fewer links
 * whose `keyIdentifierMatch` is false, then fewer members not valid at `evaluatedAt`, then fewer
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
  const rootMatch = (index: number) => context.issuerRoots[index]!.match;
  const errors = pathErrorCounts(leafIndex, context);
  // A supplied root's own errors, judged once per root however many paths end at it.
  const anchorErrorsByRoot = new Map<RootMatch | null, number>();
  const rootErrors = (root: RootMatch | null): number => {
    let count = anchorErrorsByRoot.get(root);
    if (count === undefined) {
      count = anchorErrors(root, context.certificates[leafIndex]!, context);
      anchorErrorsByRoot.set(root, count);
    }
    return count;
  };
  // The root that ends a path at each position, as a small number (the same root object, the same number).
  const rootIds = new Map<Uint8Array, number>();
  const rootId = (index: number): number => {
    const der = rootMatch(index)?.der;
    if (der === undefined) return -1;
    if (!rootIds.has(der)) rootIds.set(der, rootIds.size);
    return rootIds.get(der)!;
  };
  // Interchangeable issuers: two certificates with the same links in and out (same key-id
  // outcomes), the same end rule (self-signed, the root whose key verifies it) and the
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
    const signature = [
      selfSigned[target],
      invalid[target],
      errors[target],
      rootId(target),
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
    const end = (anchor: AnchorKind, root: RootMatch | null): Suffix => ({
      incomplete: anchor === "missing" ? 1 : 0,
      pathErrors: errors[member]! + rootErrors(root),
      keyIdMismatches: 0,
      invalidMembers: invalidHere,
      length: 1,
      member,
      next: null,
      anchor,
      root,
    });
    let result: Suffix;
    const root = selfSigned[member] ? null : rootMatch(member);
    if (selfSigned[member]) result = end("in-bundle", null);
    else if (root !== null) result = end(root.kind, root);
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
          pathErrors: rest.pathErrors + errors[member]!,
          keyIdMismatches: rest.keyIdMismatches + (link.keyIdentifierMatch === false ? 1 : 0),
          invalidMembers: rest.invalidMembers + invalidHere,
          length: rest.length + 1,
          member,
          next: rest,
          anchor: rest.anchor,
          root: rest.root,
        };
        if (chosen === null || compareSuffixes(candidate, chosen) < 0) chosen = candidate;
      }
      result = chosen ?? end("missing", null);
    }
    memo.set(key, result);
    return result;
  };

  const top =
    bestCompletePath(leafIndex, next, invalid, selfSigned, rootMatch, errors, rootErrors) ??
    (await best(leafIndex, new Array<number>(kinds.size).fill(0), 0));
  const members: number[] = [];
  for (let at: Suffix | null = top; at !== null; at = at.next) members.push(at.member);
  return { members, anchor: top.anchor, root: top.root };
}

/**
 * Per position, the error problems its certificate raises under the path-dependent rules that judge
 * it on its own (member-checks.ts `pathErrorCount`): computed once, before the search, so every
 * component of the rank still adds up along a path. The leaf is the leaf on every path.
 */
function pathErrorCounts(leafIndex: number, context: ChainContext): number[] {
  const { certificates, selfSigned, evaluatedAt } = context;
  const leaf = certificates[leafIndex]!;
  return certificates.map((certificate, index) =>
    pathErrorCount(
      certificate,
      { ca: index !== leafIndex, selfSignedAnchor: selfSigned[index] === true },
      leaf,
      evaluatedAt,
      context.nameComparisons,
    ),
  );
}

/** The errors of a supplied root that ends a path (CONTRACT §9.4: it is judged); a reference root counts none. */
function anchorErrors(root: RootMatch | null, leaf: CertificateData, context: ChainContext): number {
  const supplied = root?.supplied;
  if (supplied === undefined) return 0;
  return pathErrorCount(
    supplied.certificate,
    { ca: true, selfSignedAnchor: true },
    leaf,
    context.evaluatedAt,
    context.nameComparisons,
  );
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
  errors: readonly number[],
  rootErrors: (root: RootMatch | null) => number,
): Suffix | null {
  const count = next.length;
  const best: (Suffix | null)[] = new Array(count).fill(null);
  for (let member = 0; member < count; member++) {
    const root = selfSigned[member] ? null : rootMatch(member);
    if (!selfSigned[member] && root === null) continue;
    best[member] = {
      incomplete: 0,
      pathErrors: errors[member]! + rootErrors(root),
      keyIdMismatches: 0,
      invalidMembers: invalid[member] ? 1 : 0,
      length: 1,
      member,
      next: null,
      anchor: root === null ? "in-bundle" : root.kind,
      root,
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
          pathErrors: rest.pathErrors + errors[member]!,
          keyIdMismatches: rest.keyIdMismatches + (link.keyIdentifierMatch === false ? 1 : 0),
          invalidMembers: rest.invalidMembers + (invalid[member] ? 1 : 0),
          length: rest.length + 1,
          member,
          next: rest,
          anchor: rest.anchor,
          root: rest.root,
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
