/**
 * Plain data of one decoded certificate revocation list (RFC 5280 §5): what the CRL use case
 * (revocation.ts) and the chain's revocation rule need, read once by a RevocationListDecoder
 * adapter. A CA's full CRL can hold hundreds of thousands of entries, so the entries are not
 * materialized: the decoder checks every one once, counts them, and `find` / `entries` walk the
 * list again on demand (linear, no allocation beyond the answers).
 */

/** RFC 5280 §5.3.1 CRLReason, as the RFC names them (and `openssl ca -crl_reason` spells them). */
export const REVOCATION_REASONS = [
  "unspecified",
  "keyCompromise",
  "cACompromise",
  "affiliationChanged",
  "superseded",
  "cessationOfOperation",
  "certificateHold",
  "removeFromCRL",
  "privilegeWithdrawn",
  "aACompromise",
] as const;
export type RevocationReason = (typeof REVOCATION_REASONS)[number];

/** One revokedCertificates entry. */
export interface RevokedEntry {
  /** Uppercase hex as `openssl crl -text` prints it (`-` prefix for a negative serial). */
  serialNumber: string;
  revocationDate: Date;
  /** The reasonCode entry extension, or null without one (RFC 5280: absent means unspecified). */
  reason: RevocationReason | null;
  /** The invalidityDate entry extension, or null without one. */
  invalidityDate: Date | null;
}

export interface RevocationListData {
  /** The whole CRL, DER. */
  der: Uint8Array;
  /** DER of the tbsCertList: the bytes the issuer signed (a view into `der`). */
  tbs: Uint8Array;
  /** DER of the outer signatureAlgorithm's parameters, or null when absent. */
  signatureParameters: Uint8Array | null;
  /** The signatureValue BIT STRING's bits, or null when its unused-bits octet is not 0. */
  signatureValue: Uint8Array | null;
  /** OpenSSL's name for the signature algorithm, or the dotted OID. */
  signatureAlgorithm: string;
  signatureAlgorithmOid: string;
  /** Whether the signed `tbsCertList.signature` equals the outer algorithm (RFC 5280 §5.1.1.2). */
  signatureAlgorithmsMatch: boolean;
  /** 1 or 2, as `openssl crl -text` prints `Version N`. */
  version: 1 | 2;
  /** RFC 4514 text of the issuer, as `openssl crl -nameopt RFC2253,-esc_msb` prints it. */
  issuer: string;
  /** DER of the issuer Name as lowercase hex: compared with a certificate's `issuerNameKey`. */
  issuerNameKey: string;
  thisUpdate: Date;
  nextUpdate: Date | null;
  /** The cRLNumber extension in decimal, or null without one. */
  crlNumber: string | null;
  /** authorityKeyIdentifier.keyIdentifier as uppercase hex with colons, or null. */
  authorityKeyIdentifier: string | null;
  /** How many revokedCertificates entries the list holds. */
  entryCount: number;
  /** The entries whose serial is one of `serialNumbers` (first occurrence each), in one pass. */
  find(serialNumbers: readonly string[]): Map<string, RevokedEntry>;
  /** Every entry, in list order, read one at a time. */
  entries(): Iterable<RevokedEntry>;
}
