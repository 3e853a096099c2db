/**
 * cidr-usage (CONTRACT §12) against two slow, obvious models: pools and used blocks inside a window
 * of 2^12 addresses, every address of the window marked free or not one by one, and every aligned
 * block of every length checked address by address; and, over the whole address space (/0 pools,
 * /32 and /128 blocks, IPv6 counts far past 2^53, entries written in every accepted form, host bits
 * set), bigint intervals whose free space is split into its minimal CIDRs, each of which holds
 * 2^(n − its length) aligned /n blocks.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { cidrUsage } from "../../src/domain/cidr/usage.ts";
import { DomainError } from "../../src/domain/errors.ts";
import { entryNear, familyAndBase } from "./arbitraries.ts";
import {
  blockOf,
  cidrsOf,
  count,
  type Family,
  formatAddr,
  formatCidr,
  type ModelEntry,
  subtract,
  union,
  width,
} from "./model.ts";

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

/** The whole-space model: bigint intervals, the free space as minimal CIDRs, counts from those. */
function intervalModel(family: Family, pool: readonly ModelEntry[], used: readonly ModelEntry[]) {
  const w = width(family);
  const poolUnion = union(pool.map(blockOf));
  const usedUnion = union(used.map(blockOf));
  const free = subtract(poolUnion, usedUnion);
  const total = count(poolUnion);
  const freeCount = count(free);
  const usedCount = total - freeCount;
  const cidrs = free.flatMap((interval) => cidrsOf(family, interval));
  let largest: { network: bigint; bits: number } | null = null;
  for (const cidr of cidrs) {
    if (
      largest === null ||
      cidr.bits < largest.bits ||
      (cidr.bits === largest.bits && cidr.network < largest.network)
    )
      largest = cidr;
  }
  const freeBySize: { prefixLength: number; blocks: string }[] = [];
  for (let n = largest?.bits ?? w + 1; n <= w && freeBySize.length < 64; n++) {
    let blocks = 0n;
    for (const cidr of cidrs) if (cidr.bits <= n) blocks += 1n << BigInt(n - cidr.bits);
    freeBySize.push({ prefixLength: n, blocks: String(blocks) });
  }
  // Rounded half up: the quotient, plus one when the remainder is at least half the divisor.
  const scaled = usedCount * 10000n;
  const hundredths = scaled / total + (2n * (scaled % total) >= total ? 1n : 0n);
  return {
    total: String(total),
    used: String(usedCount),
    free: String(freeCount),
    outsidePool: String(count(subtract(usedUnion, poolUnion))),
    percentUsed: Number(hundredths) / 100,
    largestFree: largest === null ? null : formatCidr(family, largest.network, largest.bits),
    freeBySize,
  };
}

/** Pools and used lists anywhere in the space, clustered around one base, at the edges often. */
const wholeSpaceCase = familyAndBase.chain(({ family, base }) =>
  fc.record({
    family: fc.constant(family),
    pool: fc.array(entryNear(family, base), { minLength: 1, maxLength: 8 }),
    used: fc.array(entryNear(family, base), { maxLength: 30 }),
  }),
);

