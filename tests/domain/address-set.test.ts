/**
 * The address set of `nettools match` (src/domain/ip/address-set.ts) against the obvious model (an
 * address is in the set when one of the ranges holds it), and the special-purpose exclusion of
 * `match -x` (src/domain/ip/special-excluded.ts) against `classifyAddr`, which reads the table row
 * by row (CONTRACT §8.5: the most specific row decides; Globally Reachable False excludes).
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { IpAddr, parseAddr } from "../../src/domain/ip/addr.ts";
import { AddressSet } from "../../src/domain/ip/address-set.ts";
import { RangeList } from "../../src/domain/ip/range-list.ts";
import { classifyAddr, SPECIAL_BLOCKS, specialRangeTable } from "../../src/domain/ip/special.ts";
import { specialExcludedSet } from "../../src/domain/ip/special-excluded.ts";
import { bigIntWord } from "../../src/domain/ip/u128.ts";
import { valueNear } from "./arbitraries.ts";
import { type Family, type Interval, maxValue } from "./model.ts";

/** The four words of a 128-bit value, most significant first. */
const wordsOf = (value: bigint): [number, number, number, number] => [
  bigIntWord(value, 0),
  bigIntWord(value, 1),
  bigIntWord(value, 2),
  bigIntWord(value, 3),
];

function setOf(v4: readonly Interval[], v6: readonly Interval[]): AddressSet {
  const lists = { 4: new RangeList(4), 6: new RangeList(6) };
  for (const [family, intervals] of [
    [4, v4],
    [6, v6],
  ] as const) {
    for (const { first, last } of intervals) lists[family].push(...wordsOf(first), ...wordsOf(last));
  }
  return new AddressSet(lists[4], lists[6]);
}

function has(set: AddressSet, family: Family, value: bigint): boolean {
  return family === 4 ? set.hasV4(Number(value)) : set.hasV6(...wordsOf(value));
}

/** Ranges of one family near `base`, and addresses to ask about (near it too, and the edges). */
const scenario = (family: Family) =>
  fc.bigInt({ min: 0n, max: maxValue(family) }).chain((base) => {
    const value = fc.oneof(valueNear(family, base), fc.constantFrom(0n, maxValue(family)));
    const interval = fc
      .tuple(value, value)
      .map(([a, b]) => (a <= b ? { first: a, last: b } : { first: b, last: a }));
    return fc.record({
      intervals: fc.array(interval, { maxLength: 40 }),
      queries: fc.array(value, { minLength: 1, maxLength: 40 }),
    });
  });

describe("AddressSet", () => {
  for (const family of [4, 6] as const) {
    test(`IPv${family}: an address is in the set exactly when a range holds it`, () => {
      fc.assert(
        fc.property(scenario(family), ({ intervals, queries }) => {
          const set = family === 4 ? setOf(intervals, []) : setOf([], intervals);
          expect(family === 4 ? set.hasIpv4 : set.hasIpv6).toBe(intervals.length > 0);
          expect(family === 4 ? set.hasIpv6 : set.hasIpv4).toBe(false);
          for (const q of [
            ...queries,
            ...intervals.flatMap((iv) => [iv.first - 1n, iv.first, iv.last, iv.last + 1n]),
          ]) {
            if (q < 0n || q > maxValue(family)) continue;
            const model = intervals.some((iv) => iv.first <= q && q <= iv.last);
            expect(has(set, family, q)).toBe(model);
          }
        }),
        { seed: 8, numRuns: 300 },
      );
    });
  }

  for (const family of [4, 6] as const) {
    test(`IPv${family}: a range overlaps the set exactly when it shares an address with one of its ranges`, () => {
      fc.assert(
        fc.property(scenario(family), ({ intervals, queries }) => {
          const set = family === 4 ? setOf(intervals, []) : setOf([], intervals);
          for (let i = 0; i + 1 < queries.length; i++) {
            const [a, b] = [queries[i]!, queries[i + 1]!];
            const [first, last] = a <= b ? [a, b] : [b, a];
            const model = intervals.some((iv) => iv.first <= last && first <= iv.last);
            const overlaps =
              family === 4
                ? set.overlapsV4(Number(first), Number(last))
                : set.overlapsV6(...wordsOf(first), ...wordsOf(last));
            expect(overlaps).toBe(model);
          }
        }),
        { seed: 9, numRuns: 300 },
      );
    });
  }

  test("the families never meet: 10.0.0.1 and ::a00:1 are different addresses", () => {
    const set = setOf([{ first: 0x0a000001n, last: 0x0a000001n }], []);
    expect(set.hasV4(0x0a000001)).toBe(true);
    expect(set.hasV6(0, 0, 0, 0x0a000001)).toBe(false);
  });
});

