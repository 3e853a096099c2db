/**
 * "Will clients accept it?" (CONTRACT §8.1): the rules that Chrome, Firefox, Apple's platforms, Go
 * and OpenSSL apply beyond path building, judged on the path actually built. Each code's rule,
 * clients and source are documented at its entry in `PROBLEM_CODES` (chain-problems.ts).
 *
 * Path members only (no path, no problem). The leaf is the first member; the anchor is the
 * in-bundle self-signed last member when the path ends there (a supplied or reference root is not a
 * member and is never judged). The anchor's own signature is never judged (clients do not check a
 * trust anchor's signature); its key, pathLenConstraint and nameConstraints are.
 */
import type { RootDistrust } from "../ports.ts";
import type { BuiltPath, ChainContext, JudgedAnchor } from "./chain-path.ts";
import { type ChainProblem, type ProblemCode, type ProblemVariant, problem } from "./chain-problems.ts";
import { DATED_CONSTANTS } from "./dated-constants.ts";
import { rfc3339 } from "./findings.ts";
import {
  caEkuLacksServerAuth,
  curveRefusers,
  issuedFrom,
  PROCESSED_EXTENSIONS,
  rsaBits,
  rsaKeyRule,
  unprocessedCriticalExtensions,
} from "./member-checks.ts";
import type { CertificateData } from "./model.ts";
import {
  MALFORMED_IP_SUBTREE,
  type NameComparisonTally,
  type ViolatingName,
  violatingNameOf,
} from "./name-constraints.ts";
import { isSelfIssued } from "./relationships.ts";
import { CLIENTS, type Client, type Profile, RULES } from "./rule-catalogue.ts";
import { capitalize, certificateName, listSome, nameLabel } from "./wording.ts";

const SECONDS_PER_DAY = 86_400;

/** Instants of the rules (dated-constants.ts; notBefore compared inclusively). */
export const CUTOVER = {
  /** Apple HT210176: EKU required, 825 days at most. */
  apple2019: DATED_CONSTANTS.appleCutover2019.value,
  /** Apple HT211025, Chrome 85: 398 days at most under public roots. */
  publicRoots2020: DATED_CONSTANTS.publicRootsCutover2020.value,
} as const;

/** CA/Browser Forum ballot SC-081v3 (Baseline Requirements §6.3.2): the tightest that applies wins. */
export const BR_VALIDITY_LIMITS = DATED_CONSTANTS.brValidityLimits.value;

/** Apple HT210176's limit and Apple HT211025's (with Chrome's) in days. */
export const MAX_VALIDITY_DAYS = {
  apple: DATED_CONSTANTS.appleMaxValidityDays.value,
  publicRoots: DATED_CONSTANTS.publicRootsMaxValidityDays.value,
} as const;

/** RSA sizes the rules compare with (OpenSSL level 1, Chromium IsWeakKey, Go; Apple and OpenSSL ≥ 3.2). */
export const RSA_MINIMUM_BITS = {
  everyone: DATED_CONSTANTS.rsaMinimumBits.value,
  apple: DATED_CONSTANTS.rsaApplePlusOpensslBits.value,
} as const;

/**
 * The validity period of RFC 5280 §4.1.2.5 (notBefore through notAfter, inclusive) in days of
 * 86,400 s, any part of a day counting as a day (Apple HT211025): ceil((notAfter − notBefore +
 * 1 s) / 86400 s). `openssl x509 -days 398` gives 399.
 */
export function validityDays(certificate: Pick<CertificateData, "notBefore" | "notAfter">): number {
  const seconds =
    Math.floor(certificate.notAfter.getTime() / 1000) -
    Math.floor(certificate.notBefore.getTime() / 1000) +
    1;
  return Math.ceil(seconds / SECONDS_PER_DAY);
}

