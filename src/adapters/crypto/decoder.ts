/**
 * DER → CertificateData (CONTRACT §4.2), with every text field as OpenSSL 3 prints it.
 *
 * The certificate is read with the strict DER reader in `der.ts` (see there why not asn1js/pkijs);
 * the fingerprint and the key's SHA-256 come from WebCrypto. Anything that is not exactly one well-formed X.509
 * certificate gives `{ ok: false, reason }` with a short reason that quotes nothing from the
 * input. `decode` never throws.
 */
import { createHash } from "node:crypto";
import type { CertificateData } from "../../domain/certificates/model.ts";
import {
  bitStringContentOk,
  children,
  hexColons,
  hexLower,
  hexUpper,
  integerContentOk,
  isBitString,
  isContext,
  isUniversal,
  readAlgorithm,
  readTime,
  readTlv,
  sequence,
  TAG,
  type Tlv,
} from "../../domain/der.ts";
import type {
  CertificateDecodeResult,
  CertificateDecoder,
  CertificationRequestDecodeResult,
} from "../../domain/ports.ts";
import { OID_AUTHORITY_INFO_ACCESS, readAuthorityInfoAccess } from "./authority-info-access.ts";
import {
  extensionBody,
  lastCommonName,
  Malformed,
  OID_SUBJECT_ALT_NAME,
  readExtensions,
  readSubjectAltNames,
} from "./certificate-fields.ts";
import { decodeCertificationRequest } from "./csr-decoder.ts";
import {
  countScts,
  earliestSctTimestamp,
  OID_CRL_DISTRIBUTION_POINTS,
  OID_EXTENDED_KEY_USAGE,
  OID_NAME_CONSTRAINTS,
  OID_SCT_LIST,
  readCrlUrls,
  readExtendedKeyUsage,
  readNameConstraints,
} from "./extensions.ts";
import { formatName, opensslLongName } from "./openssl-names.ts";
import { publicKeyFacts } from "./public-key-facts.ts";
import { signatureDigest } from "./signature-digests.ts";

const OID_SUBJECT_KEY_IDENTIFIER = "2.5.29.14";
const OID_KEY_USAGE = "2.5.29.15";
const OID_BASIC_CONSTRAINTS = "2.5.29.19";
const OID_AUTHORITY_KEY_IDENTIFIER = "2.5.29.35";

/** SHA-256 of `bytes`. */
function sha256(bytes: Uint8Array): Uint8Array {
  return createHash("sha256").update(bytes).digest();
}

type Parsed = Omit<CertificateData, "fingerprintSha256" | "publicKeySha256">;

/**
 * Decodes one DER certificate into plain data, reading the DER directly: asn1js/pkijs cost
 * milliseconds per certificate on Bun (see `der.ts`).
 */
export class DerCertificateDecoder implements CertificateDecoder {
  async decode(der: Uint8Array): Promise<CertificateDecodeResult> {
    try {
      const bytes = der.slice();
      const parsed = parseCertificate(bytes);
      if (parsed instanceof Malformed) return { ok: false, reason: parsed.reason };
      // Two small hashes, taken on this thread: WebCrypto's digest is a round trip to a worker
      // thread each time, which cost more than the hashing (docs/performance.md).
      return {
        ok: true,
        certificate: {
          ...parsed,
          fingerprintSha256: hexColons(sha256(bytes)),
          publicKeySha256: hexLower(sha256(parsed.publicKey.spki)),
        },
      };
    } catch {
      // Not expected: every reader above returns null on bad input. Kept so hostile bytes can never throw.
      return { ok: false, reason: "not a valid X.509 certificate" };
    }
  }

  /** One PKCS#10 certification request, read by the same rules (csr-decoder.ts). */
  decodeRequest(der: Uint8Array): Promise<CertificationRequestDecodeResult> {
    return decodeCertificationRequest(der);
  }
}

