/**
 * Inclusive address ranges (Go `netipx.IPRange`): the last address is named, never "one past", so
 * the range ending at `255.255.255.255` or `ffff:…:ffff` needs no special case. A range becomes
 * the minimal list of prefixes (the list `netipx.IPRange.Prefixes` gives) by one walk over its
 * blocks (sets of ranges are merged and subtracted as word lists: range-list.ts). Nothing here
 * enumerates addresses: every operation costs the same for a /0 as for a /32.
 */
import { DeferredList } from "../list-fields.ts";
import { IpAddr, type IpFamily } from "./addr.ts";
import { IpPrefix } from "./prefix.ts";
import { TextBatch } from "./text.ts";
import { commonPrefixLengthOfWords, maskWord } from "./u128.ts";

/** The addresses from `first` to `last`, both included; same family, `first` ≤ `last`. */
export class IpRange {
  private constructor(
    /** The first address of the range. */
    readonly first: IpAddr,
    /** The last address of the range (included). */
    readonly last: IpAddr,
  ) {}

  /** The range `first`–`last`. Throws `RangeError` when the families differ or `first` is after `last`. */
  static of(first: IpAddr, last: IpAddr): IpRange {
    if (first.family !== last.family) throw new RangeError("range endpoints of different families");
    if (first.compare(last) > 0) throw new RangeError(`range reversed: ${first} is after ${last}`);
    return new IpRange(first, last);
  }

  /** The range of every address in `prefix`. */
  static ofPrefix(prefix: IpPrefix): IpRange {
    return new IpRange(prefix.first, prefix.last);
  }

  /** 4 or 6. */
  get family(): IpFamily {
    return this.first.family;
  }

  /** Exact number of addresses, `last − first + 1` (1 to 2^128). */
  addressCount(): bigint {
    return this.last.toBigInt() - this.first.toBigInt() + 1n;
  }

  /**
   * {@link addressCount} as decimal text. An IPv4 range (at most 2^32 addresses, exact in a
   * `Number`) is counted without a `bigint`: three `BigInt` conversions were a tenth of a small
   * range-to-cidrs request's domain time (docs/performance.md, round 9).
   */
  addressCountText(): string {
    if (this.first.family === 4) return String(this.last.w3 - this.first.w3 + 1);
    return this.addressCount().toString();
  }

  /** The minimal list of prefixes that covers exactly this range, in address order. */
  prefixes(): IpPrefix[] {
    const out: IpPrefix[] = [];
    forEachRangePrefix(this, (p) => {
      out.push(p);
      return true;
    });
    return out;
  }
}

/**
 * Receives one prefix of a split as its network address words (`w3` alone for IPv4) and prefix
 * length; returns `false` to stop the split.
 */
export type PrefixSink = (w0: number, w1: number, w2: number, w3: number, bits: number) => boolean;

/**
 * Gives `sink`, in address order, the minimal list of prefixes covering exactly `range`, and
 * stops as soon as `sink` returns `false`. Returns `true` when every prefix was given.
 *
 * A walk from the first address: each step takes the largest block that starts there (it is
 * aligned to it) and ends at or before the last address, then moves past it. That is the same list
 * `netipx.IPRange.Prefixes` makes by halving (the minimal list is unique), but it costs a few word
 * operations per prefix instead of about two recursive calls with ten arguments, measured 4–5
 * times faster (docs/performance.md). A caller that stops early pays only for what it took
 * (CONTRACT §3: RESULT_TOO_LARGE stays fast). A range needs at most 2 × (bits − 1) prefixes: 62
 * for IPv4, 254 for IPv6. Nothing is allocated.
 */
export function splitRange(range: IpRange, sink: PrefixSink): boolean {
  const { first: a, last: b } = range;
  return splitRangeWords(a.bitLength, a.w0, a.w1, a.w2, a.w3, b.w0, b.w1, b.w2, b.w3, sink);
}

/**
 * {@link splitRange} for the range from the address with words `a0`–`a3` to the one with words
 * `b0`–`b3` (`a3` and `b3` alone for IPv4), of a family of `bitLength` bits (32 or 128).
 */
