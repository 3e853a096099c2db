/**
 * grepcidr 2.0's walk over a log (CONTRACT §7.4, §8.5, §8.7), byte for byte: which lines it
 * selects and which addresses it finds in them, against the patterns read by patterns.ts. The
 * command around it (its options, files and output) is `nettools match` (src/cli/match.ts).
 *
 * How grepcidr finds addresses in a line (its `scan_with_hints`), which this file repeats:
 * - it walks the line byte by byte. Where a decimal digit has a `.` one, two or three bytes later
 *   (and IPv4 patterns were given), the run of letters, digits and dots from there is the IPv4
 *   candidate; else where one to four hex digits are followed by `:`, or `::` by a hex digit (and
 *   IPv6 patterns were given), the run of letters, digits, `:` and `.` is the IPv6 candidate;
 * - a candidate is an address when glibc's `inet_pton` accepts all of it (grepcidr.ts): so
 *   `SRC=203.0.113.8`, `203.0.113.5:51234`, `[2001:db8::5]:443` and `"203.0.113.6"` are
 *   addresses, `1.2.3.4.5`, `010.0.0.1` and `203.0.113.5x` are not; whether it is or not, the walk
 *   goes on after the candidate (so `1234.0.113.7` holds the address `234.0.113.7`);
 * - a line is selected at its first address inside a pattern; with `-v`, when it holds an address
 *   and none inside a pattern (a line without address never is);
 * - lines are read as C `fgets` reads them into a buffer of 512 bytes that doubles as long lines
 *   come: a walk starts only before the buffer's size minus 5, a last line without newline is
 *   printed without one (or lost when its length is the buffer's size minus one), and a NUL byte
 *   cuts a line and joins what follows the next read to it. Inputs without NUL take a fast path;
 *   the others are read exactly as `fgets` would.
 *
 * Speed (docs/performance.md): the log is read and written as bytes, never decoded. Every hint
 * needs a `.` or a `:` within four bytes, so the walk jumps from one such mark to the next and
 * applies grepcidr's rules only to the bytes just before each. Candidates are read into numbers
 * in place and looked up in an {@link AddressSet} (an IPv4 lookup starts in the bucket of the
 * address's top 16 bits). Selected lines are copied out as runs of consecutive lines, in chunks of
 * about a megabyte, by the caller's {@link ByteSink} (the CLI's copies with `Buffer#copy`).
 */
import type { AddressSet } from "../../domain/ip/address-set.ts";
import { maskWord } from "../../domain/ip/u128.ts";
import type { ByteSink } from "../ports.ts";
import type { PatternLabels } from "./pattern-labels.ts";
import {
  COLON,
  DOT,
  HEX_PLUS_ONE,
  inetPton4,
  inetPton6,
  LF,
  SLASH,
  V4_FIELD,
  V4_TEXT_MAX,
  V6_FIELD,
  V6_TEXT_MAX,
} from "./patterns.ts";

/** What to do with each line. */
export interface MatchOptions {
  /** Select the lines that hold an address but none inside a pattern (`-v`). */
  readonly invert: boolean;
  /** Print the matching addresses instead of the lines (`-o`). */
  readonly onlyMatching: boolean;
  /** Count the selected lines, print nothing else (`-c`). */
  readonly count: boolean;
}

/** What a walk over a line found. */
const NO_ADDRESS = 0;
const ADDRESS_OUTSIDE = 1;
const ADDRESS_INSIDE = 2;

/** Receives each address inside a pattern, as `b[start, end)` (`-o`). */
type FieldSink = (b: Uint8Array, start: number, end: number) => void;

/** Scratch for the words of an IPv6 candidate. */
const words = new Uint32Array(4);

/** grepcidr's walk over one line, against a set of patterns (see the module comment). */
export class AddressScanner {
  private readonly v4: boolean;
  private readonly v6: boolean;
  /** Bytes a candidate can start with: digits (IPv4 patterns), hex digits and `:` (IPv6 patterns). */
  private readonly starts = new Uint8Array(256);
  /**
   * The bytes every hint needs at most four bytes on: `.` for IPv4, `:` for IPv6. Positions more
   * than four bytes before the next one start no candidate, so the walk skips from mark to mark in
   * a tight loop and looks closely only at the four bytes before each and at the mark itself.
   */
  private readonly marks = new Uint8Array(256);

