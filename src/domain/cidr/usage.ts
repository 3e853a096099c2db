/**
 * cidr-usage (CONTRACT §12): how full a pool is — netbox's "utilisation" and the IPAM question
 * "how many /24s still fit?" — answered exactly from intervals, never by enumerating addresses:
 * a /0 pool with a million used blocks costs what a /24 does.
 *
 * How it is fast (issue 34: at least the Go peer's speed on 1,000 entries): entries are read into
 * words without an object each; IPv4 is done entirely in numbers (an address, and the end of an
 * interval, 2^32 at most, are exact in a double), the blocks sorted once as one typed array of
 * keys; the free intervals come from one sweep and feed every block size at once: an interval
 * [first, end) holds ⌊end / 2^h⌋ − ⌈first / 2^h⌉ aligned blocks of 2^h addresses while that is
 * positive, and the last positive h is its largest block. IPv6 uses bigints for the interval ends
 * and the totals only; each free interval is counted in numbers too, relative to a base, scaled
 * down when it spans 2^52 addresses or more. Decimal strings are written at the end.
 */
import type { Issue } from "../errors.ts";
import type { IpFamily } from "../ip/addr.ts";
import { IpAddr } from "../ip/addr.ts";
import { IpPrefix } from "../ip/prefix.ts";
import {
  invalidEntries,
  listLengthProblem,
  mixedFamilies,
  type PrefixWords,
  readPrefixWords,
} from "./entries.ts";

/** Bounds of one run: the pool's and the used list's lengths. */
export interface UsageLimits {
  readonly maxPool: number;
  readonly maxUsed: number;
}

/** The API's bounds: 1–1000 pool blocks, 0–10000 used blocks. */
export const API_USAGE_LIMITS: UsageLimits = { maxPool: 1000, maxUsed: 10_000 };

/** Most entries of `freeBySize`. */
export const MAX_FREE_SIZES = 64;

/** The result of cidr-usage, field for field. */
export interface CidrUsageResult {
  /** Addresses in the union of `pool`, decimal. */
  total: string;
  /** Addresses of the pool inside the union of `used`, decimal. */
  used: string;
  /** `total − used`, decimal. */
  free: string;
  /** Addresses of `used` outside the pool, decimal (ignored otherwise). */
  outsidePool: string;
  /** `used / total` in percent, two decimals, rounded half up. */
  percentUsed: number;
  /** The largest aligned CIDR of free space, the lowest on a tie; null when the pool is full. */
  largestFree: string | null;
  /** For each length from `largestFree`'s to the family's last (at most 64): how many aligned blocks fit. */
  freeBySize: { prefixLength: number; blocks: string }[];
}

/** 2^h for h = 0 … 53, exact. */
const POWERS = Float64Array.from({ length: 54 }, (_, h) => 2 ** h);

/** 2^−h for h = 0 … 53: multiplying by one is dividing by 2^h, exactly (and faster than dividing). */
const INVERSE_POWERS = Float64Array.from({ length: 54 }, (_, h) => 2 ** -h);

/** Counts below this stay numbers: adding one below it to another below it is exact. */
const NUMBER_LIMIT = 2 ** 52;

/**
 * Adds, for every h from 0 while positive, the number of aligned blocks of 2^h inside [first, end)
 * (⌊end / 2^h⌋ − ⌈first / 2^h⌉) to `counts[level + h]`, and returns the last such h: the host bits
 * of the interval's largest aligned block. Needs first < end ≤ 2^53 and end − first < 2^52, so that
 * every quotient and difference is exact; nothing larger than end − first is added.
 */
function addAlignedBlocks(first: number, end: number, counts: Float64Array, level: number): number {
  let h = 0;
  for (; h < 53; h++) {
    const inverse = INVERSE_POWERS[h]!;
    const blocks = Math.floor(end * inverse) - Math.ceil(first * inverse);
    if (blocks <= 0) break;
    counts[level + h] = counts[level + h]! + blocks;
  }
  return h - 1;
}

/** ⌊dividend / divisor⌋ of two non-negative integers below 2^53 whose quotient is at most 2^20, exact. */
function floorDivide(dividend: number, divisor: number): number {
  let quotient = Math.floor(dividend / divisor);
  if (quotient * divisor > dividend) quotient--;
  else if ((quotient + 1) * divisor <= dividend) quotient++;
  return quotient;
}

