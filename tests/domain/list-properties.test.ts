/**
 * Property tests of the CIDR list operations (CONTRACT §7.4) against the slow model in
 * list-model.ts: merge and contains against bigint intervals over every block, allocate against
 * a brute force over every address of a small window, and the invariants allocate promises
 * (inside `within`, disjoint from `used`, lowest first, and repeated allocation never collides).
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { allocateCidrs } from "../../src/domain/cidr/allocate.ts";
import { cidrsContain } from "../../src/domain/cidr/contains.ts";
import { mergeMixedCidrs } from "../../src/domain/cidr/merge-mixed.ts";
import { splitCidr } from "../../src/domain/cidr/split.ts";
import { parsePrefix } from "../../src/domain/ip/prefix.ts";
import { entryNear, familyAndBase } from "./arbitraries.ts";
import {
  allocateCase,
  entryText,
  mixedEntries,
  modelAllocate,
  modelContains,
  modelMerge,
} from "./list-model.ts";
import { blockOf, type Interval, width } from "./model.ts";
import { rejection } from "./rejection.ts";

const runs = (n: number) => ({ numRuns: n, seed: 20261124 });
/** Each property runs in well under a second on an idle machine; the margin is for a loaded one. */
const SLOW = 30_000;

/** The addresses of a canonical CIDR text, as a bigint interval. */
function intervalOf(cidr: string): Interval {
  const parsed = parsePrefix(cidr);
  if (!parsed.ok) throw new Error(parsed.message);
  return { first: parsed.value.first.toBigInt(), last: parsed.value.last.toBigInt() };
}

describe("cidr-merge", () => {
  test(
    "equals each family's union as minimal CIDRs, IPv4 first",
    () => {
      fc.assert(
        fc.property(mixedEntries(1, 30), (entries) => {
          expect(mergeMixedCidrs(entries.map((e) => e.text))).toEqual(modelMerge(entries));
        }),
        runs(800),
      );
    },
    SLOW,
  );

  test(
    "is idempotent and ignores order",
    () => {
      fc.assert(
        fc.property(mixedEntries(1, 30), (entries) => {
          const once = mergeMixedCidrs(entries.map((e) => e.text));
          expect(mergeMixedCidrs(once.cidrs)).toEqual(once);
          expect(mergeMixedCidrs(entries.map((e) => e.text).reverse())).toEqual(once);
        }),
        runs(300),
      );
    },
    SLOW,
  );
});

describe("cidr-contains", () => {
  test(
    "equals a comparison with every block of the entry's family",
    () => {
      fc.assert(
        fc.property(mixedEntries(1, 40), mixedEntries(1, 40), (blocks, entries) => {
          const ours = cidrsContain(
            blocks.map((e) => e.text),
            entries.map((e) => e.text),
          );
          expect(ours).toEqual(modelContains(blocks, entries));
        }),
        runs(600),
      );
      // With labels on some blocks (CONTRACT §12): each answer carries its match's first label.
      fc.assert(
        fc.property(
          mixedEntries(1, 40),
          mixedEntries(1, 40),
          fc.array(fc.option(fc.constantFrom("a", "b", "c"))),
          (blocks, entries, picks) => {
            const labels = blocks.map((_, i) => picks[i] ?? null);
            const ours = cidrsContain(
              blocks.map((e) => e.text),
              entries.map((e) => e.text),
              undefined,
              labels,
            );
            expect(ours).toEqual(modelContains(blocks, entries, labels));
          },
        ),
        runs(300),
      );
    },
    SLOW,
  );

  test(
    "every block contains itself, and every merged block of a list is at least overlapped",
    () => {
      fc.assert(
        fc.property(mixedEntries(1, 30), (blocks) => {
          const texts = blocks.map((e) => e.text);
          for (const r of cidrsContain(texts, texts).results) {
            expect(r.contained).toBe(true);
            expect(r.overlaps).toBe(true);
            // the most specific holder of a block of the list is that block itself
            expect(r.matchedCidr).toBe(r.entry);
          }
          for (const r of cidrsContain(texts, mergeMixedCidrs(texts).cidrs).results) {
            expect(r.overlaps).toBe(true);
          }
        }),
        runs(300),
      );
    },
    SLOW,
  );
});

