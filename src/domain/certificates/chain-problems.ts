/**
 * The problems of a certificate chain (CONTRACT §7.1, §8.1): a closed set of codes, each with a
 * fixed severity, the profile it applies under, the clients known to refuse the connection because
 * of it, the positions it concerns and two plain sentences worded as CONTRACT §4.3 says (positions
 * with their CN, no PEM text). Sorted and built by the same machinery as the bundle's findings
 * (diagnostics.ts). The §7.1 rules are here; the §8.1 client rules are in client-rules.ts.
 */
import { repeats } from "./bundle.ts";
import type { ChainMember } from "./chain.ts";
import type { BuiltPath, ChainContext, ServedCertificate } from "./chain-path.ts";
import { DiagnosticCodes, type Severity } from "./diagnostics.ts";
import { MAX_LISTED_DNS_NAMES, publishedAt, rfc3339 } from "./findings.ts";
import { type ExpectedIdentity, identityText, matchIdentity } from "./identity.ts";
import { isSelfIssued } from "./relationships.ts";
import type { RootMatch } from "./trust-anchors.ts";
import { capitalize, certificateName, listSome, nameLabel, repeatObserved } from "./wording.ts";

/** The clients a problem can name (CONTRACT §8.1), in this order. */
export const CLIENTS = ["chrome", "firefox", "apple", "go", "openssl"] as const;
export type Client = (typeof CLIENTS)[number];

/**
 * Who judges the chain (CONTRACT §8.1): `webpki` when the anchor is a root of the reference store
 * (shipped, or in the bundle byte for byte), `private` for the caller's own root or another
 * self-signed anchor, `unknown` when the path is not complete.
 */
export type Profile = "webpki" | "private" | "unknown";

/**
 * Every problem code, in the order of CONTRACT §8.1's ordering list (also the tie-break order).
 * The set is closed: each code has one severity (WRONG_ORDER alone has two), one rule that raises
 * it, fixed positions, the profile it applies under and its clients (`PROBLEM_RULES`). The client
 * rules' sources are the ones CONTRACT §8.1 cites, each read; where a source says more or other
 * than the contract, the doc comment says so.
 */