function parseCertificate(buf: Uint8Array<ArrayBuffer>): Parsed | Malformed {
  if (buf.length === 0) return new Malformed("empty certificate data");
  const cert = readTlv(buf, 0, buf.length);
  if (cert === null || !isUniversal(cert, TAG.SEQUENCE, true)) {
    return new Malformed("not a DER-encoded X.509 certificate");
  }
  if (cert.end !== buf.length) return new Malformed("trailing bytes after the certificate");
  const top = children(buf, cert);
  if (top === null || top.length !== 3) return new Malformed("not a DER-encoded X.509 certificate");
  const [tbs, outerAlg, signature] = top as [Tlv, Tlv, Tlv];
  const tbsParts = sequence(buf, tbs);
  if (tbsParts === null) return new Malformed("malformed certificate body");
  const outer = readAlgorithm(buf, outerAlg);
  if (outer === null) return new Malformed("malformed signature algorithm");
  if (!isBitString(buf, signature)) return new Malformed("malformed signature value");

  let i = 0;
  let version = 0;
  if (isContext(tbsParts[0], 0, true)) {
    const inner = children(buf, tbsParts[0]);
    const v = inner?.[0];
    if (inner === null || inner.length !== 1 || !isUniversal(v, TAG.INTEGER, false) || v.end - v.body !== 1) {
      return new Malformed("malformed version");
    }
    version = buf[v.body]!;
    if (version > 2) return new Malformed("unsupported certificate version");
    i++;
  }
  const serial = tbsParts[i++];
  const innerAlg = tbsParts[i++];
  const issuer = tbsParts[i++];
  const validity = tbsParts[i++];
  const subject = tbsParts[i++];
  const spki = tbsParts[i++];
  if (spki === undefined) return new Malformed("malformed certificate body");

  const serialNumber = serialText(buf, serial);
  if (serialNumber === null) return new Malformed("malformed serial number");
  const inner = readAlgorithm(buf, innerAlg);
  if (inner === null) return new Malformed("malformed signature algorithm");

  const issuerText = isUniversal(issuer, TAG.SEQUENCE, true) ? formatName(buf, issuer) : null;
  if (issuerText === null) return new Malformed("malformed issuer name");
  const subjectText = isUniversal(subject, TAG.SEQUENCE, true) ? formatName(buf, subject) : null;
  if (subjectText === null) return new Malformed("malformed subject name");

  const times = sequence(buf, validity);
  const notBefore = times?.length === 2 ? readTime(buf, times[0]) : null;
  const notAfter = times?.length === 2 ? readTime(buf, times[1]) : null;
  if (notBefore === null || notAfter === null) return new Malformed("malformed validity");

  const spkiParts = sequence(buf, spki);
  const keyAlgorithm = spkiParts?.length === 2 ? readAlgorithm(buf, spkiParts[0]) : null;
  const subjectPublicKey = spkiParts?.[1];
  if (keyAlgorithm === null || !isBitString(buf, subjectPublicKey))
    return new Malformed("malformed public key");

  // Optional issuerUniqueID [1], subjectUniqueID [2] (v2 and v3; IMPLICIT BIT STRING), extensions
  // [3] (v3 only), in order.
  let extensionsTlv: Tlv | undefined;
  for (const tag of [1, 2]) {
    const t = tbsParts[i];
    if (isContext(t, tag, false)) {
      if (version < 1) return new Malformed("unique identifiers need certificate version 2 or 3");
      if (!bitStringContentOk(buf, t)) return new Malformed("malformed unique identifier");
      i++;
    }
  }
  if (isContext(tbsParts[i], 3, true)) {
    if (version < 2) return new Malformed("extensions need certificate version 3");
    extensionsTlv = tbsParts[i++];
  }
  if (i !== tbsParts.length) return new Malformed("malformed certificate body");

  const criticalExtensions: string[] = [];
  const ext =
    extensionsTlv === undefined
      ? new Map<string, Tlv>()
      : readExtensions(buf, extensionsTlv, criticalExtensions);
  if (ext instanceof Malformed) return ext;

  const sans = readSubjectAltNames(buf, ext.get(OID_SUBJECT_ALT_NAME));
  if (sans instanceof Malformed) return sans;
  const basicConstraints = readBasicConstraints(buf, ext.get(OID_BASIC_CONSTRAINTS));
  if (basicConstraints instanceof Malformed) return basicConstraints;
  const extendedKeyUsage = readExtendedKeyUsage(buf, ext.get(OID_EXTENDED_KEY_USAGE));
  if (extendedKeyUsage === undefined) return new Malformed("malformed extendedKeyUsage extension");
  const nameConstraints = readNameConstraints(buf, ext.get(OID_NAME_CONSTRAINTS));
  if (nameConstraints === undefined) return new Malformed("malformed nameConstraints extension");
  const crlUrls = readCrlUrls(buf, ext.get(OID_CRL_DISTRIBUTION_POINTS));
  if (crlUrls === undefined) return new Malformed("malformed cRLDistributionPoints extension");
  const keyCertSign = readKeyCertSign(buf, ext.get(OID_KEY_USAGE));
  if (keyCertSign instanceof Malformed) return keyCertSign;
  const ski = readSubjectKeyIdentifier(buf, ext.get(OID_SUBJECT_KEY_IDENTIFIER));
  if (ski instanceof Malformed) return ski;
  const aki = readAuthorityKeyIdentifier(buf, ext.get(OID_AUTHORITY_KEY_IDENTIFIER));
  if (aki instanceof Malformed) return aki;
  const infoAccess = readAuthorityInfoAccess(buf, ext.get(OID_AUTHORITY_INFO_ACCESS));
  if (infoAccess === null) return new Malformed("malformed authorityInfoAccess extension");

  const span = (t: Tlv) => buf.subarray(t.start, t.end);
  const spkiBytes = span(spki);
  const signatureParameters = outer.params === undefined ? null : span(outer.params);
  return {
    der: buf,
    tbs: span(tbs),
    signatureParameters,
    signatureValue: buf[signature.body] === 0 ? buf.subarray(signature.body + 1, signature.end) : null,
    publicKey: {
      spki: spkiBytes,
      algorithmOid: keyAlgorithm.oid,
      parameters: keyAlgorithm.params === undefined ? null : span(keyAlgorithm.params),
      subjectPublicKey: span(subjectPublicKey),
    },
    subject: subjectText,
    issuer: issuerText,
    subjectNameKey: hexLower(buf, subject!.start, subject!.end),
    issuerNameKey: hexLower(buf, issuer!.start, issuer!.end),
    commonName: lastCommonName(buf, subject!),
    serialNumber,
    sans,
    notBefore,
    notAfter,
    basicConstraintsPresent: basicConstraints !== null,
    ca: basicConstraints?.ca === true,
    keyCertSign,
    subjectKeyIdentifier: ski,
    authorityKeyIdentifier: aki,
    signatureAlgorithm: opensslLongName(outer.oid),
    signatureAlgorithmOid: outer.oid,
    // RFC 5280 §4.1.1.2; OpenSSL's X509_verify refuses a certificate whose two differ (X509_ALGOR_cmp).
    // Under strict DER, equal values have equal bytes, so the bytes are compared.
    signatureAlgorithmsMatch: sameBytes(buf, inner.tlv, outer.tlv),
    publicKeyKey: hexLower(buf, spki.start, spki.end),
    caIssuersUrls: infoAccess.caIssuersUrls,
    ocspUrls: infoAccess.ocspUrls,
    ...publicKeyFacts(spkiBytes),
    signatureDigest: signatureDigest(outer.oid, signatureParameters),
    extendedKeyUsage,
    pathLenConstraint: basicConstraints?.ca === true ? basicConstraints.pathLen : null,
    nameConstraints,
    sctCount: countScts(buf, ext.get(OID_SCT_LIST)),
    earliestSctAt: (() => {
      const earliest = earliestSctTimestamp(buf, ext.get(OID_SCT_LIST));
      return earliest === null ? null : new Date(earliest);
    })(),
    criticalExtensions,
    crlUrls,
  };
}

