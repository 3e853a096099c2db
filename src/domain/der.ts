/**
 * A small, strict DER reader: the parts of X.509, PKCS#8 and PKCS#12 that the certificate decoders
 * (src/adapters/crypto/) and the user's machine (src/local/) read, with no exceptions. It lives in
 * the domain, below both, so that neither imports the other for it (ADR 0058).
 *
 * asn1js + pkijs cost 1–4 ms per certificate on Bun even when warm, our reader 0.04–0.13 ms
 * (ADR 0007, `bench/der-vs-pkijs.ts`). What is accepted follows OpenSSL 3's `d2i_X509`, minus a
 * few documented looser forms (docs/certificates-der.md). Every function returns `null` on
 * malformed input instead of throwing: lengths are definite and minimal, nothing reads past its
 * parent's end, and work per field is bounded.
 */

/** Identifier class bits (X.690 §8.1.2.2) shifted down to 0–3. */
export const UNIVERSAL = 0;
export const CONTEXT = 2;

/** Universal tag numbers used here. */
export const TAG = {
  BOOLEAN: 1,
  INTEGER: 2,
  BIT_STRING: 3,
  OCTET_STRING: 4,
  NULL: 5,
  OID: 6,
  ENUMERATED: 10,
  UTF8_STRING: 12,
  SEQUENCE: 16,
  SET: 17,
  UTC_TIME: 23,
  GENERALIZED_TIME: 24,
  UNIVERSAL_STRING: 28,
  BMP_STRING: 30,
} as const;

/** One TLV: where it is in the buffer and what its identifier says. */
export interface Tlv {
  /** 0 universal, 1 application, 2 context-specific, 3 private. */
  readonly cls: number;
  readonly constructed: boolean;
  readonly tag: number;
  /** Offset of the identifier octet. */
  readonly start: number;
  /** Offset of the first content octet. */
  readonly body: number;
  /** Offset just past the last content octet. */
  readonly end: number;
}

/** Reads the TLV at `pos`, which must end at or before `limit`. */
export function readTlv(buf: Uint8Array, pos: number, limit: number): Tlv | null {
  if (pos < 0 || pos >= limit || limit > buf.length) return null;
  const first = buf[pos]!;
  let p = pos + 1;
  let tag = first & 0x1f;
  if (tag === 0x1f) {
    tag = 0;
    for (let i = 0; ; i++) {
      if (p >= limit || i >= 4) return null;
      const b = buf[p++]!;
      if (i === 0 && b === 0x80) return null;
      tag = tag * 128 + (b & 0x7f);
      if ((b & 0x80) === 0) break;
    }
    if (tag < 0x1f) return null;
  }
  if (p >= limit) return null;
  let len = buf[p++]!;
  if (len & 0x80) {
    const n = len & 0x7f;
    // n = 0 is the indefinite form (BER only); more than 4 octets cannot fit any input here.
    if (n === 0 || n > 4 || p + n > limit || buf[p] === 0) return null;
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + buf[p++]!;
    if (len < 0x80) return null;
  }
  if (len > limit - p) return null;
  return { cls: first >> 6, constructed: (first & 0x20) !== 0, tag, start: pos, body: p, end: p + len };
}

/** The TLVs that exactly fill `parent`'s content, or null. */
export function children(buf: Uint8Array, parent: Tlv): Tlv[] | null {
  const out: Tlv[] = [];
  let pos = parent.body;
  while (pos < parent.end) {
    const t = readTlv(buf, pos, parent.end);
    if (t === null) return null;
    out.push(t);
    pos = t.end;
  }
  return out;
}

/** True when `t` is the universal type `tag`, constructed as `constructed` says. */
export function isUniversal(t: Tlv | undefined, tag: number, constructed: boolean): t is Tlv {
  return t !== undefined && t.cls === UNIVERSAL && t.tag === tag && t.constructed === constructed;
}

/** True when `t` is context-specific `[tag]`. */
export function isContext(t: Tlv | undefined, tag: number, constructed: boolean): t is Tlv {
  return t !== undefined && t.cls === CONTEXT && t.tag === tag && t.constructed === constructed;
}