export const PROBLEM_CODES = [
  /**
   * Error. The path is `incomplete`: the last member's issuer is neither in the bundle (as a
   * verified, eligible candidate) nor a supplied or known root whose key verifies it; on [last
   * member]. Names the missing issuer and, when the last member's Authority Information Access has
   * one, where its CA publishes it; when a root of the issuer's name and key id was found whose key
   * does not verify the member (CONTRACT §7.2), says so. No client named: it depends on each
   * client's intermediate cache and AIA fetching.
   */
  "INCOMPLETE_CHAIN",
  /**
   * Error when position 0 does not hold the leaf (by fingerprint): a server sends its first
   * certificate as its own (RFC 8446 §4.4.2), and every client refuses it. Warning when it does but
   * the other path members, read in bundle order with repeats and certificates off the path
   * ignored, do not follow in path order (no client named). On the path.
   */
  "WRONG_ORDER",
  /** Error. A path member's `expiresInDays` is below 0 (evaluatedAt is past its notAfter; RFC 5280 §6.1.3); on [i]. */
  "EXPIRED",
  /** Error. A path member's notBefore is after `evaluatedAt` (RFC 5280 §6.1.3); on [i]. */
  "NOT_YET_VALID",
  /**
   * Error. A hostname was given and the leaf does not cover it: a DNS name by the wildcard rules of
   * CONTRACT §4.3 against `dns` SANs, an address against `ip` SANs (RFC 6125); on [leaf].
   */
  "HOSTNAME_MISMATCH",
  /**
   * Error, any profile. The leaf has no `dns` and no `ip` subjectAltName; on [leaf]. Chrome 58
   * removed commonName matching; Apple HT210176 (support.apple.com/103769): "DNS names in the
   * CommonName of a certificate are no longer trusted"; Go 1.15 release notes: the CommonName
   * host-name fallback is disabled by default (x509ignoreCN=0, removed in Go 1.17). Chrome's
   * feature entry (chromestatus 4981025180483584) notes that Firefox 48 removed the fallback too,
   * which the contract's list leaves out.
   */
  "NO_SUBJECT_ALT_NAME",
  /**
   * Error, any profile. The leaf has an extendedKeyUsage without `serverAuth`; on [leaf]. RFC 5280
   * §4.2.1.12; HT210176 ("containing the id-kp-serverAuth OID"); Go `x509.VerifyOptions.KeyUsages`
   * (empty means serverAuth; `ExtKeyUsageAny` accepted); OpenSSL checks purpose `sslserver`.
   * Every client refuses it, only Apple and OpenSSL when the list holds `anyExtendedKeyUsage`.
   */
  "EKU_LACKS_SERVER_AUTH",
  /**
   * Error, any profile. The leaf has no extendedKeyUsage and notBefore ≥ 2019-07-01T00:00:00Z; on
   * [leaf]; Apple. HT210176: certificates issued "after 1 July 2019 (as indicated in the
   * NotBefore field)" must contain an EKU with id-kp-serverAuth (the contract reads "after" as from
   * that instant on).
   */
  "EKU_ABSENT",
  /**
   * Error, any profile. A path member's RSA key has fewer than 1024 bits; on [i]. Chromium
   * `cert_verify_proc.cc` `IsWeakKey` (RSA and DSA under 1024, the whole verified chain); HT210176;
   * Go 1.24 (crypto/rsa refuses keys under 1024 bits, GODEBUG rsa1024min=0); OpenSSL security
   * level 1, the default: keys under 80 bits of security (RSA under 1024) prohibited. OpenSSL
   * 3.0's own estimate (`ossl_ifc_ffc_compute_security_bits`) gives RSA 920–1023 bits 80 bits, so
   * `openssl verify -auth_level 1` refuses only under 920 bits (measured with 3.0.19).
   */
  "RSA_KEY_UNDER_1024",
  /**
   * Error, any profile. A path member's RSA key has 1024 to 2047 bits; on [i]; Apple. HT210176:
   * "TLS server certificates and issuing CAs using RSA keys must use key sizes greater than or
   * equal to 2048 bits"; CA/B Forum Baseline Requirements §6.1.5. Never raised with
   * RSA_KEY_UNDER_1024 for one certificate.
   */
  "RSA_KEY_UNDER_2048",
  /**
   * Error, any profile. A path member other than the in-bundle anchor is signed with SHA-1 (RSA,
   * ECDSA, DSA, or RSASSA-PSS hashing with SHA-1); on [i]. Every client under `webpki` (Chrome 56,
   * Firefox 52); otherwise Apple (HT210176), Go 1.18 (root signatures are not checked) and
   * OpenSSL (level 1: "signatures using SHA1 and MD5 are also forbidden at this level").
   * Chrome refuses SHA-1 under locally installed anchors too unless the EnableSha1ForLocalAnchors
   * policy is set (Chromium blog "SHA-1 Certificates in Chrome", Chrome 57; `cert_verify_proc.cc`),
   * which the contract's list leaves out; Firefox accepts it under manually imported roots
   * (Mozilla, "Phasing Out SHA-1 on the Public Web").
   */
  "SHA1_SIGNATURE",
  /**
   * Error, any profile. The leaf's notBefore ≥ 2019-07-01T00:00:00Z and its `validityDays` > 825;
   * on [leaf]; Apple (HT210176, whatever the root: mkcert#174, cert-manager#2168). Chromium's
   * `HasTooLongValidity` also refuses over 825 days for publicly trusted leaves issued since
   * 2018-03-01, which the contract's list leaves out.
   */
  "VALIDITY_OVER_825_DAYS",
  /**
   * Error, `webpki` only. The leaf's notBefore ≥ 2020-09-01T00:00:00Z and its `validityDays` > 398;
   * on [leaf]; Chrome and Apple. Apple HT211025 (support.apple.com/102028): roots preinstalled
   * with the OS only, days of 86,400 s, "any time greater than this indicates an additional day";
   * Chromium `net/docs/certificate_lifetimes.md` (Chrome 85, publicly trusted CAs only, "will not
   * apply to locally-operated CAs").
   */
  "VALIDITY_OVER_398_DAYS",
  /**
   * Error, any profile. A CA member with pathLenConstraint p has more than p non-self-issued CA
   * members between it and the leaf (RFC 5280 §4.2.1.9, §6.1.4 (l), (m); the leaf never counts;
   * the in-bundle anchor is judged too); on [that CA]. OpenSSL X509_V_ERR_PATH_LENGTH_EXCEEDED, Go
   * `x509.TooManyIntermediates`, Chromium, mozilla::pkix.
   */
  "PATH_LENGTH_EXCEEDED",
  /**
   * Error, any profile. A CA member's nameConstraints are violated by a `dns` or `ip` SAN of the
   * leaf (RFC 5280 §4.2.1.10); on [leaf, that CA]. OpenSSL X509_V_ERR_PERMITTED_VIOLATION and
   * EXCLUDED_VIOLATION, Go 1.10 (every name is checked), Chromium, mozilla::pkix; for the in-bundle
   * anchor's own constraints OpenSSL only (browser root stores ignore a root's constraints:
   * letsencrypt/boulder#3556; RFC 5280 §6.1.1 leaves them to the relying party). Go's verifier
   * applies a root's constraints too, and Chrome does for locally added anchors since Chrome 112's
   * EnforceLocalAnchorConstraintsEnabled, which the contract's list leaves out.
   */
  "NAME_CONSTRAINTS_VIOLATED",
  /** Warning. A path member has 0 ≤ `expiresInDays` < `expiryWarningDays`; on [i]. */
  "EXPIRING",
  /**
   * Warning, `webpki` only. The leaf's `validityDays` is over the CA/Browser Forum limit for its
   * notBefore: 200 days from 2026-03-15, 100 from 2027-03-15, 47 from 2029-03-15 (ballot SC-081v3,
   * Baseline Requirements §6.3.2); on [leaf]. No client enforces it; CAs must.
   */
  "VALIDITY_OVER_BR_LIMIT",
  /**
   * Warning, `webpki` only. The leaf carries no embedded SCT (`sctCount` 0); on [leaf]; Chrome and
   * Apple (their Certificate Transparency policies; Apple's is now support.apple.com/103214, for
   * publicly trusted certificates). A warning: SCTs may also come in the TLS handshake or a stapled
   * OCSP response. Both policies want two or more SCTs (Apple: 2 embedded for up to 180 days, 3
   * for 181–398), so one embedded SCT alone also fails; the contract flags only none.
   */
  "NO_EMBEDDED_SCTS",
  /**
   * Warning. A position that is not on the path, repeats no earlier position and is not an
   * included root: unrelated to the leaf, or above the anchor (an old cross-sign); on [i]. Never
   * raised when the path is empty.
   */
  "UNNEEDED_CERTIFICATE",
  /** Warning. A position repeats an earlier one (same SHA-256 fingerprint); on [first, repeat]. */
  "DUPLICATE_CERTIFICATE",
  /** Warning. The status is `ambiguous`: several possible leaves and none chosen; on every possible leaf. */
  "LEAF_SELECTION_REQUIRED",
  /** Warning. The status is `no-leaf`: every distinct certificate is a CA; on []. */
  "NO_LEAF_CERTIFICATE",
  /**
   * Info. A self-signed certificate of the bundle, other than the leaf, that is the last member or
   * a verified candidate issuer of it is served: clients use their own copy. Never raised for a
   * cross-signed CA that is not self-signed; on [i] (its first occurrence).
   */
  "ROOT_INCLUDED",
  /**
   * Error, any profile; only with CRLs given (`nettools chain --crl`, CONTRACT §10.2). A path member
   * is listed in a CRL of its issuer whose signature that issuer's key verifies; on [i]. Every
   * client that checks revocation refuses a revoked certificate.
   */
  "REVOKED",
  /** Warning; only with CRLs given. A CRL used for path members has a nextUpdate before `evaluatedAt`; on the members it covers. */
  "CRL_STALE",
] as const;
export type ProblemCode = (typeof PROBLEM_CODES)[number];