describe("the special-purpose exclusion of match -x", () => {
  const excluded = specialExcludedSet();
  const decidedByTable = (addr: IpAddr): boolean => {
    const type = classifyAddr(addr).type;
    return type.prefix !== null && type.globallyReachable === false;
  };
  const isExcluded = (addr: IpAddr): boolean =>
    addr.family === 4 ? excluded.hasV4(addr.w3) : excluded.hasV6(addr.w0, addr.w1, addr.w2, addr.w3);

  test("every row's first, last and neighbouring addresses, as classifyAddr decides", () => {
    let checked = 0;
    for (const row of SPECIAL_BLOCKS) {
      const { first, last } = row.parsed;
      const max = maxValue(first.family);
      for (const value of [first.toBigInt() - 1n, first.toBigInt(), last.toBigInt(), last.toBigInt() + 1n]) {
        if (value < 0n || value > max) continue;
        const [w0, w1, w2, w3] = wordsOf(value);
        const addr = first.family === 4 ? IpAddr.v4(w3) : IpAddr.v6(w0, w1, w2, w3);
        expect([addr.toString(), isExcluded(addr)]).toEqual([addr.toString(), decidedByTable(addr)]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(150);
  });

  test("random addresses near the rows, as classifyAddr decides", () => {
    const near = fc.constantFrom(...SPECIAL_BLOCKS).chain((row) =>
      valueNear(row.parsed.family, row.parsed.first.toBigInt()).map((value) => {
        const [w0, w1, w2, w3] = wordsOf(value);
        return row.parsed.family === 4 ? IpAddr.v4(w3) : IpAddr.v6(w0, w1, w2, w3);
      }),
    );
    fc.assert(
      fc.property(near, (addr) => {
        expect(isExcluded(addr)).toBe(decidedByTable(addr));
      }),
      { seed: 85, numRuns: 3000 },
    );
  });

  test("the contract's examples (§8.5)", () => {
    const cases: [string, boolean][] = [
      ["10.1.2.3", true],
      ["192.0.0.9", false], // PCP anycast: kept inside 192.0.0.0/24
      ["192.0.0.8", true],
      ["224.0.0.1", false], // multicast: outside the registry's decision
      ["8.8.8.8", false],
      ["255.255.255.255", true],
      ["2001::1", false], // TEREDO, N/A: kept inside 2001::/23
      ["2001:2::1", true],
      ["2001:db8::1", true],
      ["::ffff:8.8.8.8", true],
      ["ff02::1", false],
      ["4000::1", false], // unallocated IPv6 is kept
    ];
    for (const [text, want] of cases) {
      const parsed = parseAddr(text);
      if (!parsed.ok) throw new Error(parsed.message);
      const addr = parsed.value;
      expect([text, isExcluded(addr)]).toEqual([text, want]);
    }
  });

  test("the ranges are sorted, disjoint and not adjacent", () => {
    for (const family of [4, 6] as const) {
      const list = specialRangeTable(family).excludedUnion;
      expect(list.length).toBeGreaterThan(5);
      for (let i = 1; i < list.length; i++) {
        const gap = list.first(i, 3) - list.last(i - 1, 3);
        const sameHigh = [0, 1, 2].every((k) => list.first(i, k) === list.last(i - 1, k));
        if (sameHigh) expect(gap).toBeGreaterThan(1);
      }
    }
  });
});
