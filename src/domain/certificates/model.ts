/**
 * Plain data of one decoded X.509 certificate: everything the domain needs, no pkijs types.
 * Produced by a CertificateDecoder adapter; consumed by the inspection use case and the verifier.
 */

export interface SubjectAltName {
  /** `dns`, `ip`, `email`, `uri`, `directoryName`, `registeredId`, `otherName`, `x400Address`, `ediPartyName`. */
  type: string;
  value: string;
}

export interface CertificateData {
  /** The whole certificate, DER. */
  der: Uint8Array;
  /** SHA-256 of `der`: 32 uppercase hex pairs joined by colons. */
  fingerprintSha256: string;
  /** RFC 4514 text as `openssl x509 -nameopt RFC2253,-esc_msb` prints it. */
  subject: string;
  issuer: string;
  /** DER of the subject and issuer Name, as lowercase hex: used for exact name comparison. */
  subjectNameKey: string;
  issuerNameKey: string;
  /** The last (most specific) CN of the subject, or null. */
  commonName: string | null;
  /** Uppercase hex as `openssl x509 -serial` prints it (`-` prefix for a negative serial). */
  serialNumber: string;
  sans: SubjectAltName[];
  notBefore: Date;
  notAfter: Date;
  basicConstraintsPresent: boolean;
  /** basicConstraints present with cA true. */
  ca: boolean;
  /** null without a keyUsage extension, else its keyCertSign bit. */
  keyCertSign: boolean | null;
  /** subjectKeyIdentifier as uppercase hex with colons, or null. */
  subjectKeyIdentifier: string | null;
  /** authorityKeyIdentifier.keyIdentifier as uppercase hex with colons, or null. */
  authorityKeyIdentifier: string | null;
  /** OpenSSL's name for the signature algorithm, or the dotted OID when unknown. */
  signatureAlgorithm: string;
  /** Dotted OID of the signature algorithm. */
  signatureAlgorithmOid: string;
  /**
   * Whether the signed `tbsCertificate.signature` AlgorithmIdentifier is the outer
   * `signatureAlgorithm` (RFC 5280 §4.1.1.2). When false, `signatureAlgorithm` names the outer
   * one and every check of this certificate's signature is `failed`, as OpenSSL refuses it.
   */
  signatureAlgorithmsMatch: boolean;
  /** DER of this certificate's SubjectPublicKeyInfo, as lowercase hex: identifies the key. */
  publicKeyKey: string;
  /** `caIssuers` URIs of the Authority Information Access extension, in order (empty when none). */
  caIssuersUrls: string[];
  /** `ocsp` URIs of the Authority Information Access extension, in order (empty when none). */
  ocspUrls: string[];
}