/** The answer's `freeBySize`: `counts(h)` for h from `largestHostBits` down, at most 64 lengths. */
function freeBySize(
  width: number,
  largestHostBits: number,
  counts: (hostBits: number) => string,
): CidrUsageResult["freeBySize"] {
  const sizes: CidrUsageResult["freeBySize"] = [];
  const last = Math.max(0, largestHostBits - MAX_FREE_SIZES + 1);
  for (let h = largestHostBits; h >= last; h--) sizes.push({ prefixLength: width - h, blocks: counts(h) });
  return sizes;
}

/** Keys of a list's IPv4 blocks, sorted: first address · 64 + prefix length (below 2^38, exact). */
function sortedKeys4(list: PrefixWords): Float64Array {
  const keys = new Float64Array(list.count);
  for (let i = 0; i < list.count; i++) keys[i] = list.words[4 * i + 3]! * 64 + list.lengths[i]!;
  return keys.sort();
}

/** Joins sorted IPv4 block keys into disjoint half-open intervals [starts[i], ends[i]); returns how many. */
function union4(keys: Float64Array, starts: Float64Array, ends: Float64Array): number {
  let n = 0;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const first = Math.floor(key * INVERSE_POWERS[6]!);
    const length = key - first * 64;
    const end = first + POWERS[32 - length]!;
    if (n > 0 && first <= ends[n - 1]!) {
      if (end > ends[n - 1]!) ends[n - 1] = end;
    } else {
      starts[n] = first;
      ends[n] = end;
      n++;
    }
  }
  return n;
}

/** Sum of end − start over `n` intervals. */
function size4(starts: Float64Array, ends: Float64Array, n: number): number {
  let sum = 0;
  for (let i = 0; i < n; i++) sum += ends[i]! - starts[i]!;
  return sum;
}

/** cidr-usage of valid IPv4 lists, in numbers. */
function usage4(pool: PrefixWords, used: PrefixWords): CidrUsageResult {
  const poolStarts = new Float64Array(pool.count);
  const poolEnds = new Float64Array(pool.count);
  const poolCount = union4(sortedKeys4(pool), poolStarts, poolEnds);
  const usedStarts = new Float64Array(used.count);
  const usedEnds = new Float64Array(used.count);
  const usedCount = union4(sortedKeys4(used), usedStarts, usedEnds);
  const counts = new Float64Array(33);
  let free = 0;
  let largestHostBits = -1;
  let largestFirst = 0;
  // One sweep: each pool interval minus the used intervals that meet it, piece by piece.
  let j = 0;
  for (let i = 0; i < poolCount; i++) {
    const poolEnd = poolEnds[i]!;
    let from = poolStarts[i]!;
    while (j < usedCount && usedEnds[j]! <= from) j++;
    for (let k = j; from < poolEnd && k < usedCount && usedStarts[k]! < poolEnd; k++) {
      const to = usedStarts[k]!;
      if (to > from) {
        free += to - from;
        const hostBits = addAlignedBlocks(from, to, counts, 0);
        if (hostBits > largestHostBits) {
          largestHostBits = hostBits;
          largestFirst = Math.ceil(from / POWERS[hostBits]!) * POWERS[hostBits]!;
        }
      }
      if (usedEnds[k]! > from) from = usedEnds[k]!;
    }
    if (from < poolEnd) {
      free += poolEnd - from;
      const hostBits = addAlignedBlocks(from, poolEnd, counts, 0);
      if (hostBits > largestHostBits) {
        largestHostBits = hostBits;
        largestFirst = Math.ceil(from / POWERS[hostBits]!) * POWERS[hostBits]!;
      }
    }
  }
  const total = size4(poolStarts, poolEnds, poolCount);
  const usedInPool = total - free;
  // Hundredths of a percent, rounded half up: ⌊(used · 20000 + total) / (2 · total)⌋ (below 2^47).
  const hundredths = floorDivide(usedInPool * 20000 + total, 2 * total);
  return {
    total: String(total),
    used: String(usedInPool),
    free: String(free),
    outsidePool: String(size4(usedStarts, usedEnds, usedCount) - usedInPool),
    percentUsed: hundredths / 100,
    largestFree:
      largestHostBits < 0
        ? null
        : IpPrefix.ofNetworkWords(4, 0, 0, 0, largestFirst, 32 - largestHostBits).toString(),
    freeBySize: freeBySize(32, largestHostBits, (h) => String(counts[h]!)),
  };
}

/** 2^(128 − n) for n = 0 … 128: the size of an IPv6 /n. */
const BLOCK_SIZES_6 = Array.from({ length: 129 }, (_, n) => 1n << BigInt(128 - n));

