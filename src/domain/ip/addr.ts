/**
 * IP addresses: an immutable value (family + exact 128-bit value), strict parsing and canonical text.
 *
 * Modelled on Go's `net/netip`: parsing is strict and its errors quote the input and say what is
 * wrong; canonical text is one function (RFC 5952, `::ffff:a.b.c.d` for IPv4-mapped addresses).
 * The rules are those of CONTRACT §2.
 */
import { formatWords } from "./text.ts";
import { bigIntWord, compareU128, type U128, u128ToBigInt, WORD_MAX } from "./u128.ts";

/** Address family: 4 for IPv4, 6 for IPv6. IPv4-mapped IPv6 text (`::ffff:1.2.3.4`) is family 6. */
export type IpFamily = 4 | 6;

/** The outcome of a parse: the value, or one sentence quoting the entry and saying what is wrong. */
export type ParseResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly message: string };

/**
 * An IPv4 or IPv6 address. Immutable and comparable; `toString()` is the canonical text.
 *
 * The value is held as four 32-bit words (see `u128.ts`); an IPv4 address uses only `w3`.
 */
export class IpAddr implements U128 {
  private constructor(
    /** 4 or 6. */
    readonly family: IpFamily,
    /** Bits 127–96 of the value (always 0 for IPv4). */
    readonly w0: number,
    /** Bits 95–64 of the value (always 0 for IPv4). */
    readonly w1: number,
    /** Bits 63–32 of the value (always 0 for IPv4). */
    readonly w2: number,
    /** Bits 31–0 of the value (the whole IPv4 address). */
    readonly w3: number,
  ) {}

  /** The IPv4 address with this 32-bit value. Throws `RangeError` outside [0, 2^32). */
  static v4(value: number): IpAddr {
    if (!isWord(value)) throw new RangeError(`IPv4 value out of range: ${value}`);
    return new IpAddr(4, 0, 0, 0, value);
  }

  /** The IPv6 address with these four 32-bit words, most significant first. Throws `RangeError` on a bad word. */
  static v6(w0: number, w1: number, w2: number, w3: number): IpAddr {
    if (!isWord(w0) || !isWord(w1) || !isWord(w2) || !isWord(w3)) {
      throw new RangeError(`IPv6 word out of range: ${w0}, ${w1}, ${w2}, ${w3}`);
    }
    return new IpAddr(6, w0, w1, w2, w3);
  }

  /** The address of `family` with these words; an IPv4 address must have `w0`–`w2` zero. Throws `RangeError` otherwise. */
  static fromWords(family: IpFamily, w0: number, w1: number, w2: number, w3: number): IpAddr {
    if (family === 6) return IpAddr.v6(w0, w1, w2, w3);
    if (w0 !== 0 || w1 !== 0 || w2 !== 0) throw new RangeError("IPv4 value out of range: upper words set");
    return IpAddr.v4(w3);
  }

  /** The address of `family` with this value. Throws `RangeError` when the value does not fit the family. */
  static fromBigInt(family: IpFamily, value: bigint): IpAddr {
    const bits = family === 4 ? 32n : 128n;
    if (value < 0n || value >> bits !== 0n)
      throw new RangeError(`value out of range for IPv${family}: ${value}`);
    if (family === 4) return new IpAddr(4, 0, 0, 0, Number(value));
    return new IpAddr(
      6,
      bigIntWord(value, 0),
      bigIntWord(value, 1),
      bigIntWord(value, 2),
      bigIntWord(value, 3),
    );
  }

  /** Number of bits in the address: 32 or 128. */
  get bitLength(): 32 | 128 {
    return this.family === 4 ? 32 : 128;
  }

  /** The exact value as a `bigint`. */
  toBigInt(): bigint {
    return u128ToBigInt(this);
  }

  /** Orders addresses: every IPv4 address before every IPv6 address, then by value. */
  compare(other: IpAddr): number {
    if (this.family !== other.family) return this.family === 4 ? -1 : 1;
    return compareU128(this, other);
  }

