/**
 * The word-level range lists (src/domain/ip/range-list.ts) against the BigInt interval model of
 * tests/domain/model.ts: union, difference, intersection, count, the prefixes of the union and
 * their number counted without listing them (`countPrefixesOf`), on random ranges
 * of both families — clustered under one base so that sort keys tie, with edges of the space, and
 * lists past 2048 ranges (the key then holds fewer address bits). Lists are released and reused
 * between cases, as the use cases do.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { type PrefixSink, splitRangeWords } from "../../src/domain/ip/range.ts";
import {
  countAddressesOf,
  countPrefixesOf,
  forEachOverlap,
  intersectLists,
  RangeList,
  subtractLists,
  unionOf,
} from "../../src/domain/ip/range-list.ts";
import { valueNear } from "./arbitraries.ts";
import { cidrsOf, count, type Family, type Interval, maxValue, subtract, union, width } from "./model.ts";

const WORD = 0xffff_ffffn;
const wordsOf = (value: bigint): [number, number, number, number] => [
  Number((value >> 96n) & WORD),
  Number((value >> 64n) & WORD),
  Number((value >> 32n) & WORD),
  Number(value & WORD),
];
const addressAt = (list: RangeList, i: number, which: "first" | "last"): bigint => {
  let v = 0n;
  for (let k = 0; k < 4; k++) v = (v << 32n) | BigInt(list[which](i, k));
  return v;
};

function listOf(family: Family, intervals: readonly Interval[]): RangeList {
  const list = new RangeList(family, 1);
  for (const { first, last } of intervals) list.push(...wordsOf(first), ...wordsOf(last));
  return list;
}

function intervalsOf(list: RangeList): Interval[] {
  return Array.from({ length: list.length }, (_, i) => ({
    first: addressAt(list, i, "first"),
    last: addressAt(list, i, "last"),
  }));
}

function prefixesOf(list: RangeList): { network: bigint; bits: number }[] {
  const out: { network: bigint; bits: number }[] = [];
  const sink: PrefixSink = (w0, w1, w2, w3, bits) => {
    out.push({ network: (BigInt(w0) << 96n) | (BigInt(w1) << 64n) | (BigInt(w2) << 32n) | BigInt(w3), bits });
    return true;
  };
  expect(list.forEachPrefix(sink)).toBe(true);
  return out;
}

/** Random intervals of one family, most near one base (so that sort keys tie). */
const intervalList = (minLength: number, maxLength: number) =>
  fc
    .record({
      family: fc.constantFrom<Family>(4, 6),
      baseWord: fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }),
    })
    .chain(({ family, baseWord }) => {
      const base = baseWord & maxValue(family);
      const interval = fc
        .tuple(valueNear(family, base), fc.oneof(fc.bigInt({ min: 0n, max: 300n }), valueNear(family, base)))
        .map(([a, b]) => {
          const other = b <= 300n ? a + b : b;
          const last = other > maxValue(family) ? maxValue(family) : other;
          return a <= last ? { first: a, last } : { first: last, last: a };
        });
      return fc.record({
        family: fc.constant(family),
        a: fc.array(interval, { minLength, maxLength }),
        b: fc.array(interval, { minLength: 0, maxLength: Math.min(maxLength, 60) }),
      });
    });

