/**
 * Inclusive address ranges (Go `netipx.IPRange`): the last address is named, never "one past", so
 * the range ending at `255.255.255.255` or `ffff:…:ffff` needs no special case. A range becomes
 * the minimal list of prefixes by halving, as `netipx.IPRange.Prefixes` does; sets of ranges are
 * merged and subtracted as sorted interval lists. Nothing here enumerates addresses: every
 * operation costs the same for a /0 as for a /32.
 */
import { IpAddr, type IpFamily } from "./addr.ts";
import { IpPrefix } from "./prefix.ts";
import { commonPrefixLengthOfWords, compareU128, isSuccessor, maskWord } from "./u128.ts";

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
 * Halving (netipx `appendRangePrefixes`): when the range is one whole prefix, that prefix;
 * otherwise split it where its first and last address first differ and do both halves. The
 * recursion is at most 128 deep and makes about two calls per prefix produced, so a caller that
 * stops early pays only for what it took (CONTRACT §3: RESULT_TOO_LARGE stays fast). A range
 * needs at most 2 × (bits − 1) prefixes: 62 for IPv4, 254 for IPv6. Nothing is allocated.
 */
export function splitRange(range: IpRange, sink: PrefixSink): boolean {
  const { first: a, last: b } = range;
  return halve(a.w0, a.w1, a.w2, a.w3, b.w0, b.w1, b.w2, b.w3, 128 - a.bitLength, sink);
}

/** Like {@link splitRange}, with each prefix as an `IpPrefix`; `visit` returns `false` to stop. */
export function forEachRangePrefix(range: IpRange, visit: (prefix: IpPrefix) => boolean): boolean {
  const family = range.family;
  return splitRange(range, (w0, w1, w2, w3, bits) =>
    visit(IpPrefix.from(IpAddr.fromWords(family, w0, w1, w2, w3), bits)),
  );
}

// The range [a, b] as words; `offset` is 128 minus the family's bit length (96 for IPv4, whose
// upper words are zero and so always part of the common prefix).
function halve(
  a0: number,
  a1: number,
  a2: number,
  a3: number,
  b0: number,
  b1: number,
  b2: number,
  b3: number,
  offset: number,
  sink: PrefixSink,
): boolean {
  const common = commonPrefixLengthOfWords(a0, a1, a2, a3, b0, b1, b2, b3);
  const m0 = maskWord(common, 0);
  const m1 = maskWord(common, 1);
  const m2 = maskWord(common, 2);
  const m3 = maskWord(common, 3);
  // One whole prefix: a's bits after the common ones are all 0, b's all 1.
  if (
    (a0 & ~m0) === 0 &&
    (a1 & ~m1) === 0 &&
    (a2 & ~m2) === 0 &&
    (a3 & ~m3) === 0 &&
    ~(b0 | m0) === 0 &&
    ~(b1 | m1) === 0 &&
    ~(b2 | m2) === 0 &&
    ~(b3 | m3) === 0
  ) {
    return sink(a0, a1, a2, a3, common - offset);
  }
  // Bit `common` is 0 in a and 1 in b: [a, a with the bits after it set] and [b with them cleared, b].
  const n0 = maskWord(common + 1, 0);
  const n1 = maskWord(common + 1, 1);
  const n2 = maskWord(common + 1, 2);
  const n3 = maskWord(common + 1, 3);
  return (
    halve(
      a0,
      a1,
      a2,
      a3,
      (a0 | ~n0) >>> 0,
      (a1 | ~n1) >>> 0,
      (a2 | ~n2) >>> 0,
      (a3 | ~n3) >>> 0,
      offset,
      sink,
    ) &&
    halve((b0 & n0) >>> 0, (b1 & n1) >>> 0, (b2 & n2) >>> 0, (b3 & n3) >>> 0, b0, b1, b2, b3, offset, sink)
  );
}

/**
 * The union of `ranges` as a sorted list of disjoint, non-adjacent ranges: overlapping and
 * touching ranges (`10.0.0.0–10.0.0.255` and `10.0.1.0–…`) become one. All ranges must be of one
 * family. The input is not modified.
 */
