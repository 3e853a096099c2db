/** CONTRACT §12 "-x reasons": per entry, dropped or cut, and the most general excluded block met. */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { parsePrefix } from "../../src/domain/ip/prefix.ts";
import { SPECIAL_BLOCKS } from "../../src/domain/ip/special.ts";
import { specialReasonOf } from "../../src/domain/ip/special-reasons.ts";
import { entryNear, familyAndBase } from "./arbitraries.ts";

function reason(text: string): { outcome: string; block: string; others: number } | null {
  const parsed = parsePrefix(text);
  if (!parsed.ok) throw new Error(parsed.message);
  const found = specialReasonOf(parsed.value);
  return found === null ? null : { outcome: found.outcome, block: found.block.prefix, others: found.others };
}

describe("specialReasonOf", () => {
  test.each([
    ["8.8.8.0/24", null],
    ["0.0.0.0/8", { outcome: "dropped", block: "0.0.0.0/8", others: 0 }],
    ["0.0.0.0/32", { outcome: "dropped", block: "0.0.0.0/32", others: 0 }],
    ["10.0.0.0/7", { outcome: "cut", block: "10.0.0.0/8", others: 0 }],
    ["192.0.0.0/24", { outcome: "cut", block: "192.0.0.0/24", others: 0 }],
    ["192.0.0.9", null],
    ["0.0.0.0/0", { outcome: "cut", block: "240.0.0.0/4", others: 17 }],
    ["2001:db8::1", { outcome: "dropped", block: "2001:db8::/32", others: 0 }],
    ["2001::/32", null],
  ])("%s", (text, expected) => {
    expect(reason(text)).toEqual(expected);
  });

  // The slow model: every excluded row's addresses minus the rows inside it that keep theirs,
  // decided address by address for blocks small enough to walk (at most 2^12 addresses).
  test("dropped exactly when every address is removed, by a walk over the block's addresses", () => {
    const rows = SPECIAL_BLOCKS.map((row) => ({
      row,
      first: row.parsed.first.toBigInt(),
      last: row.parsed.last.toBigInt(),
    }));
    const removed = (family: 4 | 6, address: bigint) => {
      let best: (typeof rows)[number] | null = null;
      for (const r of rows) {
        if (r.row.parsed.family !== family || address < r.first || address > r.last) continue;
        if (best === null || r.row.parsed.bits > best.row.parsed.bits) best = r;
      }
      return best !== null && best.row.globallyReachable === false;
    };
    const nearSpecial = fc
      .constantFrom(...SPECIAL_BLOCKS.filter((row) => row.globallyReachable === false))
      .chain((row) => entryNear(row.parsed.family, row.parsed.first.toBigInt()));
    fc.assert(
      fc.property(
        fc.oneof(
          nearSpecial,
          familyAndBase.chain(({ family, base }) => entryNear(family, base)),
        ),
        (entry) => {
          const parsed = parsePrefix(entry.text);
          if (!parsed.ok) return;
          const block = parsed.value;
          if (block.addressCount() > 4096n) return;
          let count = 0n;
          for (let a = block.first.toBigInt(); a <= block.last.toBigInt(); a++)
            if (removed(block.family, a)) count++;
          const found = specialReasonOf(block);
          if (count === 0n) expect(found).toBeNull();
          else expect(found?.outcome).toBe(count === block.addressCount() ? "dropped" : "cut");
        },
      ),
      { numRuns: 400 },
    );
  });
});
