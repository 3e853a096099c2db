/**
 * A lookup structure over a set of CIDR blocks that answers, for any address or CIDR, the most
 * specific block containing it wholly and whether any block shares an address with it — in one
 * binary search and a short walk, not a scan of every block (cidr-contains, `nettools match`).
 *
 * Two CIDR blocks are either nested or disjoint. So, sorted by network address (wider first on a
 * tie) and with duplicates dropped, the blocks containing any one address form a single chain of
 * enclosing blocks, at most 33 (IPv4) or 129 (IPv6) long; each block records its nearest enclosing
 * one (its parent), found by one stack sweep when the index is built.
 */
import type { IpFamily } from "../ip/addr.ts";
import type { IpPrefix } from "../ip/prefix.ts";
import { formatWords } from "../ip/text.ts";
import { maskWord } from "../ip/u128.ts";
import type { PrefixWords } from "./entries.ts";

/** What {@link BlockIndex.locate} found. */
export const NO_OVERLAP = -2;
/** Some block shares addresses with the entry, none contains it wholly. */
export const OVERLAP_ONLY = -1;

/** The blocks of one family, sorted, duplicates dropped, in parallel arrays of words. */
class FamilyBlocks {
  readonly size: number;
  private readonly f0: Uint32Array;
  private readonly f1: Uint32Array;
  private readonly f2: Uint32Array;
  private readonly f3: Uint32Array;
  private readonly l0: Uint32Array;
  private readonly l1: Uint32Array;
  private readonly l2: Uint32Array;
  private readonly l3: Uint32Array;
  /** Prefix length of each block. */
  private readonly bits: Uint8Array;
  /** Position of the nearest enclosing block, or -1. */
  private readonly parent: Int32Array;
  private readonly texts: (string | undefined)[];

  /** The blocks of `source` at positions `members` (all of `family`). */
  constructor(
    private readonly family: IpFamily,
    source: PrefixWords,
    members: readonly number[],
  ) {
    const w = source.words;
    const lengths = source.lengths;
    const order: number[] = [];
    for (const m of sortBlocks(family, source, members)) {
      const top = order[order.length - 1];
      if (top === undefined || lengths[top] !== lengths[m] || compareAt(w, top, m) !== 0) order.push(m);
    }
    const n = order.length;
    this.size = n;
    this.texts = new Array<string | undefined>(n);
    this.f0 = new Uint32Array(n);
    this.f1 = new Uint32Array(n);
    this.f2 = new Uint32Array(n);
    this.f3 = new Uint32Array(n);
    this.l0 = new Uint32Array(n);
    this.l1 = new Uint32Array(n);
    this.l2 = new Uint32Array(n);
    this.l3 = new Uint32Array(n);
    this.bits = new Uint8Array(n);
    this.parent = new Int32Array(n);
    const offset = family === 4 ? 96 : 0;
    const stack: number[] = [];
    for (let i = 0; i < n; i++) {
      const at = order[i]! * 4;
      const a0 = w[at]!;
      const a1 = w[at + 1]!;
      const a2 = w[at + 2]!;
      const a3 = w[at + 3]!;
      const bits = lengths[order[i]!]!;
      const len = bits + offset;
      this.f0[i] = a0;
      this.f1[i] = a1;
      this.f2[i] = a2;
      this.f3[i] = a3;
      this.l0[i] = a0 | ~maskWord(len, 0);
      this.l1[i] = a1 | ~maskWord(len, 1);
      this.l2[i] = a2 | ~maskWord(len, 2);
      this.l3[i] = a3 | ~maskWord(len, 3);
      this.bits[i] = bits;
      // Blocks that end before this one starts enclose nothing from here on.
      while (stack.length > 0 && this.lastBefore(stack[stack.length - 1]!, a0, a1, a2, a3)) {
        stack.pop();
      }
      this.parent[i] = stack.length > 0 ? stack[stack.length - 1]! : -1;
      stack.push(i);
    }
  }

  /** The canonical text of block `i`, made once. */
  text(i: number): string {
    let t = this.texts[i];
    if (t === undefined) {
      t = formatWords(this.family, this.f0[i]!, this.f1[i]!, this.f2[i]!, this.f3[i]!, this.bits[i]!);
      this.texts[i] = t;
    }
    return t;
  }

  /** True when block `i`'s last address is below the value with these words. */
  private lastBefore(i: number, w0: number, w1: number, w2: number, w3: number): boolean {
    if (this.l0[i] !== w0) return this.l0[i]! < w0;
    if (this.l1[i] !== w1) return this.l1[i]! < w1;
    if (this.l2[i] !== w2) return this.l2[i]! < w2;
    return this.l3[i]! < w3;
  }