/** What the client rules read besides the context: the path, who judges it, its judged anchor. */
export interface ClientRuleInput {
  context: ChainContext;
  path: BuiltPath;
  profile: Profile;
  /** The in-bundle or supplied anchor (CONTRACT §9.4), or null. */
  anchor: JudgedAnchor | null;
  /** The reference root's distrust dates when the anchor is one (CONTRACT §9.5), else null. */
  distrust: RootDistrust | null;
}

/** Every §8.1 and §9 problem of the path (unsorted): each code raised where its record says. */
export function clientRuleProblems(input: ClientRuleInput): ChainProblem[] {
  const { context, path, profile, anchor } = input;
  const applies = (code: ProblemCode) => RULES[code].profile === "any" || profile === "webpki";
  const found: ChainProblem[] = [];
  const raise = (code: ProblemCode, make: () => ChainProblem | null) => {
    if (!applies(code)) return;
    const made = make();
    if (made !== null) found.push(made);
  };
  const leaf = path.members[0]!;
  const words = new Wording(context, leaf, anchor);
  // Every certificate judged on its own: the members, then a supplied anchor (not a member).
  const judged: Judged[] = path.members.map((index, position) => ({
    certificate: context.certificates[index]!,
    index,
    position,
    isAnchor: anchor !== null && anchor.position === index && position === path.members.length - 1,
  }));
  if (anchor !== null && anchor.position === null) {
    judged.push({
      certificate: anchor.certificate,
      index: null,
      position: path.members.length,
      isAnchor: true,
    });
  }

  raise("NO_SUBJECT_ALT_NAME", () => noSubjectAltName(words, leaf));
  raise("EKU_LACKS_SERVER_AUTH", () => ekuLacksServerAuth(words, leaf));
  raise("EKU_ABSENT", () => ekuAbsent(words, leaf));
  raise("EKU_NOT_SERVER_AUTH_ONLY", () => ekuNotServerAuthOnly(words, leaf));
  for (const subject of judged) {
    raise("RSA_KEY_UNDER_1024", () => rsaKey(words, subject, "RSA_KEY_UNDER_1024"));
    raise("RSA_KEY_UNDER_2048", () => rsaKey(words, subject, "RSA_KEY_UNDER_2048"));
    if (!subject.isAnchor) raise("SHA1_SIGNATURE", () => sha1Signature(words, subject, profile));
    raise("UNKNOWN_CRITICAL_EXTENSION", () => unknownCriticalExtension(words, subject));
    raise("EC_CURVE_NOT_ACCEPTED", () => ecCurveNotAccepted(words, subject));
    if (subject.position === 0) continue;
    raise("CA_EKU_LACKS_SERVER_AUTH", () => caEkuLacks(words, subject));
    raise("PATH_LENGTH_EXCEEDED", () => pathLengthExceeded(words, judged, subject));
    raise("NAME_CONSTRAINTS_VIOLATED", () =>
      nameConstraintsViolated(words, judged, subject, context.nameComparisons),
    );
  }
  raise("VALIDITY_OVER_825_DAYS", () => validityOver(words, leaf, "VALIDITY_OVER_825_DAYS"));
  raise("VALIDITY_OVER_398_DAYS", () => validityOver(words, leaf, "VALIDITY_OVER_398_DAYS"));
  raise("VALIDITY_OVER_BR_LIMIT", () => validityOverBrLimit(words, leaf));
  raise("NO_EMBEDDED_SCTS", () => noEmbeddedScts(words, leaf));
  raise("TOO_FEW_EMBEDDED_SCTS", () => tooFewEmbeddedScts(words, leaf));
  raise("ROOT_DISTRUSTED_FOR_NEW_CERTS", () => rootDistrusted(words, leaf, path, input.distrust));
  return found;
}

/** One certificate the rules judge: a member (its bundle position), or the supplied anchor (null). */
interface Judged {
  certificate: CertificateData;
  index: number | null;
  /** Its place on the path, the leaf 0, a supplied anchor after the last member. */
  position: number;
  isAnchor: boolean;
}

/** Names and advice by role (CONTRACT §4.3, §8.1: a leaf is reissued, a CA member replaced). */
class Wording {
  constructor(
    readonly context: ChainContext,
    readonly leaf: number,
    readonly anchor: JudgedAnchor | null,
  ) {}

