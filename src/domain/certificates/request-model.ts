/**
 * Plain data of one decoded PKCS#10 certification request (RFC 2986): what the CSR use case
 * (csr.ts) needs, read once by a CertificateDecoder adapter (`decodeRequest`), no DER left to read.
 */
import type { PublicKeyInfo, SubjectAltName } from "./model.ts";

export interface CertificationRequestData {
  /** The whole request, DER. */
  der: Uint8Array;
  /**
   * DER of the certificationRequestInfo: the bytes the request's own key signed (a view into
   * `der`, like every byte field here).
   */
  tbs: Uint8Array;
  /** DER (tag, length, content) of the signatureAlgorithm's parameters, or null when absent. */
  signatureParameters: Uint8Array | null;
  /** The signature BIT STRING's bits, or null when its unused-bits octet is not 0 (never verifies). */
  signatureValue: Uint8Array | null;
  /** OpenSSL's name for the signature algorithm, or the dotted OID when unknown (CONTRACT §4.2). */
  signatureAlgorithm: string;
  /** Dotted OID of the signature algorithm. */
  signatureAlgorithmOid: string;
  /**
   * The signature hashes with SHA-1: sha1WithRSAEncryption, ecdsa-with-SHA1, dsaWithSHA1, or
   * RSASSA-PSS whose hash is SHA-1 (RFC 4055's default when the parameters name none).
   */
  signatureUsesSha1: boolean;
  /** The key the request is for; it also verifies the request's signature. */
  publicKey: PublicKeyInfo;
  /** DER of the SubjectPublicKeyInfo, as lowercase hex: compared with `CertificateData.publicKeyKey`. */
  publicKeyKey: string;
  /** SHA-256 of the SubjectPublicKeyInfo DER, 64 lowercase hex digits (CONTRACT §8.1 `publicKeySha256`). */
  publicKeySha256: string;
  /** `RSA`, `EC`, `Ed25519`, `Ed448`, `DSA`, else the dotted OID of the key's algorithm (CONTRACT §8.1). */
  keyType: string;
  /** RSA modulus bits, the curve's order bits, 256 (Ed25519), 456 (Ed448), DSA p bits; else null. */
  keyBits: number | null;
  /** EC only: `P-256`, `P-384`, `P-521`, OpenSSL's short curve name or the dotted OID; else null. */
  keyCurve: string | null;
  /** RFC 4514 text as `openssl req -nameopt RFC2253,-esc_msb` prints it. */
  subject: string;
  /** The last (most specific) CN of the subject, or null. */
  commonName: string | null;
  /**
   * The names of the subjectAltName inside the extensionRequest attribute (PKCS#9
   * 1.2.840.113549.1.9.14), in order, typed as a certificate's `sans`; empty without one.
   */
  sans: SubjectAltName[];
}