/** The children of a universal SEQUENCE, or null. */
export function sequence(buf: Uint8Array, t: Tlv | undefined): Tlv[] | null {
  return isUniversal(t, TAG.SEQUENCE, true) ? children(buf, t) : null;
}

/** Most arcs an OBJECT IDENTIFIER may have here (CONTRACT §4.2: work is bounded per field). */
export const MAX_OID_ARCS = 64;
/** Largest arc value accepted: 32 bits. */
const MAX_ARC = 0xffffffff;
/** Octets of the longest sub-identifier that can hold a 32-bit arc (40 × 2 + 2³² − 1 needs 5). */
const MAX_SUBID_OCTETS = 5;

/**
 * Dotted text of an OBJECT IDENTIFIER's content octets (X.690 §8.19), or null when the encoding
 * is invalid (empty, a sub-identifier padded with a leading 0x80 octet, a truncated last
 * sub-identifier) or out of bounds (an arc over 32 bits, more than 64 arcs). The bounds keep the
 * work linear and small: anything longer than 64 × 5 octets is refused before it is read, and no
 * arc ever needs more than a double.
 */
export function decodeOid(buf: Uint8Array, start: number, end: number): string | null {
  if (start >= end || end - start > MAX_OID_ARCS * MAX_SUBID_OCTETS || buf[end - 1]! & 0x80) return null;
  const arcs: number[] = [];
  let value = 0;
  let octets = 0;
  for (let i = start; i < end; i++) {
    const b = buf[i]!;
    if (octets === 0 && b === 0x80) return null;
    if (++octets > MAX_SUBID_OCTETS) return null;
    value = value * 128 + (b & 0x7f);
    if ((b & 0x80) === 0) {
      // The first sub-identifier holds two arcs: 40 * X + Y, X in 0–2.
      if (arcs.length === 0)
        arcs.push(value < 80 ? Math.floor(value / 40) : 2, value < 80 ? value % 40 : value - 80);
      else arcs.push(value);
      if (arcs[arcs.length - 1]! > MAX_ARC || arcs.length > MAX_OID_ARCS) return null;
      value = 0;
      octets = 0;
    }
  }
  return arcs.join(".");
}

/** The dotted OID of a universal OBJECT IDENTIFIER TLV, or null. */
export function readOid(buf: Uint8Array, t: Tlv | undefined): string | null {
  return isUniversal(t, TAG.OID, false) ? decodeOid(buf, t.body, t.end) : null;
}

/**
 * True when a BIT STRING's content octets are valid DER: an unused-bit count of 0–7 first, and
 * no unused bits when there are no data octets. OpenSSL refuses a count over 7; the second rule
 * is DER's (OpenSSL tolerates it). Padding bits need not be zero: readers mask them off.
 */
export function bitStringContentOk(buf: Uint8Array, t: Tlv): boolean {
  const len = t.end - t.body;
  if (len === 0) return false;
  const unused = buf[t.body]!;
  return unused <= 7 && (len > 1 || unused === 0);
}

/** True when `t` is a primitive universal BIT STRING with valid content (`bitStringContentOk`). */
export function isBitString(buf: Uint8Array, t: Tlv | undefined): t is Tlv {
  return isUniversal(t, TAG.BIT_STRING, false) && bitStringContentOk(buf, t);
}

/** True when an INTEGER's content octets are non-empty and minimal (no redundant 00 or FF octet first). */
export function integerContentOk(buf: Uint8Array, t: Tlv): boolean {
  const len = t.end - t.body;
  if (len === 0) return false;
  if (len === 1) return true;
  const first = buf[t.body]!;
  const second = buf[t.body + 1]!;
  return !((first === 0x00 && second < 0x80) || (first === 0xff && second >= 0x80));
}

