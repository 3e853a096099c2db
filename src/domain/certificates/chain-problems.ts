/**
 * The problems of a certificate chain (CONTRACT §7.1, §8.1): a closed set of codes, each with a
 * fixed severity, the profile it applies under, the clients known to refuse the connection because
 * of it, the positions it concerns and two plain sentences worded as CONTRACT §4.3 says (positions
 * with their CN, no PEM text). Sorted and built by the same machinery as the bundle's findings
 * (diagnostics.ts). Each code's record (severity, profile, clients, sources) is in the one rule
 * catalogue (rule-catalogue.ts); the §7.1 rules are here, the §8.1 and §9 client rules in
 * client-rules.ts.
 */
import { repeats } from "./bundle.ts";
import type {
  BuiltPath,
  ChainContext,
  ChainMember,
  JudgedAnchor,
  ServedCertificate,
  SuppliedRootRef,
} from "./chain-path.ts";
import { DATED_CONSTANTS } from "./dated-constants.ts";
import { DiagnosticCodes, type Severity } from "./diagnostics.ts";
import { MAX_LISTED_DNS_NAMES, publishedAt, rfc3339 } from "./findings.ts";
import { type ExpectedIdentity, identityText, matchIdentity } from "./identity.ts";
import { isSelfIssued } from "./relationships.ts";
import {
  CHAIN_PROBLEM_CODES,
  type ChainProblemCode,
  CLIENTS,
  type Client,
  type Profile,
  RULES,
  type RuleRecord,
  severities,
} from "./rule-catalogue.ts";
import type { RootMatch } from "./trust-anchors.ts";
import { capitalize, certificateName, listSome, nameLabel, repeatObserved } from "./wording.ts";

/** The chain's codes (rule-catalogue.ts), under the name the wire contract knows them by. */
export const PROBLEM_CODES = CHAIN_PROBLEM_CODES;
export type ProblemCode = ChainProblemCode;
export { CLIENTS, type Client, type Profile };

/** What CONTRACT §7.1, §8.1 and §9 fix for a code: its severity, the profile it applies under, its clients. */
export type ProblemRule = Pick<RuleRecord, "severity" | "profile" | "clients">;

/** Each chain code's record in the catalogue. */
export const PROBLEM_RULES: Readonly<Record<ProblemCode, RuleRecord>> = Object.fromEntries(
  CHAIN_PROBLEM_CODES.map((code) => [code, RULES[code]]),
) as Record<ProblemCode, RuleRecord>;

const PROBLEMS = new DiagnosticCodes<ProblemCode>(CHAIN_PROBLEM_CODES, severities(CHAIN_PROBLEM_CODES));

/** One problem (CONTRACT §7.1, §8.1), field order as specified. */
export interface ChainProblem {
  code: ProblemCode;
  severity: Severity;
  certificateIndexes: number[];
  observed: string;
  nextAction: string;
  /** The clients known to refuse the connection because of it, in `CLIENTS` order. */
  clients: Client[];
  /** The supplied root the problem is about (CONTRACT §9.4); absent for any other. */
  suppliedRoot?: SuppliedRootRef;
}

/** What a rule may state for one problem instead of its code's defaults (WRONG_ORDER's warning, a client variant). */
export interface ProblemVariant {
  severity?: Severity;
  clients?: readonly Client[];
  suppliedRoot?: SuppliedRootRef | null;
}

/** Builds one problem with its code's severity and clients unless `variant` states others. */
export function problem(
  code: ProblemCode,
  certificateIndexes: number[],
  observed: string,
  nextAction: string,
  variant: ProblemVariant = {},
): ChainProblem {
  const clients = CLIENTS.filter((client) =>
    (variant.clients ?? PROBLEM_RULES[code].clients).includes(client),
  );
  const rest =
    variant.suppliedRoot === undefined || variant.suppliedRoot === null
      ? { observed, nextAction, clients }
      : { observed, nextAction, clients, suppliedRoot: variant.suppliedRoot };
  return PROBLEMS.make(code, certificateIndexes, rest, variant.severity);
}

/** Sorts problems into the contract's order (in place) and returns them. */
export function sortProblems(problems: ChainProblem[]): ChainProblem[] {
  return PROBLEMS.sort(problems);
}

/**
 * The order of problems (CONTRACT §7.1, like findings §4.3): severity, then first index (problems
 * with none first), then code in the table's order, then the other indexes.
 */
export const compareProblems: (a: ChainProblem, b: ChainProblem) => number = PROBLEMS.compare;

/**
 * The problems of a request whose leaf is not known (status `no-leaf` or `ambiguous`), sorted:
 * the repeats, and why there is no path.
 */
export function problemsWithoutPath(
  context: ChainContext,
  status: "no-leaf" | "ambiguous",
  leaves: readonly number[],
): ChainProblem[] {
  return PROBLEMS.sort([
    ...duplicateProblems(context),
    status === "no-leaf" ? noLeafProblem(context.certificates.length) : leafSelectionProblem(context, leaves),
  ]);
}