describe("cidrUsage", () => {
  test("equals the bigint interval model over the whole space, /0 to /32 and /128", () => {
    fc.assert(
      fc.property(wholeSpaceCase, (c) => {
        expect(
          cidrUsage(
            c.pool.map((e) => e.text),
            c.used.map((e) => e.text),
          ),
        ).toEqual(intervalModel(c.family, c.pool, c.used));
      }),
      { numRuns: 400 },
    );
  });

  test("edges of the space: /0 pools, one-address pools, the last address", () => {
    const v4 = cidrUsage(["0.0.0.0/0"], []);
    expect([v4.total, v4.free, v4.largestFree, v4.freeBySize.length]).toEqual([
      "4294967296",
      "4294967296",
      "0.0.0.0/0",
      33,
    ]);
    expect([v4.freeBySize[0], v4.freeBySize[32]]).toEqual([
      { prefixLength: 0, blocks: "1" },
      { prefixLength: 32, blocks: "4294967296" },
    ]);
    const v6 = cidrUsage(["::/0"], []);
    expect([v6.free, v6.largestFree, v6.freeBySize.length, v6.freeBySize[63]]).toEqual([
      "340282366920938463463374607431768211456",
      "::/0",
      64,
      { prefixLength: 63, blocks: "9223372036854775808" },
    ]);
    expect(cidrUsage(["255.255.255.255"], [])).toEqual({
      total: "1",
      used: "0",
      free: "1",
      outsidePool: "0",
      percentUsed: 0,
      largestFree: "255.255.255.255/32",
      freeBySize: [{ prefixLength: 32, blocks: "1" }],
    });
    expect(cidrUsage(["ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128"], ["ffff::/16"])).toEqual({
      total: "1",
      used: "1",
      free: "0",
      outsidePool: "5192296858534827628530496329220095",
      percentUsed: 100,
      largestFree: null,
      freeBySize: [],
    });
    const top = cidrUsage(["ffff::/16"], ["ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"]);
    expect([top.free, top.largestFree, top.freeBySize[0], top.freeBySize[63]]).toEqual([
      "5192296858534827628530496329220095", // 2^112 − 1
      "ffff::/17",
      { prefixLength: 17, blocks: "1" },
      { prefixLength: 80, blocks: "18446744073709551615" }, // 2^64 − 1 /80s: all but the last
    ]);
  });

  test("IPv6 counts past 2^53 are exact", () => {
    const usage = cidrUsage(["2001:db8::/32"], ["2001:db8::/128"]);
    expect([usage.free, usage.used, usage.largestFree, usage.percentUsed]).toEqual([
      "79228162514264337593543950335", // 2^96 − 1
      "1",
      "2001:db8:8000::/33",
      0,
    ]);
    expect(usage.freeBySize.slice(0, 3)).toEqual([
      { prefixLength: 33, blocks: "1" },
      { prefixLength: 34, blocks: "3" },
      { prefixLength: 35, blocks: "7" },
    ]);
    expect(usage.freeBySize[63]).toEqual({ prefixLength: 96, blocks: "18446744073709551615" }); // 2^64 − 1
    // 300 /32s spread over the space: hundreds of free intervals past 2^96 each, whose /68 counts
    // add up far past 2^53 (every /68 but the 2^36 inside each used /32).
    const spread = cidrUsage(
      ["::/0"],
      Array.from({ length: 300 }, (_, i) => `${(i * 211).toString(16)}::/32`),
    );
    expect([spread.largestFree, spread.freeBySize.length, spread.freeBySize[63]]).toEqual([
      "f800::/5",
      64,
      { prefixLength: 68, blocks: ((1n << 68n) - 300n * (1n << 36n)).toString() },
    ]);
  });

  test("duplicate and overlapping entries count once; used blocks reaching outside the pool", () => {
    expect(
      cidrUsage(
        ["10.0.0.0/24", "10.0.0.0/24", "10.0.0.128/25"],
        ["10.0.0.0/26", "10.0.0.0/26", "10.0.0.0/27", "10.0.0.32/27"],
      ),
    ).toEqual({
      total: "256",
      used: "64",
      free: "192",
      outsidePool: "0",
      percentUsed: 25,
      largestFree: "10.0.0.128/25",
      freeBySize: [
        { prefixLength: 25, blocks: "1" },
        { prefixLength: 26, blocks: "3" },
        { prefixLength: 27, blocks: "6" },
        { prefixLength: 28, blocks: "12" },
        { prefixLength: 29, blocks: "24" },
        { prefixLength: 30, blocks: "48" },
        { prefixLength: 31, blocks: "96" },
        { prefixLength: 32, blocks: "192" },
      ],
    });
    const over = cidrUsage(["10.0.0.0/24"], ["10.0.0.0/23", "192.0.2.1", "10.0.0.7"]);
    expect([over.used, over.outsidePool, over.free, over.largestFree]).toEqual(["256", "257", "0", null]);
    // Pools written with host bits set are their networks; adjacent pools join, aligned or not.
    expect(cidrUsage(["10.0.0.255/24", "10.0.1.0/24"], []).largestFree).toBe("10.0.0.0/23");
    const apart = cidrUsage(["10.0.2.0/24", "10.0.1.0/24"], []);
    expect([apart.total, apart.largestFree, apart.freeBySize[0]]).toEqual([
      "512",
      "10.0.1.0/24",
      { prefixLength: 24, blocks: "2" },
    ]);
  });

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
