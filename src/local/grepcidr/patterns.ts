/**
 * grepcidr 2.0's reading rules, byte for byte (CONTRACT §7.4: `nettools match` selects exactly the
 * lines Debian 12's grepcidr selects). Read from its source (grepcidr.c, 2014) and the glibc
 * functions it calls; tests/cli/match-grepcidr.test.ts holds us to the real program, and
 * tests/local/grepcidr-patterns.test.ts to the domain's address parser where the two agree.
 *
 * Addresses in a log are read by glibc's `inet_pton`: IPv4 is exactly four decimal octets 0–255
 * without leading zeros (`010.0.0.1` is no address); IPv6 is RFC 4291 text with one to four hex
 * digits a group (leading zeros allowed), `::` once, an optional dotted IPv4 tail.
 *
 * Patterns (`-f FILE`, `-e`, or the first argument) are read by `sscanf`, much more loosely:
 * - a file is read in pieces of at most 511 bytes (`fgets` into 512): a longer line is several
 *   patterns; a piece starting with `#`, LF or CR is skipped (a comment or a blank line);
 * - `A.B.C.D/N`: four `%u` and a `%d`, each after optional whitespace and an optional sign, in
 *   decimal (`010` is 10, not octal), as 64-bit `strtoul`/`strtol` then cut to 32 bits; anything
 *   after is ignored (`10.0.0.0/8 # office` is 10.0.0.0/8). N outside 0–32 rejects the pattern;
 *   host bits are cleared;
 * - `A.B.C.D - E.F.G.H` (spaces optional): an inclusive range; a reversed one is rejected;
 * - `A.B.C.D` then anything (`1.2.3.4.5` is 1.2.3.4, `1.2.3.4/x` too);
 * - otherwise IPv6: the longest run of letters, digits, `:` and `.` from the first byte must be an
 *   address (so no leading whitespace), then `/N` (0–128) may follow directly; anything else after
 *   it is ignored, so an IPv6 range `a-b` is the single address `a`.
 * A rejected pattern is a warning and is skipped; the run goes on (grepcidr's exit status).
 */
import { parsePrefix } from "../../domain/ip/prefix.ts";
import type { RangeList } from "../../domain/ip/range-list.ts";
import { maskWord } from "../../domain/ip/u128.ts";

export const COLON = 58;
export const DOT = 46;
export const LF = 10;
const HASH = 35;
const CR = 13;
export const SLASH = 47;
const DASH = 45;
const PLUS = 43;

/** Bytes `strspn(p, IPV4_FIELD)` runs over: ASCII letters, digits and `.`. */
export const V4_FIELD = new Uint8Array(256);
/** Bytes `strspn(p, IPV6_FIELD)` runs over: ASCII letters, digits, `:` and `.`. */
export const V6_FIELD = new Uint8Array(256);
/** Hex digit values plus one (0: not a hex digit). */
export const HEX_PLUS_ONE = new Uint8Array(256);
for (const c of "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz.") {
  V4_FIELD[c.charCodeAt(0)] = 1;
  V6_FIELD[c.charCodeAt(0)] = 1;
}
V6_FIELD[COLON] = 1;
for (let d = 0; d < 16; d++) {
  HEX_PLUS_ONE["0123456789abcdef".charCodeAt(d)] = d + 1;
  HEX_PLUS_ONE["0123456789ABCDEF".charCodeAt(d)] = d + 1;
}

/** Longest text grepcidr hands to `inet_pton(AF_INET)` (a 16-byte buffer) and to AF_INET6 (46). */
export const V4_TEXT_MAX = 15;
export const V6_TEXT_MAX = 45;

/**
 * glibc's `inet_pton(AF_INET)` on `b[start, end)`: the address as a 32-bit unsigned number, or -1.
 * Four decimal octets 0–255 separated by dots, no leading zero (`0` alone is one), nothing else.
 */
export function inetPton4(b: Uint8Array, start: number, end: number): number {
  let value = 0;
  let octet = 0;
  let octets = 0;
  let sawDigit = false;
  for (let i = start; i < end; i++) {
    const c = b[i]!;
    if (c >= 48 && c <= 57) {
      if (sawDigit && octet === 0) return -1;
      octet = octet * 10 + (c - 48);
      if (octet > 255) return -1;
      if (!sawDigit) {
        if (++octets > 4) return -1;
        sawDigit = true;
      }
    } else if (c === DOT && sawDigit) {
      if (octets === 4) return -1;
      value = value * 256 + octet;
      octet = 0;
      sawDigit = false;
    } else {
      return -1;
    }
  }
  if (octets < 4) return -1;
  return value * 256 + octet;
}