const BIG_NUMBER_LIMIT = BigInt(NUMBER_LIMIT);

/** A list's IPv6 blocks as sorted half-open bigint intervals, joined; `starts[i]`, `ends[i]`. */
function union6(list: PrefixWords): { starts: bigint[]; ends: bigint[] } {
  const blocks: { first: bigint; end: bigint }[] = [];
  const w = list.words;
  for (let i = 0; i < list.count; i++) {
    const first =
      (BigInt(w[4 * i]!) << 96n) |
      (BigInt(w[4 * i + 1]!) << 64n) |
      (BigInt(w[4 * i + 2]!) << 32n) |
      BigInt(w[4 * i + 3]!);
    blocks.push({ first, end: first + BLOCK_SIZES_6[list.lengths[i]!]! });
  }
  blocks.sort((x, y) => (x.first < y.first ? -1 : x.first > y.first ? 1 : 0));
  const starts: bigint[] = [];
  const ends: bigint[] = [];
  for (const { first, end } of blocks) {
    const n = ends.length;
    if (n > 0 && first <= ends[n - 1]!) {
      if (end > ends[n - 1]!) ends[n - 1] = end;
    } else {
      starts.push(first);
      ends.push(end);
    }
  }
  return { starts, ends };
}

/** Sum of end − start over the intervals. */
function size6(intervals: { starts: bigint[]; ends: bigint[] }): bigint {
  let sum = 0n;
  for (let i = 0; i < intervals.starts.length; i++) sum += intervals.ends[i]! - intervals.starts[i]!;
  return sum;
}

/** The bit length of a positive bigint. */
function bitLength(value: bigint): number {
  let bits = Math.floor(Math.log2(Number(value))) + 1; // Number() may round up to the next power of two
  while (bits > 1 && value >> BigInt(bits - 1) === 0n) bits--;
  while (value >> BigInt(bits) !== 0n) bits++;
  return bits;
}

/**
 * Per host bits h, the number of free aligned IPv6 blocks of 2^h, exact: a number part kept below
 * 2^52 and a bigint part it spills into. A free interval [first, end) of 2^k to 2^(k+1) − 1
 * addresses is counted in numbers from h = s = max(0, k − 51) up: on [⌈first / 2^s⌉, ⌊end / 2^s⌋)
 * less a base that is a multiple of 2^52 (nested floors and ceilings of powers of two compose, so
 * those are the same counts), which leaves it below 2^52 long and below 2^53. Its counts below s,
 * large, are added in bigints at the end, and only for the lengths the answer shows.
 */
class FreeBlocks6 {
  readonly small = new Float64Array(129);
  readonly big: bigint[] = new Array<bigint>(129).fill(0n);
  /** The intervals counted from s > 0: their counts below s are still to add. */
  readonly wide: { first: bigint; end: bigint; scale: number }[] = [];
  largestHostBits = -1;
  largestFirst = 0n;
  free = 0n;

  add(first: bigint, end: bigint): void {
    const length = end - first;
    this.free += length;
    const scale = length < BIG_NUMBER_LIMIT ? 0 : bitLength(length) - 52;
    const bigScale = BigInt(scale);
    const low = scale === 0 ? first : (first + (1n << bigScale) - 1n) >> bigScale;
    const high = scale === 0 ? end : end >> bigScale;
    const base = (low >> 52n) << 52n;
    const hostBits = scale + addAlignedBlocks(Number(low - base), Number(high - base), this.small, scale);
    for (let h = scale; h <= hostBits; h++) {
      if (this.small[h]! >= NUMBER_LIMIT) {
        this.big[h]! += BigInt(this.small[h]!);
        this.small[h] = 0;
      }
    }
    if (scale > 0) this.wide.push({ first, end, scale });
    if (hostBits > this.largestHostBits) {
      const size = BigInt(hostBits);
      this.largestHostBits = hostBits;
      this.largestFirst = ((first + (1n << size) - 1n) >> size) << size;
    }
  }

  /** The exact count of free blocks of 2^h, h within 63 of the largest. */
  count(hostBits: number): string {
    const h = BigInt(hostBits);
    let sum = this.big[hostBits]! + BigInt(this.small[hostBits]!);
    for (const { first, end, scale } of this.wide) {
      if (hostBits < scale) sum += (end >> h) - ((first + (1n << h) - 1n) >> h);
    }
    return sum.toString();
  }
}

