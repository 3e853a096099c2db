/**
 * The CIDR list operations (CONTRACT §7.4, §8.4, §8.5) against Python's `ipaddress` as an independent
 * oracle (tests/domain/list_oracle.py, one python3 process for every case): cidr-merge against
 * `collapse_addresses` per family, cidr-split against `subnets(new_prefix=…)`, cidr-contains
 * against `subnet_of` and `overlaps`, cidr-compare and merge with excludeSpecial against
 * `address_exclude` and `collapse_addresses` (the special-purpose rows sent as data, as the
 * contract writes them). The inputs mix families in any order, with IPv4-mapped IPv6,
 * host bits set, duplicates, overlaps and neighbours (tests/domain/list-model.ts).
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { compareCidrs } from "../../src/domain/cidr/compare.ts";
import { cidrsContain } from "../../src/domain/cidr/contains.ts";
import { mergeMixedCidrs } from "../../src/domain/cidr/merge-mixed.ts";
import { splitCidr } from "../../src/domain/cidr/split.ts";
import { MAX_RESULT_CIDRS } from "../../src/domain/limits.ts";
import { entryNear, familyAndBase } from "./arbitraries.ts";
import { CONTRACT_SPECIAL_ROWS, mixedEntries, specialEntries } from "./list-model.ts";
import { width } from "./model.ts";
import { rejection } from "./rejection.ts";

const SEED = 7404;
const sample = <T>(arb: fc.Arbitrary<T>, n: number, offset: number) =>
  fc.sample(arb, { numRuns: n, seed: SEED + offset });

const merges = sample(mixedEntries(1, 24), 400, 0).map((entries) => entries.map((e) => e.text));

/** A block and a new length: mostly a few steps longer, sometimes far too many subnets. */
const splitCase = familyAndBase
  .chain(({ family, base }) => entryNear(family, base))
  .chain((entry) => {
    const w = width(entry.family);
    return fc
      .oneof(
        { weight: 8, arbitrary: fc.integer({ min: 0, max: 10 }) },
        { weight: 1, arbitrary: fc.integer({ min: 11, max: 128 }) },
      )
      .map((steps) => ({ cidr: entry.text, prefixLength: Math.min(w, entry.bits + steps) }));
  });
const splits = sample(splitCase, 500, 1);

const containsCase = fc.record({ cidrs: mixedEntries(1, 30), entries: mixedEntries(1, 30) });
const contains = sample(containsCase, 400, 2).map(({ cidrs, entries }) => ({
  cidrs: cidrs.map((e) => e.text),
  entries: entries.map((e) => e.text),
}));

const compares = sample(fc.record({ a: mixedEntries(0, 24), b: mixedEntries(0, 24) }), 400, 3).map(
  ({ a, b }) => ({
    a: a.map((e) => e.text),
    b: b.map((e) => e.text),
  }),
);

const excluding = sample(specialEntries(1, 24), 400, 4).map((entries) => entries.map((e) => e.text));

type Answer = Record<string, unknown>;

function askPython(): Answer[] {
  const cases = [
    ...merges.map((inputs) => ({ kind: "merge", inputs })),
    ...splits.map((c) => ({ kind: "split", ...c, limit: MAX_RESULT_CIDRS })),
    ...contains.map((c) => ({ kind: "contains", ...c })),
    ...compares.map((c) => ({ kind: "compare", ...c })),
    ...excluding.map((inputs) => ({ kind: "merge-excluding", inputs, rows: CONTRACT_SPECIAL_ROWS })),
  ];
  const run = Bun.spawnSync(["python3", new URL("./list_oracle.py", import.meta.url).pathname], {
    stdin: new TextEncoder().encode(JSON.stringify({ cases })),
  });
  if (run.exitCode !== 0) throw new Error(`list_oracle.py failed: ${run.stderr.toString()}`);
  const answers = JSON.parse(run.stdout.toString()) as Answer[];
  expect(answers.length).toBe(cases.length);
  return answers;
}

