/**
 * The slow, obvious model of the CIDR additions (CONTRACT §7.4) and the generators their
 * properties run on. The model is plain `bigint` arithmetic over every block (contains) or, for
 * allocate, a brute force over every address of a small window: nothing here shares an algorithm
 * with `src/`.
 */
import fc from "fast-check";
import { entryNear, type TextEntry, valueNear } from "./arbitraries.ts";
import {
  blockOf,
  cidrsOf,
  count,
  type Family,
  formatCidr,
  type Interval,
  type ModelEntry,
  union,
  width,
} from "./model.ts";

// ---------------------------------------------------------------------------------------------
// Generators

/** A base value inside `::ffff:0:0/96`, so that entries near it are IPv4-mapped IPv6. */
const mappedBase = fc.bigInt({ min: 0n, max: 0xffff_ffffn }).map((v) => (0xffffn << 32n) | v);

/** Up to `max` entries of `family` clustered around one base (mapped when `mapped`). */
function cluster(family: Family, max: number, mapped = false): fc.Arbitrary<TextEntry[]> {
  const base = mapped ? mappedBase : valueNear(family, 0n);
  return base.chain((b) => fc.array(entryNear(family, b), { minLength: 0, maxLength: max }));
}

/** `items` in an order drawn from `keys`, with the items at `copies` (mod length) repeated. */
function shuffleWithCopies<T>(items: readonly T[], keys: readonly number[], copies: readonly number[]): T[] {
  const all = [...items, ...copies.map((c) => items[c % items.length]!)];
  return all
    .map((item, i) => ({ item, key: keys[i % Math.max(1, keys.length)]! * 4096 + i }))
    .sort((a, b) => a.key - b.key)
    .map(({ item }) => item);
}

/**
 * A list of `min`–`max` (about) entries of both families in any order: IPv4 around one base, IPv6
 * around another, IPv4-mapped IPv6 around a third, with duplicates; host bits set, overlaps and
 * neighbours come from the clustering.
 */
export function mixedEntries(min: number, max: number): fc.Arbitrary<TextEntry[]> {
  const per = Math.max(1, Math.ceil(max / 3));
  return fc
    .tuple(
      cluster(4, per),
      cluster(6, per),
      cluster(6, per, true),
      fc.array(fc.nat({ max: 1000 }), { minLength: 0, maxLength: 3 * per }),
      fc.array(fc.nat(), { maxLength: 3 }),
    )
    .map(([a, b, c, keys, copies]) => {
      const items = [...a, ...b, ...c];
      return items.length === 0 ? items : shuffleWithCopies(items, keys.length > 0 ? keys : [0], copies);
    })
    .filter((list) => list.length >= min);
}

// ---------------------------------------------------------------------------------------------
// Model

function interval(e: ModelEntry): Interval {
  return blockOf(e);
}

function text(e: ModelEntry): string {
  return formatCidr(e.family, blockOf(e).first, e.bits);
}

/** cidr-merge: each family's union as minimal CIDRs, IPv4 first. */
export function modelMerge(entries: readonly ModelEntry[]) {
  const of = (family: Family) => union(entries.filter((e) => e.family === family).map(interval));
  const v4 = of(4);
  const v6 = of(6);
  const cidrs = (family: Family, ivs: Interval[]) =>
    ivs.flatMap((iv) => cidrsOf(family, iv)).map((c) => formatCidr(family, c.network, c.bits));
  return {
    cidrs: [...cidrs(4, v4), ...cidrs(6, v6)],
    ipv4AddressCount: String(count(v4)),
    ipv6AddressCount: String(count(v6)),
  };
}

/** cidr-contains, by comparing each entry with every block of its family. */
export function modelContains(blocks: readonly ModelEntry[], entries: readonly ModelEntry[]) {
  return {
    results: entries.map((e) => {
      const iv = interval(e);
      const same = blocks.filter((b) => b.family === e.family);
      const holders = same.filter((b) => {
        const block = interval(b);
        return block.first <= iv.first && iv.last <= block.last;
      });
      const overlaps = same.some((b) => {
        const block = interval(b);
        return block.first <= iv.last && iv.first <= block.last;
      });
      const best = holders.reduce<ModelEntry | null>((m, b) => (m === null || b.bits > m.bits ? b : m), null);
      return {
        entry: text(e),
        contained: holders.length > 0,
        overlaps,
        matchedCidr: best === null ? null : text(best),
      };
    }),
  };
}