export function splitRangeWords(
  bitLength: 32 | 128,
  a0: number,
  a1: number,
  a2: number,
  a3: number,
  b0: number,
  b1: number,
  b2: number,
  b3: number,
  sink: PrefixSink,
): boolean {
  const offset = 128 - bitLength; // 96 for IPv4, whose words above w3 are zero
  // Trailing one bits of the last address: the largest block it can end is 2^onesB addresses.
  const onesB = trailingZeros(~b0, ~b1, ~b2, ~b3);
  for (;;) {
    // Bit p (counted from the least significant, bit 0) is the highest bit where a and b differ:
    // there a has 0 and b has 1 (a < b); p = -1 when a = b. A block of 2^k addresses starting at
    // a ends at or before b iff k ≤ p, or k = p + 1 and b's low p + 1 bits are all ones (then the
    // block ends exactly at b). It must also be aligned: k ≤ the trailing zeros of a.
    const p = 127 - commonPrefixLengthOfWords(a0, a1, a2, a3, b0, b1, b2, b3);
    const fit = onesB > p ? p + 1 : p;
    const zerosA = trailingZeros(a0, a1, a2, a3);
    const k = zerosA < fit ? zerosA : fit;
    if (!sink(a0, a1, a2, a3, 128 - offset - k)) return false;
    if (k === p + 1) return true; // this block ended at b
    // a += 2^k: add to the word holding bit k; a is aligned to 2^k, so a carry only runs upwards
    // through words that overflow to exactly 2^32, and it stops before the top (a + 2^k ≤ b).
    const bit = 2 ** (k & 31);
    if (k < 32) {
      a3 += bit;
      if (a3 < 0x1_0000_0000) continue;
      a3 = 0;
      a2 += 1;
    } else if (k < 64) a2 += bit;
    else if (k < 96) a1 += bit;
    else a0 += bit;
    if (a2 === 0x1_0000_0000) {
      a2 = 0;
      a1 += 1;
    }
    if (a1 === 0x1_0000_0000) {
      a1 = 0;
      a0 += 1;
    }
  }
}

/**
 * How many prefixes {@link splitRangeWords} would give for the range whose first address is
 * `words[at … at+3]` and last `words[at+4 … at+7]` (first ≤ last; IPv4 in the fourth word of each),
 * without making them: O(1) word operations, so RESULT_TOO_LARGE can be
 * decided with the exact count (CONTRACT §3, §8.4) before anything is listed.
 *
 * Let p be the highest bit where the endpoints differ, m the address where that bit turns on
 * (b with its low p bits cleared), x = a mod 2^p and z = b mod 2^p. The minimal list is the blocks
 * of [a, m − 1], one per one bit of its size 2^p − x, then those of [m, b], one per one bit of its
 * size z + 1; the two halves join into one block exactly when both are whole (x = 0 and
 * z = 2^p − 1). With popcount and trailing zeros (tz) or ones (to):
 * popcount(2^p − x) = p + 1 − popcount(x) − tz(x) for x ≠ 0, and popcount(z + 1) = popcount(z) +
 * 1 − to(z).
 */
export function countRangePrefixesAt(words: Uint32Array, at: number): number {
  // p: the highest bit (from bit 0, the lowest) where the endpoints differ; -1 when they are equal.
  let p = -1;
  for (let k = 0; k < 4; k++) {
    const differ = words[at + k]! ^ words[at + 4 + k]!;
    if (differ !== 0) {
      p = 127 - (32 * k + Math.clz32(differ));
      break;
    }
  }
  if (p < 0) return 1; // one address
  // The low p bits of each endpoint: the 128-bit mask of the low p bits is ~(high 128 − p bits).
  const x = lowBitsOfFirst;
  const z = lowBitsOfLast;
  for (let k = 0; k < 4; k++) {
    const low = ~maskWord(128 - p, k);
    x[k] = (words[at + k]! & low) >>> 0;
    z[k] = (words[at + 4 + k]! & low) >>> 0;
  }
  const xZero = (x[0]! | x[1]! | x[2]! | x[3]!) === 0;
  // z's bit p is clear, so ~z has a one at or below bit p: to(z) = tz(~z) ≤ p.
  const onesZ = trailingZeros(~z[0]!, ~z[1]!, ~z[2]!, ~z[3]!);
  if (xZero && onesZ === p) return 1; // the whole block of 2^(p+1)
  const left = xZero ? 1 : p + 1 - popcount(x) - trailingZeros(x[0]!, x[1]!, x[2]!, x[3]!);
  const right = popcount(z) + 1 - onesZ;
  return left + right;
}