describe("RangeList against the BigInt interval model", () => {
  test("union, difference, count and prefixes of random ranges", () => {
    fc.assert(
      fc.property(intervalList(0, 60), ({ family, a, b }) => {
        const listA = listOf(family, a);
        const listB = listOf(family, b);
        const unionA = unionOf(listA);
        const unionB = unionOf(listB);
        const modelA = union(a);
        const modelB = union(b);
        expect(intervalsOf(unionA)).toEqual(modelA);
        expect(countAddressesOf(unionA)).toBe(count(modelA));
        const difference = subtractLists(unionA, unionB);
        const modelDifference = subtract(modelA, modelB);
        expect(intervalsOf(difference)).toEqual(modelDifference);
        expect(countAddressesOf(difference)).toBe(count(modelDifference));
        expect(prefixesOf(difference)).toEqual(modelDifference.flatMap((iv) => cidrsOf(family, iv)));
        const both = intersectLists(unionA, unionB);
        const modelBoth = subtract(modelA, subtract(modelA, modelB));
        expect(intervalsOf(both)).toEqual(modelBoth);
        for (const list of [unionA, difference, both]) {
          expect(countPrefixesOf(list)).toBe(prefixesOf(list).length);
        }
        for (const list of [listA, listB, unionA, unionB, difference, both]) list.release();
      }),
      { numRuns: 400 },
    );
  });

  test("the number of prefixes of one range, counted without listing, equals the split's", () => {
    const edgeRange = fc
      .record({ family: fc.constantFrom<Family>(4, 6), base: fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }) })
      .chain(({ family, base }) =>
        fc
          .tuple(valueNear(family, base & maxValue(family)), valueNear(family, base & maxValue(family)))
          .map(([a, b]) => ({ family, first: a < b ? a : b, last: a < b ? b : a })),
      );
    fc.assert(
      fc.property(edgeRange, ({ family, first, last }) => {
        const list = listOf(family, [{ first, last }]);
        expect({ first, last, count: countPrefixesOf(list) }).toEqual({
          first,
          last,
          count: cidrsOf(family, { first, last }).length,
        });
        list.release();
      }),
      { numRuns: 3000 },
    );
    // The extremes: the whole space is one block; the space less its ends is the most (2 × (w − 1)).
    for (const family of [4, 6] as const) {
      const max = maxValue(family);
      expect(countPrefixesOf(listOf(family, [{ first: 0n, last: max }]))).toBe(1);
      expect(countPrefixesOf(listOf(family, [{ first: 1n, last: max - 1n }]))).toBe(2 * (width(family) - 1));
      expect(countPrefixesOf(listOf(family, [{ first: 7n, last: 7n }]))).toBe(1);
    }
  });

  test("overlaps with touching segments are cut at each segment's edge, with its position; a sink may stop", () => {
    const segments = listOf(4, [
      { first: 0n, last: 9n },
      { first: 10n, last: 19n },
      { first: 30n, last: 39n },
    ]);
    const list = listOf(4, [
      { first: 5n, last: 12n },
      { first: 18n, last: 35n },
    ]);
    const pieces: [number, number, bigint, bigint][] = [];
    const all = forEachOverlap(list, segments, (i, j, piece) => {
      pieces.push([i, j, BigInt(piece[3]!), BigInt(piece[7]!)]);
      return true;
    });
    expect(all).toBe(true);
    expect(pieces).toEqual([
      [0, 0, 5n, 9n],
      [0, 1, 10n, 12n],
      [1, 1, 18n, 19n],
      [1, 2, 30n, 35n],
    ]);
    // a sink that says stop ends the walk there
    const first: number[] = [];
    expect(forEachOverlap(list, segments, (_, j) => first.push(j) < 2)).toBe(false);
    expect(first).toEqual([0, 1]);
  });

  test("lists past 2048 ranges, clustered so that keys tie, sort and merge exactly", () => {
    fc.assert(
      fc.property(intervalList(2049, 3000), ({ family, a }) => {
        const list = listOf(family, a);
        const merged = unionOf(list);
        expect(intervalsOf(merged)).toEqual(union(a));
        list.release();
        merged.release();
      }),
      { numRuns: 5 },
    );
  });

  test("ranges that all share their first address, and the space's two ends", () => {
    for (const family of [4, 6] as const) {
      const max = maxValue(family);
      const same = Array.from({ length: 50 }, (_, i) => ({ first: 5n, last: 5n + BigInt(i * 7) }));
      expect(intervalsOf(unionOf(listOf(family, same)))).toEqual(union(same));
      const ends = [
        { first: max, last: max },
        { first: 0n, last: 0n },
        { first: 1n, last: max - 1n },
      ];
      const whole = unionOf(listOf(family, ends));
      expect(intervalsOf(whole)).toEqual([{ first: 0n, last: max }]);
      expect(countAddressesOf(whole)).toBe(1n << BigInt(width(family)));
      expect(intervalsOf(subtractLists(whole, unionOf(listOf(family, ends.slice(0, 2)))))).toEqual([
        { first: 1n, last: max - 1n },
      ]);
      expect(splitRangeWords(family === 4 ? 32 : 128, 0, 0, 0, 0, ...wordsOf(max), () => true)).toBe(true);
    }
  });
});