  certificate(index: number): CertificateData {
    return this.context.certificates[index]!;
  }

  name(index: number): string {
    return certificateName(this.certificate(index), index);
  }

  /** The name of a judged certificate: its position and CN, or the supplied root's. */
  of(subject: Judged): string {
    if (subject.index !== null) return this.name(subject.index);
    const label = nameLabel(subject.certificate.subject) ?? "with an empty name";
    return `your own root ${this.anchor!.supplied!.index} (${label})`;
  }

  /** The bundle positions of a judged certificate (none for a supplied root). */
  indexes(subject: Judged): number[] {
    return subject.index === null ? [] : [subject.index];
  }

  /** The variant that names the supplied root, for a problem about it. */
  variant(subject: Judged, clients?: readonly Client[]): ProblemVariant {
    const suppliedRoot = subject.index === null ? this.anchor!.supplied : null;
    return clients === undefined ? { suppliedRoot } : { suppliedRoot, clients };
  }

  /** The sentence that ends a problem's advice, by the certificate's role. */
  fix(subject: Judged, leafFix: string, caFix: string): string {
    const name = this.of(subject);
    if (subject.index === null) return `Replace ${name} ${caFix}, and supply the new one as your root.`;
    return subject.index === this.leaf ? `Reissue ${name} ${leafFix}.` : `Replace ${name} ${caFix}.`;
  }
}

function noSubjectAltName(words: Wording, leaf: number): ChainProblem | null {
  const { sans, commonName } = words.certificate(leaf);
  if (sans.some((san) => san.type === "dns" || san.type === "ip")) return null;
  const name = words.name(leaf);
  const what = sans.length === 0 ? "has no subjectAltName" : "has no DNS or IP name in its subjectAltName";
  return problem(
    "NO_SUBJECT_ALT_NAME",
    [leaf],
    `${capitalize(name)} ${what}${commonName === null ? "" : "; the name in its Common Name is not used by clients"}.`,
    `Reissue ${name} with every name the server answers to as a DNS (or IP) subjectAltName.`,
  );
}

function ekuLacksServerAuth(words: Wording, leaf: number): ChainProblem | null {
  const usage = words.certificate(leaf).extendedKeyUsage;
  if (usage === null || usage.includes("serverAuth")) return null;
  const name = words.name(leaf);
  const listed = usage.length === 0 ? "an empty list" : usage.join(", ");
  const clients: readonly Client[] = usage.includes("anyExtendedKeyUsage")
    ? ["apple", "openssl"]
    : RULES.EKU_LACKS_SERVER_AUTH.clients;
  return problem(
    "EKU_LACKS_SERVER_AUTH",
    [leaf],
    `${capitalize(name)} has an extendedKeyUsage of ${listed}, without serverAuth: it is not for TLS servers.`,
    `Reissue ${name} with serverAuth in its extendedKeyUsage.`,
    { clients },
  );
}

function ekuAbsent(words: Wording, leaf: number): ChainProblem | null {
  const certificate = words.certificate(leaf);
  if (certificate.extendedKeyUsage !== null || !issuedFrom(certificate, CUTOVER.apple2019)) return null;
  const name = words.name(leaf);
  return problem(
    "EKU_ABSENT",
    [leaf],
    `${capitalize(name)} has no extendedKeyUsage extension, and it was issued on ${rfc3339(certificate.notBefore)}, after Apple began requiring one (2019-07-01).`,
    `Reissue ${name} with an extendedKeyUsage extension that holds serverAuth.`,
  );
}

