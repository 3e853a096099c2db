/**
 * Plain data of one decoded X.509 certificate: everything the domain needs, read once (ADR 16).
 * Produced by a CertificateDecoder adapter; consumed by the bundle inspection and its findings, the
 * chain (path search, trust anchors, client rules), the CSR inspection's key match, and the
 * SignatureVerifier, which checks a signature from these fields without reading the DER again.
 */

export interface SubjectAltName {
  /** `dns`, `ip`, `email`, `uri`, `directoryName`, `registeredId`, `otherName`, `x400Address`, `ediPartyName`. */
  type: string;
  value: string;
  /**
   * `directoryName` only: DER of the Name, lowercase hex (as `subjectNameKey`), which name
   * constraints compare (CONTRACT §9.4). Never shown: `value` is its RFC 4514 text.
   */
  nameKey?: string;
}

/**
 * A SubjectPublicKeyInfo as the decoder read it (RFC 5280 §4.1.2.7), like Go's
 * `RawSubjectPublicKeyInfo` with the algorithm already split out: a signature check reads these
 * instead of decoding the key's DER again. Every byte field is a view into the certificate's `der`.
 */
export interface PublicKeyInfo {
  /** DER of the whole SubjectPublicKeyInfo. */
  spki: Uint8Array;
  /** Dotted OID of the key's algorithm (`1.2.840.113549.1.1.1` for rsaEncryption…). */
  algorithmOid: string;
  /** DER (tag, length, content) of the algorithm's parameters, or null when there are none. */
  parameters: Uint8Array | null;
  /** DER (tag, length, content) of the subjectPublicKey BIT STRING. */
  subjectPublicKey: Uint8Array;
}

/** The subtrees of one side of a nameConstraints extension (CONTRACT §8.1, §9.4), by name form. */
export interface NameSubtrees {
  /** dNSName bases, as written. */
  dns: string[];
  /**
   * iPAddress bases: address and mask, 4 octets each (IPv4) or 16 (IPv6). A base of another
   * length than 8 or 32 octets is kept whole as `address` with an empty `mask`: it matches nothing.
   */
  ip: { address: Uint8Array; mask: Uint8Array }[];
  /** rfc822Name bases, as written (a mailbox, a host, or `.domain`). */
  email: string[];
  /** uniformResourceIdentifier bases, as written (a host, or `.domain`). */
  uri: string[];
  /** directoryName bases: the DER of the Name's RDNs (its content octets), lowercase hex. */
  directoryName: string[];
  /** Forms the service cannot evaluate, present on this side: `otherName`, `x400Address`, `ediPartyName`, `registeredId`. */
  unsupported: string[];
}

/** nameConstraints (RFC 5280 §4.2.1.10), every subtree by its form. */
export interface NameConstraints {
  permitted: NameSubtrees;
  excluded: NameSubtrees;
}

export interface CertificateData {
  /** The whole certificate, DER. */
  der: Uint8Array;
  /**
   * DER of the tbsCertificate: the bytes the issuer signed (Go's `RawTBSCertificate`). A view
   * into `der`, like every byte field below: the certificate is parsed once, by the decoder.
   */
  tbs: Uint8Array;
  /** DER (tag, length, content) of the outer signatureAlgorithm's parameters, or null when absent. */
  signatureParameters: Uint8Array | null;
  /**
   * The signatureValue BIT STRING's bits (the content after its unused-bits octet), or null when
   * that octet is not 0: such a signature is no whole number of octets and never verifies.
   */
  signatureValue: Uint8Array | null;
  /** The certificate's own public key. */
  publicKey: PublicKeyInfo;
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
  /** `RSA`, `EC`, `Ed25519`, `Ed448`, `DSA`, else the dotted OID of the key's algorithm. */
  keyType: string;
  /** OpenSSL's `EVP_PKEY_get_bits` (RSA modulus, EC order, 256 Ed25519, 456 Ed448, DSA p), or null. */
  keyBits: number | null;
  /** EC only: `P-256`, `P-384`, `P-521`, else OpenSSL's curve name or the dotted OID; null otherwise. */
  keyCurve: string | null;
  /** SHA-256 of the DER SubjectPublicKeyInfo, 64 lowercase hex digits. */
  publicKeySha256: string;
  /** The digest the signature algorithm hashes with (`SHA-1`, `SHA-256` …), or null (Ed25519, MD5, unknown). */
  signatureDigest: string | null;
  /** extendedKeyUsage purposes in extension order (`serverAuth` … or dotted OIDs), or null without it. */
  extendedKeyUsage: string[] | null;
  /** basicConstraints cA true with a non-negative pathLenConstraint: its value; else null. */
  pathLenConstraint: number | null;
  /** nameConstraints, or null without the extension. */
  nameConstraints: NameConstraints | null;
  /** Entries of the embedded SCT list (RFC 6962 §3.3); 0 without it or when it cannot be read. */
  sctCount: number;
  /** The earliest timestamp of the embedded SCTs (RFC 6962 §3.2), or null without any (CONTRACT §9.5). */
  earliestSctAt: Date | null;
  /**
   * Dotted OIDs of the extensions marked critical, in extension order (RFC 5280 §4.2): the chain
   * judges those it does not process (CONTRACT §9.4 `UNKNOWN_CRITICAL_EXTENSION`).
   */
  criticalExtensions: string[];
  /** URIs of the CRL Distribution Points' `fullName`s, in extension order (empty when none). */
  crlUrls: string[];
}