/** What CONTRACT §7.1 and §8.1 fix for a code: its severity, the profile it applies under, its clients. */
export interface ProblemRule {
  severity: Severity;
  /** `any`: judged whatever the profile (also `unknown`); `webpki`: only under `webpki`. */
  profile: "any" | "webpki";
  /** The clients named by default (a rule states the variant where the contract has one). */
  clients: readonly Client[];
}

const EVERY_CLIENT = CLIENTS;
const rule = (
  severity: Severity,
  clients: readonly Client[] = [],
  profile: "any" | "webpki" = "any",
): ProblemRule => ({
  severity,
  profile,
  clients,
});

/** Each code's rule (CONTRACT §7.1 table and §8.1). */
export const PROBLEM_RULES: Readonly<Record<ProblemCode, ProblemRule>> = {
  INCOMPLETE_CHAIN: rule("error"),
  WRONG_ORDER: rule("error", EVERY_CLIENT),
  EXPIRED: rule("error", EVERY_CLIENT),
  NOT_YET_VALID: rule("error", EVERY_CLIENT),
  HOSTNAME_MISMATCH: rule("error", EVERY_CLIENT),
  NO_SUBJECT_ALT_NAME: rule("error", ["chrome", "apple", "go"]),
  EKU_LACKS_SERVER_AUTH: rule("error", EVERY_CLIENT),
  EKU_ABSENT: rule("error", ["apple"]),
  RSA_KEY_UNDER_1024: rule("error", ["chrome", "apple", "go", "openssl"]),
  RSA_KEY_UNDER_2048: rule("error", ["apple"]),
  SHA1_SIGNATURE: rule("error", ["apple", "go", "openssl"]),
  VALIDITY_OVER_825_DAYS: rule("error", ["apple"]),
  VALIDITY_OVER_398_DAYS: rule("error", ["chrome", "apple"], "webpki"),
  PATH_LENGTH_EXCEEDED: rule("error", ["chrome", "firefox", "go", "openssl"]),
  NAME_CONSTRAINTS_VIOLATED: rule("error", ["chrome", "firefox", "go", "openssl"]),
  EXPIRING: rule("warning"),
  VALIDITY_OVER_BR_LIMIT: rule("warning", [], "webpki"),
  NO_EMBEDDED_SCTS: rule("warning", ["chrome", "apple"], "webpki"),
  UNNEEDED_CERTIFICATE: rule("warning"),
  DUPLICATE_CERTIFICATE: rule("warning"),
  LEAF_SELECTION_REQUIRED: rule("warning"),
  NO_LEAF_CERTIFICATE: rule("warning"),
  ROOT_INCLUDED: rule("info"),
  REVOKED: rule("error", EVERY_CLIENT),
  CRL_STALE: rule("warning"),
};