/** True when two TLVs of `buf` hold the same bytes. */
function sameBytes(buf: Uint8Array, a: Tlv, b: Tlv): boolean {
  if (a.end - a.start !== b.end - b.start) return false;
  for (let k = 0; k < a.end - a.start; k++) if (buf[a.start + k] !== buf[b.start + k]) return false;
  return true;
}

/**
 * The serial as `openssl x509 -serial` prints it: uppercase hex of the magnitude, `-` before a
 * negative one, `00` for zero. Null for an encoding OpenSSL refuses (empty, or padded with a
 * redundant 00/FF octet). OpenSSL breaks serials over 35 octets with `\` and a newline; this
 * does not.
 */
export function serialText(buf: Uint8Array, t: Tlv | undefined): string | null {
  if (!isUniversal(t, TAG.INTEGER, false)) return null;
  const len = t.end - t.body;
  if (len === 0) return null;
  const first = buf[t.body]!;
  if (len > 1) {
    const second = buf[t.body + 1]!;
    if ((first === 0x00 && second < 0x80) || (first === 0xff && second >= 0x80)) return null;
  }
  if (first < 0x80) return hexUpper(buf, first === 0 && len > 1 ? t.body + 1 : t.body, t.end);
  // Negative: the magnitude is the two's complement of the content octets.
  const magnitude = new Uint8Array(len);
  let carry = 1;
  for (let k = len - 1; k >= 0; k--) {
    const v = (~buf[t.body + k]! & 0xff) + carry;
    magnitude[k] = v & 0xff;
    carry = v >> 8;
  }
  let s = 0;
  while (s < len - 1 && magnitude[s] === 0) s++;
  return `-${hexUpper(magnitude, s)}`;
}

