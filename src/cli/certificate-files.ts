/**
 * Files people have, read by the CLI before a certificate operation (CONTRACT §7, issue 17): the
 * file never leaves the machine, so the CLI can accept more than the API's PEM text.
 *
 * - A DER certificate file is read directly.
 * - A PKCS#7 / CMS SignedData (`.p7b`, `.p7c`), DER or PEM (`PKCS7`, `CMS` labels), gives its
 *   certificates, in the order it stores them.
 * - A private key in a PEM file (HAProxy's leaf+key `crt` file) is set aside: the block is removed
 *   before anything is sent or inspected, and a notice names its position (block and line), never
 *   its text.
 * Anything else is passed on as text, so the API's PEM rules report it exactly.
 */
import { children, isContext, isUniversal, readOid, readTlv, sequence, TAG } from "../adapters/crypto/der.ts";
import { pemBlock } from "../domain/certificates/chain.ts";

/** PKCS#7 signedData (RFC 2315 §9.1, RFC 5652 §5.1). */
const OID_SIGNED_DATA = "1.2.840.113549.1.7.2";

export interface PreparedCertificates {
  /** PEM text to inspect. */
  pem: string;
  /** One line each: what was recognised or set aside (positions only, never key text). */
  notices: string[];
}

/** How the bytes of a certificate file are read into PEM text for the API. */
export function prepareCertificateFile(bytes: Uint8Array, name: string): PreparedCertificates {
  if (bytes[0] === 0x30) {
    const fromPkcs7 = pkcs7Certificates(bytes);
    if (fromPkcs7 !== null) {
      return {
        pem: fromPkcs7.map(pemBlock).join(""),
        notices: [`${name}: a DER PKCS#7 bundle; its ${countOf(fromPkcs7.length)} were read in stored order`],
      };
    }
    return { pem: pemBlock(bytes), notices: [`${name}: a DER file, read as one certificate`] };
  }
  return prepareCertificateText(new TextDecoder().decode(bytes), name);
}

const BLOCK = /-----BEGIN ([^-\r\n]{1,64})-----[\s\S]*?-----END \1-----/g;

/**
 * PEM text with PKCS#7 blocks replaced by their certificates and private keys removed (a notice
 * each). Line numbers in notices are 1-based lines of the original text.
 */
export function prepareCertificateText(text: string, name: string): PreparedCertificates {
  const notices: string[] = [];
  let block = 0;
  const pem = text.replace(BLOCK, (whole: string, label: string, offset: number) => {
    block++;
    const line = text.slice(0, offset).split(/\r\n|\r|\n/).length;
    if (label.includes("PRIVATE KEY")) {
      notices.push(
        `${name}: a private key (block ${block}, line ${line}) was set aside: it is not read, sent or shown`,
      );
      return "";
    }
    if (label === "PKCS7" || label === "CMS") {
      const body = whole.slice(whole.indexOf("-----", 5) + 5, whole.lastIndexOf("-----END"));
      const der = new Uint8Array(Buffer.from(body.replace(/\s+/g, ""), "base64"));
      const certificates = pkcs7Certificates(der);
      if (certificates === null) return whole;
      notices.push(
        `${name}: a PEM PKCS#7 bundle (block ${block}, line ${line}); its ${countOf(certificates.length)} were read in stored order`,
      );
      return certificates.map(pemBlock).join("");
    }
    return whole;
  });
  return { pem, notices };
}

function countOf(count: number): string {
  return count === 1 ? "1 certificate" : `${count} certificates`;
}

/**
 * The certificates of a PKCS#7 SignedData (`ContentInfo { contentType signedData, [0] EXPLICIT
 * SignedData { version, digestAlgorithms, encapContentInfo, [0] IMPLICIT certificates … } }`),
 * DER of each, in stored order; null when the bytes are not one.
 */
export function pkcs7Certificates(der: Uint8Array): Uint8Array[] | null {
  const outer = readTlv(der, 0, der.length);
  if (outer === null || outer.end !== der.length) return null;
  const info = sequence(der, outer);
  if (info === null || info.length < 2 || readOid(der, info[0]) !== OID_SIGNED_DATA) return null;
  const explicit = info[1];
  if (!isContext(explicit, 0, true)) return null;
  const inner = children(der, explicit);
  const signedData = inner?.length === 1 ? sequence(der, inner[0]) : null;
  if (signedData === null) return null;
  const certificates = signedData.find((part) => isContext(part, 0, true));
  if (certificates === undefined) return [];
  const list = children(der, certificates);
  if (list === null) return null;
  const out: Uint8Array[] = [];
  for (const entry of list) {
    if (!isUniversal(entry, TAG.SEQUENCE, true)) continue; // other certificate formats (attribute certificates)
    out.push(der.slice(entry.start, entry.end));
  }
  return out;
}