  /** True when block `i`'s first address is above the value with these words. */
  private firstAfter(i: number, w0: number, w1: number, w2: number, w3: number): boolean {
    if (this.f0[i] !== w0) return this.f0[i]! > w0;
    if (this.f1[i] !== w1) return this.f1[i]! > w1;
    if (this.f2[i] !== w2) return this.f2[i]! > w2;
    return this.f3[i]! > w3;
  }

  /**
   * For IPv4 blocks: where the blocks whose network address has each value of the top 16 bits
   * begin (entry 65536 is the size), so that a search starts among those few. Made on the first
   * {@link locateV4} (256 KiB, about 0.1 ms): worth it for the million lookups of `nettools match`,
   * not for one API request.
   */
  private buckets: Int32Array | null = null;

  /** {@link locate} for IPv4 blocks: see {@link locateV4In}. */
  locateV4(first: number, last: number): number {
    const buckets = this.buckets ?? this.makeBuckets();
    const top = first >>> 16;
    return locateV4In(this.f3, this.l3, this.parent, buckets[top]!, buckets[top + 1]!, first, last);
  }

  /** {@link locateV4} without the buckets: for a few lookups (one API request). */
  locateV4Once(first: number, last: number): number {
    return locateV4In(this.f3, this.l3, this.parent, 0, this.size, first, last);
  }

  private makeBuckets(): Int32Array {
    const buckets = new Int32Array(0x10001);
    let i = 0;
    for (let top = 0; top <= 0x10000; top++) {
      while (i < this.size && this.f3[i]! >>> 16 < top) i++;
      buckets[top] = i;
    }
    this.buckets = buckets;
    return buckets;
  }

  /** See {@link BlockIndex.locate}; the entry is given by its first and last address words. */
  locate(
    a0: number,
    a1: number,
    a2: number,
    a3: number,
    b0: number,
    b1: number,
    b2: number,
    b3: number,
  ): number {
    // i: the last block starting at or before the entry's first address. Every block containing
    // that address is i or one of i's enclosing blocks.
    let low = 0;
    let high = this.size;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.firstAfter(mid, a0, a1, a2, a3)) high = mid;
      else low = mid + 1;
    }
    let i = low - 1;
    // The next block starts after the entry's first address: it overlaps if it starts inside.
    const startsInside = low < this.size && !this.firstAfter(low, b0, b1, b2, b3);
    while (i >= 0 && this.lastBefore(i, a0, a1, a2, a3)) i = this.parent[i]!;
    if (i < 0) return startsInside ? OVERLAP_ONLY : NO_OVERLAP;
    // Block i holds the entry's first address; the first enclosing block that also reaches its
    // last address holds the whole entry (both are aligned blocks), and is the most specific.
    while (i >= 0 && this.lastBefore(i, b0, b1, b2, b3)) i = this.parent[i]!;
    return i < 0 ? OVERLAP_ONLY : i;
  }
}

/** Compares the network addresses of entries `x` and `y` of `w` (four words each). */
function compareAt(w: Uint32Array, x: number, y: number): number {
  for (let k = 0; k < 4; k++) {
    const a = w[x * 4 + k]!;
    const b = w[y * 4 + k]!;
    if (a !== b) return a < b ? -1 : 1;
  }
  return 0;
}

/** Positions a sort key reserves for the block's index: lists up to 2048 blocks take the fast path. */
const INDEX_SPAN = 2048;

/**
 * The positions `members` of `source` (one family) in the index's order: network address first,
 * then wider block first on a tie. A comparator sort cost about a quarter of a cidr-contains call,
 * so each block gets the exact double key (network address × 33 + prefix length) × 2048 + its
 * position, below 2^53 for IPv4. IPv6 keys hold the top 42 bits of the network address only:
 * blocks whose keys tie are then put in order with the comparator, run by run.
 */
function sortBlocks(family: IpFamily, source: PrefixWords, members: readonly number[]): number[] {
  const w = source.words;
  const lengths = source.lengths;
  const byFirstThenWider = (x: number, y: number): number => compareAt(w, x, y) || lengths[x]! - lengths[y]!;
  const n = members.length;
  if (n > INDEX_SPAN) return members.slice().sort(byFirstThenWider);
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const at = members[i]! * 4;
    const high = family === 4 ? w[at + 3]! * 33 + lengths[members[i]!]! : w[at]! * 1024 + (w[at + 1]! >>> 22);
    keys[i] = high * INDEX_SPAN + i;
  }
  keys.sort();
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = members[keys[i]! % INDEX_SPAN]!;
  if (family === 6) {
    let runStart = 0;
    for (let i = 1; i <= n; i++) {
      if (i < n && Math.floor(keys[i]! / INDEX_SPAN) === Math.floor(keys[runStart]! / INDEX_SPAN)) continue;
      if (i - runStart > 1) {
        const run = out.slice(runStart, i).sort(byFirstThenWider);
        for (let k = 0; k < run.length; k++) out[runStart + k] = run[k]!;
      }
      runStart = i;
    }
  }
  return out;
}