  constructor(
    private readonly patterns: AddressSet,
    /** Addresses that are not addresses (`-x`), or null. */
    private readonly ignored: AddressSet | null,
  ) {
    // grepcidr looks for a family's addresses only when it has patterns of that family.
    this.v4 = patterns.hasIpv4;
    this.v6 = patterns.hasIpv6;
    for (let c = 0; c < 256; c++) {
      const digit = c >= 48 && c <= 57;
      if ((this.v4 && digit) || (this.v6 && (HEX_PLUS_ONE[c]! > 0 || c === COLON))) this.starts[c] = 1;
    }
    if (this.v4) this.marks[DOT] = 1;
    if (this.v6) this.marks[COLON] = 1;
  }

  /**
   * Walks `b` from `start`, starting candidates before `limit`, each ending at `end` at the
   * latest: {@link ADDRESS_INSIDE} at the first address inside a pattern (or, with a `sink`, after
   * giving it every such address), else {@link ADDRESS_OUTSIDE} if some address was found, else
   * {@link NO_ADDRESS}.
   */
  scan(b: Uint8Array, start: number, limit: number, end: number, sink: FieldSink | null): number {
    const v4 = this.v4;
    const v6 = this.v6;
    const starts = this.starts;
    const marks = this.marks;
    let found = NO_ADDRESS;
    let p = start;
    let mark = -1;
    while (p < limit) {
      if (p > mark) {
        // The next mark; hints that would read past `end` (the line's LF and beyond) find no
        // address there, so a line's last mark is its last place to look.
        mark = p;
        while (mark < end && marks[b[mark]!] === 0) mark++;
        if (mark === end) break;
        if (p < mark - 4) p = mark - 4;
        if (p >= limit) break;
      }
      const c = b[p]!;
      if (starts[c] === 0) {
        p++;
        continue;
      }
      // The candidate b[p, q) and what it is: an address inside a pattern, outside, or none.
      let q: number;
      let inside: boolean | null = null;
      if (v4 && c >= 48 && c <= 57 && (b[p + 1] === DOT || b[p + 2] === DOT || b[p + 3] === DOT)) {
        q = p + 1;
        while (q < end && V4_FIELD[b[q]!] === 1) q++;
        const value = q - p <= V4_TEXT_MAX ? inetPton4(b, p, q) : -1;
        if (value >= 0 && (this.ignored === null || !this.ignoresV4(b, q, end, value))) {
          inside = this.patterns.hasV4(value);
        }
      } else if (v6 && (HEX_PLUS_ONE[c]! > 0 || c === COLON) && startsV6(b, p, c)) {
        q = p + 1;
        while (q < end && V6_FIELD[b[q]!] === 1) q++;
        if (
          q - p <= V6_TEXT_MAX &&
          inetPton6(b, p, q, words) &&
          (this.ignored === null || !this.ignoresV6(b, q, end))
        ) {
          inside = this.patterns.hasV6(words[0]!, words[1]!, words[2]!, words[3]!);
        }
      } else {
        p++;
        continue;
      }
      if (inside === true) {
        if (sink === null) return ADDRESS_INSIDE;
        sink(b, p, q);
        found = ADDRESS_INSIDE;
      } else if (inside === false && found === NO_ADDRESS) {
        found = ADDRESS_OUTSIDE;
      }
      p = q;
    }
    return found;
  }

  /**
   * `-x`: whether the IPv4 address `value`, read just before `b[q]`, is special-purpose — or,
   * when a prefix length follows it (`/N`), whether any address of that CIDR is (CONTRACT §8.5).
   */
  private ignoresV4(b: Uint8Array, q: number, end: number, value: number): boolean {
    const ignored = this.ignored!;
    const bits = prefixLengthAt(b, q, end, 32);
    if (bits < 0) return ignored.hasV4(value);
    const host = bits === 32 ? 0 : 0xffff_ffff >>> bits;
    const first = (value & ~host) >>> 0;
    return ignored.overlapsV4(first, (first | host) >>> 0);
  }