/** cidr-usage of valid IPv6 lists: bigint intervals, blocks counted in numbers where they fit. */
function usage6(pool: PrefixWords, used: PrefixWords): CidrUsageResult {
  const poolUnion = union6(pool);
  const usedUnion = union6(used);
  const { starts: usedStarts, ends: usedEnds } = usedUnion;
  const blocks = new FreeBlocks6();
  let j = 0;
  for (let i = 0; i < poolUnion.starts.length; i++) {
    const poolEnd = poolUnion.ends[i]!;
    let from = poolUnion.starts[i]!;
    while (j < usedEnds.length && usedEnds[j]! <= from) j++;
    for (let k = j; from < poolEnd && k < usedStarts.length && usedStarts[k]! < poolEnd; k++) {
      if (usedStarts[k]! > from) blocks.add(from, usedStarts[k]!);
      if (usedEnds[k]! > from) from = usedEnds[k]!;
    }
    if (from < poolEnd) blocks.add(from, poolEnd);
  }
  const total = size6(poolUnion);
  const usedInPool = total - blocks.free;
  const hundredths = (usedInPool * 20000n + total) / (2n * total);
  const largest = blocks.largestHostBits;
  return {
    total: total.toString(),
    used: usedInPool.toString(),
    free: blocks.free.toString(),
    outsidePool: (size6(usedUnion) - usedInPool).toString(),
    percentUsed: Number(hundredths) / 100,
    largestFree:
      largest < 0 ? null : IpPrefix.from(IpAddr.fromBigInt(6, blocks.largestFirst), 128 - largest).toString(),
    freeBySize: freeBySize(128, largest, (h) => blocks.count(h)),
  };
}

/** Position, pool then used, of the first entry whose family is not `family`, or -1. */
function firstOtherFamily(pool: PrefixWords, used: PrefixWords, family: number): number {
  for (let i = 0; i < pool.count; i++) if (pool.families[i] !== family) return i;
  for (let i = 0; i < used.count; i++) if (used.families[i] !== family) return pool.count + i;
  return -1;
}

/**
 * How full `pool` is, given `used` (CONTRACT §12): `pool` (1 to `limits.maxPool` addresses or
 * CIDRs of one family, merged as a set) and `used` (0 to `limits.maxUsed` of that family; parts
 * outside the pool are counted in `outsidePool` only). Exact decimal counts; `percentUsed` rounded
 * half up to two decimals; `largestFree` the largest aligned free CIDR (the lowest on a tie, null
 * when full); `freeBySize` for each length from `largestFree`'s to 32 or 128 (at most 64 lengths)
 * the exact number of aligned blocks of that length inside the free space, counted per free
 * interval as ⌊(last + 1) / S⌋ − ⌈first / S⌉ with S the block size.
 *
 * Throws `DomainError` `INVALID_INPUT` (lists out of bounds at `["pool"]`/`["used"]`, every invalid
 * entry at `["pool", i]`/`["used", i]`, up to the first 101) or `MIXED_ADDRESS_FAMILIES` (at the
 * first entry, pool then used, whose family differs from `pool[0]`'s).
 */
export function cidrUsage(
  pool: readonly string[],
  used: readonly string[],
  limits: UsageLimits = API_USAGE_LIMITS,
): CidrUsageResult {
  const issues: Issue[] = [];
  for (const [name, list, min, max] of [
    ["pool", pool, 1, limits.maxPool],
    ["used", used, 0, limits.maxUsed],
  ] as const) {
    const problem = listLengthProblem(list, name, min, max);
    if (problem !== null) issues.push(problem);
  }
  if (issues.length > 0) throw invalidEntries(issues);
  const poolWords = readPrefixWords(pool, (i) => ({ path: ["pool", i] }), issues);
  const usedWords = readPrefixWords(used, (i) => ({ path: ["used", i] }), issues);
  if (issues.length > 0) throw invalidEntries(issues);
  const family = poolWords.families[0] as IpFamily;
  const other = firstOtherFamily(poolWords, usedWords, family);
  if (other >= 0) {
    const inPool = other < pool.length;
    const index = inPool ? other : other - pool.length;
    throw mixedFamilies(
      inPool ? pool[index]! : used[index]!,
      family === 4 ? 6 : 4,
      "the first entry of pool",
      pool[0]!,
      family,
      { path: [inPool ? "pool" : "used", index] },
    );
  }
  return family === 4 ? usage4(poolWords, usedWords) : usage6(poolWords, usedWords);
}
