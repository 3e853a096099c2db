/**
 * The special-purpose table as range lists (src/domain/ip/special.ts, `specialRangeTable`) and
 * cidr-merge's `excludeSpecial` (CONTRACT §8.5): the rows that exclude are exactly the contract's,
 * every address is decided by its most specific row (checked against `classifyAddr`, the table's
 * own linear lookup), and the merge equals a model built from the contract's table as written
 * there (tests/domain/list-model.ts), with the two invariants the contract states.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { mergeMixedCidrs } from "../../src/domain/cidr/merge-mixed.ts";
import { IpAddr } from "../../src/domain/ip/addr.ts";
import { parsePrefix } from "../../src/domain/ip/prefix.ts";
import type { RangeList } from "../../src/domain/ip/range-list.ts";
import {
  classifyAddr,
  SPECIAL_BLOCKS,
  specialRangeTable,
  touchesExcludedSpecial,
} from "../../src/domain/ip/special.ts";
import { LOCAL_CIDR_LIMITS } from "../../src/domain/limits.ts";
import { valueNear } from "./arbitraries.ts";
import {
  CONTRACT_SPECIAL_ROWS,
  mixedEntries,
  modelMerge,
  modelMergeExcluding,
  specialEntries,
} from "./list-model.ts";
import { count, type Family, type Interval, subtract, union } from "./model.ts";
import { rejection } from "./rejection.ts";

const runs = (n: number) => ({ numRuns: n, seed: 8505 });
const SLOW = 30_000;

const valueAt = (list: RangeList, i: number, which: "first" | "last"): bigint => {
  let v = 0n;
  for (let k = 0; k < 4; k++) v = (v << 32n) | BigInt(list[which](i, k));
  return v;
};
const intervalsOf = (list: RangeList): Interval[] =>
  Array.from({ length: list.length }, (_, i) => ({
    first: valueAt(list, i, "first"),
    last: valueAt(list, i, "last"),
  }));
const wordsOf = (v: bigint) =>
  [0, 1, 2, 3].map((k) => Number((v >> BigInt(96 - 32 * k)) & 0xffff_ffffn)) as [
    number,
    number,
    number,
    number,
  ];
const addrOf = (family: Family, v: bigint) =>
  family === 4 ? IpAddr.v4(Number(v)) : IpAddr.fromWords(6, ...wordsOf(v));
const intervalOfCidr = (cidr: string): Interval => {
  const parsed = parsePrefix(cidr);
  if (!parsed.ok) throw new Error(parsed.message);
  return { first: parsed.value.first.toBigInt(), last: parsed.value.last.toBigInt() };
};

describe("the table's rows are the contract's", () => {
  test("the rows that exclude are exactly CONTRACT §8.5's left column, by block, name and RFC", () => {
    const ours = SPECIAL_BLOCKS.filter((b) => b.globallyReachable === false).map(
      (b) => `${b.prefix} ${b.name} ${b.rfc}`,
    );
    const contract = CONTRACT_SPECIAL_ROWS.filter((r) => r.excludes).map(
      (r) => `${r.block} ${r.name} ${r.rfc}`,
    );
    expect(ours.sort()).toEqual(contract.sort());
  });

  test("the rows the contract keeps inside excluded rows are kept (True or N/A)", () => {
    for (const r of CONTRACT_SPECIAL_ROWS.filter((x) => !x.excludes)) {
      const ours = SPECIAL_BLOCKS.find((b) => b.prefix === r.block);
      expect({
        block: r.block,
        name: ours?.name,
        rfc: ours?.rfc,
        excludes: ours?.globallyReachable === false,
      }).toEqual({
        block: r.block,
        name: r.name,
        rfc: r.rfc,
        excludes: false,
      });
    }
  });
});

describe("specialRangeTable", () => {
  for (const family of [4, 6] as const) {
    const table = specialRangeTable(family);
    const decided = intervalsOf(table.decided.ranges);

    test(`IPv${family}: disjoint ranges in order, touching ones of different rows, covering exactly the rows`, () => {
      for (let i = 1; i < decided.length; i++) {
        expect(decided[i]!.first > decided[i - 1]!.last).toBe(true);
        if (decided[i]!.first === decided[i - 1]!.last + 1n)
          expect(table.decided.rows[i]).not.toBe(table.decided.rows[i - 1]);
      }
      const rows = SPECIAL_BLOCKS.filter((b) => b.parsed.family === family).map((b) =>
        intervalOfCidr(b.prefix),
      );
      expect(union(decided)).toEqual(union(rows));
      expect(intervalsOf(table.excludedUnion)).toEqual(union(intervalsOf(table.excluded.ranges)));
      expect(table.excluded.rows.every((row) => row.globallyReachable === false)).toBe(true);
    });

    test(`IPv${family}: each range's row is the type classifyAddr gives its addresses`, () => {
      const edges = decided.flatMap(({ first, last }) => [first, last]);
      fc.assert(
        fc.property(
          fc.constantFrom(...edges).chain((edge) => valueNear(family, edge)),
          (v) => {
            const at = decided.findIndex(({ first, last }) => first <= v && v <= last);
            const type = classifyAddr(addrOf(family, v)).type;
            expect({ v, row: at < 0 ? null : table.decided.rows[at]!.prefix }).toEqual({
              v,
              row: type.prefix,
            });
          },
        ),
        runs(2000),
      );
    });

    test(`IPv${family}: touchesExcludedSpecial is "some address of the range is excluded"`, () => {
      const excluded = intervalsOf(table.excludedUnion);
      const edges = excluded.flatMap(({ first, last }) => [first, last]);
      const near = fc.constantFrom(...edges).chain((edge) => valueNear(family, edge));
      fc.assert(
        fc.property(near, near, (x, y) => {
          const [first, last] = x <= y ? [x, y] : [y, x];
          const expected = excluded.some((iv) => iv.first <= last && first <= iv.last);
          expect(
            touchesExcludedSpecial(family, Uint32Array.from([...wordsOf(first), ...wordsOf(last)])),
          ).toBe(expected);
        }),
        runs(2000),
      );
    });
  }
});

describe("cidr-merge with excludeSpecial", () => {
  test("the contract's example, partial overlaps and rows inside rows", () => {
    expect(mergeMixedCidrs(["10.0.0.0/7"], undefined, { excludeSpecial: true })).toEqual({
      cidrs: ["11.0.0.0/8"],
      ipv4AddressCount: "16777216",
      ipv6AddressCount: "0",
      excluded: [{ cidr: "10.0.0.0/8", block: "10.0.0.0/8", name: "Private-Use", rfc: "RFC 1918" }],
    });
    // 192.0.0.9 and .10 are kept inside the excluded /24; .8 is its own row; .11 the /24's.
    const ietf = mergeMixedCidrs(["192.0.0.8/30"], undefined, { excludeSpecial: true });
    expect(ietf.cidrs).toEqual(["192.0.0.9/32", "192.0.0.10/32"]);
    expect(ietf.excluded).toEqual([
      { cidr: "192.0.0.8/32", block: "192.0.0.8/32", name: "IPv4 dummy address", rfc: "RFC 7600" },
      { cidr: "192.0.0.11/32", block: "192.0.0.0/24", name: "IETF Protocol Assignments", rfc: "RFC 6890" },
    ]);
    // TEREDO (N/A) is kept inside 2001::/23; documentation inside 2000::/3 (True) is removed.
    const v6 = mergeMixedCidrs(["2001::/32", "2001:db8::1", "::ffff:192.0.2.1"], undefined, {
      excludeSpecial: true,
    });
    expect(v6.cidrs).toEqual(["2001::/32"]);
    expect(v6.excluded?.map((e) => `${e.cidr} ${e.block}`)).toEqual([
      "::ffff:192.0.2.1/128 ::ffff:0.0.0.0/96",
      "2001:db8::1/128 2001:db8::/32",
    ]);
    // Nothing special: excluded is [] and the rest is plain merge's answer.
    expect(mergeMixedCidrs(["8.8.8.8", "2a00::/16"], undefined, { excludeSpecial: true })).toEqual({
      ...mergeMixedCidrs(["8.8.8.8", "2a00::/16"]),
      excluded: [],
    });
  });

  test("without excludeSpecial, or with false, the answer has no excluded field", () => {
    const plain = mergeMixedCidrs(["10.0.0.0/7", "::1"]);
    expect(Object.keys(plain)).toEqual(["cidrs", "ipv4AddressCount", "ipv6AddressCount"]);
    expect(mergeMixedCidrs(["10.0.0.0/7", "::1"], undefined, { excludeSpecial: false })).toEqual(plain);
    expect(plain.cidrs).toEqual(["10.0.0.0/7", "::1/128"]);
  });

  test(
    "equals the contract-table model, and cidrs ∪ excluded is the inputs, disjoint",
    () => {
      fc.assert(
        fc.property(specialEntries(1, 24), (entries) => {
          const texts = entries.map((e) => e.text);
          const result = mergeMixedCidrs(texts, undefined, { excludeSpecial: true });
          expect({ texts, ...result }).toEqual({ texts, ...modelMergeExcluding(entries) } as never);
          for (const family of [4, 6] as const) {
            const ofFamily = (cidrs: readonly string[]) =>
              union(cidrs.filter((c) => c.includes(":") === (family === 6)).map(intervalOfCidr));
            const kept = ofFamily(result.cidrs);
            const removed = ofFamily(result.excluded!.map((e) => e.cidr));
            const inputs = union(
              modelMerge(entries)
                .cidrs.filter((c) => c.includes(":") === (family === 6))
                .map(intervalOfCidr),
            );
            expect(union([...kept, ...removed])).toEqual(inputs);
            expect(count(kept) + count(removed)).toBe(count(inputs));
            expect(subtract(kept, removed)).toEqual(kept);
          }
        }),
        runs(600),
      );
    },
    SLOW,
  );

  test(
    "on ordinary mixed lists (IPv4-mapped included) it equals the model too",
    () => {
      fc.assert(
        fc.property(mixedEntries(1, 20), (entries) => {
          const texts = entries.map((e) => e.text);
          const model = modelMergeExcluding(entries);
          expect(mergeMixedCidrs(texts, undefined, { excludeSpecial: true })).toEqual(model as never);
        }),
        runs(300),
      );
    },
    SLOW,
  );

  test("more than the limit in cidrs and excluded together is RESULT_TOO_LARGE with the exact count", () => {
    // ::/0 less the excluded rows leaves hundreds of CIDRs; the limit of 10 is far below.
    const inputs = ["::/0", "0.0.0.0/0"];
    const whole = mergeMixedCidrs(inputs, LOCAL_CIDR_LIMITS, { excludeSpecial: true });
    const total = whole.cidrs.length + whole.excluded!.length;
    expect(total).toBeGreaterThan(200);
    const error = rejection(() =>
      mergeMixedCidrs(inputs, { maxEntries: 10, maxResultCidrs: total - 1 }, { excludeSpecial: true }),
    );
    expect(error.code).toBe("RESULT_TOO_LARGE");
    expect(error.message).toContain(` ${total} CIDRs together`);
    expect(
      mergeMixedCidrs(inputs, { maxEntries: 10, maxResultCidrs: total }, { excludeSpecial: true }),
    ).toEqual(whole);
  });

  test("each row of the contract, merged as itself: its own addresses decided by it, nested rows by theirs", () => {
    for (const r of CONTRACT_SPECIAL_ROWS) {
      const result = mergeMixedCidrs([r.block], undefined, { excludeSpecial: true });
      const block = intervalOfCidr(r.block);
      const pieces = [...result.cidrs, ...result.excluded!.map((e) => e.cidr)].map(intervalOfCidr);
      expect({ row: r.block, covered: union(pieces) }).toEqual({ row: r.block, covered: [block] });
      const inside = (cidr: string) => {
        const iv = intervalOfCidr(cidr);
        return block.first <= iv.first && iv.last <= block.last;
      };
      expect(result.excluded!.every((e) => inside(e.block))).toBe(true);
      expect(result.excluded!.some((e) => e.block === r.block)).toBe(r.excludes);
    }
  });
});
