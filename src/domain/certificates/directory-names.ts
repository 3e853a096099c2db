/**
 * Distinguished names as name constraints compare them (CONTRACT §9.4; RFC 5280 §4.2.1.10), read
 * from the DER the decoder keeps as lowercase hex (`subjectNameKey`, a SAN directoryName's
 * `nameKey`, a directoryName subtree's RDNs).
 *
 * Two names are compared in OpenSSL's canonical form (`x509_name_canon` and `asn1_string_canon`,
 * which `nc_dn` compares): an attribute value of a string type (UTF8String, PrintableString,
 * T61String, IA5String, VisibleString, UniversalString, BMPString) becomes its text with leading
 * and trailing white space removed, every inner run of white space one space, and ASCII letters in
 * lower case; a value of another type stays its tag and octets. A name lies within a directoryName
 * subtree when the subtree's RDNs, so canonicalised, are the first RDNs of the name (each RDN
 * compared as a set of attributes). Go does not evaluate directoryName constraints at all.
 */

/** One attribute of an RDN: its type's OID (DER content, hex), its value's tag and content octets. */
interface Attribute {
  oid: string;
  tag: number;
  value: Uint8Array;
}

/** The RDNs of a Name, most general first; each RDN its attributes in encoding order. */
export type Rdns = readonly (readonly Attribute[])[];

/** DER content of the emailAddress OID (PKCS #9, 1.2.840.113549.1.9.1). */
const EMAIL_ADDRESS_OID = "2a864886f70d010901";

const TAG = {
  utf8: 0x0c,
  printable: 0x13,
  t61: 0x14,
  ia5: 0x16,
  visible: 0x1a,
  universal: 0x1c,
  bmp: 0x1e,
} as const;
const STRING_TAGS: ReadonlySet<number> = new Set(Object.values(TAG));

function bytesOfHex(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length >> 1);
  for (let k = 0; k < bytes.length; k++) bytes[k] = Number.parseInt(hex.slice(2 * k, 2 * k + 2), 16);
  return bytes;
}

function hexOfBytes(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += byte.toString(16).padStart(2, "0");
  return out;
}

/** One TLV at `pos` (definite lengths only): tag octet, content bounds, end; null when malformed. */
function tlvAt(buf: Uint8Array, pos: number, limit: number) {
  if (pos + 2 > limit) return null;
  const tag = buf[pos]!;
  let length = buf[pos + 1]!;
  let body = pos + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 3 || body + count > limit) return null;
    length = 0;
    for (let k = 0; k < count; k++) length = length * 256 + buf[body + k]!;
    body += count;
  }
  const end = body + length;
  return end > limit ? null : { tag, body, end };
}

/**
 * The RDNs of an RDNSequence's content octets (`SET { SEQUENCE { OID, value } … } …`), or null when
 * they are not that shape (then a name is compared by its octets alone).
 */
export function rdnsOfContent(content: Uint8Array): Rdns | null {
  const rdns: Attribute[][] = [];
  for (let pos = 0; pos < content.length; ) {
    const set = tlvAt(content, pos, content.length);
    if (set === null || set.tag !== 0x31) return null;
    const attributes: Attribute[] = [];
    for (let at = set.body; at < set.end; ) {
      const pair = tlvAt(content, at, set.end);
      if (pair === null || pair.tag !== 0x30) return null;
      const oid = tlvAt(content, pair.body, pair.end);
      if (oid === null || oid.tag !== 0x06) return null;
      const value = tlvAt(content, oid.end, pair.end);
      if (value === null || value.end !== pair.end) return null;
      attributes.push({
        oid: hexOfBytes(content.subarray(oid.body, oid.end)),
        tag: value.tag,
        value: content.subarray(value.body, value.end),
      });
      at = pair.end;
    }
    rdns.push(attributes);
    pos = set.end;
  }
  return rdns;
}

/** The RDNs of a whole DER Name given as hex (its SEQUENCE header first), or null. */
export function rdnsOfName(nameKey: string): Rdns | null {
  const der = bytesOfHex(nameKey);
  const outer = tlvAt(der, 0, der.length);
  if (outer === null || outer.tag !== 0x30 || outer.end !== der.length) return null;
  return rdnsOfContent(der.subarray(outer.body, outer.end));
}

const latin1 = new TextDecoder("latin1");
const utf8 = new TextDecoder("utf-8");

/** A string value's text as OpenSSL's `ASN1_STRING_to_UTF8` reads it (T61String as Latin-1). */
function stringText(tag: number, value: Uint8Array): string {
  switch (tag) {
    case TAG.utf8:
      return utf8.decode(value);
    case TAG.bmp: {
      let text = "";
      for (let k = 0; k + 1 < value.length; k += 2)
        text += String.fromCharCode((value[k]! << 8) | value[k + 1]!);
      return text;
    }
    case TAG.universal: {
      let text = "";
      for (let k = 0; k + 3 < value.length; k += 4) {
        const point =
          ((value[k]! << 24) | (value[k + 1]! << 16) | (value[k + 2]! << 8) | value[k + 3]!) >>> 0;
        text += point <= 0x10ffff ? String.fromCodePoint(point) : "\ufffd";
      }
      return text;
    }
    default:
      return latin1.decode(value);
  }
}

/** OpenSSL's `ossl_isspace`: space, tab, line feed, vertical tab, form feed, carriage return. */
const SPACE = /[ \t\n\v\f\r]+/g;

/** One attribute in canonical form (see the module comment), as comparable text. */
function canonicalAttribute(attribute: Attribute): string {
  if (!STRING_TAGS.has(attribute.tag))
    return `${attribute.oid}=#${attribute.tag}:${hexOfBytes(attribute.value)}`;
  const text = stringText(attribute.tag, attribute.value)
    .replace(SPACE, " ")
    .replace(/^ | $/g, "")
    .replace(/[A-Z]/g, (letter) => letter.toLowerCase());
  return `${attribute.oid}=${text}`;
}

/** Each RDN as the sorted canonical text of its attributes (an RDN is a SET: order does not count). */
export function canonicalRdns(rdns: Rdns): string[] {
  return rdns.map((rdn) => rdn.map(canonicalAttribute).sort().join("+"));
}

/**
 * Whether a name lies within a directoryName subtree: the subtree's canonical RDNs are the name's
 * first ones. An empty subtree holds every name; an empty name lies within no other subtree.
 */
export function directoryNameWithin(name: readonly string[], subtree: readonly string[]): boolean {
  if (subtree.length > name.length) return false;
  for (let k = 0; k < subtree.length; k++) if (subtree[k] !== name[k]) return false;
  return true;
}

/** A subject's emailAddress attribute, and whether it is an IA5String as PKCS #9 requires. */
export interface SubjectEmail {
  value: string;
  ia5: boolean;
}

/** The emailAddress attributes of a Name's RDNs, in encoding order. */
export function subjectEmails(rdns: Rdns): SubjectEmail[] {
  const emails: SubjectEmail[] = [];
  for (const rdn of rdns) {
    for (const attribute of rdn) {
      if (attribute.oid !== EMAIL_ADDRESS_OID) continue;
      emails.push({ value: stringText(attribute.tag, attribute.value), ia5: attribute.tag === TAG.ia5 });
    }
  }
  return emails;
}