describe("cidr-split", () => {
  test(
    "the subnets are consecutive, of the length asked, and together are exactly the block",
    () => {
      fc.assert(
        fc.property(
          familyAndBase.chain(({ family, base }) => entryNear(family, base)),
          fc.integer({ min: 0, max: 9 }),
          (entry, steps) => {
            const prefixLength = Math.min(width(entry.family), entry.bits + steps);
            const result = splitCidr(entry.text, prefixLength);
            const block = blockOf(entry);
            expect(result.subnetCount).toBe(String(result.cidrs.length));
            expect(BigInt(result.cidrs.length)).toBe(1n << BigInt(prefixLength - entry.bits));
            let next = block.first;
            for (const cidr of result.cidrs) {
              expect(cidr.endsWith(`/${prefixLength}`)).toBe(true);
              const iv = intervalOf(cidr);
              expect(iv.first).toBe(next);
              next = iv.last + 1n;
            }
            expect(next).toBe(block.last + 1n);
            expect(mergeMixedCidrs(result.cidrs).cidrs).toEqual([result.network]);
          },
        ),
        runs(800),
      );
    },
    SLOW,
  );

  test(
    "more subnets than the limit are refused with the exact count, whatever the space",
    () => {
      fc.assert(
        fc.property(
          familyAndBase.chain(({ family, base }) => entryNear(family, base)),
          fc.integer({ min: 14, max: 128 }),
          (entry, steps) => {
            const prefixLength = entry.bits + steps;
            if (prefixLength > width(entry.family)) return;
            const error = rejection(() => splitCidr(entry.text, prefixLength));
            expect(error.code).toBe("RESULT_TOO_LARGE");
            expect(error.message).toContain(`gives ${1n << BigInt(steps)} CIDRs`);
          },
        ),
        runs(500),
      );
    },
    SLOW,
  );
});

describe("cidr-allocate", () => {
  test(
    "equals a brute force over every address of a small window, or says how many fit",
    () => {
      fc.assert(
        fc.property(allocateCase, ({ window, within, used, prefixLength, count }) => {
          const expected = modelAllocate(window, within, used, prefixLength, count);
          const run = () =>
            allocateCidrs({ within: within.map(entryText), used: used.map(entryText), prefixLength, count });
          if (expected.cidrs.length < count) {
            const error = rejection(run);
            expect(error.code).toBe("INSUFFICIENT_SPACE");
            const fit = expected.cidrs.length;
            expect(error.message).toContain(fit === 0 ? "No free block" : `Only ${fit} free block`);
            expect(error.message).toContain(`count asks for ${count}`);
          } else {
            expect(run()).toEqual(expected);
          }
        }),
        runs(1500),
      );
    },
    SLOW,
  );

  test(
    "the blocks lie inside within, share nothing with used or each other, and come lowest first",
    () => {
      fc.assert(
        fc.property(allocateCase, ({ within, used, prefixLength, count }) => {
          const withinTexts = within.map(entryText);
          const usedTexts = used.map(entryText);
          let result: ReturnType<typeof allocateCidrs>;
          try {
            result = allocateCidrs({ within: withinTexts, used: usedTexts, prefixLength, count });
          } catch {
            return; // not enough space: the brute-force property covers it
          }
          const inside = cidrsContain(withinTexts, result.cidrs).results;
          expect(inside.every((r) => r.contained || mergedHolds(withinTexts, r.entry))).toBe(true);
          if (usedTexts.length > 0) {
            expect(cidrsContain(usedTexts, result.cidrs).results.some((r) => r.overlaps)).toBe(false);
          }
          const blocks = result.cidrs.map(intervalOf);
          for (let i = 1; i < blocks.length; i++)
            expect(blocks[i]!.first).toBeGreaterThan(blocks[i - 1]!.last);
        }),
        runs(800),
      );
    },
    SLOW,
  );

  test(
    "allocating one at a time, each answer added to used, never collides and gives the same blocks as one request",
    () => {
      fc.assert(
        fc.property(allocateCase, ({ within, used, prefixLength }) => {
          const withinTexts = within.map(entryText);
          const taken = used.map(entryText);
          const mine: string[] = [];
          for (;;) {
            let next: string;
            try {
              next = allocateCidrs({ within: withinTexts, used: taken, prefixLength }).cidrs[0]!;
            } catch (error) {
              expect((error as { code?: string }).code).toBe("INSUFFICIENT_SPACE");
              break;
            }
            expect(mine).not.toContain(next);
            if (taken.length > 0) {
              expect(cidrsContain(taken, [next]).results[0]!.overlaps).toBe(false);
            }
            mine.push(next);
            taken.push(next);
            if (mine.length > 64) break; // enough rounds: the window holds up to 1024 blocks
          }
          if (mine.length > 0) {
            const all = allocateCidrs({
              within: withinTexts,
              used: used.map(entryText),
              prefixLength,
              count: mine.length,
            });
            expect(all.cidrs).toEqual(mine);
          }
        }),
        runs(300),
      );
    },
    SLOW,
  );
});

/** True when the union of `blocks` holds `cidr` (within may hold a block only with two of its entries). */
function mergedHolds(blocks: readonly string[], cidr: string): boolean {
  return cidrsContain(mergeMixedCidrs(blocks).cidrs, [cidr]).results[0]!.contained;
}
