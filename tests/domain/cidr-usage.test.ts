/**
 * cidr-usage (CONTRACT §12) against a slow, obvious model: pools and used blocks inside a window
 * of 2^12 addresses, every address of the window marked free or not one by one, and every aligned
 * block of every length checked address by address.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { cidrUsage } from "../../src/domain/cidr/usage.ts";
import { DomainError } from "../../src/domain/errors.ts";
import { type Family, formatAddr } from "./model.ts";

const WINDOW_BITS = 12;

/** A block inside the window at `base`: an offset and a prefix length of at least width − 12. */
const blockIn = (family: Family, base: bigint) =>
  fc
    .tuple(fc.nat((1 << WINDOW_BITS) - 1), fc.integer({ min: 0, max: WINDOW_BITS }))
    .map(([offset, hostBits]) => {
      const width = family === 4 ? 32 : 128;
      const first = ((base + BigInt(offset)) >> BigInt(hostBits)) << BigInt(hostBits);
      return {
        first,
        last: first + (1n << BigInt(hostBits)) - 1n,
        text: `${formatAddr(family, first)}/${width - hostBits}`,
      };
    });

const usageCase = fc
  .record({ family: fc.constantFrom<Family>(4, 6), windowIndex: fc.nat(1000) })
  .chain(({ family, windowIndex }) => {
    const base =
      family === 4 ? BigInt(windowIndex) << 20n : (0x20010db8n << 96n) + (BigInt(windowIndex) << 20n);
    return fc.record({
      family: fc.constant(family),
      base: fc.constant(base),
      pool: fc.array(blockIn(family, base), { minLength: 1, maxLength: 6 }),
      used: fc.array(blockIn(family, base), { maxLength: 12 }),
    });
  });

/** The model: marks every address of the window, then counts. */
function model(c: {
  family: Family;
  base: bigint;
  pool: { first: bigint; last: bigint }[];
  used: { first: bigint; last: bigint }[];
}) {
  const width = c.family === 4 ? 32 : 128;
  const span = 1 << (WINDOW_BITS + 1); // blocks may reach just past the window
  const inPool = new Uint8Array(span);
  const inUsed = new Uint8Array(span);
  for (const [list, marks] of [
    [c.pool, inPool],
    [c.used, inUsed],
  ] as const) {
    for (const block of list) for (let a = block.first; a <= block.last; a++) marks[Number(a - c.base)] = 1;
  }
  let total = 0n;
  let used = 0n;
  let outside = 0n;
  for (let i = 0; i < span; i++) {
    if (inPool[i]) total++;
    if (inPool[i] && inUsed[i]) used++;
    if (!inPool[i] && inUsed[i]) outside++;
  }
  const isFree = (i: number) => inPool[i] === 1 && inUsed[i] === 0;
  const blocksOf = (hostBits: number) => {
    const out: number[] = [];
    const size = 1 << hostBits;
    const start = Number(c.base % BigInt(size)); // 0: the window base is aligned to 2^20
    for (let i = start; i + size <= span; i += size) {
      let all = true;
      for (let k = i; k < i + size && all; k++) all = isFree(k);
      if (all) out.push(i);
    }
    return out;
  };
  let largest: string | null = null;
  let largestHostBits = -1;
  for (let hostBits = WINDOW_BITS + 1; hostBits >= 0 && largest === null; hostBits--) {
    const found = blocksOf(hostBits);
    if (found.length > 0) {
      largest = `${formatAddr(c.family, c.base + BigInt(found[0]!))}/${width - hostBits}`;
      largestHostBits = hostBits;
    }
  }
  const freeBySize =
    largest === null
      ? []
      : Array.from({ length: Math.min(64, largestHostBits + 1) }, (_, k) => ({
          prefixLength: width - largestHostBits + k,
          blocks: String(blocksOf(largestHostBits - k).length),
        }));
  const hundredths = Math.floor((Number(used) * 10000) / Number(total) + 0.5 + 1e-9);
  return {
    total: String(total),
    used: String(used),
    free: String(total - used),
    outsidePool: String(outside),
    percentUsed: hundredths / 100,
    largestFree: largest,
    freeBySize,
  };
}

describe("cidrUsage", () => {
  test("equals the address-by-address model on random pools", () => {
    fc.assert(
      fc.property(usageCase, (c) => {
        expect(
          cidrUsage(
            c.pool.map((b) => b.text),
            c.used.map((b) => b.text),
          ),
        ).toEqual(model(c));
      }),
      { numRuns: 300 },
    );
  });

  test("a worked example: a /22 with a /24 and a /26 used", () => {
    expect(cidrUsage(["10.0.0.0/22"], ["10.0.0.0/24", "10.0.1.64/26", "192.0.2.0/24"])).toEqual({
      total: "1024",
      used: "320",
      free: "704",
      outsidePool: "256",
      percentUsed: 31.25,
      largestFree: "10.0.2.0/23",
      freeBySize: [
        { prefixLength: 23, blocks: "1" },
        { prefixLength: 24, blocks: "2" },
        { prefixLength: 25, blocks: "5" },
        { prefixLength: 26, blocks: "11" },
        { prefixLength: 27, blocks: "22" },
        { prefixLength: 28, blocks: "44" },
        { prefixLength: 29, blocks: "88" },
        { prefixLength: 30, blocks: "176" },
        { prefixLength: 31, blocks: "352" },
        { prefixLength: 32, blocks: "704" },
      ],
    });
  });

  test("full pool: largestFree null and no sizes; half up rounding; IPv6 /0 never enumerated, 64 sizes at most", () => {
    const full = cidrUsage(["10.0.0.0/24"], ["10.0.0.0/23"]);
    expect([full.largestFree, full.freeBySize, full.percentUsed, full.outsidePool]).toEqual([
      null,
      [],
      100,
      "256",
    ]);
    expect(cidrUsage(["10.0.0.0/29", "10.0.0.8/30"], ["10.0.0.0/32"]).percentUsed).toBe(8.33); // 1/12
    expect(cidrUsage(["0.0.0.0/3"], ["0.0.0.0/32"]).percentUsed).toBe(0);
    const six = cidrUsage(["::/0"], ["::/128"]);
    expect(six.total).toBe((1n << 128n).toString());
    expect(six.largestFree).toBe("8000::/1");
    expect(six.freeBySize).toHaveLength(64);
    expect(six.freeBySize[63]).toEqual({ prefixLength: 64, blocks: ((1n << 64n) - 1n).toString() });
  });

  test("errors: invalid entries at their path, mixed families, list bounds", () => {
    const issuesOf = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        if (error instanceof DomainError)
          return { code: error.code, paths: error.issues?.map((i) => i.path) };
      }
      return null;
    };
    expect(issuesOf(() => cidrUsage(["10.0.0.0/8", "x"], ["10.0.0.256"]))).toEqual({
      code: "INVALID_INPUT",
      paths: [
        ["pool", 1],
        ["used", 0],
      ],
    });
    expect(issuesOf(() => cidrUsage(["10.0.0.0/8"], ["2001:db8::/32"]))).toEqual({
      code: "MIXED_ADDRESS_FAMILIES",
      paths: [["used", 0]],
    });
    expect(issuesOf(() => cidrUsage([], []))).toEqual({ code: "INVALID_INPUT", paths: [["pool"]] });
  });
});
