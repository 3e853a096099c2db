/**
 * Lists of inclusive address ranges of one family held as words, not objects: range `i` is the
 * first address `words[8i … 8i+3]` and the last address `words[8i+4 … 8i+7]` (`w0` to `w3`, an IPv4
 * address in `w3` alone). The list operations of the CIDR use cases — union, difference, counting,
 * intersection, cutting into prefixes — run on these, so a 1000-entry request allocates a handful of typed
 * arrays instead of thousands of address and range objects (why and what it measured:
 * docs/decisions/0026-lists-without-objects.md). Nothing here enumerates addresses: every
 * operation costs the same for a /0 as for a /32.
 */
import type { IpFamily } from "./addr.ts";
import { countRangePrefixesAt, type PrefixSink, splitRangeWords } from "./range.ts";
import { maskWord, WORD_MAX } from "./u128.ts";

/** Words per range: four for the first address, four for the last. */
const STRIDE = 8;

/** A growable list of ranges of one family, as words (see the module comment). */
export class RangeList {
  /** The words of the ranges: 8 per range; only the first `8 × length` are meaningful. */
  words: Uint32Array;
  /** Number of ranges. */
  length = 0;

  constructor(
    /** 4 or 6. */
    readonly family: IpFamily,
    capacity = 16,
  ) {
    this.words = takeWords(Math.max(1, capacity) * STRIDE);
  }

  /**
   * Hands the list's space back for the next lists to use; the list is empty afterwards. Optional
   * (an unreleased list is simply collected), but a use case that releases its lists allocates
   * almost nothing on its next call.
   */
  release(): void {
    const words = this.words;
    this.words = new Uint32Array(STRIDE);
    this.length = 0;
    if (words.length > KEEP_WORDS) freeNow(words);
    else if (spare.length < SPARE_COUNT) spare.push(words);
  }

  /** Appends the range from the address `f0`–`f3` to the address `l0`–`l3` (first ≤ last). */
  push(f0: number, f1: number, f2: number, f3: number, l0: number, l1: number, l2: number, l3: number): void {
    let w = this.words;
    const at = this.length * STRIDE;
    if (at === w.length) {
      const bigger = takeWords(w.length * 2);
      bigger.set(w);
      if (w.length > KEEP_WORDS) freeNow(w);
      this.words = w = bigger;
    }
    w[at] = f0;
    w[at + 1] = f1;
    w[at + 2] = f2;
    w[at + 3] = f3;
    w[at + 4] = l0;
    w[at + 5] = l1;
    w[at + 6] = l2;
    w[at + 7] = l3;
    this.length++;
  }

  /**
   * Appends every address of the block whose network address is `w0`–`w3` with prefix length
   * `bits` (host bits of the words must be clear).
   */
  pushPrefix(w0: number, w1: number, w2: number, w3: number, bits: number): void {
    const len = this.family === 4 ? bits + 96 : bits;
    this.push(
      w0,
      w1,
      w2,
      w3,
      (w0 | ~maskWord(len, 0)) >>> 0,
      (w1 | ~maskWord(len, 1)) >>> 0,
      (w2 | ~maskWord(len, 2)) >>> 0,
      (w3 | ~maskWord(len, 3)) >>> 0,
    );
  }

  /** Word `k` (0–3) of the first address of range `i`. */
  first(i: number, k: number): number {
    return this.words[i * STRIDE + k]!;
  }

  /** Word `k` (0–3) of the last address of range `i`. */
  last(i: number, k: number): number {
    return this.words[i * STRIDE + 4 + k]!;
  }

  /**
   * Gives `sink`, in address order, the minimal prefixes covering exactly each range in turn;
   * stops as soon as `sink` returns `false`. Returns `true` when every prefix was given.
   */
  forEachPrefix(sink: PrefixSink): boolean {
    const w = this.words;
    const bitLength = this.family === 4 ? 32 : 128;
    for (let i = 0; i < this.length; i++) {
      const at = i * STRIDE;
      const done = splitRangeWords(
        bitLength,
        w[at]!,
        w[at + 1]!,
        w[at + 2]!,
        w[at + 3]!,
        w[at + 4]!,
        w[at + 5]!,
        w[at + 6]!,
        w[at + 7]!,
        sink,
      );
      if (!done) return false;
    }
    return true;
  }
}

/**
 * Space of released lists. Typed arrays above a kilobyte are allocated outside the garbage
 * collector's heap, zero-filled, and counted against its budget: four of 32 KiB cost about a tenth
 * of a 1000-entry merge before this pool. A use case runs synchronously, so a released list's
 * space is free; it is handed out again without being cleared (only words written are read).
 */
const spare: Uint32Array[] = [];
const SPARE_COUNT = 8;
const KEEP_WORDS = 1 << 16;

