/**
 * The one rule catalogue (issue 29 item 7; CONTRACT §4.3, §7.1, §8.1, §8.2, §9): every rule the
 * certificate operations raise, one record each — its code, severity, profile, clients, the
 * certificates it judges, what it observes, what it advises and the sources it rests on, each with
 * the day it was last checked. The chain (`CHAIN_PROBLEM_CODES`), the request (`CSR_PROBLEM_CODES`)
 * and the bundle (`FINDING_CODES`) each select their codes from it, in their own table's order,
 * which is also their tie-break order. A code two operations share (HOSTNAME_MISMATCH, the key
 * rules…) is one record with one severity.
 *
 * This module imports nothing but the diagnostics' severity: the rules' code imports it, never the
 * other way round.
 */
import type { Severity } from "./diagnostics.ts";

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
 * What a rule judges: the `leaf` alone; every path `member`; the `ca` members above the leaf;
 * the judged `anchor` (in the bundle or supplied, CONTRACT §9.4); the `path` as a whole (order,
 * completeness, the anchor's origin); the `bundle` positions; or the certification `request`.
 * A chain rule that judges anything but the leaf alone depends on the path (CONTRACT §9.3).
 */
export type RuleSubject = "leaf" | "member" | "ca" | "anchor" | "path" | "bundle" | "request";

/** A source a rule rests on, and the day (`YYYY-MM-DD`) it was last read. */
export interface RuleSource {
  url: string;
  checked: string;
}

/** One rule. */
export interface RuleRecord {
  severity: Severity;
  /** `any`: judged whatever the profile (also `unknown`); `webpki`: only under `webpki`. */
  profile: "any" | "webpki";
  /** The clients named by default (a rule states its variants where the contract has them). */
  clients: readonly Client[];
  subjects: readonly RuleSubject[];
  /** What the rule reads, in a phrase. */
  observes: string;
  /** What its advice asks for, in a phrase. */
  nextAction: string;
  sources: readonly RuleSource[];
}

const EVERY: readonly Client[] = CLIENTS;
const CHECKED = "2026-11-28";
const source = (url: string, checked = CHECKED): RuleSource => ({ url, checked });

const RFC5280 = source("https://www.rfc-editor.org/rfc/rfc5280");
const APPLE_2019 = source("https://support.apple.com/en-us/103769");
const APPLE_2020 = source("https://support.apple.com/en-us/102028");
const APPLE_CT = source("https://support.apple.com/en-us/103214");
const CHROME_VERIFY = source(
  "https://chromium.googlesource.com/chromium/src/+/HEAD/net/cert/cert_verify_proc.cc",
);
/** Chromium enforces a locally trusted anchor's own constraints (since 112; observed in 156 with NSS). */
const CHROME_ANCHOR_CONSTRAINTS = source(
  "https://chromium.googlesource.com/chromium/src/+/HEAD/net/cert/internal/trust_store_features.h",
);
const CHROME_CT = source("https://googlechrome.github.io/CertificateTransparency/ct_policy.html");
const FIREFOX_CT = source("https://wiki.mozilla.org/SecurityEngineering/Certificate_Transparency");
const CHROME_ROOT_POLICY = source("https://www.chromium.org/Home/chromium-security/root-ca-policy/");
const GO_VERIFY = source("https://go.dev/src/crypto/x509/verify.go");
const GO_PARSER = source("https://go.dev/src/crypto/x509/parser.go");
const OPENSSL_VERIFY = source("https://docs.openssl.org/3.0/man1/openssl-verification-options/");
const OPENSSL_PURPOSE = source("https://github.com/openssl/openssl/blob/master/crypto/x509/v3_purp.c");
const OPENSSL_LEVEL = source("https://docs.openssl.org/3.2/man3/SSL_CTX_set_security_level/");
const BR = source("https://cabforum.org/working-groups/server/baseline-requirements/requirements/");
const NSS_CERTDATA = source("https://hg.mozilla.org/projects/nss/file/tip/lib/ckfw/builtins/certdata.txt");
const CHROME_ROOT_STORE = source(
  "https://chromium.googlesource.com/chromium/src/+/main/net/data/ssl/chrome_root_store/root_store.textproto",
);
const CERTBOT = source("https://github.com/certbot/certbot/blob/main/certbot/CHANGELOG.md");
const SPEC = source("docs/api.md");

const record = (
  severity: Severity,
  clients: readonly Client[],
  subjects: readonly RuleSubject[],
  observes: string,
  nextAction: string,
  sources: readonly RuleSource[],
  profile: "any" | "webpki" = "any",
): RuleRecord => ({ severity, profile, clients, subjects, observes, nextAction, sources });

/** Every rule, by code. */
export const RULES = {
  // ------------------------------------------------------------------ the chain (§7.1, §8.1, §9)
  INCOMPLETE_CHAIN: record(
    "error",
    [],
    ["path"],
    "the last member's issuer: in the bundle, a supplied root or a reference root whose key verifies it",
    "add the missing issuer, from where its CA publishes it",
    [RFC5280],
  ),
  WRONG_ORDER: record(
    "error",
    EVERY,
    ["path", "bundle"],
    "position 0 against the leaf, then the path members in bundle order",
    "serve the chain in path order, as fullchainPem does",
    [source("https://www.rfc-editor.org/rfc/rfc8446#section-4.4.2")],
  ),
  EXPIRED: record(
    "error",
    EVERY,
    ["member", "anchor"],
    "evaluatedAt against each notAfter",
    "renew the leaf, or fetch the current CA certificate",
    [RFC5280],
  ),
  NOT_YET_VALID: record(
    "error",
    EVERY,
    ["member", "anchor"],
    "evaluatedAt against each notBefore",
    "check the issuing machine's clock, or wait",
    [RFC5280],
  ),
  HOSTNAME_MISMATCH: record(
    "error",
    EVERY,
    ["leaf"],
    "the hostname against the leaf's dns or ip subjectAltNames",
    "use a certificate issued for that name",
    [source("https://www.rfc-editor.org/rfc/rfc6125")],
  ),
  NO_SUBJECT_ALT_NAME: record(
    "error",
    ["chrome", "apple", "go"],
    ["leaf", "request"],
    "whether the leaf (or request) has a dns or ip subjectAltName",
    "reissue with every name in subjectAltName",
    [APPLE_2019, source("https://go.dev/doc/go1.15#commonname")],
  ),
  EKU_LACKS_SERVER_AUTH: record(
    "error",
    EVERY,
    ["leaf"],
    "the leaf's extendedKeyUsage for serverAuth",
    "reissue the leaf with serverAuth",
    [RFC5280, APPLE_2019, GO_VERIFY, OPENSSL_PURPOSE],
  ),
  EKU_ABSENT: record(
    "error",
    ["apple"],
    ["leaf"],
    "a leaf issued since 2019-07-01 without extendedKeyUsage",
    "reissue the leaf with an extendedKeyUsage holding serverAuth",
    [APPLE_2019],
  ),
  EKU_NOT_SERVER_AUTH_ONLY: record(
    "warning",
    [],
    ["leaf"],
    "a leaf issued since 2027-03-15 whose extendedKeyUsage lists more than serverAuth",
    "reissue the leaf with serverAuth alone; the CA broke Chrome Root Program policy",
    [CHROME_ROOT_POLICY],
    "webpki",
  ),
  RSA_KEY_UNDER_1024: record(
    "error",
    ["chrome", "apple", "go", "openssl"],
    ["member", "anchor", "request"],
    "each RSA key's modulus size",
    "use a key of at least 2048 bits",
    [CHROME_VERIFY, APPLE_2019, source("https://go.dev/doc/go1.24#cryptorsapkgcryptorsa"), OPENSSL_LEVEL],
  ),
  RSA_KEY_UNDER_2048: record(
    "error",
    ["apple", "openssl"],
    ["member", "anchor", "request"],
    "each RSA key of 1024 to 2047 bits",
    "use a key of at least 2048 bits",
    [APPLE_2019, OPENSSL_LEVEL, BR],
  ),
  SHA1_SIGNATURE: record(
    "error",
    ["chrome", "apple", "go", "openssl"],
    ["member"],
    "each member's signature digest, the in-bundle anchor's excepted",
    "reissue signed with SHA-256 or stronger",
    [CHROME_VERIFY, APPLE_2019, GO_VERIFY, OPENSSL_LEVEL],
  ),
  VALIDITY_OVER_825_DAYS: record(
    "error",
    ["apple"],
    ["leaf"],
    "a leaf issued since 2019-07-01 valid over 825 days",
    "reissue valid for at most 825 days",
    [APPLE_2019],
  ),
  VALIDITY_OVER_398_DAYS: record(
    "error",
    ["chrome", "apple"],
    ["leaf"],
    "a leaf issued since 2020-09-01 valid over 398 days",
    "reissue valid for at most 398 days",
    [APPLE_2020, CHROME_VERIFY],
    "webpki",
  ),
  PATH_LENGTH_EXCEEDED: record(
    "error",
    ["chrome", "firefox", "go", "openssl"],
    ["ca", "anchor"],
    "each CA's pathLenConstraint against the CA certificates below it",
    "use a CA certificate that allows the path, or fewer intermediates",
    [RFC5280, GO_VERIFY, OPENSSL_VERIFY],
  ),
  NAME_CONSTRAINTS_VIOLATED: record(
    "error",
    ["chrome", "firefox", "go", "openssl"],
    ["ca", "anchor"],
    "each CA's nameConstraints against every name of every certificate below it",
    "reissue without the name, or from a CA whose constraints permit it",
    [RFC5280, GO_VERIFY, OPENSSL_VERIFY, CHROME_ANCHOR_CONSTRAINTS],
  ),
  CA_EKU_LACKS_SERVER_AUTH: record(
    "error",
    EVERY,
    ["ca", "anchor"],
    "each CA's extendedKeyUsage for serverAuth or anyExtendedKeyUsage (EKU chaining)",
    "use a CA certificate whose extendedKeyUsage allows serverAuth",
    [GO_VERIFY, OPENSSL_PURPOSE, source("https://wiki.mozilla.org/CA/Required_or_Recommended_Practices")],
  ),
  UNKNOWN_CRITICAL_EXTENSION: record(
    "error",
    EVERY,
    ["member", "anchor"],
    "each extension marked critical against the extensions the service processes",
    "reissue without the extension, or with it not critical",
    [RFC5280, GO_PARSER, OPENSSL_PURPOSE],
  ),
  EC_CURVE_NOT_ACCEPTED: record(
    "error",
    EVERY,
    ["member", "anchor"],
    "each EC key's curve against the curves each client accepts",
    "use a P-256 or P-384 key",
    [CHROME_VERIFY, GO_PARSER, OPENSSL_LEVEL],
  ),
  ROOT_DISTRUSTED_FOR_NEW_CERTS: record(
    "error",
    ["chrome", "firefox"],
    ["leaf", "anchor"],
    "the reference root's distrust dates against the leaf's notBefore or earliest SCT",
    "have the certificate issued under another root",
    [NSS_CERTDATA, CHROME_ROOT_STORE],
    "webpki",
  ),
  EXPIRING: record(
    "warning",
    [],
    ["member"],
    "each member's days left against expiryWarningDays, or a share of its lifetime",
    "replace the certificate before it expires",
    [CERTBOT],
  ),
  VALIDITY_OVER_BR_LIMIT: record(
    "error",
    ["chrome"],
    ["leaf"],
    "the leaf's validity against the CA/Browser Forum limit for its notBefore",
    "reissue within the limit",
    [BR, CHROME_VERIFY, source("https://github.com/mitmproxy/mitmproxy/pull/8142")],
    "webpki",
  ),
  NO_EMBEDDED_SCTS: record(
    "warning",
    ["chrome", "firefox", "apple"],
    ["leaf"],
    "the leaf's embedded SCT list",
    "reissue from a CA that embeds SCTs, or send them in the TLS handshake",
    [CHROME_CT, FIREFOX_CT, APPLE_CT],
    "webpki",
  ),
  TOO_FEW_EMBEDDED_SCTS: record(
    "warning",
    ["chrome", "firefox", "apple"],
    ["leaf"],
    "the number of embedded SCTs against what the leaf's lifetime needs",
    "reissue with enough SCTs, or send more in the TLS handshake",
    [CHROME_CT, FIREFOX_CT, APPLE_CT],
    "webpki",
  ),
  UNNEEDED_CERTIFICATE: record(
    "warning",
    [],
    ["path", "bundle"],
    "positions off the path",
    "remove them from the served chain",
    [SPEC],
  ),
  DUPLICATE_CERTIFICATE: record(
    "warning",
    [],
    ["bundle"],
    "positions that repeat an earlier one byte for byte",
    "remove the repeated copy",
    [SPEC],
  ),
  LEAF_SELECTION_REQUIRED: record(
    "warning",
    [],
    ["bundle"],
    "several possible leaves and none chosen",
    "give leafIndex, or keep one leaf",
    [SPEC],
  ),
  NO_LEAF_CERTIFICATE: record(
    "warning",
    [],
    ["bundle"],
    "whether any certificate is not a CA",
    "add the server's own certificate",
    [SPEC],
  ),
  ROOT_INCLUDED: record(
    "info",
    [],
    ["path", "bundle"],
    "a self-signed root served with the chain",
    "leave the root out of the served chain",
    [SPEC],
  ),
  // ------------------------------------------------------------------ revocation (§10.2)
  REVOKED: record(
    "error",
    EVERY,
    ["member"],
    "each member's serial in the CRLs its issuer's key verifies (only with CRLs given)",
    "replace the revoked certificate",
    [RFC5280, source("https://www.rfc-editor.org/rfc/rfc5280#section-5")],
  ),
  CRL_STALE: record(
    "warning",
    [],
    ["member"],
    "the nextUpdate of each CRL used for the path against the evaluation instant",
    "fetch the CA's current CRL",
    [RFC5280],
  ),
  // ------------------------------------------------------------------ the request (§8.2)
  CSR_SIGNATURE_INVALID: record(
    "error",
    [],
    ["request"],
    "the request's signature with its own key",
    "make the request again with the server's key",
    [source("https://www.rfc-editor.org/rfc/rfc2986")],
  ),
  CSR_SIGNATURE_SHA1: record(
    "warning",
    [],
    ["request"],
    "the request's signature digest",
    "sign the request with SHA-256",
    [source("https://www.rfc-editor.org/rfc/rfc2986")],
  ),
  // ------------------------------------------------------------------ the bundle (§4.3)
  CERTIFICATE_EXPIRED: record(
    "error",
    [],
    ["bundle"],
    "evaluatedAt against each notAfter",
    "renew or replace it",
    [RFC5280],
  ),
  CERTIFICATE_NOT_YET_VALID: record(
    "error",
    [],
    ["bundle"],
    "evaluatedAt against each notBefore",
    "check the clock, or wait",
    [RFC5280],
  ),
  SELF_SIGNED_CERTIFICATE: record("info", [], ["bundle"], "a verified self-signature", "none", [SPEC]),
  SELF_SIGNATURE_FAILED: record(
    "error",
    [],
    ["bundle"],
    "a self-issued certificate's signature with its own key",
    "get an undamaged copy",
    [SPEC],
  ),
  SIGNATURE_UNSUPPORTED: record(
    "warning",
    [],
    ["bundle"],
    "signature checks the verifier cannot make",
    "check it with another tool",
    [SPEC],
  ),
  SIGNATURE_CHECK_UNAVAILABLE: record(
    "warning",
    [],
    ["bundle"],
    "signature checks that could not run",
    "check the issuer's key",
    [SPEC],
  ),
  ISSUER_NOT_IN_BUNDLE: record(
    "info",
    [],
    ["bundle"],
    "a certificate without a candidate issuer in the bundle",
    "add the intermediate, or nothing for a root",
    [SPEC],
  ),
  CANDIDATE_SIGNATURE_FAILED: record(
    "warning",
    [],
    ["bundle"],
    "a same-name candidate whose key does not verify the child",
    "remove it or add the right issuer",
    [SPEC],
  ),
  ISSUER_NOT_CA: record(
    "error",
    [],
    ["bundle"],
    "an issuer without basicConstraints cA",
    "use a CA certificate as issuer",
    [RFC5280],
  ),
  ISSUER_KEY_USAGE_REJECTED: record(
    "error",
    [],
    ["bundle"],
    "an issuer's keyUsage without keyCertSign",
    "use a CA certificate allowed to sign certificates",
    [RFC5280],
  ),
  ISSUER_KEY_ID_MISMATCH: record(
    "warning",
    [],
    ["bundle"],
    "the child's authority key id against the issuer's subject key id",
    "use the issuer certificate whose key id matches",
    [RFC5280],
  ),
  MULTIPLE_ISSUERS: record(
    "info",
    [],
    ["bundle"],
    "several distinct certificates that verify one child",
    "keep the current one",
    [SPEC],
  ),
  HOSTNAME_MATCH: record("info", [], ["bundle"], "the SAN that covers the hostname", "none", [SPEC]),
} as const satisfies Record<string, RuleRecord>;

export type RuleCode = keyof typeof RULES;

/** The chain's problem codes, in the order of CONTRACT §8.1's list and §9's additions (the tie-break order). */
export const CHAIN_PROBLEM_CODES = [
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
   * Warning, `webpki` only. The leaf's notBefore ≥ 2027-03-15T00:00:00Z and its extendedKeyUsage
   * lists anything besides serverAuth (CONTRACT §9.5); on [leaf]; no client named: the CA broke
   * Chrome Root Program policy 1.8 §1.3.2 and its hierarchy may be distrusted.
   */
  "EKU_NOT_SERVER_AUTH_ONLY",
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
   * Error, any profile. A path member's or judged anchor's RSA key has 1024 to 2047 bits; on [i];
   * Apple (HT210176: "TLS server certificates and issuing CAs using RSA keys must use key sizes
   * greater than or equal to 2048 bits"; CA/B Forum Baseline Requirements §6.1.5) and OpenSSL ≥ 3.2,
   * whose default security level 2 wants 112 bits of security: its estimate gives that from 1963
   * bits on (measured), so OpenSSL is named under 1963 bits only, where the contract names it for
   * all of 1024–2047. Never raised with RSA_KEY_UNDER_1024 for one certificate.
   */
  "RSA_KEY_UNDER_2048",
  /**
   * Error, any profile. A path member other than the in-bundle anchor is signed with SHA-1 (RSA,
   * ECDSA, DSA, or RSASSA-PSS hashing with SHA-1); on [i]. Every client under `webpki` (Chrome 56,
   * Firefox 52); otherwise Chrome (CONTRACT §9.5: Chromium refuses a SHA-1 leaf under a locally
   * trusted root, the EnableSha1ForLocalAnchors policy is gone), Apple (HT210176), Go 1.18 (root
   * signatures are not checked) and OpenSSL (level 1: "signatures using SHA1 and MD5 are also
   * forbidden at this level"). Firefox accepts it under manually imported roots (Mozilla, "Phasing
   * Out SHA-1 on the Public Web"), so it is not named there.
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
   * Error, any profile. A CA member's or judged anchor's nameConstraints refuse a name of a
   * certificate below it on the path (CONTRACT §9.4; RFC 5280 §4.2.1.10, §6.1.3): the subject
   * against directoryName subtrees, DNS, IP, e-mail and URI SANs against subtrees of their form,
   * and forms that cannot be checked where constrained; a self-issued intermediate's own names are
   * exempt; on [that certificate, that CA]. OpenSSL X509_V_ERR_PERMITTED_VIOLATION and
   * EXCLUDED_VIOLATION, Go 1.10 (every name is checked), Chromium, mozilla::pkix; for the anchor's
   * own constraints Go and OpenSSL (browser root stores ignore a root's constraints:
   * letsencrypt/boulder#3556; Chrome applies a local anchor's since Chrome 112's
   * EnforceLocalAnchorConstraintsEnabled, which is left out).
   */
  "NAME_CONSTRAINTS_VIOLATED",
  /**
   * Error, any profile. A CA member or judged anchor has an extendedKeyUsage that lists neither
   * serverAuth nor anyExtendedKeyUsage (EKU chaining, CONTRACT §9.4); on [that CA]. Go `verify.go`
   * checks every certificate of the chain, the root included; OpenSSL `-purpose sslserver`
   * ("unsuitable certificate purpose") the CA members; Chromium, mozilla::pkix and Apple the
   * intermediates.
   */
  "CA_EKU_LACKS_SERVER_AUTH",
  /**
   * Error, any profile. A path member or judged anchor has an extension marked critical that the
   * service does not process (RFC 5280 §4.2: "MUST reject"); on [i]. The processed set is
   * `PROCESSED_EXTENSIONS` (critical-extensions.ts; ADR 0031), the extensions both Go's parser and
   * OpenSSL's `X509_supported_extension` handle.
   */
  "UNKNOWN_CRITICAL_EXTENSION",
  /**
   * Error, any profile. A path member's or judged anchor's EC key is on a curve some client does
   * not accept for certificates; on [i]; the clients that refuse that curve: Chromium and
   * mozilla::pkix accept P-256, P-384 and P-521 only, Go P-224 to P-521, OpenSSL ≥ 3.2 (level 2)
   * refuses curves under 224 bits.
   */
  "EC_CURVE_NOT_ACCEPTED",
  /**
   * Error, `webpki` only. The anchor is a reference root with a distrust date and the leaf falls
   * after it (CONTRACT §9.5): Firefox compares the leaf's notBefore with
   * `CKA_NSS_SERVER_DISTRUST_AFTER`, Chrome the earliest embedded SCT (the notBefore without one)
   * with `sct_not_after`; on [leaf]; the clients whose date applies.
   */
  "ROOT_DISTRUSTED_FOR_NEW_CERTS",
  /**
   * Warning. A path member has 0 ≤ `expiresInDays` < its threshold: `expiryWarningDays` when given,
   * else ⌈lifetime / 3⌉ days (at most 30), or ⌈lifetime / 2⌉ under 10 days of lifetime (CONTRACT
   * §9.5, certbot's renewal rule); on [i].
   */
  "EXPIRING",
  /**
   * Error, `webpki` only. The leaf's `validityDays` is over the CA/Browser Forum limit for its
   * notBefore: 200 days from 2026-03-15, 100 from 2027-03-15, 47 from 2029-03-15 (ballot SC-081v3,
   * Baseline Requirements §6.3.2); on [leaf]; Chrome, whose `HasTooLongValidity`
   * (net/cert/cert_verify_proc.cc) refuses with ERR_CERT_VALIDITY_TOO_LONG (mitmproxy#8142 and #8201
   * cite the line; the Chromium revision with these dates was not in the sources at hand).
   */
  "VALIDITY_OVER_BR_LIMIT",
  /**
   * Warning, `webpki` only. The leaf carries no embedded SCT (`sctCount` 0); on [leaf]; Chrome,
   * Firefox (CT enforced since Firefox 135) and Apple (support.apple.com/103214). A warning: SCTs
   * may also come in the TLS handshake (Chrome ≥ 148 ignores those in stapled OCSP responses, so
   * the words no longer mention them).
   */
  "NO_EMBEDDED_SCTS",
  /**
   * Warning, `webpki` only. 1 ≤ `sctCount` < N, N = 2 when `validityDays` ≤ 180, else 3 (Chrome's
   * and Firefox's CT policies, Apple's table likewise); on [leaf]. A warning: SCTs may also arrive
   * in the TLS handshake.
   */
  "TOO_FEW_EMBEDDED_SCTS",
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
] as const satisfies readonly RuleCode[];

/** The request's codes (CONTRACT §8.2), in §8.1's code order, the request's own codes last. */
export const CSR_PROBLEM_CODES = [
  "NO_SUBJECT_ALT_NAME",
  "RSA_KEY_UNDER_1024",
  "RSA_KEY_UNDER_2048",
  "CSR_SIGNATURE_INVALID",
  "CSR_SIGNATURE_SHA1",
] as const satisfies readonly RuleCode[];

/** The bundle's finding codes, in the order of CONTRACT §4.3's table. */
export const FINDING_CODES = [
  /**
   * Warning. A position repeats an earlier certificate byte for byte (same SHA-256 fingerprint);
   * raised once per repeat, on [first, repeat]. Evidence: `firstIndex`, `fingerprintSha256`.
   */
  "DUPLICATE_CERTIFICATE",
  /**
   * Error. The evaluation time is past the certificate's notAfter; on [i]. Evidence: `notAfter`,
   * `evaluatedAt`.
   */
  "CERTIFICATE_EXPIRED",
  /**
   * Error. The evaluation time is before the certificate's notBefore; on [i]. Evidence:
   * `notBefore`, `evaluatedAt`.
   */
  "CERTIFICATE_NOT_YET_VALID",
  /**
   * Info. Subject and issuer are the same name and the certificate's own key verifies its
   * signature (a root, or a self-signed leaf); on [i]. Evidence: `ca`.
   */
  "SELF_SIGNED_CERTIFICATE",
  /**
   * Error. A self-issued certificate's signature does not verify with its own key: altered,
   * damaged, or signed by another key of the same name; on [i]. Evidence: `signatureAlgorithm`.
   */
  "SELF_SIGNATURE_FAILED",
  /**
   * Warning. A signature check (self or against a candidate issuer) could not be made because the
   * algorithm, key type or curve is one the verifier does not implement (MD5, DSA, Ed448,
   * brainpool…); on [i] for a self-check, else [child, issuer]. Evidence: `signatureAlgorithm`.
   */
  "SIGNATURE_UNSUPPORTED",
  /**
   * Warning. A signature check could not run for another reason (the issuer key cannot be
   * imported, the key type does not match the algorithm); on [i] for a self-check, else [child,
   * issuer]. Evidence: `signatureAlgorithm`, `reason`.
   */
  "SIGNATURE_CHECK_UNAVAILABLE",
  /**
   * Info. A certificate that is not self-issued has no candidate issuer in the bundle whose
   * signature check did not fail; on [i]. Evidence: `issuer`, `issuerIsKnownRoot` (whether a
   * shipped root matches the missing issuer: omitting a root is normal, omitting an intermediate
   * is not).
   */
  "ISSUER_NOT_IN_BUNDLE",
  /**
   * Warning. A certificate named as issuer (same name) did not sign the child: its key does not
   * verify the child's signature; on [child, issuer]. Evidence: `childIndex`, `issuerIndex`.
   */
  "CANDIDATE_SIGNATURE_FAILED",
  /**
   * Error. An issuer whose signature did not fail is not a CA (basicConstraints absent or cA
   * false); on [child, issuer]. Evidence: `childIndex`, `issuerIndex`, `basicConstraintsPresent`.
   */
  "ISSUER_NOT_CA",
  /**
   * Error. An issuer whose signature did not fail has a keyUsage extension without keyCertSign; on
   * [child, issuer]. Evidence: `childIndex`, `issuerIndex`.
   */
  "ISSUER_KEY_USAGE_REJECTED",
  /**
   * Warning. The child's authorityKeyIdentifier and the issuer's subjectKeyIdentifier are both
   * present and differ, although the signature did not fail; on [child, issuer]. Evidence:
   * `childIndex`, `issuerIndex`, `authorityKeyIdentifier`, `subjectKeyIdentifier`.
   */
  "ISSUER_KEY_ID_MISMATCH",
  /**
   * Info. Two or more distinct certificates (by fingerprint) verify the child's signature, e.g. a
   * renewed intermediate next to the old one, same name and key; on [child, …issuers]. Evidence:
   * `childIndex`, `issuerCount`.
   */
  "MULTIPLE_ISSUERS",
  /**
   * Warning. A hostname was given, several certificates could be the leaf and no `leafIndex` says
   * which; on the possible leaves. Evidence: `leafCount`.
   */
  "LEAF_SELECTION_REQUIRED",
  /**
   * Warning. No certificate could be the leaf: every distinct certificate is a CA (cA true), as in
   * a bundle of roots; on []. Evidence: `certificateCount`.
   */
  "NO_LEAF_CERTIFICATE",
  /**
   * Info. The hostname matches one of the selected leaf's DNS subjectAltNames (the Common Name is
   * not used); on [leaf]. Evidence: `hostname` (as given), `matchedName` (the SAN as written).
   */
  "HOSTNAME_MATCH",
  /**
   * Error. The hostname matches none of the selected leaf's DNS subjectAltNames; on [leaf].
   * Evidence: `hostname`, `dnsNameCount`.
   */
  "HOSTNAME_MISMATCH",
] as const satisfies readonly RuleCode[];

export type ChainProblemCode = (typeof CHAIN_PROBLEM_CODES)[number];
export type CsrProblemCode = (typeof CSR_PROBLEM_CODES)[number];
export type FindingCode = (typeof FINDING_CODES)[number];

/** The record of one code. */
export function ruleOf(code: RuleCode): RuleRecord {
  return RULES[code];
}

/** Each code's severity, for one selection (the input of a DiagnosticCodes). */
export function severities<Code extends RuleCode>(codes: readonly Code[]): Record<Code, Severity> {
  return Object.fromEntries(codes.map((code) => [code, RULES[code].severity])) as Record<Code, Severity>;
}

/**
 * Whether a chain rule depends on the path (CONTRACT §9.3): every rule except those that judge the
 * leaf alone (HOSTNAME_MISMATCH, NO_SUBJECT_ALT_NAME, the leaf's EKU, validity-length and SCT rules).
 */
export function dependsOnPath(code: RuleCode): boolean {
  const subjects: readonly RuleSubject[] = RULES[code].subjects;
  return !subjects.every((subject) => subject === "leaf" || subject === "request");
}