  /** {@link ignoresV4} for the IPv6 address in {@link words}. */
  private ignoresV6(b: Uint8Array, q: number, end: number): boolean {
    const ignored = this.ignored!;
    const w0 = words[0]!;
    const w1 = words[1]!;
    const w2 = words[2]!;
    const w3 = words[3]!;
    const bits = prefixLengthAt(b, q, end, 128);
    if (bits < 0) return ignored.hasV6(w0, w1, w2, w3);
    const m0 = maskWord(bits, 0);
    const m1 = maskWord(bits, 1);
    const m2 = maskWord(bits, 2);
    const m3 = maskWord(bits, 3);
    return ignored.overlapsV6(
      (w0 & m0) >>> 0,
      (w1 & m1) >>> 0,
      (w2 & m2) >>> 0,
      (w3 & m3) >>> 0,
      (w0 | ~m0) >>> 0,
      (w1 | ~m1) >>> 0,
      (w2 | ~m2) >>> 0,
      (w3 | ~m3) >>> 0,
    );
  }
}

/**
 * The prefix length written at `b[q]` as `/N` (CONTRACT §2: decimal without leading zero, at most
 * `max`), or -1 when there is none.
 */
function prefixLengthAt(b: Uint8Array, q: number, end: number, max: number): number {
  if (q >= end || b[q] !== SLASH) return -1;
  let i = q + 1;
  let bits = 0;
  while (i < end && b[i]! >= 48 && b[i]! <= 57 && i - q <= 3) bits = bits * 10 + (b[i++]! - 48);
  const digits = i - q - 1;
  if (digits === 0 || (i < end && b[i]! >= 48 && b[i]! <= 57)) return -1;
  if (digits > 1 && b[q + 1] === 48) return -1;
  return bits <= max ? bits : -1;
}

/** grepcidr's IPv6 hints at `b[p]` (which is `c`): `::` and a hex digit, or 1–4 hex digits and `:`. */
function startsV6(b: Uint8Array, p: number, c: number): boolean {
  if (c === COLON) return b[p + 1] === COLON && HEX_PLUS_ONE[b[p + 2]!]! > 0;
  let k = 1;
  while (k < 4 && HEX_PLUS_ONE[b[p + k]!]! > 0) k++;
  return b[p + k] === COLON;
}

/** What {@link matchInput} needs besides the input. */
export interface MatchRun {
  readonly scanner: AddressScanner;
  readonly options: MatchOptions;
  /** Null with `-c`. */
  readonly out: ByteSink | null;
  /** `FILE:` before every line printed when there are several files, else null. */
  readonly prefix: Uint8Array | null;
  /** With `--print-pattern`: the patterns, to name the one each printed address matched. */
  readonly labels?: PatternLabels | null;
}

/** grepcidr's first line buffer (`MAXFIELD`); it doubles for longer lines. */
const FIRST_BUFFER = 512;
/** How far before the buffer's end grepcidr stops starting candidates (`HINT_LOOKAHEAD` + 1). */
const HINT_ROOM = 5;

/**
 * Selects lines of one input as grepcidr does and prints them (or their matching addresses) to
 * `run.out`; returns the number of lines selected.
 */
export function matchInput(input: Uint8Array, run: MatchRun): number {
  return input.indexOf(0) < 0 ? matchPlain(input, run) : matchAsFgets(input, run);
}

/** A sink that prints each matching address on its own line (`-o`), or null. */
function fieldPrinter(run: MatchRun): FieldSink | null {
  const { out, prefix } = run;
  if (!run.options.onlyMatching || out === null) return null;
  const labels = run.labels ?? null;
  return (b, start, end) => {
    if (prefix !== null) out.copy(prefix, 0, prefix.length);
    out.copy(b, start, end);
    if (labels !== null) {
      const found = labels.find(String.fromCharCode(...b.subarray(start, end)));
      const tail = new TextEncoder().encode(`\t${found?.text ?? ""}\t${found?.label ?? ""}`);
      out.copy(tail, 0, tail.length);
    }
    out.byte(LF);
  };
}