describe("the CIDR list operations agree with Python's ipaddress", () => {
  const answers = askPython();
  const mergeAnswers = answers.slice(0, merges.length);
  const splitAnswers = answers.slice(merges.length, merges.length + splits.length);
  const containsStart = merges.length + splits.length;
  const compareStart = containsStart + contains.length;
  const excludingStart = compareStart + compares.length;
  const containsAnswers = answers.slice(containsStart, compareStart);
  const compareAnswers = answers.slice(compareStart, excludingStart);
  const excludingAnswers = answers.slice(excludingStart);

  test("the sample holds what the properties are about", () => {
    const mixed = merges.filter((m) => m.some((t) => t.includes(":")) && m.some((t) => !t.includes(":")));
    expect(mixed.length).toBeGreaterThan(100);
    expect(merges.filter((m) => m.some((t) => t.toLowerCase().includes("ffff:"))).length).toBeGreaterThan(50);
    expect(merges.filter((m) => new Set(m).size < m.length).length).toBeGreaterThan(50);
    expect(splitAnswers.filter((a) => a.cidrs === undefined).length).toBeGreaterThan(10);
    expect(
      splitAnswers.filter((a) => (a.cidrs as string[] | undefined)?.length === 1).length,
    ).toBeGreaterThan(10);
    const results = containsAnswers.flatMap((a) => a.results as Answer[]);
    expect(results.filter((r) => r.contained).length).toBeGreaterThan(500);
    expect(results.filter((r) => r.overlaps && !r.contained).length).toBeGreaterThan(100);
    expect(results.filter((r) => !r.overlaps).length).toBeGreaterThan(500);
    const sets = compareAnswers.map((a) => a as Record<string, { cidrs: string[] }>);
    expect(sets.filter((a) => a.both!.cidrs.length > 0 && a.onlyA!.cidrs.length > 0).length).toBeGreaterThan(
      100,
    );
    expect(sets.filter((a) => a.both!.cidrs.some((c) => c.includes(":"))).length).toBeGreaterThan(50);
    expect(
      compares.filter(({ a, b }) => [...a, ...b].some((t) => t.toLowerCase().includes("ffff:"))).length,
    ).toBeGreaterThan(50);
    const removed = excludingAnswers.map((a) => (a.excluded as unknown[]).length);
    expect(removed.filter((n) => n > 0).length).toBeGreaterThan(200);
    expect(
      excludingAnswers.filter((a) => (a.cidrs as string[]).length > 0 && (a.excluded as unknown[]).length > 0)
        .length,
    ).toBeGreaterThan(100);
  });

  test(`cidr-merge equals collapse_addresses per family, IPv4 first (${merges.length} requests)`, () => {
    merges.forEach((inputs, i) => {
      expect({ inputs, ...mergeMixedCidrs(inputs) }).toEqual({ inputs, ...mergeAnswers[i] } as never);
    });
  });

  test(`cidr-split equals subnets(new_prefix=…), or is refused with the exact count (${splits.length} requests)`, () => {
    splits.forEach(({ cidr, prefixLength }, i) => {
      const theirs = splitAnswers[i]!;
      if (theirs.cidrs === undefined) {
        const error = rejection(() => splitCidr(cidr, prefixLength));
        expect(error.code).toBe("RESULT_TOO_LARGE");
        expect(error.message).toContain(` gives ${theirs.subnetCount} CIDRs`);
        expect(error.message).toContain(`${theirs.network} into /${prefixLength}`);
      } else {
        expect(splitCidr(cidr, prefixLength)).toEqual(theirs as never);
      }
    });
  });

  test(`cidr-contains agrees with subnet_of and overlaps (${contains.length} requests)`, () => {
    contains.forEach(({ cidrs, entries }, i) => {
      expect(cidrsContain(cidrs, entries)).toEqual(containsAnswers[i] as never);
    });
  });

  test(`cidr-compare agrees with address_exclude and collapse_addresses (${compares.length} requests)`, () => {
    compares.forEach(({ a, b }, i) => {
      expect({ a, b, ...compareCidrs(a, b) }).toEqual({ a, b, ...compareAnswers[i] } as never);
    });
  });

  test(`cidr-merge with excludeSpecial agrees, row by row (${excluding.length} requests)`, () => {
    excluding.forEach((inputs, i) => {
      expect({ inputs, ...mergeMixedCidrs(inputs, undefined, { excludeSpecial: true }) }).toEqual({
        inputs,
        ...excludingAnswers[i],
      } as never);
    });
  });
});