  /** True when both addresses have the same family and value. */
  equals(other: IpAddr): boolean {
    return this.compare(other) === 0;
  }

  /** True for an IPv6 address inside `::ffff:0:0/96` (an IPv4-mapped address, RFC 4291 §2.5.5.2). */
  is4In6(): boolean {
    return this.family === 6 && this.w0 === 0 && this.w1 === 0 && this.w2 === 0xffff;
  }

  /** The next address, or `null` after the last address of the family (no wrap-around). */
  next(): IpAddr | null {
    const { w0, w1, w2, w3 } = this;
    if (w3 !== WORD_MAX) return new IpAddr(this.family, w0, w1, w2, w3 + 1);
    if (this.family === 4) return null;
    if (w2 !== WORD_MAX) return new IpAddr(6, w0, w1, w2 + 1, 0);
    if (w1 !== WORD_MAX) return new IpAddr(6, w0, w1 + 1, 0, 0);
    if (w0 !== WORD_MAX) return new IpAddr(6, w0 + 1, 0, 0, 0);
    return null;
  }

  /** The previous address, or `null` before `0.0.0.0` / `::` (no wrap-around). */
  prev(): IpAddr | null {
    const { w0, w1, w2, w3 } = this;
    if (w3 !== 0) return new IpAddr(this.family, w0, w1, w2, w3 - 1);
    if (this.family === 4) return null;
    if (w2 !== 0) return new IpAddr(6, w0, w1, w2 - 1, WORD_MAX);
    if (w1 !== 0) return new IpAddr(6, w0, w1 - 1, WORD_MAX, WORD_MAX);
    if (w0 !== 0) return new IpAddr(6, w0 - 1, WORD_MAX, WORD_MAX, WORD_MAX);
    return null;
  }

  /**
   * Canonical text: IPv4 dotted decimal; IPv6 per RFC 5952 §4 (lowercase, no leading zeros, the
   * longest run of two or more zero groups shortened to `::`, the first on a tie, a single zero
   * group never shortened), except addresses in `::ffff:0:0/96`, which print as `::ffff:a.b.c.d`
   * (RFC 5952 §5).
   */
  toString(): string {
    return formatWords(this.family, this.w0, this.w1, this.w2, this.w3);
  }
}

/**
 * The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:192.0.2.1` → `192.0.2.1`);
 * any other address is returned unchanged. For observing clients on a dual-stack socket (CONTRACT §5);
 * the CIDR endpoints never unmap.
 */
export function unmap(addr: IpAddr): IpAddr {
  return addr.is4In6() ? IpAddr.v4(addr.w3) : addr;
}

/**
 * Parses one IP address (CONTRACT §2): surrounding ASCII space, tab, CR and LF are ignored;
 * IPv4 is exactly four decimal octets 0–255 without leading zeros; IPv6 is any RFC 4291 §2.2 form,
 * hex in either case, `::` at most once, optionally ending in a dotted IPv4 address under the same
 * IPv4 rules. Zone indexes, brackets, prefixes and inner whitespace are rejected.
 *
 * The failure message quotes the (trimmed) entry, e.g.
 * `"10.0.0.256" is not a valid IPv4 address: octet 256 is above 255`.
 */
export function parseAddr(text: string): ParseResult<IpAddr> {
  const s = trimAsciiWhitespace(text);
  const addr = scanAddr(s, 0, s.length);
  if (addr !== null) return { ok: true, value: addr };
  const family = guessFamily(s);
  const reason = s.includes("/")
    ? (explainEntryShape(s) ??
      `it has a prefix length ("${s.slice(s.indexOf("/"))}"); only a bare address is accepted here`)
    : explainAddr(s);
  return { ok: false, message: `${quoteEntry(s)} is not a valid ${familyLabel(family)} address: ${reason}` };
}

