/**
 * The Authority Information Access extension (RFC 5280 §4.2.2.1): where a certificate's issuer
 * publishes the issuer's certificate (`caIssuers`) and its OCSP responder (`ocsp`).
 *
 * Kept apart from `decoder.ts` so the rest of the decoder can change without touching it. Strict
 * like the other extension readers: a value that is not a SEQUENCE of AccessDescription
 * (`SEQUENCE { accessMethod OID, accessLocation GeneralName }`) rejects the certificate. Only
 * uniformResourceIdentifier locations are kept; other GeneralName forms are checked for shape and
 * skipped (a URL is the only thing a client can fetch).
 */
import { isUniversal, readOid, readTlv, sequence, TAG, type Tlv } from "../../domain/der.ts";

/** extnID of the Authority Information Access extension. */
export const OID_AUTHORITY_INFO_ACCESS = "1.3.6.1.5.5.7.1.1";
const OID_ACCESS_OCSP = "1.3.6.1.5.5.7.48.1";
const OID_ACCESS_CA_ISSUERS = "1.3.6.1.5.5.7.48.2";
/** GeneralName [6] uniformResourceIdentifier. */
const URI_TAG = 6;
/** Highest GeneralName tag ([8] registeredID). */
const MAX_GENERAL_NAME_TAG = 8;

/** The URIs of one certificate's Authority Information Access extension, in extension order. */
export interface AuthorityInfoAccess {
  caIssuersUrls: string[];
  ocspUrls: string[];
}

/** IA5String read as UTF-8 (stray non-ASCII octets stay visible, as for the SAN URIs). */
const ia5Text = new TextDecoder("utf-8");

/**
 * Reads the extension's OCTET STRING content (`octets`, as `readExtensions` returns it), or gives
 * empty lists when the certificate has none. Returns null for a malformed value.
 */
export function readAuthorityInfoAccess(
  buf: Uint8Array,
  octets: Tlv | undefined,
): AuthorityInfoAccess | null {
  const found: AuthorityInfoAccess = { caIssuersUrls: [], ocspUrls: [] };
  if (octets === undefined) return found;
  const body = readTlv(buf, octets.body, octets.end);
  if (body === null || body.end !== octets.end) return null;
  const descriptions = sequence(buf, body);
  if (descriptions === null) return null;
  for (const description of descriptions) {
    const parts = sequence(buf, description);
    if (parts === null || parts.length !== 2) return null;
    const [method, location] = parts as [Tlv, Tlv];
    if (!isUniversal(method, TAG.OID, false)) return null;
    const oid = readOid(buf, method);
    if (oid === null) return null;
    if (location.cls !== 2 || location.tag > MAX_GENERAL_NAME_TAG) return null;
    if (location.tag !== URI_TAG) continue;
    if (location.constructed) return null;
    const uri = ia5Text.decode(buf.subarray(location.body, location.end));
    if (oid === OID_ACCESS_CA_ISSUERS) found.caIssuersUrls.push(uri);
    else if (oid === OID_ACCESS_OCSP) found.ocspUrls.push(uri);
  }
  return found;
}