/** {@link matchInput} for an input without NUL bytes: lines are the runs up to each LF. */
function matchPlain(input: Uint8Array, run: MatchRun): number {
  const { scanner, out, prefix } = run;
  const invert = run.options.invert;
  const sink = fieldPrinter(run);
  const copyLines = out !== null && sink === null;
  const length = input.length;
  let buffer = FIRST_BUFFER;
  let selected = 0;
  let runStart = -1; // start of the run of consecutive selected lines not yet copied
  let pos = 0;
  while (pos < length) {
    const newline = input.indexOf(LF, pos);
    const contentEnd = newline < 0 ? length : newline;
    const lineEnd = newline < 0 ? length : newline + 1;
    const lineLength = lineEnd - pos;
    // A last line without LF that fills fgets' buffer exactly is never returned by grepcidr.
    if (newline < 0 && lineLength + 1 >= buffer && isPowerOfTwo(lineLength + 1)) break;
    while (lineLength > buffer - 1) buffer *= 2;
    const found = scanner.scan(input, pos, Math.min(contentEnd, pos + buffer - HINT_ROOM), contentEnd, sink);
    if (invert ? found === ADDRESS_OUTSIDE : found === ADDRESS_INSIDE) {
      selected++;
      if (copyLines) {
        if (prefix !== null) {
          out.copy(prefix, 0, prefix.length);
          out.copy(input, pos, lineEnd);
        } else if (runStart < 0) runStart = pos;
      }
    } else if (runStart >= 0) {
      out!.copy(input, runStart, pos);
      runStart = -1;
    }
    pos = lineEnd;
  }
  if (runStart >= 0) out!.copy(input, runStart, pos);
  return selected;
}

function isPowerOfTwo(n: number): boolean {
  return (n & (n - 1)) === 0;
}

/**
 * {@link matchInput} for an input holding NUL bytes, read exactly as grepcidr's
 * `fgets_whole_line` reads it: each `fgets` call reads up to the buffer's size minus one bytes or
 * through LF; a NUL ends the C string, so what follows it in that read is dropped and, unless the
 * read ended with LF, the next read is appended to the line (the buffer doubling each time).
 */
function matchAsFgets(input: Uint8Array, run: MatchRun): number {
  const { scanner, out, prefix } = run;
  const invert = run.options.invert;
  const sink = fieldPrinter(run);
  let line = new Uint8Array(FIRST_BUFFER);
  let buffer = FIRST_BUFFER;
  let selected = 0;
  let pos = 0;
  for (;;) {
    let length = 0; // of the line so far
    let complete = false;
    while (pos < input.length) {
      const room = buffer - length - 1;
      const newline = input.indexOf(LF, pos);
      const stop = newline >= 0 && newline - pos < room ? newline + 1 : Math.min(input.length, pos + room);
      const hitEnd = stop - pos < room && input[stop - 1] !== LF;
      let kept = input.subarray(pos, stop);
      pos = stop;
      const nul = kept.indexOf(0);
      if (nul >= 0) kept = kept.subarray(0, nul);
      if (line.length < length + kept.length + 1) {
        const bigger = new Uint8Array(Math.max(buffer, 2 * line.length, length + kept.length + 1));
        bigger.set(line.subarray(0, length));
        line = bigger;
      }
      line.set(kept, length);
      length += kept.length;
      if (length < 1 || line[length - 1] === LF || hitEnd) {
        complete = true;
        break;
      }
      buffer *= 2;
    }
    if (!complete) return selected; // the end of the input: a line in progress is lost
    line[length] = 0; // the C string's end: what lies after it is never read as part of an address
    if (length === 0) continue; // an empty C string holds no address
    const found = scanner.scan(line, 0, Math.min(length, buffer - HINT_ROOM), length, sink);
    if (invert ? found === ADDRESS_OUTSIDE : found === ADDRESS_INSIDE) {
      selected++;
      if (out !== null && sink === null) {
        if (prefix !== null) out.copy(prefix, 0, prefix.length);
        out.copy(line, 0, length);
      }
    }
  }
}