/** Removes leading and trailing ASCII space, tab, CR and LF, and nothing else (CONTRACT §2). */
export function trimAsciiWhitespace(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isAsciiSpace(text.charCodeAt(start))) start++;
  while (end > start && isAsciiSpace(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/**
 * Strictly parses `s[start, end)` as one address, with no trimming; `null` when it is not one.
 * The fast path of every parser here: it allocates nothing but the result. `explainAddr` says why
 * a text was rejected.
 */
export function scanAddr(s: string, start: number, end: number): IpAddr | null {
  const family = scanAddrWords(s, start, end, scanned);
  if (family === 0) return null;
  if (family === 4) return IpAddr.v4(scanned[3]!);
  return IpAddr.v6(scanned[0]!, scanned[1]!, scanned[2]!, scanned[3]!);
}

/** Words of the address `scanAddr` read last. */
const scanned = new Uint32Array(4);

/**
 * {@link scanAddr} without the object: on success the address's words are in `out[0 … 3]` (an IPv4
 * address in `out[3]`, the others zero) and the result is its family; 0 when `s[start, end)` is
 * not an address. Allocates nothing.
 */
export function scanAddrWords(s: string, start: number, end: number, out: Uint32Array): IpFamily | 0 {
  // A valid dotted quad has no colon, so trying IPv4 first gives the same answer as looking for a
  // colon first, without that extra pass over every IPv4 text; IPv6 text fails it within 5 characters.
  const v = scanV4(s, start, end);
  if (v >= 0) {
    out[0] = 0;
    out[1] = 0;
    out[2] = 0;
    out[3] = v;
    return 4;
  }
  for (let i = start; i < end; i++) {
    if (s.charCodeAt(i) === COLON) return scanV6(s, start, end, out) ? 6 : 0;
  }
  return 0;
}

/**
 * Why `s` (an address without prefix, already trimmed) is not a valid address: a clause such as
 * `octet 256 is above 255`. Only meaningful for a text `scanAddr` rejected.
 */
export function explainAddr(s: string): string {
  const shape = explainEntryShape(s);
  if (shape !== null) return shape;
  const family = guessFamily(s);
  if (family === 6) return explainV6(s);
  if (family === 4) return explainV4(s);
  return "expected an IPv4 address such as 192.0.2.1 or an IPv6 address such as 2001:db8::1";
}

/**
 * Problems that make any entry invalid before its family is looked at: blank, inner whitespace,
 * brackets, zone index. `null` when there is none of these.
 */
export function explainEntryShape(s: string): string | null {
  if (s.length === 0) return "it is blank";
  if (isAddressRange(s)) {
    return "it is an address range (START-END), not an address or CIDR; range-to-cidrs (nettools range) turns a range into CIDRs";
  }
  for (let i = 0; i < s.length; i++) {
    if (isAsciiSpace(s.charCodeAt(i)))
      return "it contains whitespace; only surrounding whitespace is ignored";
  }
  if (s.includes("[") || s.includes("]")) {
    return "brackets are not accepted (they belong around an IPv6 address in a URL, not in an address entry)";
  }
  const zone = s.indexOf("%");
  if (zone >= 0) {
    const zoneText = s.slice(zone).split("/")[0] ?? "";
    return `zone indexes such as ${quoteEntry(zoneText)} are not accepted: a zone names a link on one host and has no meaning in address arithmetic`;
  }
  return null;
}

/** True for `START-END` or `START - END` where both sides are addresses of one family. */
function isAddressRange(s: string): boolean {
  const dash = s.indexOf("-");
  if (dash < 0 || s.indexOf("-", dash + 1) >= 0) return false;
  const start = trimAsciiWhitespace(s.slice(0, dash));
  const end = trimAsciiWhitespace(s.slice(dash + 1));
  const a = scanAddr(start, 0, start.length);
  const b = scanAddr(end, 0, end.length);
  return a !== null && b !== null && a.family === b.family;
}

/**
 * The family a text was probably meant to be, for messages: 6 if it has a colon, 4 if it has a dot
 * or starts with a digit, otherwise `null`.
 */
export function guessFamily(s: string): IpFamily | null {
  if (s.includes(":")) return 6;
  const c = s.charCodeAt(0);
  if (s.includes(".") || (c >= DIGIT_0 && c <= DIGIT_9)) return 4;
  return null;
}

/** `IPv4`, `IPv6` or `IP`, for messages. */
export function familyLabel(family: IpFamily | null): string {
  return family === null ? "IP" : `IPv${family}`;
}

/** An entry quoted for a message: JSON string syntax, so control characters are escaped, not printed. */
export function quoteEntry(s: string): string {
  return JSON.stringify(s);
}

// ---------------------------------------------------------------------------------------------
// Fast scanners (no allocation but the result)

const COLON = 58;
const DOT = 46;
const DIGIT_0 = 48;
const DIGIT_9 = 57;

function isWord(x: number): boolean {
  return x >>> 0 === x;
}

function isAsciiSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** Value of one hex digit, or -1. */
function hexDigit(c: number): number {
  if (c >= DIGIT_0 && c <= DIGIT_9) return c - DIGIT_0;
  const lower = c | 0x20;
  if (lower >= 97 && lower <= 102) return lower - 87;
  return -1;
}

/** Strict dotted quad in `s[start, end)`: its 32-bit value, or -1. */
function scanV4(s: string, start: number, end: number): number {
  let value = 0;
  let octet = 0;
  let digits = 0;
  let dots = 0;
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c >= DIGIT_0 && c <= DIGIT_9) {
      if (digits === 1 && octet === 0) return -1; // leading zero
      octet = octet * 10 + (c - DIGIT_0);
      if (octet > 255) return -1;
      digits++;
    } else if (c === DOT) {
      if (digits === 0 || dots === 3) return -1;
      value = value * 256 + octet;
      octet = 0;
      digits = 0;
      dots++;
    } else {
      return -1;
    }
  }
  if (digits === 0 || dots !== 3) return -1;
  return value * 256 + octet;
}