/**
 * Hands a large list's space back to the allocator now rather than at the next collection
 * (detaching its buffer), where the runtime can: a local run over a million entries (CONTRACT
 * §7.3's 384 MB, issue 30) then holds the lists it still uses, not every list it made. Lists of
 * the API's sizes never come here (they go to the spare space above).
 */
function freeNow(words: Uint32Array): void {
  const buffer = words.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer };
  if (
    typeof buffer.transfer === "function" &&
    words.byteOffset === 0 &&
    words.byteLength === buffer.byteLength
  ) {
    buffer.transfer(0);
  }
}

/** Space for at least `size` words: a released buffer that is large enough, or a new one. */
function takeWords(size: number): Uint32Array {
  for (let i = spare.length - 1; i >= 0; i--) {
    const words = spare[i]!;
    if (words.length >= size) {
      spare[i] = spare[spare.length - 1]!;
      spare.pop();
      return words;
    }
  }
  return new Uint32Array(size);
}

/**
 * Number of prefixes {@link RangeList.forEachPrefix} would give for `list`, without making them:
 * a few word operations per range, whatever the sizes (a /0 minus one address costs the same as a
 * /32). What RESULT_TOO_LARGE is decided on, with the exact count, before a list is written.
 */
export function countPrefixesOf(list: RangeList): number {
  let total = 0;
  for (let at = 0; at < list.length * STRIDE; at += STRIDE) total += countRangePrefixesAt(list.words, at);
  return total;
}

/**
 * Whether the range from `range[0…3]` to `range[4…7]` (first ≤ last) shares an address with a
 * range of `list` (sorted, no two ranges sharing an address): one binary search, nothing made.
 */
export function touchesAny(list: RangeList, range: Uint32Array): boolean {
  const w = list.words;
  // The first range of the list that does not end before the query starts…
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (compareAt(w, mid * STRIDE + 4, range, 0) < 0) low = mid + 1;
    else high = mid;
  }
  // …shares an address with it when it starts at or before the query's last address.
  return low < list.length && compareAt(w, low * STRIDE, range, 4) <= 0;
}

/**
 * Receives one piece of an intersection: the positions of the two ranges it lies in, and its first
 * (`piece[0…3]`) and last (`piece[4…7]`) address. `piece` is scratch space, valid during the call.
 * Returns `false` to stop the walk.
 */
export type OverlapSink = (i: number, j: number, piece: Uint32Array) => boolean;

/** Scratch for the piece {@link forEachOverlap} hands out. */
const overlapPiece = new Uint32Array(STRIDE);

/**
 * Gives `sink`, in address order, every non-empty intersection of a range of `a` with a range of
 * `b` (same family, each sorted by first address with no two ranges sharing an address; ranges may
 * touch). At most linear in the two lengths; a run of ranges of `a` before the next range of `b`
 * is passed in one binary search. With two unions ({@link unionOf}) the pieces are their
 * intersection; with `b` a list of labelled segments (special.ts), each piece says which segment
 * decided it.
 */
export function forEachOverlap(a: RangeList, b: RangeList, sink: OverlapSink): boolean {
  const aw = a.words;
  const bw = b.words;
  const piece = overlapPiece;
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    // Ranges of a that end before b's range starts share nothing: skip them in one binary search
    // (a few segments against a long list, as excludeSpecial has, cost a few steps each).
    if (compareAt(aw, i * STRIDE + 4, bw, j * STRIDE) < 0) {
      let low = i + 1;
      let high = a.length;
      while (low < high) {
        const mid = (low + high) >>> 1;
        if (compareAt(aw, mid * STRIDE + 4, bw, j * STRIDE) < 0) low = mid + 1;
        else high = mid;
      }
      i = low;
      continue;
    }
    const ai = i * STRIDE;
    const bj = j * STRIDE;
    // The piece runs from the later first address to the earlier last address, if it is not empty.
    const aStartsLater = compareAt(aw, ai, bw, bj) >= 0;
    const fw = aStartsLater ? aw : bw;
    const fAt = aStartsLater ? ai : bj;
    const aEndsFirst = compareAt(aw, ai + 4, bw, bj + 4) <= 0;
    const lw = aEndsFirst ? aw : bw;
    const lAt = aEndsFirst ? ai + 4 : bj + 4;
    if (compareAt(fw, fAt, lw, lAt) <= 0) {
      for (let k = 0; k < 4; k++) {
        piece[k] = fw[fAt + k]!;
        piece[4 + k] = lw[lAt + k]!;
      }
      if (!sink(i, j, piece)) return false;
    }
    if (aEndsFirst) i++;
    else j++;
  }
  return true;
}