function ekuNotServerAuthOnly(words: Wording, leaf: number): ChainProblem | null {
  const certificate = words.certificate(leaf);
  const usage = certificate.extendedKeyUsage;
  const cutover = DATED_CONSTANTS.serverAuthOnlyCutover.value;
  if (usage === null || !issuedFrom(certificate, cutover)) return null;
  const others = usage.filter((purpose) => purpose !== "serverAuth");
  if (others.length === 0) return null;
  const name = words.name(leaf);
  return problem(
    "EKU_NOT_SERVER_AUTH_ONLY",
    [leaf],
    `${capitalize(name)} was issued on ${rfc3339(certificate.notBefore)} with ${others.join(", ")} besides serverAuth in its extendedKeyUsage: since ${rfc3339(new Date(cutover)).slice(0, 10)} Chrome Root Program policy 1.8 §1.3.2 allows public TLS certificates serverAuth only, so the CA broke it and its hierarchy may be distrusted.`,
    `Reissue ${name} with serverAuth alone in its extendedKeyUsage, and ask the CA why it issued more.`,
  );
}

function rsaKey(
  words: Wording,
  subject: Judged,
  code: "RSA_KEY_UNDER_1024" | "RSA_KEY_UNDER_2048",
): ChainProblem | null {
  if (rsaKeyRule(subject.certificate) !== code) return null;
  const bits = rsaBits(subject.certificate)!;
  const limit = code === "RSA_KEY_UNDER_1024" ? RSA_MINIMUM_BITS.everyone : RSA_MINIMUM_BITS.apple;
  // OpenSSL's level 2 counts 1963 bits and more as 112 bits of security (dated-constants.ts).
  const clients =
    code === "RSA_KEY_UNDER_2048" && bits >= DATED_CONSTANTS.opensslLevel2RsaBits.value
      ? ["apple" as const]
      : undefined;
  return problem(
    code,
    words.indexes(subject),
    `${capitalize(words.of(subject))} has a key of RSA ${bits} bits, under ${limit} bits.`,
    words.fix(
      subject,
      `with a new key of at least ${RSA_MINIMUM_BITS.apple} bits (or an ECDSA P-256 key)`,
      `with a CA certificate whose key has at least ${RSA_MINIMUM_BITS.apple} bits`,
    ),
    words.variant(subject, clients),
  );
}

function sha1Signature(words: Wording, subject: Judged, profile: Profile): ChainProblem | null {
  const { signatureDigest, signatureAlgorithm } = subject.certificate;
  if (signatureDigest !== "SHA-1") return null;
  const how = /sha1/i.test(signatureAlgorithm) ? signatureAlgorithm : `${signatureAlgorithm} with SHA-1`;
  return problem(
    "SHA1_SIGNATURE",
    words.indexes(subject),
    `${capitalize(words.of(subject))} is signed with ${how}, a SHA-1 signature.`,
    words.fix(
      subject,
      "signed with SHA-256 or stronger",
      "with the current certificate of that CA, signed with SHA-256 or stronger (fetch it from its issuer)",
    ),
    words.variant(subject, profile === "webpki" ? CLIENTS : undefined),
  );
}

function unknownCriticalExtension(words: Wording, subject: Judged): ChainProblem | null {
  const unprocessed = unprocessedCriticalExtensions(subject.certificate);
  if (unprocessed.length === 0) return null;
  const name = words.of(subject);
  const listed = listSome(unprocessed, unprocessed.length);
  return problem(
    "UNKNOWN_CRITICAL_EXTENSION",
    words.indexes(subject),
    `${capitalize(name)} has ${unprocessed.length === 1 ? "an extension" : "extensions"} marked critical that clients do not process (${listed}); RFC 5280 §4.2 requires them to refuse it.`,
    words.fix(
      subject,
      `without ${unprocessed.length === 1 ? "that extension" : "those extensions"}, or with ${unprocessed.length === 1 ? "it" : "them"} not critical`,
      `with a CA certificate whose critical extensions are among ${[...PROCESSED_EXTENSIONS.values()].join(", ")}`,
    ),
    words.variant(subject),
  );
}