/**
 * null without the extension, else its cA flag and its pathLenConstraint (null when absent or
 * negative: RFC 5280 §4.2.1.9 allows 0..MAX, and OpenSSL marks a negative one invalid).
 */
function readBasicConstraints(
  buf: Uint8Array,
  octets: Tlv | undefined,
): { ca: boolean; pathLen: number | null } | null | Malformed {
  if (octets === undefined) return null;
  const body = extensionBody(buf, octets);
  const parts = body === null ? null : sequence(buf, body);
  if (parts === null || parts.length > 2) return new Malformed("malformed basicConstraints extension");
  const first = parts[0];
  let ca = false;
  let next = 0;
  if (isUniversal(first, TAG.BOOLEAN, false)) {
    if (first.end - first.body !== 1) return new Malformed("malformed basicConstraints extension");
    ca = buf[first.body] !== 0;
    next = 1;
  }
  const pathLen = parts[next];
  if (
    pathLen !== undefined &&
    !(isUniversal(pathLen, TAG.INTEGER, false) && integerContentOk(buf, pathLen))
  ) {
    return new Malformed("malformed basicConstraints extension");
  }
  if (parts.length - next > 1) return new Malformed("malformed basicConstraints extension");
  return { ca, pathLen: pathLen === undefined ? null : nonNegativeInteger(buf, pathLen) };
}

/** A minimal INTEGER's value when it is not negative (huge ones lose precision, never sign), else null. */
function nonNegativeInteger(buf: Uint8Array, t: Tlv): number | null {
  if (buf[t.body]! & 0x80) return null;
  let value = 0;
  for (let k = t.body; k < t.end; k++) value = value * 256 + buf[k]!;
  return value;
}

/**
 * null without keyUsage, else its keyCertSign bit (bit 5, mask 0x04 of the first data octet).
 * Padding bits never count: in a one-octet keyUsage with n unused bits the low n bits are
 * masked off first, as OpenSSL clears them when it decodes a BIT STRING (so `03 02 07 86` is
 * digitalSignature only).
 */
function readKeyCertSign(buf: Uint8Array, octets: Tlv | undefined): boolean | null | Malformed {
  if (octets === undefined) return null;
  const bits = extensionBody(buf, octets) ?? undefined;
  if (!isBitString(buf, bits)) return new Malformed("malformed keyUsage extension");
  const firstOctet = bits.body + 1;
  if (firstOctet >= bits.end) return false;
  const mask = firstOctet === bits.end - 1 ? (0xff << buf[bits.body]!) & 0xff : 0xff;
  return (buf[firstOctet]! & mask & 0x04) !== 0;
}

function readSubjectKeyIdentifier(buf: Uint8Array, octets: Tlv | undefined): string | null | Malformed {
  if (octets === undefined) return null;
  const id = extensionBody(buf, octets);
  if (id === null || !isUniversal(id, TAG.OCTET_STRING, false)) {
    return new Malformed("malformed subjectKeyIdentifier extension");
  }
  return hexColons(buf, id.body, id.end);
}

export function readAuthorityKeyIdentifier(
  buf: Uint8Array,
  octets: Tlv | undefined,
): string | null | Malformed {
  if (octets === undefined) return null;
  const body = extensionBody(buf, octets);
  const parts = body === null ? null : sequence(buf, body);
  if (parts === null) return new Malformed("malformed authorityKeyIdentifier extension");
  let last = -1;
  let keyId: string | null = null;
  for (const part of parts) {
    // [0] keyIdentifier, [1] authorityCertIssuer, [2] authorityCertSerialNumber, each at most once, in order.
    if (part.cls !== 2 || part.tag > 2 || part.tag <= last) {
      return new Malformed("malformed authorityKeyIdentifier extension");
    }
    last = part.tag;
    if (part.tag === 0) {
      if (part.constructed) return new Malformed("malformed authorityKeyIdentifier extension");
      keyId = hexColons(buf, part.body, part.end);
    }
  }
  return keyId;
}