/** A window of 2^`windowBits` addresses starting at `start`, the only place allocate may look. */
export interface Window {
  family: Family;
  start: bigint;
  windowBits: number;
}

/**
 * cidr-allocate by brute force inside `window` (every entry must lie inside it): mark every free
 * address, then try every aligned block of the length from the lowest up, keeping those whose
 * addresses are all free. Returns the first `want` blocks (or all that fit) and the free count.
 */
export function modelAllocate(
  window: Window,
  within: readonly ModelEntry[],
  used: readonly ModelEntry[],
  prefixLength: number,
  want: number,
) {
  const size = 1 << window.windowBits;
  const free = new Uint8Array(size);
  const mark = (entries: readonly ModelEntry[], value: 0 | 1) => {
    for (const e of entries) {
      const iv = interval(e);
      const from = iv.first < window.start ? 0n : iv.first - window.start;
      const to = iv.last - window.start >= BigInt(size) ? BigInt(size - 1) : iv.last - window.start;
      for (let a = Number(from); a <= Number(to); a++) free[a] = value;
    }
  };
  mark(within, 1);
  mark(used, 0);
  const freeBefore = free.reduce((s, v) => s + v, 0);
  const blockSize = 2 ** (width(window.family) - prefixLength);
  const found: string[] = [];
  for (let at = 0; at + blockSize <= size && found.length < want; at += blockSize) {
    let allFree = true;
    for (let a = at; a < at + blockSize && allFree; a++) allFree = free[a] === 1;
    if (allFree) found.push(formatCidr(window.family, window.start + BigInt(at), prefixLength));
  }
  return { cidrs: found, freeAddressCount: String(freeBefore - found.length * blockSize) };
}

/**
 * An allocate case inside a small window: `within` and `used` blocks of at least /(w − windowBits)
 * inside a window of 2^windowBits addresses (aligned, anywhere in the family, IPv4-mapped
 * included), a prefix length from the window's own to the full length, and a count.
 */
export const allocateCase = fc
  .record({
    family: fc.constantFrom<Family>(4, 6),
    windowBits: fc.integer({ min: 2, max: 10 }),
    anchor: fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }),
    mapped: fc.boolean(),
  })
  .chain(({ family, windowBits, anchor, mapped }) => {
    const w = width(family);
    const hostMask = (1n << BigInt(windowBits)) - 1n;
    let top = anchor & ((1n << BigInt(w)) - 1n) & ~hostMask;
    if (family === 6 && mapped) top = (0xffffn << 32n) | (top & 0xffff_ffffn & ~hostMask);
    const window: Window = { family, start: top, windowBits };
    const entry = (bits: fc.Arbitrary<number>) =>
      fc
        .tuple(fc.bigInt({ min: 0n, max: hostMask }), bits)
        .map(([offset, length]): ModelEntry => ({ family, value: top | offset, bits: length }));
    const anyLength = fc.integer({ min: w - windowBits, max: w });
    const long = fc.integer({ min: w - Math.min(3, windowBits), max: w });
    return fc.record({
      window: fc.constant(window),
      within: fc.array(
        entry(
          fc.oneof(
            { weight: 3, arbitrary: fc.integer({ min: w - windowBits, max: w - windowBits + 2 }) },
            { weight: 1, arbitrary: anyLength },
          ),
        ),
        { minLength: 1, maxLength: 6 },
      ),
      // mostly small used blocks; a few reach outside the window, and so outside within
      used: fc.array(
        entry(
          fc.oneof(
            { weight: 6, arbitrary: fc.integer({ min: w - 1, max: w }) },
            { weight: 2, arbitrary: anyLength },
            { weight: 1, arbitrary: fc.integer({ min: w - windowBits - 2, max: w }) },
          ),
        ),
        { minLength: 0, maxLength: 5 },
      ),
      prefixLength: fc.oneof({ weight: 2, arbitrary: long }, { weight: 1, arbitrary: anyLength }),
      count: fc.integer({ min: 1, max: 6 }),
    });
  });

/** The text of an entry as a user might type it: host bits kept. */
export function entryText(e: ModelEntry): string {
  return formatCidr(e.family, e.value, e.bits);
}