function ecCurveNotAccepted(words: Wording, subject: Judged): ChainProblem | null {
  const refusers = curveRefusers(subject.certificate);
  if (refusers.length === 0) return null;
  return problem(
    "EC_CURVE_NOT_ACCEPTED",
    words.indexes(subject),
    `${capitalize(words.of(subject))} has an EC key on the curve ${subject.certificate.keyCurve}, which ${listSome(refusers, refusers.length)} refuse for certificates.`,
    words.fix(subject, "with a P-256 or P-384 key", "with a CA certificate whose key is on P-256 or P-384"),
    words.variant(subject, refusers),
  );
}

/** The clients that apply a trust anchor's own constraints (CONTRACT §9.4: OpenSSL and Go at least). */
const ANCHOR_CONSTRAINT_CLIENTS: readonly Client[] = ["go", "openssl"];

/**
 * The clients that apply a trust anchor's nameConstraints: Go and OpenSSL, and Chromium, which
 * enforces a locally trusted root's constraints (`IsLocalAnchorConstraintsEnforcementEnabled`,
 * since 112; tests/browser/private-pki.test.ts watches Chromium 156 refuse such a leaf with the
 * root in an NSS database).
 */
const ANCHOR_NAME_CONSTRAINT_CLIENTS: readonly Client[] = ["chrome", "go", "openssl"];

function caEkuLacks(words: Wording, subject: Judged): ChainProblem | null {
  if (!caEkuLacksServerAuth(subject.certificate)) return null;
  const usage = subject.certificate.extendedKeyUsage!;
  const name = words.of(subject);
  return problem(
    "CA_EKU_LACKS_SERVER_AUTH",
    words.indexes(subject),
    `${capitalize(name)} restricts the certificates below it to ${usage.length === 0 ? "no purpose" : usage.join(", ")} (its extendedKeyUsage), without serverAuth: the server certificate may not be used for TLS.`,
    words.fix(subject, "", "with a CA certificate whose extendedKeyUsage holds serverAuth (or has none)"),
    words.variant(subject, subject.isAnchor ? ANCHOR_CONSTRAINT_CLIENTS : undefined),
  );
}

/**
 * PATH_LENGTH_EXCEEDED for the CA `subject`: its pathLenConstraint p against the non-self-issued
 * CA certificates strictly between it and the leaf (RFC 5280 §6.1.4 (l), (m)).
 */
function pathLengthExceeded(words: Wording, judged: readonly Judged[], subject: Judged): ChainProblem | null {
  const p = subject.certificate.pathLenConstraint;
  if (p === null) return null;
  const between = judged.slice(1, subject.position).filter((below) => !isSelfIssued(below.certificate));
  if (between.length <= p) return null;
  const name = words.of(subject);
  const counted =
    between.length === 1 ? "1 CA certificate stands" : `${between.length} CA certificates stand`;
  return problem(
    "PATH_LENGTH_EXCEEDED",
    words.indexes(subject),
    `${capitalize(name)} has pathLenConstraint ${p}, but ${counted} between it and ${words.name(words.leaf)}: ${listSome(
      between.map((below) => words.of(below)),
      judged.length,
    )}.`,
    `Replace ${name} with a CA certificate that allows ${between.length} CA ${between.length === 1 ? "certificate" : "certificates"} below it, or have the chain issued with fewer intermediates.`,
    words.variant(subject),
  );
}

/**
 * NAME_CONSTRAINTS_VIOLATED for the CA `subject` (CONTRACT §9.4): its nameConstraints against every
 * certificate below it on the path, the leaf first, a self-issued intermediate exempt (RFC 5280
 * §6.1.3 (b), (c)); the first violating name. At most (certificates below) × names × subtrees.
 */