export function mergeRanges(ranges: readonly IpRange[]): IpRange[] {
  const sorted = sortByFirst(ranges);
  const out: IpRange[] = [];
  const head = sorted[0];
  if (head === undefined) return out;
  let first = head.first;
  let last = head.last;
  for (let i = 1; i < sorted.length; i++) {
    const r = sorted[i]!;
    if (compareU128(r.first, last) <= 0 || isSuccessor(last, r.first)) {
      if (compareU128(r.last, last) > 0) last = r.last;
    } else {
      out.push(IpRange.of(first, last));
      first = r.first;
      last = r.last;
    }
  }
  out.push(IpRange.of(first, last));
  return out;
}

const byFirst = (x: IpRange, y: IpRange): number => x.first.compare(y.first);

/** Positions a sort key reserves for the element's index: lists up to 2048 ranges take the fast path. */
const INDEX_BITS = 11;
const INDEX_SPAN = 1 << INDEX_BITS;

/**
 * `ranges` sorted by first address. A comparator sort of objects measured 3–4 times slower than
 * sorting a `Float64Array` of keys, so each range gets the key (top 42 bits of its first address)
 * × 2048 + its index, exact in a double. IPv4 keys hold the whole address; IPv6 ranges whose top
 * 42 bits tie are then put in order with the comparator, run by run.
 */
function sortByFirst(ranges: readonly IpRange[]): IpRange[] {
  const n = ranges.length;
  if (n > INDEX_SPAN) return ranges.slice().sort(byFirst);
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const a = ranges[i]!.first;
    const high = a.family === 4 ? a.w3 : a.w0 * 1024 + (a.w1 >>> 22);
    keys[i] = high * INDEX_SPAN + i;
  }
  keys.sort();
  const out = new Array<IpRange>(n);
  for (let i = 0; i < n; i++) out[i] = ranges[keys[i]! % INDEX_SPAN]!;
  if (n > 0 && ranges[0]!.family === 6) {
    let runStart = 0;
    for (let i = 1; i <= n; i++) {
      if (i < n && Math.floor(keys[i]! / INDEX_SPAN) === Math.floor(keys[runStart]! / INDEX_SPAN)) continue;
      if (i - runStart > 1) {
        const run = out.slice(runStart, i).sort(byFirst);
        for (let k = 0; k < run.length; k++) out[runStart + k] = run[k]!;
      }
      runStart = i;
    }
  }
  return out;
}

/**
 * `include` minus `exclude`, both sorted lists of disjoint ranges (as `mergeRanges` returns);
 * the result is such a list too. Linear in the two lengths.
 */
export function subtractRanges(include: readonly IpRange[], exclude: readonly IpRange[]): IpRange[] {
  const out: IpRange[] = [];
  let j = 0;
  for (const inc of include) {
    let cur: IpAddr | null = inc.first;
    while (j < exclude.length && exclude[j]!.last.compare(cur) < 0) j++;
    for (let k = j; k < exclude.length; k++) {
      const ex = exclude[k]!;
      if (ex.first.compare(inc.last) > 0) break;
      if (ex.first.compare(cur) > 0) out.push(IpRange.of(cur, ex.first.prev()!));
      if (ex.last.compare(inc.last) >= 0) {
        cur = null;
        break;
      }
      cur = ex.last.next()!; // ex.last < inc.last, so there is a next address
    }
    if (cur !== null) out.push(IpRange.of(cur, inc.last));
  }
  return out;
}

/**
 * Exact number of addresses in disjoint `ranges` (0 to 2^128).
 *
 * By linearity, Σ(last − first + 1) = Σ over words k of 2^(32·(3−k)) · Σ(last.wk − first.wk), plus
 * the number of ranges. Each per-word sum stays an exact integer in a `number` (below 2^53 for up
 * to 2^20 ranges per batch), so only a handful of `bigint` operations run per call.
 */
export function countAddresses(ranges: readonly IpRange[]): bigint {
  const BATCH = 1 << 20;
  let total = 0n;
  for (let start = 0; start < ranges.length; start += BATCH) {
    const end = Math.min(ranges.length, start + BATCH);
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let i = start; i < end; i++) {
      const { first, last } = ranges[i]!;
      s0 += last.w0 - first.w0;
      s1 += last.w1 - first.w1;
      s2 += last.w2 - first.w2;
      s3 += last.w3 - first.w3;
    }
    total +=
      (BigInt(s0) << 96n) + (BigInt(s1) << 64n) + (BigInt(s2) << 32n) + BigInt(s3) + BigInt(end - start);
  }
  return total;
}