/** Scratch space for the eight 16-bit groups of the IPv6 address being scanned. */
const groups = new Uint16Array(8);

/**
 * RFC 4291 §2.2 text in `s[start, end)`: true with its words in `out[0 … 3]`, or false. Modelled on
 * Go's `parseIPv6`.
 */
function scanV6(s: string, start: number, end: number, out: Uint32Array): boolean {
  let i = start;
  let n = 0; // groups filled
  let ellipsis = -1; // group index where `::` stands
  if (end - start >= 2 && s.charCodeAt(i) === COLON && s.charCodeAt(i + 1) === COLON) {
    ellipsis = 0;
    i += 2;
  }
  while (i < end) {
    const fieldStart = i;
    let value = 0;
    let digits = 0;
    while (i < end && digits <= 4) {
      const d = hexDigit(s.charCodeAt(i));
      if (d < 0) break;
      value = value * 16 + d;
      digits++;
      i++;
    }
    if (digits === 0 || digits > 4) return false;
    if (i < end && s.charCodeAt(i) === DOT) {
      // embedded IPv4: must be the last 32 bits
      if (n > 6 || (ellipsis < 0 && n !== 6)) return false;
      const v4 = scanV4(s, fieldStart, end);
      if (v4 < 0) return false;
      groups[n++] = v4 >>> 16;
      groups[n++] = v4 & 0xffff;
      i = end;
      break;
    }
    groups[n++] = value;
    if (i === end) break;
    if (s.charCodeAt(i) !== COLON) return false;
    i++;
    if (i < end && s.charCodeAt(i) === COLON) {
      if (ellipsis >= 0) return false;
      ellipsis = n;
      i++;
      if (i === end) break;
    } else if (i === end) {
      return false; // a single trailing colon
    }
    if (n === 8) return false;
  }
  if (ellipsis < 0) {
    if (n !== 8) return false;
  } else {
    if (n > 7) return false; // `::` must stand for at least one group
    const zeros = 8 - n;
    for (let k = n - 1; k >= ellipsis; k--) groups[k + zeros] = groups[k]!;
    for (let k = ellipsis; k < ellipsis + zeros; k++) groups[k] = 0;
  }
  out[0] = groups[0]! * 0x10000 + groups[1]!;
  out[1] = groups[2]! * 0x10000 + groups[3]!;
  out[2] = groups[4]! * 0x10000 + groups[5]!;
  out[3] = groups[6]! * 0x10000 + groups[7]!;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Explanations (slow path, only for rejected text)

function describeChar(s: string, i: number): string {
  const cp = s.codePointAt(i) ?? 0;
  if (cp > 0x20 && cp < 0x7f) return `"${String.fromCharCode(cp)}"`;
  return `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
}

function explainV4(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c < DIGIT_0 || c > DIGIT_9) && c !== DOT) {
      const part = s.split(".").find((p) => !/^[0-9]*$/.test(p)) ?? "";
      if (/^(0x)?[0-9a-f]+$/i.test(part)) {
        return `${quoteEntry(part)} is not a decimal octet (hexadecimal is not accepted)`;
      }
      return `unexpected character ${describeChar(s, i)}`;
    }
  }
  if (s.startsWith(".")) return "it starts with a dot";
  if (s.endsWith(".")) return "it ends with a dot";
  if (s.includes("..")) return "it has an empty octet (two dots in a row)";
  const parts = s.split(".");
  if (parts.length < 4) {
    const noun = parts.length === 1 ? "octet" : "octets";
    return `it has ${parts.length} ${noun}, expected 4 (shorthand forms such as "10.1" are not accepted)`;
  }
  if (parts.length > 4) return `it has ${parts.length} octets, expected 4`;
  for (const part of parts) {
    if (part.length > 1 && part.startsWith("0")) {
      return `octet ${quoteEntry(part)} has a leading zero, which is not accepted because it is ambiguous (some parsers read it as octal)`;
    }
    if (Number(part) > 255) return `octet ${part} is above 255`;
  }
  return "it is not four decimal octets";
}

function explainV6(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (hexDigit(c) < 0 && c !== COLON && c !== DOT) {
      const lower = c | 0x20;
      if (lower >= 103 && lower <= 122) return `${describeChar(s, i)} is not a hexadecimal digit`;
      return `unexpected character ${describeChar(s, i)}`;
    }
  }
  if (s.includes(":::")) return 'it contains ":::"';
  const ellipses = s.split("::").length - 1;
  if (ellipses > 1) return '"::" may appear only once';
  if (s.startsWith(":") && !s.startsWith("::")) return 'it starts with a single ":"';
  if (s.endsWith(":") && !s.endsWith("::")) return 'it ends with a single ":"';
  const fields = s
    .split("::")
    .flatMap((half) => (half === "" ? [] : half.split(":")))
    .filter((f) => f !== "");
  let groupCount = 0;
  for (let k = 0; k < fields.length; k++) {
    const field = fields[k] ?? "";
    if (field.includes(".")) {
      if (k !== fields.length - 1 || !/\.[0-9]*$/.test(s)) {
        return "an embedded IPv4 address may only stand at the end";
      }
      if (scanV4(field, 0, field.length) < 0) {
        return `the embedded IPv4 address ${quoteEntry(field)} is invalid: ${explainV4(field)}`;
      }
      groupCount += 2;
    } else if (field.length > 4) {
      return `group ${quoteEntry(field)} has more than 4 hexadecimal digits`;
    } else {
      groupCount++;
    }
  }
  if (ellipses === 0 && groupCount !== 8) {
    return `it has ${groupCount} ${groupCount === 1 ? "group" : "groups"}, expected 8 (an embedded IPv4 address counts as 2; "::" may stand for a run of zero groups)`;
  }
  if (ellipses === 1 && groupCount > 7) {
    return `it has ${groupCount} groups besides "::", but "::" must stand for at least one zero group`;
  }
  return "it is not an RFC 4291 IPv6 address";
}