function named(context: ChainContext, index: number): string {
  return certificateName(context.certificates[index]!, index);
}

function duplicateProblems(context: ChainContext): ChainProblem[] {
  return repeats(context.certificates).map(({ first, repeat }) =>
    problem(
      "DUPLICATE_CERTIFICATE",
      [first, repeat],
      repeatObserved(context.certificates, first, repeat),
      `Remove the repeated copy, ${named(context, repeat)}; the corrected chain (fullchainPem) lists each certificate once.`,
    ),
  );
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

/** Every §7.1 problem of a built path, unsorted (chain.ts sorts them with the client rules'). */
export function pathProblems(
  context: ChainContext,
  path: BuiltPath,
  members: readonly ChainMember[],
  identity: ExpectedIdentity | null,
  served: readonly ServedCertificate[],
  anchor: JudgedAnchor | null = null,
): ChainProblem[] {
  const { certificates } = context;
  const problems: ChainProblem[] = [...duplicateProblems(context)];
  const leaf = path.members[0]!;
  const last = path.members.at(-1)!;

  if (path.anchor === "missing") problems.push(incompleteProblem(context, last));

  problems.push(...orderProblems(context, path, served));

  const evaluatedAt = rfc3339(context.evaluatedAt);
  for (const member of members) {
    const certificate = certificates[member.index]!;
    const name = named(context, member.index);
    const role = member.index === leaf ? "renew it" : "fetch the current certificate from its issuer";
    const warning = expiryThreshold(context, member.validityDays);
    if (member.expiresInDays < 0) {
      problems.push(
        problem(
          "EXPIRED",
          [member.index],
          `${capitalize(name)} expired at ${member.notAfter}; the evaluation time is ${evaluatedAt}.`,
          `Replace ${name}: ${role}.`,
        ),
      );
    } else if (member.expiresInDays < warning.days) {
      problems.push(
        problem(
          "EXPIRING",
          [member.index],
          `${capitalize(name)} expires in ${member.expiresInDays} ${member.expiresInDays === 1 ? "day" : "days"}, at ${member.notAfter}${warning.why}.`,
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
  if (anchor?.supplied != null) problems.push(...suppliedRootValidity(context, anchor));

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
 * The EXPIRING threshold of one member (CONTRACT §9.5): `expiryWarningDays` when given; with
 * `expiryWarningPercent` (the CLI's `--expires-within N%`) that share of its lifetime, rounded up;
 * else ⌈lifetime / 3⌉ days, at most 30, or ⌈lifetime / 2⌉ under 10 days of lifetime (certbot's
 * renewal rule). `why` is the clause `observed` adds to say where the threshold comes from.
 */
export function expiryThreshold(
  context: Pick<ChainContext, "expiryWarningDays" | "expiryWarningPercent">,
  lifetimeDays: number,
): { days: number; why: string } {
  if (context.expiryWarningDays !== null) return { days: context.expiryWarningDays, why: "" };
  if (context.expiryWarningPercent !== undefined) {
    const days = Math.ceil((lifetimeDays * context.expiryWarningPercent) / 100);
    return {
      days,
      why: `, within ${context.expiryWarningPercent} % of its ${lifetimeDays}-day lifetime (${days} days)`,
    };
  }
  const rule = DATED_CONSTANTS.expiryWarning.value;
  if (lifetimeDays < rule.shortLifetimeDays) {
    const days = Math.ceil(lifetimeDays / 2);
    return { days, why: `, within the last half of its ${lifetimeDays}-day lifetime (${days} days)` };
  }
  const days = Math.min(rule.maxDays, Math.ceil(lifetimeDays / 3));
  return days === rule.maxDays
    ? { days, why: ` (the warning starts ${days} days before expiry)` }
    : { days, why: `, within the last third of its ${lifetimeDays}-day lifetime (${days} days)` };
}

/** EXPIRED and NOT_YET_VALID of a supplied root (CONTRACT §9.4): judged like an in-bundle anchor, named by `suppliedRoot`. */
function suppliedRootValidity(context: ChainContext, anchor: JudgedAnchor): ChainProblem[] {
  const { certificate } = anchor;
  const supplied = anchor.supplied!;
  const name = `your own root ${supplied.index} (${nameLabel(certificate.subject) ?? "with an empty name"})`;
  const evaluatedAt = rfc3339(context.evaluatedAt);
  const now = context.evaluatedAt.getTime();
  const problems: ChainProblem[] = [];
  if (now > certificate.notAfter.getTime()) {
    problems.push(
      problem(
        "EXPIRED",
        [],
        `${capitalize(name)} expired at ${rfc3339(certificate.notAfter)}; the evaluation time is ${evaluatedAt}.`,
        `Replace ${name} with its current certificate and supply that one as your root.`,
        { suppliedRoot: supplied, clients: ["go", "openssl"] },
      ),
    );
  }
  if (now < certificate.notBefore.getTime()) {
    problems.push(
      problem(
        "NOT_YET_VALID",
        [],
        `${capitalize(name)} is not valid before ${rfc3339(certificate.notBefore)}; the evaluation time is ${evaluatedAt}.`,
        `Check the clock of the machine that made ${name}, or wait until it becomes valid.`,
        { suppliedRoot: supplied, clients: ["go", "openssl"] },
      ),
    );
  }
  return problems;
}

/** A root from outside the bundle, by origin and name: a supplied one is the user's own (CONTRACT §7.6). */
function rootName(root: RootMatch): string {
  const label = nameLabel(root.subject) ?? "with an empty name";
  return root.kind === "supplied-root"
    ? `your own root ${label}`
    : `the root ${label} of the reference store`;
}

/** INCOMPLETE_CHAIN at the last member `last`: the missing issuer, and a root that did not verify it. */
function incompleteProblem(context: ChainContext, last: number): ChainProblem {
  const certificate = context.certificates[last]!;
  const issuer = nameLabel(certificate.issuer) ?? "an issuer with an empty name";
  const url = certificate.caIssuersUrls[0] ?? null;
  const name = named(context, last);
  const refused = context.issuerRoots[last]!.refused;
  if (refused !== null) {
    const where = refused === "supplied-root" ? "among your own roots" : "in the reference root store";
    return problem(
      "INCOMPLETE_CHAIN",
      [last],
      `The chain stops at ${name}: a root named ${issuer} was found ${where}, but its key does not verify the certificate, and no certificate in the bundle issued it.`,
      `Find the certificate of ${issuer} whose key signed ${name} (a CA that kept its name but changed its key has a new certificate); ${publishedAt(url)}.`,
    );
  }
  return problem(
    "INCOMPLETE_CHAIN",
    [last],
    context.hasOwnRoots
      ? `The chain stops at ${name}: its issuer, ${issuer}, is neither in the bundle, nor one of your own roots, nor a known root.`
      : `The chain stops at ${name}: its issuer, ${issuer}, is neither in the bundle nor a known or supplied root.`,
    `Add the certificate of ${issuer} right after ${name}; ${publishedAt(url)} (if ${issuer} is a private root, supply it as a root instead).`,
  );
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
function orderProblems(
  context: ChainContext,
  path: BuiltPath,
  served: readonly ServedCertificate[],
): ChainProblem[] {
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
  // Exactly the certificates of fullchainPem, in its order (CONTRACT §7.6).
  const order = () =>
    served
      .map((block) => (block.position === null ? rootName(path.root!) : named(context, block.position)))
      .join(", then ");
  if (certificates[0]!.fingerprintSha256 !== leafFingerprint) {
    return [
      problem(
        "WRONG_ORDER",
        [...path.members],
        `Position 0 holds ${named(context, 0)} instead of the server's own certificate, ${named(context, leaf)}: a server sends its first certificate as its own.`,
        `Serve the certificates in this order: ${order()}, as the corrected chain (fullchainPem) does.`,
      ),
    ];
  }
  if (inBundleOrder.some((fingerprint, k) => fingerprint !== pathFingerprints[k])) {
    return [
      problem(
        "WRONG_ORDER",
        [...path.members],
        `The issuers after ${named(context, leaf)} are not in chain order: each certificate should be followed by the one that issued it.`,
        `Serve the certificates in this order: ${order()}, as the corrected chain (fullchainPem) does.`,
        { severity: "warning", clients: [] },
      ),
    ];
  }
  return [];
}

/** What `withExpiryPercent` reads of a chain result. */
export interface ExpiryView<Problem extends ChainProblem> {
  leafIndex: number | null;
  certificates: readonly Pick<
    ChainMember,
    "index" | "subject" | "notAfter" | "expiresInDays" | "validityDays"
  >[];
  problems: Problem[];
}

/**
 * The result with its EXPIRING problems judged again at `percent` % of each member's lifetime (the
 * CLI's `--expires-within N%`, CONTRACT §9.5): the API takes days only, so the command line asks
 * without them and applies the share to the members it got back, locally or from a server alike.
 */
export function withExpiryPercent<Problem extends ChainProblem, Result extends ExpiryView<Problem>>(
  result: Result,
  percent: number,
): Result {
  const problems: ChainProblem[] = result.problems.filter((p) => p.code !== "EXPIRING");
  for (const member of result.certificates) {
    const warning = expiryThreshold(
      { expiryWarningDays: null, expiryWarningPercent: percent },
      member.validityDays,
    );
    if (member.expiresInDays < 0 || member.expiresInDays >= warning.days) continue;
    const label = nameLabel(member.subject);
    const name = label === null ? `certificate ${member.index}` : `certificate ${member.index} (${label})`;
    const role =
      member.index === result.leafIndex ? "renew it" : "fetch the current certificate from its issuer";
    problems.push(
      problem(
        "EXPIRING",
        [member.index],
        `${capitalize(name)} expires in ${member.expiresInDays} ${member.expiresInDays === 1 ? "day" : "days"}, at ${member.notAfter}${warning.why}.`,
        `Replace ${name} before ${member.notAfter}: ${role}.`,
      ),
    );
  }
  return { ...result, problems: sortProblems(problems) as Problem[] };
}
