/**
 * `splitRange` walks a range block by block; it replaced a recursive halving (netipx
 * `appendRangePrefixes`). The halving is kept here as the model: on random ranges of both families,
 * edges over-weighted, both must give the same prefixes in the same order, and stopping early must
 * give a head of that list.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { IpAddr } from "../../src/domain/ip/addr.ts";
import { IpRange, splitRange } from "../../src/domain/ip/range.ts";
import { commonPrefixLengthOfWords, maskWord } from "../../src/domain/ip/u128.ts";
import { familyAndBase, valueNear } from "./arbitraries.ts";

type Prefix = [number, number, number, number, number];

/** The former implementation: a whole prefix, or split where first and last differ and recurse. */
function halve(a: readonly number[], b: readonly number[], offset: number, out: Prefix[]): void {
  const [a0, a1, a2, a3] = a as [number, number, number, number];
  const [b0, b1, b2, b3] = b as [number, number, number, number];
  const common = commonPrefixLengthOfWords(a0, a1, a2, a3, b0, b1, b2, b3);
  const m = [0, 1, 2, 3].map((k) => maskWord(common, k));
  const whole = [0, 1, 2, 3].every((k) => (a[k]! & ~m[k]!) === 0 && ~(b[k]! | m[k]!) === 0);
  if (whole) {
    out.push([a0, a1, a2, a3, common - offset]);
    return;
  }
  const n = [0, 1, 2, 3].map((k) => maskWord(common + 1, k));
  halve(
    a,
    a.map((w, k) => (w | ~n[k]!) >>> 0),
    offset,
    out,
  );
  halve(
    b.map((w, k) => (w & n[k]!) >>> 0),
    b,
    offset,
    out,
  );
}

function halvingModel(range: IpRange): Prefix[] {
  const out: Prefix[] = [];
  const { first: a, last: b } = range;
  halve([a.w0, a.w1, a.w2, a.w3], [b.w0, b.w1, b.w2, b.w3], 128 - a.bitLength, out);
  return out;
}

function split(range: IpRange, limit = Number.POSITIVE_INFINITY): { prefixes: Prefix[]; complete: boolean } {
  const prefixes: Prefix[] = [];
  const complete = splitRange(range, (w0, w1, w2, w3, bits) => {
    if (prefixes.length === limit) return false;
    prefixes.push([w0, w1, w2, w3, bits]);
    return true;
  });
  return { prefixes, complete };
}

/** A range of one family: two values near a common base, in order. */
const ranges = familyAndBase.chain(({ family, base }) =>
  fc.tuple(valueNear(family, base), valueNear(family, base)).map(([x, y]) => {
    const [lo, hi] = x <= y ? [x, y] : [y, x];
    return IpRange.of(IpAddr.fromBigInt(family, lo), IpAddr.fromBigInt(family, hi));
  }),
);

describe("splitRange against the halving it replaced", () => {
  test("same prefixes in the same order, for random ranges of both families", () => {
    fc.assert(
      fc.property(ranges, (range) => {
        const { prefixes, complete } = split(range);
        expect(complete).toBe(true);
        expect(prefixes).toEqual(halvingModel(range));
      }),
      { numRuns: 4000, seed: 20261122 },
    );
  });

  test("the edges: whole spaces, single addresses, all but the ends", () => {
    const v4 = (x: number) => IpAddr.v4(x);
    const v6 = (w0: number, w1: number, w2: number, w3: number) => IpAddr.v6(w0, w1, w2, w3);
    const max = 0xffff_ffff;
    const cases = [
      IpRange.of(v4(0), v4(max)),
      IpRange.of(v4(0), v4(0)),
      IpRange.of(v4(max), v4(max)),
      IpRange.of(v4(1), v4(max - 1)),
      IpRange.of(v6(0, 0, 0, 0), v6(max, max, max, max)),
      IpRange.of(v6(max, max, max, max), v6(max, max, max, max)),
      IpRange.of(v6(0, 0, 0, 1), v6(max, max, max, max - 1)),
      IpRange.of(v6(0, 0, 0, max), v6(0, 0, 1, 0)),
      IpRange.of(v6(0, max, max, max), v6(1, 0, 0, 0)),
    ];
    for (const range of cases) expect(split(range).prefixes).toEqual(halvingModel(range));
    expect(split(cases[4]!).prefixes).toEqual([[0, 0, 0, 0, 0]]);
    expect(split(cases[6]!).prefixes).toHaveLength(254);
  });

  test("a sink that stops gets a head of the list, and the split reports it stopped", () => {
    fc.assert(
      fc.property(ranges, fc.nat({ max: 300 }), (range, limit) => {
        const all = halvingModel(range);
        const { prefixes, complete } = split(range, limit);
        expect(prefixes).toEqual(all.slice(0, limit));
        expect(complete).toBe(limit >= all.length);
      }),
      { numRuns: 1000, seed: 20261123 },
    );
  });
});

describe("IpRange.addressCountText", () => {
  test("the decimal text of the exact count, bigint arithmetic as the model, both families", () => {
    fc.assert(
      fc.property(ranges, (range) => {
        const model = range.last.toBigInt() - range.first.toBigInt() + 1n;
        expect(range.addressCountText()).toBe(model.toString());
      }),
      { numRuns: 4000, seed: 20261129 },
    );
    const max = 0xffff_ffff;
    expect(IpRange.of(IpAddr.v4(0), IpAddr.v4(max)).addressCountText()).toBe("4294967296");
    expect(IpRange.of(IpAddr.v4(max), IpAddr.v4(max)).addressCountText()).toBe("1");
    expect(IpRange.of(IpAddr.v6(0, 0, 0, 0), IpAddr.v6(max, max, max, max)).addressCountText()).toBe(
      (1n << 128n).toString(),
    );
  });
});