function nameConstraintsViolated(
  words: Wording,
  judged: readonly Judged[],
  subject: Judged,
  tally: NameComparisonTally | undefined,
): ChainProblem | null {
  const constraints = subject.certificate.nameConstraints;
  if (constraints === null) return null;
  for (const below of judged.slice(0, subject.position)) {
    if (below.position > 0 && isSelfIssued(below.certificate)) continue;
    const violation = violatingNameOf(below.certificate, constraints, { tally });
    if (violation === null) continue;
    const belowName = words.of(below);
    if (violation.form === MALFORMED_IP_SUBTREE) {
      return problem(
        "NAME_CONSTRAINTS_VIOLATED",
        [...words.indexes(below), ...words.indexes(subject)],
        `${capitalize(words.of(subject))} has an iPAddress name constraint (${violation.value}) that is not an address with a prefix mask, so its nameConstraints cannot be read and the certificates below it are refused.`,
        `Replace ${words.of(subject)} with a CA certificate whose iPAddress constraints are CIDR blocks (an address and a mask of leading one bits).`,
        words.variant(subject, ["go"]),
      );
    }
    const what = nameShown(violation);
    const unsupported = !violation.readable && !violation.inSubject;
    return problem(
      "NAME_CONSTRAINTS_VIOLATED",
      [...words.indexes(below), ...words.indexes(subject)],
      unsupported
        ? `${capitalize(belowName)} has a ${violation.form} name, a form that ${words.of(subject)} constrains (its nameConstraints) and that clients cannot check, so they refuse it.`
        : violation.readable
          ? `${capitalize(belowName)} names ${what}, outside the names that ${words.of(subject)} may issue for (its nameConstraints).`
          : `${capitalize(belowName)} has ${what}, which clients cannot check against the nameConstraints of ${words.of(subject)}, so they refuse it.`,
      below.position === 0
        ? `Reissue ${belowName} without ${what}, or have it issued by a CA whose nameConstraints permit that name.`
        : `Replace ${belowName} with a CA certificate whose names ${words.of(subject)} permits, or use a CA without those nameConstraints.`,
      words.variant(subject, subject.isAnchor ? ANCHOR_NAME_CONSTRAINT_CLIENTS : undefined),
    );
  }
  return null;
}

/** How the problem's words show a violating name (CONTRACT §9.4: the name and where it is). */
function nameShown(violation: ViolatingName): string {
  if (violation.form === "emailAddress") {
    return `an emailAddress in its subject that is not an IA5String (${violation.value})`;
  }
  if (!violation.readable) return `its ${violation.form} name`;
  if (!violation.inSubject) {
    return violation.form === "directoryName" ? `the directoryName ${violation.value}` : violation.value;
  }
  if (violation.form === "directoryName") return `the subject ${violation.value}`;
  return `the e-mail address ${violation.value} in its subject`;
}

function validityOver(
  words: Wording,
  leaf: number,
  code: "VALIDITY_OVER_825_DAYS" | "VALIDITY_OVER_398_DAYS",
): ChainProblem | null {
  const certificate = words.certificate(leaf);
  const apple = code === "VALIDITY_OVER_825_DAYS";
  const from = apple ? CUTOVER.apple2019 : CUTOVER.publicRoots2020;
  const limit = apple ? MAX_VALIDITY_DAYS.apple : MAX_VALIDITY_DAYS.publicRoots;
  const days = validityDays(certificate);
  if (!issuedFrom(certificate, from) || days <= limit) return null;
  const issued = apple
    ? "certificates issued since 2019-07-01"
    : "certificates from public roots issued since 2020-09-01";
  return problem(
    code,
    [leaf],
    `${capitalize(words.name(leaf))} has validity ${days} days (${rfc3339(certificate.notBefore)} to ${rfc3339(certificate.notAfter)}); ${issued} may last at most ${limit} days.`,
    `Reissue ${words.name(leaf)} valid for at most ${limit} days.`,
  );
}

function validityOverBrLimit(words: Wording, leaf: number): ChainProblem | null {
  const certificate = words.certificate(leaf);
  const limit = BR_VALIDITY_LIMITS.find((entry) => issuedFrom(certificate, entry.from));
  const days = validityDays(certificate);
  if (limit === undefined || days <= limit.days) return null;
  return problem(
    "VALIDITY_OVER_BR_LIMIT",
    [leaf],
    `${capitalize(words.name(leaf))} has validity ${days} days; the CA/Browser Forum limit for certificates issued since ${rfc3339(new Date(limit.from)).slice(0, 10)} is ${limit.days} days, and Chrome refuses longer ones (ERR_CERT_VALIDITY_TOO_LONG).`,
    `Reissue ${words.name(leaf)} valid for at most ${limit.days} days: public CAs may no longer issue longer ones.`,
  );
}