/**
 * True when `t` is a value OpenSSL's ASN.1 `ANY` decoder accepts (it checks the content of the
 * universal types it knows: BOOLEAN, INTEGER, ENUMERATED, BIT STRING, NULL, OBJECT IDENTIFIER,
 * BMPString, UniversalString; SEQUENCE and SET must be constructed and are kept as bytes; other
 * classes are kept as bytes), minus what DER forbids: constructed strings and end-of-contents.
 * Used for AlgorithmIdentifier parameters.
 */
export function anyValueOk(buf: Uint8Array, t: Tlv): boolean {
  if (t.cls !== UNIVERSAL) return true;
  if (t.constructed) return t.tag === TAG.SEQUENCE || t.tag === TAG.SET;
  const len = t.end - t.body;
  switch (t.tag) {
    case 0: // end-of-contents
    case TAG.SEQUENCE:
    case TAG.SET:
      return false;
    case TAG.BOOLEAN:
      return len === 1;
    case TAG.INTEGER:
    case TAG.ENUMERATED:
      return integerContentOk(buf, t);
    case TAG.BIT_STRING:
      return bitStringContentOk(buf, t);
    case TAG.NULL:
      return len === 0;
    case TAG.OID:
      return decodeOid(buf, t.body, t.end) !== null;
    case TAG.UNIVERSAL_STRING:
      return len % 4 === 0;
    case TAG.BMP_STRING:
      return len % 2 === 0;
    default:
      return true;
  }
}

/** How deep OpenSSL's `asn1_collect` follows constructed values inside one another (ASN1_MAX_STRING_NEST). */
const MAX_COLLECT_NESTING = 5;

/**
 * True when the content of a constructed value is what OpenSSL's `asn1_collect` (crypto/asn1/
 * tasn_dec.c) accepts when it gathers a constructed universal string: a series of whole TLVs of
 * any tag and class, constructed ones holding the same again to at most five levels, and no
 * end-of-contents (`00 00`, which only an indefinite length may hold). Anything else — stray
 * octets, a length running past the end, deeper nesting — makes `d2i_X509` refuse the certificate.
 * The TLVs are read with the strict reader, so BER forms inside are refused too (DER only).
 */
export function collectableContent(buf: Uint8Array, t: Tlv, depth = 0): boolean {
  let pos = t.body;
  while (pos < t.end) {
    if (buf[pos] === 0 && pos + 1 < t.end && buf[pos + 1] === 0) return false;
    const inner = readTlv(buf, pos, t.end);
    if (inner === null) return false;
    if (inner.constructed && (depth >= MAX_COLLECT_NESTING || !collectableContent(buf, inner, depth + 1))) {
      return false;
    }
    pos = inner.end;
  }
  return true;
}

/** An AlgorithmIdentifier: its OID, its parameters (if any), and where it is. */
export interface Algorithm {
  readonly oid: string;
  readonly params: Tlv | undefined;
  readonly tlv: Tlv;
}

/**
 * An AlgorithmIdentifier (SEQUENCE { OID, parameters ANY OPTIONAL }) checked as OpenSSL's
 * X509_ALGOR template checks it (parameters with `anyValueOk`), or null.
 */
export function readAlgorithm(buf: Uint8Array, t: Tlv | undefined): Algorithm | null {
  const parts = sequence(buf, t);
  if (parts === null || parts.length < 1 || parts.length > 2) return null;
  const oid = readOid(buf, parts[0]);
  const params = parts[1];
  if (oid === null || (params !== undefined && !anyValueOk(buf, params))) return null;
  return { oid, params, tlv: t! };
}

const HEX_LOWER: string[] = [];
const HEX_UPPER_CODES = new Uint8Array(512);
for (let i = 0; i < 256; i++) {
  const pair = i.toString(16).padStart(2, "0");
  HEX_LOWER.push(pair);
  HEX_UPPER_CODES[2 * i] = pair.toUpperCase().charCodeAt(0);
  HEX_UPPER_CODES[2 * i + 1] = pair.toUpperCase().charCodeAt(1);
}
const latin1 = new TextDecoder("latin1");