/**
 * The addresses in both `a` and `b`, two unions of one family ({@link unionOf}); the result is a
 * union too (two pieces cannot touch: the addresses between them would be in both lists).
 */
export function intersectLists(a: RangeList, b: RangeList): RangeList {
  const out = new RangeList(a.family, Math.min(a.length, b.length));
  forEachOverlap(a, b, (_, __, p) => {
    out.push(p[0]!, p[1]!, p[2]!, p[3]!, p[4]!, p[5]!, p[6]!, p[7]!);
    return true;
  });
  return out;
}

/** Compares the address at `a[i … i+3]` with the one at `b[j … j+3]`: negative, zero or positive. */
function compareAt(a: Uint32Array, i: number, b: Uint32Array, j: number): number {
  for (let k = 0; k < 4; k++) {
    const x = a[i + k]!;
    const y = b[j + k]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** Whether the address at `b[j … j+3]` is the one right after the address at `a[i … i+3]`. */
function followsAt(a: Uint32Array, i: number, b: Uint32Array, j: number): boolean {
  // a + 1 = b: the words below the lowest word that is not all ones are ones in a and zeros in b,
  // that word is one more in b, and the words above it are equal.
  let k = 3;
  while (k >= 0 && a[i + k] === WORD_MAX) {
    if (b[j + k] !== 0) return false;
    k--;
  }
  if (k < 0) return false; // a is the last address of the space
  if (b[j + k] !== a[i + k]! + 1) return false;
  for (k--; k >= 0; k--) if (a[i + k] !== b[j + k]) return false;
  return true;
}

/**
 * The positions of `list`'s ranges sorted by first address. Each range gets a sort key that is
 * exact in a double: up to 42 bits of its first address, from the first bit where the first
 * addresses differ, then its position; a typed-array sort of those measured 3–4 times faster than
 * a comparator sort. Ranges whose key bits tie are then put in order with a comparator, run by run.
 */
function sortedOrder(list: RangeList): Int32Array {
  const n = list.length;
  const w = list.words;
  const indexBits = Math.max(11, 32 - Math.clz32(n));
  const span = 2 ** indexBits;
  const highBits = 53 - indexBits; // the bits of the address the key holds
  // The key starts where the first addresses start to differ: bits all of them share (the 96 zero
  // bits above an IPv4 address, a common /32 of IPv6 lists) would only make keys tie.
  let d0 = 0;
  let d1 = 0;
  let d2 = 0;
  let d3 = 0;
  for (let at = 0; at < n * STRIDE; at += STRIDE) {
    d0 |= w[at]! ^ w[0]!;
    d1 |= w[at + 1]! ^ w[1]!;
    d2 |= w[at + 2]! ^ w[2]!;
    d3 |= w[at + 3]! ^ w[3]!;
  }
  const shared =
    d0 !== 0
      ? Math.clz32(d0)
      : d1 !== 0
        ? 32 + Math.clz32(d1)
        : d2 !== 0
          ? 64 + Math.clz32(d2)
          : d3 !== 0
            ? 96 + Math.clz32(d3)
            : 128;
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) keys[i] = topBits(w, i * STRIDE, shared, highBits) * span + i;
  keys.sort();
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = keys[i]! % span;
  let runStart = 0;
  for (let i = 1; i <= n; i++) {
    if (i < n && Math.floor(keys[i]! / span) === Math.floor(keys[runStart]! / span)) continue;
    if (i - runStart > 1) {
      const run = Array.from(order.subarray(runStart, i));
      run.sort((x, y) => compareAt(w, x * STRIDE, w, y * STRIDE) || x - y);
      order.set(run, runStart);
    }
    runStart = i;
  }
  return order;
}

/**
 * `count` bits (at most 52) of the address at `w[at … at+3]` from bit `from` of its 128 bits (bit 0
 * the highest; zeros past the last bit), as an exact integer.
 */
function topBits(w: Uint32Array, at: number, from: number, count: number): number {
  let value = 0;
  let taken = 0;
  let bit = from;
  while (taken < count && bit < 128) {
    const word = w[at + (bit >>> 5)]!;
    const offset = bit & 31; // bits of this word already passed
    const take = Math.min(32 - offset, count - taken);
    const part = Math.floor(((word << offset) >>> 0) / 2 ** (32 - take));
    value = value * 2 ** take + part;
    taken += take;
    bit += take;
  }
  return value * 2 ** (count - taken);
}

/**
 * The union of the ranges of `list` as a sorted list of disjoint, non-adjacent ranges: overlapping
 * and touching ranges (`10.0.0.0–10.0.0.255` and `10.0.1.0–…`) become one. `list` is not modified.
 */
export function unionOf(list: RangeList): RangeList {
  const out = new RangeList(list.family, list.length);
  const n = list.length;
  if (n === 0) return out;
  const order = sortedOrder(list);
  const w = list.words;
  let at = order[0]! * STRIDE;
  let f0 = w[at]!;
  let f1 = w[at + 1]!;
  let f2 = w[at + 2]!;
  let f3 = w[at + 3]!;
  let lastAt = at + 4; // where the current union's last address is held, in `w`
  for (let i = 1; i < n; i++) {
    at = order[i]! * STRIDE;
    if (compareAt(w, at, w, lastAt) <= 0 || followsAt(w, lastAt, w, at)) {
      if (compareAt(w, at + 4, w, lastAt) > 0) lastAt = at + 4;
      continue;
    }
    out.push(f0, f1, f2, f3, w[lastAt]!, w[lastAt + 1]!, w[lastAt + 2]!, w[lastAt + 3]!);
    f0 = w[at]!;
    f1 = w[at + 1]!;
    f2 = w[at + 2]!;
    f3 = w[at + 3]!;
    lastAt = at + 4;
  }
  out.push(f0, f1, f2, f3, w[lastAt]!, w[lastAt + 1]!, w[lastAt + 2]!, w[lastAt + 3]!);
  return out;
}

/** Scratch for the address before or after an excluded range. */
const edge = new Uint32Array(4);

/** Writes into `edge` the address at `w[at … at+3]` plus `delta` (+1 or −1); the caller knows it exists. */
function step(w: Uint32Array, at: number, delta: 1 | -1): Uint32Array {
  let carry: number = delta;
  for (let k = 3; k >= 0; k--) {
    const sum = w[at + k]! + carry;
    if (sum > WORD_MAX) {
      edge[k] = 0;
      carry = 1;
    } else if (sum < 0) {
      edge[k] = WORD_MAX;
      carry = -1;
    } else {
      edge[k] = sum;
      carry = 0;
    }
  }
  return edge;
}

/**
 * `include` minus `exclude`, both of one family and each a union (sorted, disjoint, as
 * {@link unionOf} returns); the result is such a list too. Linear in the two lengths.
 */
export function subtractLists(include: RangeList, exclude: RangeList): RangeList {
  const out = new RangeList(include.family, include.length + exclude.length);
  const iw = include.words;
  const xw = exclude.words;
  const cur = new Uint32Array(4); // the first address of include's range not yet decided
  let j = 0;
  for (let i = 0; i < include.length; i++) {
    const incAt = i * STRIDE;
    for (let k = 0; k < 4; k++) cur[k] = iw[incAt + k]!;
    let open = true;
    while (j < exclude.length && compareAt(xw, j * STRIDE + 4, cur, 0) < 0) j++;
    for (let k = j; k < exclude.length; k++) {
      const exAt = k * STRIDE;
      if (compareAt(xw, exAt, iw, incAt + 4) > 0) break;
      if (compareAt(xw, exAt, cur, 0) > 0) {
        const before = step(xw, exAt, -1);
        out.push(cur[0]!, cur[1]!, cur[2]!, cur[3]!, before[0]!, before[1]!, before[2]!, before[3]!);
      }
      if (compareAt(xw, exAt + 4, iw, incAt + 4) >= 0) {
        open = false;
        break;
      }
      cur.set(step(xw, exAt + 4, 1)); // the excluded range ends before include's, so this exists
    }
    if (open)
      out.push(
        cur[0]!,
        cur[1]!,
        cur[2]!,
        cur[3]!,
        iw[incAt + 4]!,
        iw[incAt + 5]!,
        iw[incAt + 6]!,
        iw[incAt + 7]!,
      );
  }
  return out;
}

/**
 * Exact number of addresses in the disjoint ranges of `list` (0 to 2^128).
 *
 * By linearity, Σ(last − first + 1) = Σ over words k of 2^(32·(3−k)) · Σ(last.wk − first.wk), plus
 * the number of ranges. Each per-word sum stays an exact integer in a `number` (below 2^53 for up
 * to 2^20 ranges per batch), so only a handful of `bigint` operations run per call.
 */
export function countAddressesOf(list: RangeList): bigint {
  const BATCH = 1 << 20;
  const w = list.words;
  let total = 0n;
  for (let start = 0; start < list.length; start += BATCH) {
    const end = Math.min(list.length, start + BATCH);
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let i = start; i < end; i++) {
      const at = i * STRIDE;
      s0 += w[at + 4]! - w[at]!;
      s1 += w[at + 5]! - w[at + 1]!;
      s2 += w[at + 6]! - w[at + 2]!;
      s3 += w[at + 7]! - w[at + 3]!;
    }
    total +=
      (BigInt(s0) << 96n) + (BigInt(s1) << 64n) + (BigInt(s2) << 32n) + BigInt(s3) + BigInt(end - start);
  }
  return total;
}
