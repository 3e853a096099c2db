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
import type { BuiltPath, ChainContext } from "./chain-path.ts";
import {
  type ChainProblem,
  CLIENTS,
  type Client,
  PROBLEM_RULES,
  type ProblemCode,
  type Profile,
  problem,
} from "./chain-problems.ts";
import { rfc3339 } from "./findings.ts";
import type { CertificateData } from "./model.ts";
import { violatingName } from "./name-constraints.ts";
import { isSelfIssued } from "./relationships.ts";
import { capitalize, certificateName, listSome } from "./wording.ts";

const SECONDS_PER_DAY = 86_400;

/** Instants of the rules, as CONTRACT §8.1 gives them (notBefore compared inclusively). */
export const CUTOVER = {
  /** Apple HT210176: EKU required, 825 days at most. */
  apple2019: Date.parse("2019-07-01T00:00:00Z"),
  /** Apple HT211025, Chrome 85: 398 days at most under public roots. */
  publicRoots2020: Date.parse("2020-09-01T00:00:00Z"),
} as const;

/** CA/Browser Forum ballot SC-081v3 (Baseline Requirements §6.3.2): the tightest that applies wins. */
export const BR_VALIDITY_LIMITS: readonly { from: number; days: number }[] = [
  { from: Date.parse("2029-03-15T00:00:00Z"), days: 47 },
  { from: Date.parse("2027-03-15T00:00:00Z"), days: 100 },
  { from: Date.parse("2026-03-15T00:00:00Z"), days: 200 },
];

/** Apple HT210176's limit and Apple HT211025's (with Chrome's) in days. */
export const MAX_VALIDITY_DAYS = { apple: 825, publicRoots: 398 } as const;

/** RSA sizes the rules compare with (OpenSSL level 1, Chromium IsWeakKey, Go; Apple). */
export const RSA_MINIMUM_BITS = { everyone: 1024, apple: 2048 } as const;

/** The key algorithms that are RSA keys (rsaEncryption, and RSASSA-PSS whose key is an RSA modulus too). */
const RSA_KEY_TYPES = new Set(["RSA", "1.2.840.113549.1.1.10"]);

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

/** What the client rules read besides the context: the path and who judges it. */
export interface ClientRuleInput {
  context: ChainContext;
  path: BuiltPath;
  profile: Profile;
}

/** Every §8.1 problem of the path (unsorted): each code raised where its table says. */
export function clientRuleProblems(input: ClientRuleInput): ChainProblem[] {
  const { context, path, profile } = input;
  const applies = (code: ProblemCode) => PROBLEM_RULES[code].profile === "any" || profile === "webpki";
  const found: ChainProblem[] = [];
  const raise = (code: ProblemCode, make: () => ChainProblem | null) => {
    if (!applies(code)) return;
    const made = make();
    if (made !== null) found.push(made);
  };
  const leaf = path.members[0]!;
  const anchor = path.anchor === "in-bundle" ? path.members.at(-1)! : null;
  const words = new Wording(context, leaf);

  raise("NO_SUBJECT_ALT_NAME", () => noSubjectAltName(words, leaf));
  raise("EKU_LACKS_SERVER_AUTH", () => ekuLacksServerAuth(words, leaf));
  raise("EKU_ABSENT", () => ekuAbsent(words, leaf));
  for (const member of path.members) {
    raise("RSA_KEY_UNDER_1024", () => rsaKey(words, member, "RSA_KEY_UNDER_1024"));
    raise("RSA_KEY_UNDER_2048", () => rsaKey(words, member, "RSA_KEY_UNDER_2048"));
    if (member !== anchor) raise("SHA1_SIGNATURE", () => sha1Signature(words, member, profile));
  }
  raise("VALIDITY_OVER_825_DAYS", () => validityOver(words, leaf, "VALIDITY_OVER_825_DAYS"));
  raise("VALIDITY_OVER_398_DAYS", () => validityOver(words, leaf, "VALIDITY_OVER_398_DAYS"));
  for (const [position, member] of path.members.entries()) {
    if (position === 0) continue;
    raise("PATH_LENGTH_EXCEEDED", () => pathLengthExceeded(words, path.members, position));
    raise("NAME_CONSTRAINTS_VIOLATED", () => nameConstraintsViolated(words, member, member === anchor));
  }
  raise("VALIDITY_OVER_BR_LIMIT", () => validityOverBrLimit(words, leaf));
  raise("NO_EMBEDDED_SCTS", () => noEmbeddedScts(words, leaf));
  return found;
}

/** Names and advice by role (CONTRACT §4.3, §8.1: a leaf is reissued, a CA member replaced). */
class Wording {
  constructor(
    readonly context: ChainContext,
    readonly leaf: number,
  ) {}

  certificate(index: number): CertificateData {
    return this.context.certificates[index]!;
  }

  name(index: number): string {
    return certificateName(this.certificate(index), index);
  }

