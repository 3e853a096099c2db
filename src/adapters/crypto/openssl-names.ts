/**
 * Text as OpenSSL prints it: object names, and distinguished names the way
 * `openssl x509 -nameopt RFC2253,-esc_msb` does (CONTRACT §4.2). The rules below follow
 * OpenSSL 3's `X509_NAME_print_ex` and `do_print_ex` (crypto/asn1/a_strex.c); the tests compare
 * the result with the openssl CLI on every fixture.
 */
import {
  bitStringContentOk,
  children,
  collectableContent,
  hexUpper,
  isUniversal,
  readOid,
  TAG,
  type Tlv,
  UNIVERSAL,
} from "../../domain/der.ts";
import { OPENSSL_OBJECTS } from "./openssl-objects.ts";

interface ObjectNames {
  sn: string;
  ln: string;
}

let objects: Map<string, ObjectNames> | null = null;

function objectTable(): Map<string, ObjectNames> {
  if (objects !== null) return objects;
  const table = new Map<string, ObjectNames>();
  for (const line of OPENSSL_OBJECTS.split("\n")) {
    if (line === "") continue;
    const [oid, sn, ln] = line.split("|") as [string, string, string | undefined];
    table.set(oid, { sn, ln: ln ?? sn });
  }
  objects = table;
  return table;
}

/** OpenSSL's short name of an OID (`CN`, `emailAddress`), or undefined when OpenSSL does not know it. */
export function opensslShortName(oid: string): string | undefined {
  return objectTable().get(oid)?.sn;
}

/**
 * The name `openssl x509 -text` prints for an algorithm OID: its long name
 * (`sha256WithRSAEncryption`, `ecdsa-with-SHA384`, `rsassaPss`, `ED25519`), else the dotted OID.
 */
export function opensslLongName(oid: string): string {
  return objectTable().get(oid)?.ln ?? oid;
}

/** Bytes per character of each string type OpenSSL prints as text; other types are dumped as `#hex`. */
function charWidth(tag: number): 0 | 1 | 2 | 4 | null {
  switch (tag) {
    case TAG.UTF8_STRING:
      return 0;
    case 18: // NumericString
    case 19: // PrintableString
    case 20: // T61String (read as Latin-1)
    case 22: // IA5String
      return 1;
    case 30: // BMPString
      return 2;
    case 28: // UniversalString
      return 4;
    default:
      return null;
  }
}

const FIRST = 1;
const LAST = 2;

/** Appends one ASCII octet with RFC 2253 escaping as OpenSSL's `do_esc_char` does it. */
function pushEscaped(out: number[], b: number, position: number): void {
  if (b > 0x7f) {
    out.push(b); // -esc_msb: bytes of non-ASCII characters are written as they are
  } else if (
    b === 0x2c || // ,
    b === 0x2b || // +
    b === 0x22 || // "
    b === 0x5c || // \
    b === 0x3c || // <
    b === 0x3e || // >
    b === 0x3b || // ;
    (b === 0x23 && position === FIRST) || // # at the start
    (b === 0x20 && position !== 0) // space at the start or the end
  ) {
    out.push(0x5c, b);
  } else if (b < 0x20 || b === 0x7f) {
    const hex = hexUpper(Uint8Array.of(b));
    out.push(0x5c, hex.charCodeAt(0), hex.charCodeAt(1));
  } else {
    out.push(b);
  }
}

/** Appends a code point as UTF-8 (`validValue` has excluded surrogates and values past U+10FFFF). */
function pushUtf8(out: number[], c: number, position: number): void {
  if (c < 0x80) pushEscaped(out, c, position);
  else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
  else if (c < 0x10000) {
    out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
  } else {
    out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 0x3f), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
  }
}

function pushDump(out: number[], buf: Uint8Array, value: Tlv): void {
  const hex = `#${hexUpper(buf, value.start, value.end)}`;
  for (let i = 0; i < hex.length; i++) out.push(hex.charCodeAt(i));
}

/** Appends an attribute value as OpenSSL prints it with RFC2253,-esc_msb. */
function pushValue(out: number[], buf: Uint8Array, value: Tlv, known: boolean): void {
  const width = known && value.cls === UNIVERSAL && !value.constructed ? charWidth(value.tag) : null;
  const len = value.end - value.body;
  if (width === null || (width === 2 && len % 2 !== 0) || (width === 4 && len % 4 !== 0)) {
    pushDump(out, buf, value);
    return;
  }
  const step = width === 0 ? 1 : width;
  for (let p = value.body; p < value.end; p += step) {
    // OpenSSL flags the first character, then the last one; a lone character is only "last".
    const position = p + step === value.end ? LAST : p === value.body ? FIRST : 0;
    if (width === 0) {
      // UTF8String: OpenSSL copies it octet by octet, escaping only ASCII octets.
      pushEscaped(out, buf[p]!, position);
    } else if (width === 1) {
      pushUtf8(out, buf[p]!, position);
    } else if (width === 2) {
      pushUtf8(out, (buf[p]! << 8) | buf[p + 1]!, position);
    } else {
      pushUtf8(
        out,
        ((buf[p]! << 24) | (buf[p + 1]! << 16) | (buf[p + 2]! << 8) | buf[p + 3]!) >>> 0,
        position,
      );
    }
  }
}

interface NameEntry {
  set: number;
  oid: string;
  value: Tlv;
}

