/**
 * cidr-usage (CONTRACT §12): how full a pool is — netbox's "utilisation" and the IPAM question
 * "how many /24s still fit?" — answered exactly from intervals, never by enumerating addresses:
 * a /0 pool with a million used blocks costs what a /24 does.
 */
import type { Issue } from "../errors.ts";
import type { IpFamily } from "../ip/addr.ts";
import { IpAddr } from "../ip/addr.ts";
import { IpPrefix, parsePrefix } from "../ip/prefix.ts";
import { entryBoundsProblem, invalidEntries, listLengthProblem, mixedFamilies } from "./entries.ts";

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

/** An inclusive interval of addresses. */
interface Span {
  first: bigint;
  last: bigint;
}

/** The sorted, joined union of `spans`. */
function union(spans: Span[]): Span[] {
  const sorted = [...spans].sort((x, y) => (x.first < y.first ? -1 : x.first > y.first ? 1 : 0));
  const out: Span[] = [];
  for (const span of sorted) {
    const top = out[out.length - 1];
    if (top !== undefined && span.first <= top.last + 1n) {
      if (span.last > top.last) top.last = span.last;
    } else out.push({ ...span });
  }
  return out;
}

/** `a` minus `b`, both sorted and disjoint. */
function minus(a: readonly Span[], b: readonly Span[]): Span[] {
  const out: Span[] = [];
  let j = 0;
  for (const span of a) {
    let from = span.first;
    while (j < b.length && b[j]!.last < from) j++;
    let k = j;
    while (from <= span.last && k < b.length && b[k]!.first <= span.last) {
      if (b[k]!.first > from) out.push({ first: from, last: b[k]!.first - 1n });
      from = b[k]!.last + 1n;
      k++;
    }
    if (from <= span.last) out.push({ first: from, last: span.last });
  }
  return out;
}

const size = (spans: readonly Span[]): bigint => spans.reduce((sum, s) => sum + s.last - s.first + 1n, 0n);

/** The number of bits of a positive `value` (1 for 1, 8 for 255). */
function bitLength(value: bigint): number {
  return value.toString(2).length;
}

/** The largest aligned block inside `span` (the lowest of the largest), as [first, host bits]. */
function largestIn(span: Span, width: number): { first: bigint; hostBits: number } {
  let best = { first: span.first, hostBits: -1 };
  let at = span.first;
  while (at <= span.last) {
    // The largest block aligned at `at` that ends inside the span: limited by the alignment of
    // `at` (its trailing zero bits) and by the room left (the bit length of last − at + 1, less one).
    const aligned = at === 0n ? width : bitLength(at & -at) - 1;
    const room = bitLength(span.last - at + 1n) - 1;
    const hostBits = Math.min(aligned, room);
    if (hostBits > best.hostBits) best = { first: at, hostBits };
    at += 1n << BigInt(hostBits);
  }
  return best;
}

/** Reads one list into spans; each invalid entry adds an issue. Returns the entries' families. */
function readList(name: string, list: readonly string[], spans: Span[], issues: Issue[]): IpFamily[] {
  const families: IpFamily[] = [];
  list.forEach((entry, i) => {
    const bounds = entryBoundsProblem(entry, "entry");
    const parsed = bounds === null ? parsePrefix(entry) : null;
    if (parsed === null || !parsed.ok) {
      issues.push({ message: bounds ?? (parsed as { message: string }).message, path: [name, i] });
      return;
    }
    families.push(parsed.value.family);
    spans.push({ first: parsed.value.first.toBigInt(), last: parsed.value.last.toBigInt() });
  });
  return families;
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
 * entry at `["pool", i]`/`["used", i]`) or `MIXED_ADDRESS_FAMILIES` (at the first entry, pool then
 * used, whose family differs from `pool[0]`'s).
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
  const poolSpans: Span[] = [];
  const usedSpans: Span[] = [];
  const poolFamilies = readList("pool", pool, poolSpans, issues);
  const usedFamilies = readList("used", used, usedSpans, issues);
  if (issues.length > 0) throw invalidEntries(issues);
  const family = poolFamilies[0]!;
  const all = [...poolFamilies, ...usedFamilies];
  const other = all.findIndex((f) => f !== family);
  if (other >= 0) {
    const inPool = other < pool.length;
    const index = inPool ? other : other - pool.length;
    throw mixedFamilies(
      inPool ? pool[index]! : used[index]!,
      all[other]!,
      "the first entry of pool",
      pool[0]!,
      family,
      { path: [inPool ? "pool" : "used", index] },
    );
  }
  const width = family === 4 ? 32 : 128;
  const poolUnion = union(poolSpans);
  const usedUnion = union(usedSpans);
  const free = minus(poolUnion, usedUnion);
  const total = size(poolUnion);
  const freeCount = size(free);
  const usedInPool = total - freeCount;
  const outsidePool = size(minus(usedUnion, poolUnion));
  // Hundredths of a percent, rounded half up: ⌊(used · 10000 · 2 + total) / (2 · total)⌋.
  const hundredths = (usedInPool * 20000n + total) / (2n * total);
  let largest: { first: bigint; hostBits: number } | null = null;
  for (const span of free) {
    const found = largestIn(span, width);
    if (largest === null || found.hostBits > largest.hostBits) largest = found;
  }
  const freeBySize: CidrUsageResult["freeBySize"] = [];
  if (largest !== null) {
    const from = width - largest.hostBits;
    for (let length = from; length <= width && freeBySize.length < MAX_FREE_SIZES; length++) {
      const blockSize = 1n << BigInt(width - length);
      let blocks = 0n;
      for (const span of free) {
        const firstBlock = (span.first + blockSize - 1n) / blockSize;
        const endBlock = (span.last + 1n) / blockSize;
        if (endBlock > firstBlock) blocks += endBlock - firstBlock;
      }
      freeBySize.push({ prefixLength: length, blocks: blocks.toString() });
    }
  }
  return {
    total: total.toString(),
    used: usedInPool.toString(),
    free: freeCount.toString(),
    outsidePool: outsidePool.toString(),
    percentUsed: Number(hundredths) / 100,
    largestFree:
      largest === null
        ? null
        : IpPrefix.from(IpAddr.fromBigInt(family, largest.first), width - largest.hostBits).toString(),
    freeBySize,
  };
}