const PROBLEMS = new DiagnosticCodes<ProblemCode>(
  PROBLEM_CODES,
  Object.fromEntries(PROBLEM_CODES.map((code) => [code, PROBLEM_RULES[code].severity])) as Record<
    ProblemCode,
    Severity
  >,
);

/** One problem (CONTRACT §7.1, §8.1), field order as specified. */
export interface ChainProblem {
  code: ProblemCode;
  severity: Severity;
  certificateIndexes: number[];
  observed: string;
  nextAction: string;
  /** The clients known to refuse the connection because of it, in `CLIENTS` order. */
  clients: Client[];
}

/** What a rule may state for one problem instead of its code's defaults (WRONG_ORDER's warning, a client variant). */
export interface ProblemVariant {
  severity?: Severity;
  clients?: readonly Client[];
}

/** Builds one problem with its code's severity and clients unless `variant` states others. */
export function problem(
  code: ProblemCode,
  certificateIndexes: number[],
  observed: string,
  nextAction: string,
  variant: ProblemVariant = {},
): ChainProblem {
  const clients = [...(variant.clients ?? PROBLEM_RULES[code].clients)];
  return PROBLEMS.make(code, certificateIndexes, { observed, nextAction, clients }, variant.severity);
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
  const order = served
    .map((block) => (block.position === null ? rootName(path.root!) : named(context, block.position)))
    .join(", then ");
  if (certificates[0]!.fingerprintSha256 !== leafFingerprint) {
    return [
      problem(
        "WRONG_ORDER",
        [...path.members],
        `Position 0 holds ${named(context, 0)} instead of the server's own certificate, ${named(context, leaf)}: a server sends its first certificate as its own.`,
        `Serve the certificates in this order: ${order}, as the corrected chain (fullchainPem) does.`,
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
        { severity: "warning", clients: [] },
      ),
    ];
  }
  return [];
}
