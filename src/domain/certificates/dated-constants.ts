/**
 * Every dated constant the certificate rules compare with (CONTRACT §8.1, §9.5): limits, cut-over
 * dates and counts that the clients' programs or the CA/Browser Forum set and change. One table,
 * each entry with the source it was read from and the day it was last checked there; a test fails
 * when the newest check is more than {@link MAX_VERIFICATION_AGE_DAYS} days older than the clock,
 * so the table is re-read at least twice a year. Distrust dates of individual roots are not here:
 * they come with the reference store (RootStore.distrustOf, CONTRACT §9.2).
 */

/** One constant, where it comes from, and when that source was last read (`YYYY-MM-DD`, UTC). */
export interface DatedConstant<Value> {
  value: Value;
  source: string;
  verified: string;
}

/** How old the newest verification may be before the table counts as stale (CONTRACT §9.5). */
export const MAX_VERIFICATION_AGE_DAYS = 180;

const at = (instant: string) => Date.parse(instant);

/** The table (CONTRACT §9.5: "one table in the source"). */
export const DATED_CONSTANTS = {
  /** Apple HT210176: certificates issued from this instant need serverAuth and at most 825 days. */
  appleCutover2019: {
    value: at("2019-07-01T00:00:00Z"),
    source: "https://support.apple.com/en-us/103769",
    verified: "2026-11-28",
  },
  /** Apple HT210176's validity limit, in days. */
  appleMaxValidityDays: {
    value: 825,
    source: "https://support.apple.com/en-us/103769",
    verified: "2026-11-28",
  },
  /** Apple HT211025 and Chrome 85: leaves under public roots issued from this instant. */
  publicRootsCutover2020: {
    value: at("2020-09-01T00:00:00Z"),
    source: "https://chromium.googlesource.com/chromium/src/+/HEAD/net/docs/certificate_lifetimes.md",
    verified: "2026-11-28",
  },
  /** Apple HT211025's and Chrome's limit for those leaves, in days. */
  publicRootsMaxValidityDays: {
    value: 398,
    source: "https://support.apple.com/en-us/102028",
    verified: "2026-11-28",
  },
  /**
   * CA/Browser Forum ballot SC-081v3 (Baseline Requirements §6.3.2), enforced by Chromium's
   * `HasTooLongValidity` (mitmproxy#8142 and #8201 cite cert_verify_proc.cc line 827 at
   * 961e21793515): the tightest limit whose date the notBefore reaches wins.
   */
  brValidityLimits: {
    value: [
      { from: at("2029-03-15T00:00:00Z"), days: 47 },
      { from: at("2027-03-15T00:00:00Z"), days: 100 },
      { from: at("2026-03-15T00:00:00Z"), days: 200 },
    ] as readonly { from: number; days: number }[],
    source: "https://github.com/mitmproxy/mitmproxy/pull/8142",
    verified: "2026-11-28",
  },
  /** RSA under this many bits: refused by Chromium IsWeakKey, Apple, Go 1.24, OpenSSL level 1. */
  rsaMinimumBits: {
    value: 1024,
    source: "https://chromium.googlesource.com/chromium/src/+/HEAD/net/cert/cert_verify_proc.cc",
    verified: "2026-11-28",
  },
  /** RSA under this many bits: refused by Apple (HT210176) and OpenSSL ≥ 3.2 (security level 2). */
  rsaApplePlusOpensslBits: {
    value: 2048,
    source: "https://docs.openssl.org/3.2/man3/SSL_CTX_set_security_level/",
    verified: "2026-11-28",
  },
  /**
   * The smallest RSA modulus OpenSSL's default security level 2 (3.2 and later) accepts: its
   * estimate (`ossl_ifc_ffc_compute_security_bits`) gives 112 bits of security from 1963 bits on.
   * Measured with `openssl verify -auth_level 2` on keys of 1960–1968 bits (OpenSSL 3.0.19, the
   * same estimate); the source of the level's definition is below.
   */
  opensslLevel2RsaBits: {
    value: 1963,
    source: "https://github.com/openssl/openssl/blob/master/crypto/rsa/rsa_lib.c",
    verified: "2026-11-28",
  },
  /**
   * Embedded SCTs wanted: `short` up to `shortLifetimeDays` of validity, `long` beyond (Chrome's
   * and Apple's CT policies; Firefox's follows Chrome's).
   */
  sctsWanted: {
    value: { shortLifetimeDays: 180, short: 2, long: 3 },
    source: "https://googlechrome.github.io/CertificateTransparency/ct_policy.html",
    verified: "2026-11-28",
  },
  /** Chrome Root Program policy 1.8 §1.3.2: leaves issued from this instant are serverAuth only. */
  serverAuthOnlyCutover: {
    value: at("2027-03-15T00:00:00Z"),
    source: "https://www.chromium.org/Home/chromium-security/root-ca-policy/",
    verified: "2026-11-28",
  },
  /**
   * Lifetime-relative expiry warning (certbot's renewal rule since 2025): a third of the lifetime,
   * at most `maxDays`; half of it under `shortLifetimeDays`.
   */
  expiryWarning: {
    value: { maxDays: 30, shortLifetimeDays: 10 },
    source: "https://github.com/certbot/certbot/blob/main/certbot/CHANGELOG.md",
    verified: "2026-11-28",
  },
} as const satisfies Record<string, DatedConstant<unknown>>;

/** The newest `verified` date of the table, in milliseconds since the epoch. */
export function newestVerification(table: Record<string, DatedConstant<unknown>> = DATED_CONSTANTS): number {
  return Math.max(...Object.values(table).map((entry) => Date.parse(`${entry.verified}T00:00:00Z`)));
}