/**
 * Universal tags OpenSSL accepts as an attribute value (its ASN1_PRINTABLE: Numeric, Printable,
 * T61, IA5, BIT STRING, Universal, BMP, UTF8String, SEQUENCE and the types it calls "unknown").
 * A certificate with any other value type (OCTET STRING, VisibleString, a context tag…) does
 * not load in OpenSSL, so it is not a certificate here either.
 */
const VALUE_TAGS = new Set([3, 7, 8, 9, 11, 12, 13, 14, 15, 16, 18, 19, 20, 22, 28, 29, 30]);
const STRING_TAGS = new Set([3, 12, 18, 19, 20, 22, 28, 30]);

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** OpenSSL converts every name string to UTF-8 when it loads a certificate; what fails that fails the load. */
function validValue(buf: Uint8Array, v: Tlv): boolean {
  if (v.cls !== UNIVERSAL || !VALUE_TAGS.has(v.tag)) return false;
  if (v.tag === TAG.SEQUENCE) return v.constructed;
  if (v.constructed) {
    // DER has no constructed strings: refused (OpenSSL would gather them). The other universal
    // types OpenSSL accepts here (7, 8, 9, 11, 13, 14, 15, 29) it gathers as `asn1_collect` does,
    // and refuses the certificate when their content is not a series of TLVs: so does this.
    return !STRING_TAGS.has(v.tag) && collectableContent(buf, v);
  }
  const len = v.end - v.body;
  if (v.tag === TAG.BIT_STRING) return bitStringContentOk(buf, v);
  if (v.tag === TAG.UTF8_STRING) {
    try {
      strictUtf8.decode(buf.subarray(v.body, v.end));
      return true;
    } catch {
      return false;
    }
  }
  if (v.tag === 30) {
    if (len % 2 !== 0) return false;
    for (let p = v.body; p < v.end; p += 2) if ((buf[p]! & 0xf8) === 0xd8) return false; // surrogates
    return true;
  }
  if (v.tag === 28) {
    if (len % 4 !== 0) return false;
    for (let p = v.body; p < v.end; p += 4) {
      const c = ((buf[p]! << 24) | (buf[p + 1]! << 16) | (buf[p + 2]! << 8) | buf[p + 3]!) >>> 0;
      if (c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) return false;
    }
  }
  return true;
}

/** The attribute entries of a Name in encoding order, each with the index of its RDN; null when malformed. */
export function nameEntries(buf: Uint8Array, name: Tlv): NameEntry[] | null {
  if (!isUniversal(name, TAG.SEQUENCE, true)) return null;
  const rdns = children(buf, name);
  if (rdns === null) return null;
  const entries: NameEntry[] = [];
  for (let set = 0; set < rdns.length; set++) {
    const rdn = rdns[set];
    if (!isUniversal(rdn, TAG.SET, true)) return null;
    const atvs = children(buf, rdn);
    if (atvs === null) return null;
    for (const atv of atvs) {
      if (!isUniversal(atv, TAG.SEQUENCE, true)) return null;
      const parts = children(buf, atv);
      if (parts === null || parts.length !== 2) return null;
      const oid = readOid(buf, parts[0]);
      if (oid === null || !validValue(buf, parts[1]!)) return null;
      entries.push({ set, oid, value: parts[1]! });
    }
  }
  return entries;
}

const utf8 = new TextDecoder("utf-8");

/**
 * RFC 4514 text of a Name exactly as `openssl x509 -nameopt RFC2253,-esc_msb` prints it: RDNs
 * most specific first, the attributes of a multi-valued RDN in reverse encoding order joined by
 * `+`, OpenSSL's short names (dotted OID and `#`+DER hex for types OpenSSL does not know),
 * RFC 2253 escaping, control characters as `\XX`, other characters as UTF-8. Null when the Name
 * is malformed.
 */
export function formatName(buf: Uint8Array, name: Tlv): string | null {
  const entries = nameEntries(buf, name);
  if (entries === null) return null;
  const out: number[] = [];
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    if (i !== entries.length - 1) out.push(entries[i + 1]!.set === entry.set ? 0x2b : 0x2c);
    const sn = opensslShortName(entry.oid);
    const field = sn ?? entry.oid;
    for (let k = 0; k < field.length; k++) out.push(field.charCodeAt(k));
    out.push(0x3d);
    pushValue(out, buf, entry.value, sn !== undefined);
  }
  return utf8.decode(Uint8Array.from(out));
}

/**
 * The text of a directory string value with no escaping (for `commonName`): UTF8String as
 * UTF-8, one-octet string types as Latin-1, BMPString as UTF-16, UniversalString as UTF-32;
 * other types as `#` + DER hex, like OpenSSL.
 */
export function attributeText(buf: Uint8Array, value: Tlv): string {
  const out: number[] = [];
  const width = value.cls === UNIVERSAL && !value.constructed ? charWidth(value.tag) : null;
  const len = value.end - value.body;
  if (width === null || (width === 2 && len % 2 !== 0) || (width === 4 && len % 4 !== 0)) {
    pushDump(out, buf, value);
    return utf8.decode(Uint8Array.from(out));
  }
  if (width === 0) return utf8.decode(buf.subarray(value.body, value.end));
  const step = width;
  for (let p = value.body; p < value.end; p += step) {
    let c: number;
    if (width === 1) c = buf[p]!;
    else if (width === 2) c = (buf[p]! << 8) | buf[p + 1]!;
    else c = ((buf[p]! << 24) | (buf[p + 1]! << 16) | (buf[p + 2]! << 8) | buf[p + 3]!) >>> 0;
    if (c < 0x80) out.push(c);
    else pushUtf8(out, c, 0);
  }
  return utf8.decode(Uint8Array.from(out));
}