/**
 * {@link FamilyBlocks.locate} for IPv4 blocks, on the low words alone and with the comparisons
 * inline: the same search, several times cheaper per call before the JIT has warmed up, started
 * within `[from, to)`.
 */
function locateV4In(
  f3: Uint32Array,
  l3: Uint32Array,
  parent: Int32Array,
  from: number,
  to: number,
  first: number,
  last: number,
): number {
  // The blocks starting at or before `first` are all those before `from` and some of those before
  // `to` (the whole index, or the bucket of `first`'s top 16 bits).
  let low = from;
  let high = to;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (f3[mid]! > first) high = mid;
    else low = mid + 1;
  }
  let i = low - 1;
  const startsInside = low < f3.length && f3[low]! <= last;
  while (i >= 0 && l3[i]! < first) i = parent[i]!;
  if (i < 0) return startsInside ? OVERLAP_ONLY : NO_OVERLAP;
  while (i >= 0 && l3[i]! < last) i = parent[i]!;
  return i < 0 ? OVERLAP_ONLY : i;
}

/** An index over CIDR blocks of both families; each family is looked up among its own blocks only. */
export class BlockIndex {
  private readonly v4: FamilyBlocks;
  private readonly v6: FamilyBlocks;

  /** Indexes the blocks of `blocks` (any order, duplicates allowed, both families). */
  constructor(blocks: PrefixWords) {
    const v4: number[] = [];
    const v6: number[] = [];
    for (let i = 0; i < blocks.count; i++) (blocks.families[i] === 4 ? v4 : v6).push(i);
    this.v4 = new FamilyBlocks(4, blocks, v4);
    this.v6 = new FamilyBlocks(6, blocks, v6);
  }

  /** Indexes `prefixes` (any order, duplicates allowed, both families). */
  static of(prefixes: readonly IpPrefix[]): BlockIndex {
    const n = prefixes.length;
    const source: PrefixWords = {
      count: n,
      words: new Uint32Array(4 * n),
      families: new Uint8Array(n),
      lengths: new Uint8Array(n),
    };
    prefixes.forEach(({ first: a, bits }, i) => {
      source.words.set([a.w0, a.w1, a.w2, a.w3], 4 * i);
      source.families[i] = a.family;
      source.lengths[i] = bits;
    });
    return new BlockIndex(source);
  }

  /** Number of distinct blocks of `family`. */
  size(family: IpFamily): number {
    return (family === 4 ? this.v4 : this.v6).size;
  }

  /**
   * Where entry `i` of `entries` lies among the blocks of its family: the position of the most
   * specific block containing it wholly (≥ 0; {@link blockText} gives its text), else
   * {@link OVERLAP_ONLY} when some block shares an address with it, else {@link NO_OVERLAP}.
   * IPv4-mapped IPv6 entries are IPv6 and only meet IPv6 blocks.
   */
  locate(entries: PrefixWords, i: number): number {
    const w = entries.words;
    const at = 4 * i;
    const bits = entries.lengths[i]!;
    if (entries.families[i] === 4) {
      const first = w[at + 3]!;
      const mask = bits === 0 ? 0 : (0xffff_ffff << (32 - bits)) >>> 0;
      return this.v4.locateV4Once(first, (first | ~mask) >>> 0);
    }
    return this.locateV6Block(w[at]!, w[at + 1]!, w[at + 2]!, w[at + 3]!, bits);
  }

  /**
   * {@link locate} for the IPv6 block of length `bits` holding the address with words `w0`–`w3`
   * (host bits may be set: they are cleared), with no objects made.
   */
  locateV6Block(w0: number, w1: number, w2: number, w3: number, bits: number): number {
    const a0 = (w0 & maskWord(bits, 0)) >>> 0;
    const a1 = (w1 & maskWord(bits, 1)) >>> 0;
    const a2 = (w2 & maskWord(bits, 2)) >>> 0;
    const a3 = (w3 & maskWord(bits, 3)) >>> 0;
    return this.v6.locate(
      a0,
      a1,
      a2,
      a3,
      (a0 | ~maskWord(bits, 0)) >>> 0,
      (a1 | ~maskWord(bits, 1)) >>> 0,
      (a2 | ~maskWord(bits, 2)) >>> 0,
      (a3 | ~maskWord(bits, 3)) >>> 0,
    );
  }

  /**
   * {@link locate} for an IPv4 range given as two 32-bit values (`first` ≤ `last`), with no
   * objects made: the hot path of `nettools match` on bare addresses (`first` = `last`).
   */
  locateV4(first: number, last: number): number {
    return this.v4.locateV4(first, last);
  }

  /** The canonical text of the block at `position` of `family`, as {@link locate} returned it. */
  blockText(family: IpFamily, position: number): string {
    return (family === 4 ? this.v4 : this.v6).text(position);
  }
}
