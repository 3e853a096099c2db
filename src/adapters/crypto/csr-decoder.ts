/**
 * DER → CertificationRequestData: one PKCS#10 certification request (RFC 2986; CONTRACT §8.2),
 * read with the strict DER reader of `der.ts` and the certificate decoder's field readers (names,
 * extensions, subjectAltName), so a request is held to the rules a certificate is
 * (docs/certificates-der.md, "Certification requests").
 *
 *   CertificationRequest ::= SEQUENCE { certificationRequestInfo, signatureAlgorithm, signature BIT STRING }
 *   CertificationRequestInfo ::= SEQUENCE { version INTEGER (0), subject Name,
 *     subjectPKInfo SubjectPublicKeyInfo, attributes [0] IMPLICIT SET OF Attribute }
 *   Attribute ::= SEQUENCE { type OBJECT IDENTIFIER, values SET OF ANY }
 *
 * Anything that is not exactly one well-formed request gives `{ ok: false, reason }` with a short
 * reason that quotes nothing from the input. Never throws.
 */
import { createHash } from "node:crypto";
import type { CertificationRequestData } from "../../domain/certificates/request-model.ts";
import {
  anyValueOk,
  children,
  hexLower,
  isBitString,
  isContext,
  isUniversal,
  readAlgorithm,
  readOid,
  readTlv,
  sequence,
  TAG,
  type Tlv,
} from "../../domain/der.ts";
import type { CertificationRequestDecodeResult } from "../../domain/ports.ts";
import {
  lastCommonName,
  Malformed,
  OID_SUBJECT_ALT_NAME,
  readExtensions,
  readSubjectAltNames,
} from "./certificate-fields.ts";
import { formatName, opensslLongName } from "./openssl-names.ts";
import { publicKeyFacts } from "./public-key-facts.ts";

/** PKCS#9 extensionRequest (RFC 2985 §5.4.2): the extensions asked for. */
const OID_EXTENSION_REQUEST = "1.2.840.113549.1.9.14";
const OID_RSASSA_PSS = "1.2.840.113549.1.1.10";
const OID_SHA1 = "1.3.14.3.2.26";

/** Signature algorithms that hash with SHA-1 by their OID alone (RSASSA-PSS is read from its parameters). */
const SHA1_SIGNATURES = new Set([
  "1.2.840.113549.1.1.5", // sha1WithRSAEncryption
  "1.3.14.3.2.29", // sha1WithRSASignature (OIW)
  "1.2.840.10045.4.1", // ecdsa-with-SHA1
  "1.2.840.10040.4.3", // dsaWithSHA1
  "1.3.14.3.2.27", // dsaWithSHA1 (OIW)
]);

type Parsed = Omit<CertificationRequestData, "publicKeySha256">;

/**
 * Decodes one DER certification request; the SubjectPublicKeyInfo's SHA-256 is taken with
 * node:crypto, in the same turn of the event loop (ADR 68: WebCrypto's answer came a turn later).
 */
export async function decodeCertificationRequest(der: Uint8Array): Promise<CertificationRequestDecodeResult> {
  try {
    const bytes = der.slice();
    const parsed = parseCertificationRequest(bytes);
    if (parsed instanceof Malformed) return { ok: false, reason: parsed.reason };
    const digest = createHash("sha256").update(parsed.publicKey.spki).digest();
    return { ok: true, request: { ...parsed, publicKeySha256: hexLower(digest) } };
  } catch {
    // Not expected: every reader returns null or Malformed on bad input. Kept so hostile bytes never throw.
    return { ok: false, reason: "not a valid PKCS#10 certification request" };
  }
}

