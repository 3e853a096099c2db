/**
 * The checks of one certificate that the client rules (client-rules.ts) word as problems and the
 * path search (chain-path.ts) counts to rank paths (CONTRACT §9.3): each a plain predicate on the
 * certificate's data, so both read the same facts and neither imports the other.
 */
import { DATED_CONSTANTS } from "./dated-constants.ts";
import type { CertificateData } from "./model.ts";
import { type NameComparisonTally, violatingNameOf } from "./name-constraints.ts";
import type { Client } from "./rule-catalogue.ts";

/** The key algorithms that are RSA keys (rsaEncryption, and RSASSA-PSS whose key is an RSA modulus too). */
const RSA_KEY_TYPES = new Set(["RSA", "1.2.840.113549.1.1.10"]);

/**
 * The extensions the service processes (ADR 0031): a critical extension outside this set is
 * `UNKNOWN_CRITICAL_EXTENSION` (RFC 5280 §4.2). The set is what both Go's parser (its
 * `UnhandledCriticalExtensions`) and OpenSSL's `X509_supported_extension` accept as critical —
 * the stricter of the two, as issue 29 asks where the contract is silent.
 */
export const PROCESSED_EXTENSIONS: ReadonlyMap<string, string> = new Map([
  ["2.5.29.15", "keyUsage"],
  ["2.5.29.17", "subjectAltName"],
  ["2.5.29.19", "basicConstraints"],
  ["2.5.29.30", "nameConstraints"],
  ["2.5.29.31", "cRLDistributionPoints"],
  ["2.5.29.32", "certificatePolicies"],
  ["2.5.29.37", "extendedKeyUsage"],
]);

/** The critical extensions of `certificate` the service does not process, as dotted OIDs. */
export function unprocessedCriticalExtensions(
  certificate: Pick<CertificateData, "criticalExtensions">,
): string[] {
  return certificate.criticalExtensions.filter((oid) => !PROCESSED_EXTENSIONS.has(oid));
}

/** The RSA modulus size of `certificate`'s key, or null for another key. */
export function rsaBits(certificate: Pick<CertificateData, "keyType" | "keyBits">): number | null {
  return RSA_KEY_TYPES.has(certificate.keyType) ? certificate.keyBits : null;
}

/** `RSA_KEY_UNDER_1024`, `RSA_KEY_UNDER_2048`, or null: which RSA size rule the key breaks. */
export function rsaKeyRule(
  certificate: Pick<CertificateData, "keyType" | "keyBits">,
): "RSA_KEY_UNDER_1024" | "RSA_KEY_UNDER_2048" | null {
  const bits = rsaBits(certificate);
  if (bits === null) return null;
  if (bits < DATED_CONSTANTS.rsaMinimumBits.value) return "RSA_KEY_UNDER_1024";
  return bits < DATED_CONSTANTS.rsaApplePlusOpensslBits.value ? "RSA_KEY_UNDER_2048" : null;
}

/** Whether a CA certificate's extendedKeyUsage forbids serverAuth (EKU chaining; no extension allows all). */
export function caEkuLacksServerAuth(certificate: Pick<CertificateData, "extendedKeyUsage">): boolean {
  const usage = certificate.extendedKeyUsage;
  return usage !== null && !usage.includes("serverAuth") && !usage.includes("anyExtendedKeyUsage");
}

/** The curves Chromium and mozilla::pkix accept for certificate keys (their sources, ADR 0031). */
const BROWSER_CURVES = new Set(["P-256", "P-384", "P-521"]);
/** Go `crypto/x509` parses these named curves and no other. */
const GO_CURVES = new Set(["P-224", "secp224r1", "P-256", "P-384", "P-521"]);
/** OpenSSL ≥ 3.2's default security level 2: 112 bits of security, EC orders of 224 bits and more. */
const OPENSSL_MIN_EC_BITS = 224;

/**
 * The clients that refuse `certificate`'s EC key for its curve (CONTRACT §9.4
 * `EC_CURVE_NOT_ACCEPTED`), in client order; empty for a curve everyone accepts or a key that is
 * not EC. Apple is not named: its accepted curves are not published.
 */
export function curveRefusers(
  certificate: Pick<CertificateData, "keyType" | "keyCurve" | "keyBits">,
): Client[] {
  if (certificate.keyType !== "EC" || certificate.keyCurve === null) return [];
  const curve = certificate.keyCurve;
  const refusers: Client[] = [];
  if (!BROWSER_CURVES.has(curve)) refusers.push("chrome", "firefox");
  if (!GO_CURVES.has(curve)) refusers.push("go");
  if (certificate.keyBits === null || certificate.keyBits < OPENSSL_MIN_EC_BITS) refusers.push("openssl");
  return refusers;
}

/** Whether a notBefore falls on or after an instant (ms). */
export function issuedFrom(certificate: Pick<CertificateData, "notBefore">, instant: number): boolean {
  return certificate.notBefore.getTime() >= instant;
}

/**
 * How many error problems of the path-dependent rules one certificate raises on its own, as the
 * path search counts them (CONTRACT §9.3): validity at `evaluatedAt`, RSA size, SHA-1 (unless it is
 * a self-signed anchor), and for a CA its extendedKeyUsage and its nameConstraints against the
 * leaf, unprocessed critical extensions and refused curves. Rules that need the whole path
 * (pathLenConstraint, constraints against intermediates, distrust) are judged once it is built.
 */
export function pathErrorCount(
  certificate: CertificateData,
  role: { ca: boolean; selfSignedAnchor: boolean },
  leaf: CertificateData,
  evaluatedAt: Date,
  nameComparisons?: NameComparisonTally,
): number {
  const now = evaluatedAt.getTime();
  let count = 0;
  if (now > certificate.notAfter.getTime()) count++;
  if (now < certificate.notBefore.getTime()) count++;
  if (rsaKeyRule(certificate) !== null) count++;
  if (!role.selfSignedAnchor && certificate.signatureDigest === "SHA-1") count++;
  if (unprocessedCriticalExtensions(certificate).length > 0) count++;
  if (curveRefusers(certificate).length > 0) count++;
  if (role.ca) {
    if (caEkuLacksServerAuth(certificate)) count++;
    if (
      certificate.nameConstraints !== null &&
      violatingNameOf(leaf, certificate.nameConstraints, { tally: nameComparisons }) !== null
    )
      count++;
  }
  return count;
}