/** Scratch for the eight groups of the IPv6 text being read. */
const groups = new Uint16Array(8);

/**
 * glibc's `inet_pton(AF_INET6)` on `b[start, end)`: true with the address's words (most
 * significant first) in `out[0 … 3]`, or false. Groups of one to four hex digits, `::` at most
 * once and standing for at least one group, a dotted IPv4 tail (as {@link inetPton4}) after at
 * most six groups.
 */
export function inetPton6(b: Uint8Array, start: number, end: number, out: Uint32Array): boolean {
  if (start >= end) return false;
  let i = start;
  if (b[i] === COLON) {
    i++;
    if (i === end || b[i] !== COLON) return false;
  }
  let token = i; // where the current group starts: a dotted tail is read again from here
  let digits = 0;
  let value = 0;
  let n = 0; // groups written
  let gap = -1; // where `::` stands, in groups
  while (i < end) {
    const c = b[i++]!;
    const hex = HEX_PLUS_ONE[c]!;
    if (hex !== 0) {
      if (digits === 4) return false;
      value = value * 16 + hex - 1;
      digits++;
      continue;
    }
    if (c === COLON) {
      token = i;
      if (digits === 0) {
        if (gap >= 0) return false;
        gap = n;
        continue;
      }
      if (i === end || n === 8) return false;
      groups[n++] = value;
      digits = 0;
      value = 0;
      continue;
    }
    if (c === DOT && n <= 6) {
      const v4 = inetPton4(b, token, end);
      if (v4 >= 0) {
        groups[n++] = v4 >>> 16;
        groups[n++] = v4 & 0xffff;
        digits = 0;
        break;
      }
    }
    return false;
  }
  if (digits > 0) {
    if (n === 8) return false;
    groups[n++] = value;
  }
  if (gap >= 0) {
    if (n === 8) return false; // `::` would stand for no group
    const moved = n - gap;
    for (let k = 0; k < moved; k++) groups[7 - k] = groups[n - 1 - k]!;
    for (let k = gap; k < 8 - moved; k++) groups[k] = 0;
    n = 8;
  }
  if (n !== 8) return false;
  for (let k = 0; k < 4; k++) out[k] = groups[2 * k]! * 0x10000 + groups[2 * k + 1]!;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Patterns

/** The patterns read so far: one range list per family, and what was said about them. */
export interface PatternLists {
  readonly v4: RangeList;
  readonly v6: RangeList;
  /** One line per pattern skipped or read in a surprising way (for stderr). */
  readonly warnings: string[];
  /** How many patterns were skipped (rejected). */
  skipped: number;
}

/** C's `isspace` in the C locale: space, tab, LF, VT, FF, CR. */
function isCSpace(c: number | undefined): boolean {
  return c === 32 || (c !== undefined && c >= 9 && c <= 13);
}

const TWO_64 = 1n << 64n;
const TWO_63 = 1n << 63n;

/**
 * One `%u` (`signed` false) or `%d` of glibc's `sscanf` at `s[i]`: optional whitespace, an optional
 * sign, one or more decimal digits, converted by `strtoul`/`strtol` (64 bits, saturating on
 * overflow, a `-` on `%u` wrapping around) and stored in 32 bits. Null when no digit is there.
 */
function scanInteger(s: Uint8Array, i: number, signed: boolean): { value: number; next: number } | null {
  while (isCSpace(s[i])) i++;
  let negative = false;
  if (s[i] === PLUS || s[i] === DASH) {
    negative = s[i] === DASH;
    i++;
  }
  const from = i;
  while (i < s.length && s[i]! >= 48 && s[i]! <= 57) i++;
  if (i === from) return null;
  if (i - from <= 15) {
    // Below 2^53 and far from 64-bit saturation: ToInt32 / ToUint32 of the exact value.
    let small = 0;
    for (let k = from; k < i; k++) small = small * 10 + (s[k]! - 48);
    const exact = negative ? -small : small;
    return { value: signed ? exact | 0 : exact >>> 0, next: i };
  }
  let magnitude = 0n;
  for (let k = from; k < i; k++) magnitude = magnitude * 10n + BigInt(s[k]! - 48);
  let wide: bigint;
  if (signed) {
    if (negative) wide = magnitude > TWO_63 ? -TWO_63 : -magnitude;
    else wide = magnitude > TWO_63 - 1n ? TWO_63 - 1n : magnitude;
    return { value: Number(BigInt.asIntN(32, wide)), next: i };
  }
  if (magnitude > TWO_64 - 1n) wide = TWO_64 - 1n;
  else wide = negative ? (TWO_64 - magnitude) % TWO_64 : magnitude;
  return { value: Number(BigInt.asUintN(32, wide)), next: i };
}

/**
 * glibc's `sscanf(s + from, format, …)` for the few formats grepcidr uses: `%u`, `%d`, a space
 * (any whitespace, none included) and literal bytes. Returns the values converted before it
 * stopped: their number is `sscanf`'s result.
 */
function scanf(s: Uint8Array, from: number, format: string): number[] {
  const values: number[] = [];
  let i = from;
  for (let f = 0; f < format.length; f++) {
    const directive = format[f]!;
    if (directive === "%") {
      const read = scanInteger(s, i, format[++f] === "d");
      if (read === null) break;
      values.push(read.value);
      i = read.next;
    } else if (directive === " ") {
      while (isCSpace(s[i])) i++;
    } else {
      if (s[i] !== directive.charCodeAt(0)) break;
      i++;
    }
  }
  return values;
}

/** grepcidr's `VALID_IP` on four values from `at`: each below 256. */
function validQuad(v: readonly number[], at: number): boolean {
  return v[at]! < 256 && v[at + 1]! < 256 && v[at + 2]! < 256 && v[at + 3]! < 256;
}

/** grepcidr's `BUILD_IP`. */
function quadValue(v: readonly number[], at: number): number {
  return ((v[at]! << 24) | (v[at + 1]! << 16) | (v[at + 2]! << 8) | v[at + 3]!) >>> 0;
}

/** Scratch for an IPv6 pattern's words. */
const patternWords = new Uint32Array(4);

/** What {@link readPattern} made of one pattern. */
type PatternOutcome = "ipv4" | "ipv6" | "ipv6-range-start" | "rejected";

/**
 * Reads one pattern (a piece of a file line, cut at its first NUL, or one word of `-e`) as
 * grepcidr's `net_parse` then `net_parse6` do, adding its addresses to `lists`.
 */
function readPattern(s: Uint8Array, lists: PatternLists): PatternOutcome {
  const slash = s.includes(SLASH);
  const dash = s.includes(DASH);
  let v = slash ? scanf(s, 0, "%u.%u.%u.%u/%d") : [];
  if (v.length === 5 && validQuad(v, 0)) {
    const bits = v[4]!;
    if (bits === 0) {
      lists.v4.push(0, 0, 0, 0, 0, 0, 0, 0xffff_ffff);
      return "ipv4";
    }
    if (bits > 0 && bits <= 32) {
      const host = bits === 32 ? 0 : 0xffff_ffff >>> bits;
      const first = (quadValue(v, 0) & ~host) >>> 0;
      lists.v4.push(0, 0, 0, first, 0, 0, 0, (first | host) >>> 0);
      return "ipv4";
    }
  } else {
    v = dash ? scanf(s, 0, "%u.%u.%u.%u - %u.%u.%u.%u") : [];
    if (v.length === 8 && validQuad(v, 0) && validQuad(v, 4)) {
      const first = quadValue(v, 0);
      const last = quadValue(v, 4);
      if (last >= first) {
        lists.v4.push(0, 0, 0, first, 0, 0, 0, last);
        return "ipv4";
      }
    } else {
      v = scanf(s, 0, "%u.%u.%u.%u");
      if (v.length === 4 && validQuad(v, 0)) {
        const value = quadValue(v, 0);
        lists.v4.push(0, 0, 0, value, 0, 0, 0, value);
        return "ipv4";
      }
    }
  }
  // net_parse6: the longest run of address characters from the first byte, then "/N" at once.
  let end = 0;
  while (end < s.length && V6_FIELD[s[end]!] === 1) end++;
  if (end > V6_TEXT_MAX || !inetPton6(s, 0, end, patternWords)) return "rejected";
  const w0 = patternWords[0]!;
  const w1 = patternWords[1]!;
  const w2 = patternWords[2]!;
  const w3 = patternWords[3]!;
  const length = scanf(s, end, "/%d");
  if (length.length === 1) {
    const bits = length[0]!;
    if (bits < 0 || bits > 128) return "rejected";
    lists.v6.pushPrefix(
      (w0 & maskWord(bits, 0)) >>> 0,
      (w1 & maskWord(bits, 1)) >>> 0,
      (w2 & maskWord(bits, 2)) >>> 0,
      (w3 & maskWord(bits, 3)) >>> 0,
      bits,
    );
    return "ipv6";
  }
  lists.v6.push(w0, w1, w2, w3, w0, w1, w2, w3);
  let after = end;
  while (isCSpace(s[after])) after++;
  return s[after] === DASH ? "ipv6-range-start" : "ipv6";
}

/** Text of a pattern for a message: decoded, line end dropped, quoted (control bytes escaped). */
function shown(s: Uint8Array): string {
  let end = s.length;
  while (end > 0 && (s[end - 1] === LF || s[end - 1] === CR)) end--;
  const text = new TextDecoder().decode(s.subarray(0, end));
  return JSON.stringify(text.length > 100 ? `${text.slice(0, 100)}…` : text);
}

/**
 * Why grepcidr rejects a pattern, for the warning: the API parser's explanation where it has one
 * (it quotes the entry), else the rule of grepcidr's that refused it.
 */
function whyRejected(s: Uint8Array): string {
  const range = scanf(s, 0, "%u.%u.%u.%u - %u.%u.%u.%u");
  if (range.length === 8 && validQuad(range, 0) && validQuad(range, 4)) {
    return `${shown(s)}: the range ends before it starts`;
  }
  const entry = (new TextDecoder().decode(s).split("#")[0] ?? "").trim();
  const parsed = parsePrefix(entry);
  if (parsed.ok) return `${shown(s)}: an IPv6 pattern must start at the beginning of its line`;
  return parsed.message;
}

/** Records the outcome of one pattern read at `origin`. */
function note(outcome: PatternOutcome, s: Uint8Array, origin: string, lists: PatternLists): void {
  if (outcome === "rejected") {
    lists.warnings.push(`${origin}: skipped: ${whyRejected(s)}`);
    lists.skipped++;
  } else if (outcome === "ipv6-range-start") {
    lists.warnings.push(
      `${origin}: ${shown(s)} is read as its first address only (grepcidr reads no IPv6 range); "nettools range" turns a range into CIDRs`,
    );
  }
}

/** True when `s` holds only whitespace, or whitespace then a `#` comment: a blank line (§7.6). */
function blankOrComment(s: Uint8Array): boolean {
  let i = 0;
  while (isCSpace(s[i])) i++;
  return i === s.length || s[i] === HASH;
}

/** The bytes of a pattern piece up to its first NUL (C reads it as a string). */
function cString(s: Uint8Array): Uint8Array {
  const nul = s.indexOf(0);
  return nul < 0 ? s : s.subarray(0, nul);
}

/**
 * Reads a pattern file as grepcidr does (see the module comment) into `lists`; `name` is used in
 * warnings (`name:LINE`). A UTF-8 byte-order mark at its start is ignored (CONTRACT §7.6), and so
 * are lines holding only whitespace or an indented comment (grepcidr warns about those and skips
 * them too).
 */
export function readPatternFile(bytes: Uint8Array, name: string, lists: PatternLists): void {
  let start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  for (let line = 1; start < bytes.length; line++) {
    const newline = bytes.indexOf(LF, start);
    const end = newline < 0 ? bytes.length : newline + 1;
    for (let piece = start; piece < end; piece += 511) {
      const s = cString(bytes.subarray(piece, Math.min(end, piece + 511)));
      const first = s[0];
      if (s.length > 0 && (first === HASH || first === LF || first === CR)) continue;
      if (s.length > 0 && blankOrComment(s)) continue;
      note(readPattern(s, lists), s, `${name}:${line}`, lists);
    }
    start = end;
  }
}

/**
 * Reads patterns given on the command line (`-e`, or the first argument without `-e`/`-f`): words
 * separated by space, tab, comma, CR or LF, each read as a pattern (grepcidr's `strtok`).
 */
export function readPatternWords(text: string, origin: string, lists: PatternLists): void {
  const bytes = new TextEncoder().encode(text);
  let start = 0;
  while (start < bytes.length) {
    while (start < bytes.length && isWordSeparator(bytes[start]!)) start++;
    let end = start;
    while (end < bytes.length && !isWordSeparator(bytes[end]!)) end++;
    if (end > start) {
      const s = cString(bytes.subarray(start, end));
      note(readPattern(s, lists), s, origin, lists);
    }
    start = end;
  }
}

function isWordSeparator(c: number): boolean {
  return c === 32 || c === 9 || c === 44 || c === CR || c === LF;
}

/**
 * The warnings `nettools match` writes on stderr about its patterns (and the page shows), without
 * the `warning: ` prefix: at most 100, then one line counting the rest.
 */
export function patternWarnings(lists: PatternLists): string[] {
  const shown = lists.warnings.slice(0, 100);
  if (lists.warnings.length > shown.length) {
    shown.push(`… and ${lists.warnings.length - shown.length} more patterns skipped or read partly`);
  }
  return shown;
}