/** Scratch for {@link countRangePrefixesAt}: the low bits of the first and of the last address. */
const lowBitsOfFirst = new Uint32Array(4);
const lowBitsOfLast = new Uint32Array(4);

/** Number of one bits of the 128-bit value in `w` (four words). */
function popcount(w: Uint32Array): number {
  return popcount32(w[0]!) + popcount32(w[1]!) + popcount32(w[2]!) + popcount32(w[3]!);
}

/** Number of one bits of a 32-bit word (the classic SWAR sum). */
function popcount32(v: number): number {
  v -= (v >>> 1) & 0x5555_5555;
  v = (v & 0x3333_3333) + ((v >>> 2) & 0x3333_3333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f_0f0f, 0x0101_0101) >>> 24) & 0xff;
}

/** Number of trailing zero bits of the 128-bit value with these words, 0–128. */
function trailingZeros(w0: number, w1: number, w2: number, w3: number): number {
  // x & -x keeps the lowest set bit; clz32 counts from the top, so 31 − clz32 is its position.
  if (w3 !== 0) return 31 - Math.clz32(w3 & -w3);
  if (w2 !== 0) return 63 - Math.clz32(w2 & -w2);
  if (w1 !== 0) return 95 - Math.clz32(w1 & -w1);
  if (w0 !== 0) return 127 - Math.clz32(w0 & -w0);
  return 128;
}

/** Like {@link splitRange}, with each prefix as an `IpPrefix`; `visit` returns `false` to stop. */
export function forEachRangePrefix(range: IpRange, visit: (prefix: IpPrefix) => boolean): boolean {
  const family = range.family;
  return splitRange(range, (w0, w1, w2, w3, bits) =>
    visit(IpPrefix.from(IpAddr.fromWords(family, w0, w1, w2, w3), bits)),
  );
}

/** The words of a range's two ends, for {@link countRangePrefixesAt}. */
const endWords = new Uint32Array(8);

/** How many prefixes {@link splitRange} gives for `range`, counted without listing them. */
export function countRangePrefixes(range: IpRange): number {
  const { first, last } = range;
  endWords[0] = first.w0;
  endWords[1] = first.w1;
  endWords[2] = first.w2;
  endWords[3] = first.w3;
  endWords[4] = last.w0;
  endWords[5] = last.w1;
  endWords[6] = last.w2;
  endWords[7] = last.w3;
  return countRangePrefixesAt(endWords, 0);
}

/**
 * The minimal prefix list of a range ({@link splitRange}'s), kept as the range itself until it is
 * read: its length is counted without listing ({@link countRangePrefixes}), and a writer of its
 * texts' bytes (the HTTP edge's encoder) walks the range while it writes
 * ({@link RangePrefixes.walk}), so the prefixes are never stored. The texts are made only when
 * the list is read.
 */
export class RangePrefixes extends DeferredList<string> {
  /**
   * @param range the range the prefixes cover exactly
   * @param count how many they are: {@link countRangePrefixes} of the range
   */
  constructor(
    readonly range: IpRange,
    private readonly count: number,
  ) {
    super();
  }

  get length(): number {
    return this.count;
  }

  /** Gives `sink` every prefix in address order, as {@link splitRange} does. */
  walk(sink: PrefixSink): void {
    splitRange(this.range, sink);
  }

  /** The prefixes' canonical texts, in order, made now. */
  toArray(): string[] {
    const batch = new TextBatch();
    const family = this.range.family;
    splitRange(this.range, (w0, w1, w2, w3, bits) => {
      batch.add(family, w0, w1, w2, w3, bits);
      return true;
    });
    return batch.toStrings();
  }
}