/**
 * ES2026's `Uint8Array.prototype.toHex` where the engine has it (Bun does; browsers from 2025 on;
 * Node 20 does not), read without its type: the client package compiles against older libs.
 * A certificate's name and key identities are hex of up to hundreds of octets, read per request:
 * the engine's encoder is about ten times faster than joining pairs (bench in ADR 0069).
 */
const engineToHex = (Uint8Array.prototype as { toHex?: (this: Uint8Array) => string }).toHex;

/**
 * Lowercase hex of `bytes[start, end)` by joining pairs: the portable form of {@link hexLower},
 * used where the engine has no `toHex`, and the model the tests hold the engine's to.
 */
export function hexLowerPortable(bytes: Uint8Array, start = 0, end = bytes.length): string {
  let s = "";
  for (let i = start; i < end; i++) s += HEX_LOWER[bytes[i]!];
  return s;
}

/** Lowercase hex of `bytes[start, end)`, no separators. */
export function hexLower(bytes: Uint8Array, start = 0, end = bytes.length): string {
  return engineToHex !== undefined
    ? engineToHex.call(bytes.subarray(start, end))
    : hexLowerPortable(bytes, start, end);
}

/** Uppercase hex of `bytes[start, end)`, no separators. */
export function hexUpper(bytes: Uint8Array, start = 0, end = bytes.length): string {
  return hexLower(bytes, start, end).toUpperCase();
}

/**
 * Uppercase hex pairs joined by colons (`AB:CD:…`), as OpenSSL prints key identifiers and
 * fingerprints: its characters written into one buffer and read as text once.
 */
export function hexColons(bytes: Uint8Array, start = 0, end = bytes.length): string {
  if (end <= start) return "";
  const out = new Uint8Array((end - start) * 3 - 1);
  let o = 0;
  for (let i = start; i < end; i++) {
    if (i !== start) out[o++] = 0x3a;
    const at = bytes[i]! * 2;
    out[o++] = HEX_UPPER_CODES[at]!;
    out[o++] = HEX_UPPER_CODES[at + 1]!;
  }
  return latin1.decode(out);
}

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function digits(buf: Uint8Array, start: number, count: number): number {
  let v = 0;
  for (let i = start; i < start + count; i++) {
    const d = buf[i]! - 0x30;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}

/**
 * The instant of an X.509 Time (RFC 5280 §4.1.2.5): UTCTime `YYMMDDHHMMSSZ` (years 50–99 are
 * 19xx) or GeneralizedTime `YYYYMMDDHHMMSS[.f+]Z` (fractions are dropped: the API works to the
 * second). Null for any other form or an impossible date.
 */
export function readTime(buf: Uint8Array, t: Tlv | undefined): Date | null {
  if (t === undefined || t.cls !== UNIVERSAL || t.constructed) return null;
  const len = t.end - t.body;
  let p = t.body;
  let year: number;
  if (t.tag === TAG.UTC_TIME) {
    if (len !== 13) return null;
    const yy = digits(buf, p, 2);
    if (yy < 0) return null;
    year = yy >= 50 ? 1900 + yy : 2000 + yy;
    p += 2;
  } else if (t.tag === TAG.GENERALIZED_TIME) {
    if (len < 15) return null;
    year = digits(buf, p, 4);
    if (year < 0) return null;
    p += 4;
  } else {
    return null;
  }
  const month = digits(buf, p, 2);
  const day = digits(buf, p + 2, 2);
  const hour = digits(buf, p + 4, 2);
  const minute = digits(buf, p + 6, 2);
  const second = digits(buf, p + 8, 2);
  p += 10;
  if (t.tag === TAG.GENERALIZED_TIME && p < t.end - 1 && buf[p] === 0x2e) {
    let q = p + 1;
    while (q < t.end - 1 && buf[q]! >= 0x30 && buf[q]! <= 0x39) q++;
    if (q === p + 1) return null;
    p = q;
  }
  if (p !== t.end - 1 || buf[p] !== 0x5a) return null;
  if (month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59) return null;
  if (second < 0 || second > 59) return null;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  if (day > DAYS_IN_MONTH[month - 1]! || (month === 2 && day === 29 && !leap)) return null;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return date;
}