  /** The sentence that ends a problem's advice, by the member's role. */
  fix(index: number, leafFix: string, caFix: string): string {
    const name = this.name(index);
    return index === this.leaf ? `Reissue ${name} ${leafFix}.` : `Replace ${name} ${caFix}.`;
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
    : PROBLEM_RULES.EKU_LACKS_SERVER_AUTH.clients;
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
  if (certificate.extendedKeyUsage !== null || certificate.notBefore.getTime() < CUTOVER.apple2019)
    return null;
  const name = words.name(leaf);
  return problem(
    "EKU_ABSENT",
    [leaf],
    `${capitalize(name)} has no extendedKeyUsage extension, and it was issued on ${rfc3339(certificate.notBefore)}, after Apple began requiring one (2019-07-01).`,
    `Reissue ${name} with an extendedKeyUsage extension that holds serverAuth.`,
  );
}

function rsaKey(
  words: Wording,
  index: number,
  code: "RSA_KEY_UNDER_1024" | "RSA_KEY_UNDER_2048",
): ChainProblem | null {
  const { keyType, keyBits } = words.certificate(index);
  if (!RSA_KEY_TYPES.has(keyType) || keyBits === null) return null;
  const under1024 = keyBits < RSA_MINIMUM_BITS.everyone;
  if (code === "RSA_KEY_UNDER_1024" ? !under1024 : under1024 || keyBits >= RSA_MINIMUM_BITS.apple)
    return null;
  const limit = code === "RSA_KEY_UNDER_1024" ? RSA_MINIMUM_BITS.everyone : RSA_MINIMUM_BITS.apple;
  return problem(
    code,
    [index],
    `${capitalize(words.name(index))} has a key of RSA ${keyBits} bits, under ${limit} bits.`,
    words.fix(
      index,
      `with a new key of at least ${RSA_MINIMUM_BITS.apple} bits (or an ECDSA P-256 key)`,
      `with a CA certificate whose key has at least ${RSA_MINIMUM_BITS.apple} bits`,
    ),
  );
}

function sha1Signature(words: Wording, index: number, profile: Profile): ChainProblem | null {
  const { signatureDigest, signatureAlgorithm } = words.certificate(index);
  if (signatureDigest !== "SHA-1") return null;
  const how = /sha1/i.test(signatureAlgorithm) ? signatureAlgorithm : `${signatureAlgorithm} with SHA-1`;
  return problem(
    "SHA1_SIGNATURE",
    [index],
    `${capitalize(words.name(index))} is signed with ${how}, a SHA-1 signature.`,
    words.fix(
      index,
      "signed with SHA-256 or stronger",
      "with the current certificate of that CA, signed with SHA-256 or stronger (fetch it from its issuer)",
    ),
    profile === "webpki" ? { clients: CLIENTS } : {},
  );
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
  if (certificate.notBefore.getTime() < from || days <= limit) return null;
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
  const notBefore = certificate.notBefore.getTime();
  const limit = BR_VALIDITY_LIMITS.find((entry) => notBefore >= entry.from);
  const days = validityDays(certificate);
  if (limit === undefined || days <= limit.days) return null;
  return problem(
    "VALIDITY_OVER_BR_LIMIT",
    [leaf],
    `${capitalize(words.name(leaf))} has validity ${days} days; the CA/Browser Forum limit for certificates issued since ${rfc3339(new Date(limit.from)).slice(0, 10)} is ${limit.days} days.`,
    `Reissue ${words.name(leaf)} valid for at most ${limit.days} days: public CAs may no longer issue longer ones.`,
  );
}

/**
 * PATH_LENGTH_EXCEEDED for the CA at `position` of the path: its pathLenConstraint p against the
 * non-self-issued members strictly between it and the leaf (RFC 5280 §6.1.4 (l), (m)).
 */
function pathLengthExceeded(
  words: Wording,
  members: readonly number[],
  position: number,
): ChainProblem | null {
  const index = members[position]!;
  const p = words.certificate(index).pathLenConstraint;
  if (p === null) return null;
  const between = members.slice(1, position).filter((member) => !isSelfIssued(words.certificate(member)));
  if (between.length <= p) return null;
  const name = words.name(index);
  const counted =
    between.length === 1 ? "1 CA certificate stands" : `${between.length} CA certificates stand`;
  return problem(
    "PATH_LENGTH_EXCEEDED",
    [index],
    `${capitalize(name)} has pathLenConstraint ${p}, but ${counted} between it and ${words.name(words.leaf)}: ${listSome(
      between.map((member) => words.name(member)),
      members.length,
    )}.`,
    `Replace ${name} with a CA certificate that allows ${between.length} CA ${between.length === 1 ? "certificate" : "certificates"} below it, or have the chain issued with fewer intermediates.`,
  );
}

function nameConstraintsViolated(words: Wording, index: number, isAnchor: boolean): ChainProblem | null {
  const constraints = words.certificate(index).nameConstraints;
  if (constraints === null) return null;
  const leaf = words.leaf;
  const san = violatingName(words.certificate(leaf).sans, constraints);
  if (san === null) return null;
  const leafName = words.name(leaf);
  return problem(
    "NAME_CONSTRAINTS_VIOLATED",
    [leaf, index],
    `${capitalize(leafName)} names ${san.value}, outside the names that ${words.name(index)} may issue for (its nameConstraints).`,
    `Reissue ${leafName} without ${san.value}, or have it issued by a CA whose nameConstraints permit that name.`,
    isAnchor ? { clients: ["openssl"] } : {},
  );
}

function noEmbeddedScts(words: Wording, leaf: number): ChainProblem | null {
  if (words.certificate(leaf).sctCount > 0) return null;
  const name = words.name(leaf);
  return problem(
    "NO_EMBEDDED_SCTS",
    [leaf],
    `${capitalize(name)} carries no embedded SCT (signed certificate timestamp of a Certificate Transparency log).`,
    `Reissue ${name} from a CA that embeds its SCTs, or make sure the server sends SCTs in the TLS handshake or a stapled OCSP response.`,
  );
}
