/**
 * A set of addresses of both families, asked one address at a time ("is this address in it?") or
 * one range at a time ("does it hold any address of this range?").
 * Held as the sorted, disjoint ranges of {@link unionOf} in flat typed arrays, so a lookup is one
 * binary search and allocates nothing. Built for `nettools match`, which asks it once per address
 * found in a log (millions of times), and for the special-purpose exclusion of `match -x`
 * (special-excluded.ts).
 *
 * IPv4 lookups first narrow the search to the ranges that can hold an address with the same top
 * 16 bits (a 256 KiB table made on the first IPv4 lookup): a log's addresses then usually meet
 * one or two ranges instead of a search over thousands.
 */
import type { RangeList } from "./range-list.ts";
import { unionOf } from "./range-list.ts";

/** Compares the address `a0`–`a3` with the address at `w[at … at+3]`: negative, zero or positive. */
function compareWords(a0: number, a1: number, a2: number, a3: number, w: Uint32Array, at: number): number {
  if (a0 !== w[at]) return a0 < w[at]! ? -1 : 1;
  if (a1 !== w[at + 1]) return a1 < w[at + 1]! ? -1 : 1;
  if (a2 !== w[at + 2]) return a2 < w[at + 2]! ? -1 : 1;
  if (a3 !== w[at + 3]) return a3 < w[at + 3]! ? -1 : 1;
  return 0;
}

/** Addresses of both families, as sorted disjoint ranges (see the module comment). */
export class AddressSet {
  /** First address of each IPv4 range, ascending. */
  private readonly v4First: Uint32Array;
  /** Last address of each IPv4 range. */
  private readonly v4Last: Uint32Array;
  /** IPv6 ranges: first address words then last address words, 8 words a range, ascending. */
  private readonly v6Words: Uint32Array;
  private readonly v6Count: number;
  /**
   * For each value of the top 16 bits `t`, the first IPv4 range whose last address is at or
   * above `t << 16` (entry 65536: the number of ranges). Made on the first {@link hasV4}.
   */
  private buckets: Int32Array | null = null;

  /**
   * The set of the addresses of the ranges in `v4` and `v6` (any order; overlapping, touching
   * and duplicate ranges allowed). The lists are not modified.
   */
  constructor(v4: RangeList, v6: RangeList) {
    const u4 = unionOf(v4);
    this.v4First = new Uint32Array(u4.length);
    this.v4Last = new Uint32Array(u4.length);
    for (let i = 0; i < u4.length; i++) {
      this.v4First[i] = u4.first(i, 3);
      this.v4Last[i] = u4.last(i, 3);
    }
    const u6 = unionOf(v6);
    this.v6Count = u6.length;
    this.v6Words = u6.words.slice(0, 8 * u6.length);
  }

  /** Whether the set holds any IPv4 address. */
  get hasIpv4(): boolean {
    return this.v4First.length > 0;
  }

  /** Whether the set holds any IPv6 address. */
  get hasIpv6(): boolean {
    return this.v6Count > 0;
  }

  /** Whether the IPv4 address `value` (a 32-bit unsigned number) is in the set. */
  hasV4(value: number): boolean {
    const buckets = this.buckets ?? this.makeBuckets();
    const top = value >>> 16;
    // The range holding `value`, if any, is the first whose last address is at or above it; it
    // lies between the bucket's first range and the next bucket's first range (included).
    let low = buckets[top]!;
    let high = buckets[top + 1]!;
    const last = this.v4Last;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (last[mid]! < value) low = mid + 1;
      else high = mid;
    }
    return low < last.length && this.v4First[low]! <= value;
  }

  /** Whether the IPv6 address with words `w0`–`w3` (most significant first) is in the set. */
  hasV6(w0: number, w1: number, w2: number, w3: number): boolean {
    const w = this.v6Words;
    let low = 0;
    let high = this.v6Count;
    // The first range whose last address is at or above the address.
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (compareWords(w0, w1, w2, w3, w, 8 * mid + 4) > 0) low = mid + 1;
      else high = mid;
    }
    return low < this.v6Count && compareWords(w0, w1, w2, w3, w, 8 * low) >= 0;
  }

  /** Whether any IPv4 address from `first` to `last` (32-bit unsigned numbers, first ≤ last) is in the set. */
  overlapsV4(first: number, last: number): boolean {
    const ends = this.v4Last;
    let low = 0;
    let high = ends.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (ends[mid]! < first) low = mid + 1;
      else high = mid;
    }
    return low < ends.length && this.v4First[low]! <= last;
  }

  /**
   * Whether any IPv6 address from the one with words `f0`–`f3` to the one with words `l0`–`l3`
   * (first ≤ last) is in the set.
   */
  overlapsV6(
    f0: number,
    f1: number,
    f2: number,
    f3: number,
    l0: number,
    l1: number,
    l2: number,
    l3: number,
  ): boolean {
    const w = this.v6Words;
    let low = 0;
    let high = this.v6Count;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (compareWords(f0, f1, f2, f3, w, 8 * mid + 4) > 0) low = mid + 1;
      else high = mid;
    }
    return low < this.v6Count && compareWords(l0, l1, l2, l3, w, 8 * low) >= 0;
  }

  private makeBuckets(): Int32Array {
    const buckets = new Int32Array(0x10001);
    const last = this.v4Last;
    let i = 0;
    for (let top = 0; top <= 0x10000; top++) {
      // For top = 65536 this runs past every range: the entry is the number of ranges.
      while (i < last.length && last[i]! >>> 16 < top) i++;
      buckets[top] = i;
    }
    this.buckets = buckets;
    return buckets;
  }
}