function noEmbeddedScts(words: Wording, leaf: number): ChainProblem | null {
  if (words.certificate(leaf).sctCount > 0) return null;
  const name = words.name(leaf);
  return problem(
    "NO_EMBEDDED_SCTS",
    [leaf],
    `${capitalize(name)} carries no embedded SCT (signed certificate timestamp of a Certificate Transparency log); Chrome, Firefox and Apple's clients require them for public certificates.`,
    `Reissue ${name} from a CA that embeds its SCTs, or make sure the server sends SCTs in the TLS handshake.`,
  );
}

/** The embedded SCTs a leaf of `days` validity needs (Chrome's, Firefox's and Apple's CT policies). */
export function sctsNeeded(days: number): number {
  const wanted = DATED_CONSTANTS.sctsWanted.value;
  return days <= wanted.shortLifetimeDays ? wanted.short : wanted.long;
}

function tooFewEmbeddedScts(words: Wording, leaf: number): ChainProblem | null {
  const certificate = words.certificate(leaf);
  const days = validityDays(certificate);
  const needed = sctsNeeded(days);
  if (certificate.sctCount === 0 || certificate.sctCount >= needed) return null;
  const name = words.name(leaf);
  return problem(
    "TOO_FEW_EMBEDDED_SCTS",
    [leaf],
    `${capitalize(name)} carries ${certificate.sctCount} ${certificate.sctCount === 1 ? "SCT" : "SCTs"} for ${days} days, ${needed} needed.`,
    `Reissue ${name} from a CA that embeds at least ${needed} SCTs, or make sure the server sends the missing ones in the TLS handshake.`,
  );
}

/**
 * ROOT_DISTRUSTED_FOR_NEW_CERTS (CONTRACT §9.5): Firefox refuses a leaf whose notBefore is after the
 * root's `CKA_NSS_SERVER_DISTRUST_AFTER`; Chrome one whose earliest embedded SCT (its notBefore
 * without one) is after the root's `sct_not_after`.
 */
function rootDistrusted(
  words: Wording,
  leaf: number,
  path: BuiltPath,
  distrust: RootDistrust | null,
): ChainProblem | null {
  if (distrust === null) return null;
  const certificate = words.certificate(leaf);
  const issued = certificate.notBefore.getTime();
  const logged = certificate.earliestSctAt?.getTime() ?? issued;
  const firefox = distrust.serverDistrustAfter !== null && issued > distrust.serverDistrustAfter;
  const chrome = distrust.sctNotAfter !== null && logged > distrust.sctNotAfter;
  if (!firefox && !chrome) return null;
  const rootSubject =
    path.anchor === "in-bundle" ? words.certificate(path.members.at(-1)!).subject : path.root!.subject;
  const root = nameLabel(rootSubject) ?? "with an empty name";
  const dates: string[] = [];
  if (chrome)
    dates.push(`Chrome distrusts certificates it logged after ${rfc3339(new Date(distrust.sctNotAfter!))}`);
  if (firefox)
    dates.push(
      `Firefox distrusts certificates issued after ${rfc3339(new Date(distrust.serverDistrustAfter!))}`,
    );
  const clients: Client[] = [];
  if (chrome) clients.push("chrome");
  if (firefox) clients.push("firefox");
  const name = words.name(leaf);
  return problem(
    "ROOT_DISTRUSTED_FOR_NEW_CERTS",
    [leaf],
    `${capitalize(name)} chains to the root ${root}, which is distrusted for new certificates: ${dates.join("; ")}; ${name} was issued on ${rfc3339(certificate.notBefore)}.`,
    `Have ${name} reissued by a CA under another root.`,
    { clients },
  );
}