function parseCertificationRequest(buf: Uint8Array<ArrayBuffer>): Parsed | Malformed {
  const notOne = new Malformed("not a DER-encoded PKCS#10 certification request");
  if (buf.length === 0) return new Malformed("empty request data");
  const top = readTlv(buf, 0, buf.length);
  if (top === null || !isUniversal(top, TAG.SEQUENCE, true)) return notOne;
  if (top.end !== buf.length) return new Malformed("trailing bytes after the request");
  const parts = children(buf, top);
  if (parts === null || parts.length !== 3) return notOne;
  const [info, algorithm, signature] = parts as [Tlv, Tlv, Tlv];
  const fields = sequence(buf, info);
  if (fields === null || fields.length < 3 || fields.length > 4)
    return new Malformed("malformed request body");
  const [version, subject, spki, attributes] = fields as [Tlv, Tlv, Tlv, Tlv | undefined];

  // RFC 2986 §4.1: "version is the version number … It shall be 0". OpenSSL 3.0 loads any INTEGER.
  if (
    !isUniversal(version, TAG.INTEGER, false) ||
    version.end - version.body !== 1 ||
    buf[version.body] !== 0
  ) {
    return new Malformed("unsupported request version");
  }
  const subjectText = isUniversal(subject, TAG.SEQUENCE, true) ? formatName(buf, subject) : null;
  if (subjectText === null) return new Malformed("malformed subject name");

  const spkiParts = sequence(buf, spki);
  const keyAlgorithm = spkiParts?.length === 2 ? readAlgorithm(buf, spkiParts[0]) : null;
  const subjectPublicKey = spkiParts?.[1];
  if (keyAlgorithm === null || !isBitString(buf, subjectPublicKey))
    return new Malformed("malformed public key");

  // OpenSSL's template makes `[0]` optional (requests of some old tools leave it out): so does this.
  let extensionsTlv: Tlv | undefined;
  if (attributes !== undefined) {
    if (!isContext(attributes, 0, true)) return new Malformed("malformed request attributes");
    const found = readAttributes(buf, attributes);
    if (found instanceof Malformed) return found;
    extensionsTlv = found;
  }
  const extensions =
    extensionsTlv === undefined ? new Map<string, Tlv>() : readExtensions(buf, extensionsTlv);
  if (extensions instanceof Malformed) return new Malformed("malformed extensionRequest attribute");
  const sans = readSubjectAltNames(buf, extensions.get(OID_SUBJECT_ALT_NAME));
  if (sans instanceof Malformed) return sans;

  const outer = readAlgorithm(buf, algorithm);
  if (outer === null) return new Malformed("malformed signature algorithm");
  if (!isBitString(buf, signature)) return new Malformed("malformed signature value");

  const span = (t: Tlv) => buf.subarray(t.start, t.end);
  const spkiBytes = span(spki);
  return {
    der: buf,
    tbs: span(info),
    signatureParameters: outer.params === undefined ? null : span(outer.params),
    signatureValue: buf[signature.body] === 0 ? buf.subarray(signature.body + 1, signature.end) : null,
    signatureAlgorithm: opensslLongName(outer.oid),
    signatureAlgorithmOid: outer.oid,
    signatureUsesSha1: usesSha1(buf, outer.oid, outer.params),
    publicKey: {
      spki: spkiBytes,
      algorithmOid: keyAlgorithm.oid,
      parameters: keyAlgorithm.params === undefined ? null : span(keyAlgorithm.params),
      subjectPublicKey: span(subjectPublicKey),
    },
    publicKeyKey: hexLower(buf, spki.start, spki.end),
    ...publicKeyFacts(spkiBytes),
    subject: subjectText,
    commonName: lastCommonName(buf, subject),
    sans,
  };
}

/**
 * Walks the attributes as OpenSSL's X509_ATTRIBUTE template does (SEQUENCE { OID, SET OF ANY },
 * each value checked as `ANY`), and returns the value SET of the extensionRequest, if any. Stricter
 * than OpenSSL, on purpose: one extensionRequest at most, holding exactly one value (OpenSSL reads
 * the first and ignores the rest).
 */
function readAttributes(buf: Uint8Array, wrapper: Tlv): Tlv | undefined | Malformed {
  const bad = new Malformed("malformed request attributes");
  const list = children(buf, wrapper);
  if (list === null) return bad;
  let extensionRequest: Tlv | undefined;
  for (const attribute of list) {
    const parts = sequence(buf, attribute);
    if (parts === null || parts.length !== 2) return bad;
    const oid = readOid(buf, parts[0]);
    const values = parts[1];
    if (oid === null || !isUniversal(values, TAG.SET, true)) return bad;
    const inner = children(buf, values);
    if (inner === null || !inner.every((value) => anyValueOk(buf, value))) return bad;
    if (oid !== OID_EXTENSION_REQUEST) continue;
    if (extensionRequest !== undefined || inner.length !== 1) {
      return new Malformed("malformed extensionRequest attribute");
    }
    extensionRequest = values;
  }
  return extensionRequest;
}

/**
 * Whether a signature algorithm hashes with SHA-1. RSASSA-PSS names its hash in its parameters
 * (RFC 4055 §3.1: `[0] hashAlgorithm`, SHA-1 when absent); unreadable parameters count as not
 * SHA-1 (the signature check then fails anyway).
 */
function usesSha1(buf: Uint8Array, oid: string, params: Tlv | undefined): boolean {
  if (SHA1_SIGNATURES.has(oid)) return true;
  if (oid !== OID_RSASSA_PSS) return false;
  const fields = sequence(buf, params);
  if (fields === null) return false;
  const first = fields[0];
  if (!isContext(first, 0, true)) return true;
  const inner = children(buf, first);
  const hash = inner?.length === 1 ? readAlgorithm(buf, inner[0]) : null;
  return hash?.oid === OID_SHA1;
}
