/**
 * Inclusive address ranges (Go `netipx.IPRange`): the last address is named, never "one past", so
 * the range ending at `255.255.255.255` or `ffff:…:ffff` needs no special case. A range becomes
 * the minimal list of prefixes by halving, as `netipx.IPRange.Prefixes` does; sets of ranges are
 * merged and subtracted as sorted interval lists. Nothing here enumerates addresses: every
 * operation costs the same for a /0 as for a /32.
 */
import { IpAddr, type IpFamily } from "./addr.ts";
import { IpPrefix } from "./prefix.ts";
import { commonPrefixLength, maskWord, WORD_MAX } from "./u128.ts";

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
 * Visits, in address order, the minimal list of prefixes covering exactly `range`, and stops as
 * soon as `visit` returns `false`. Returns `true` when every prefix was visited.
 *
 * Halving (netipx `appendRangePrefixes`): when the range is one whole prefix, that prefix;
 * otherwise split it where its first and last address first differ and do both halves. The
 * recursion is at most 128 deep and makes about two calls per prefix produced, so a caller that
 * stops early pays only for what it took (CONTRACT §3: RESULT_TOO_LARGE stays fast). A range
 * needs at most 2 × (bits − 1) prefixes: 62 for IPv4, 254 for IPv6.
 */
export function forEachRangePrefix(range: IpRange, visit: (prefix: IpPrefix) => boolean): boolean {
  return halve(range.first, range.last, 128 - range.first.bitLength, visit);
}

function halve(a: IpAddr, b: IpAddr, offset: number, visit: (prefix: IpPrefix) => boolean): boolean {
  const common = commonPrefixLength(a, b); // counted over 128 bits; IPv4's 96 zero bits are common
  const m0 = maskWord(common, 0);
  const m1 = maskWord(common, 1);
  const m2 = maskWord(common, 2);
  const m3 = maskWord(common, 3);
  if (
    (a.w0 & ~m0) === 0 &&
    (a.w1 & ~m1) === 0 &&
    (a.w2 & ~m2) === 0 &&
    (a.w3 & ~m3) === 0 &&
    (b.w0 | m0) >>> 0 === WORD_MAX &&
    (b.w1 | m1) >>> 0 === WORD_MAX &&
    (b.w2 | m2) >>> 0 === WORD_MAX &&
    (b.w3 | m3) >>> 0 === WORD_MAX
  ) {
    return visit(IpPrefix.from(a, common - offset)); // a is already the network address
  }
  // Bit `common` is 0 in a and 1 in b: [a, a with the bits after it set] and [b with them cleared, b].
  const n0 = maskWord(common + 1, 0);
  const n1 = maskWord(common + 1, 1);
  const n2 = maskWord(common + 1, 2);
  const n3 = maskWord(common + 1, 3);
  const family = a.family;
  const lowEnd = IpAddr.fromWords(
    family,
    (a.w0 | ~n0) >>> 0,
    (a.w1 | ~n1) >>> 0,
    (a.w2 | ~n2) >>> 0,
    (a.w3 | ~n3) >>> 0,
  );
  const highStart = IpAddr.fromWords(
    family,
    (b.w0 & n0) >>> 0,
    (b.w1 & n1) >>> 0,
    (b.w2 & n2) >>> 0,
    (b.w3 & n3) >>> 0,
  );
  return halve(a, lowEnd, offset, visit) && halve(highStart, b, offset, visit);
}

/**
 * The union of `ranges` as a sorted list of disjoint, non-adjacent ranges: overlapping and
 * touching ranges (`10.0.0.0–10.0.0.255` and `10.0.1.0–…`) become one. All ranges must be of one
 * family. The input is not modified.
 */
export function mergeRanges(ranges: readonly IpRange[]): IpRange[] {
  const sorted = ranges.slice().sort((x, y) => x.first.compare(y.first));
  const out: IpRange[] = [];
  const head = sorted[0];
  if (head === undefined) return out;
  let first = head.first;
  let last = head.last;
  for (let i = 1; i < sorted.length; i++) {
    const r = sorted[i]!;
    if (r.first.compare(last) <= 0 || r.first.equals(last.next() ?? r.first)) {
      if (r.last.compare(last) > 0) last = r.last;
    } else {
      out.push(IpRange.of(first, last));
      first = r.first;
      last = r.last;
    }
  }
  out.push(IpRange.of(first, last));
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
    total += (BigInt(s0) << 96n) + (BigInt(s1) << 64n) + (BigInt(s2) << 32n) + BigInt(s3) + BigInt(end - start);
  }
  return total;
}
