/**
 * The address-space map's arithmetic (src/web/address-map.ts): parts painted from layers agree,
 * address by address, with a slow model that walks every address of small blocks; the same code
 * is exact at /0 and /128, where no address could be walked; covers and range texts.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { IpAddr } from "../../src/domain/ip/addr.ts";
import { IpPrefix, parsePrefix } from "../../src/domain/ip/prefix.ts";
import {
  coverOf,
  MAX_ZOOMED_MAPS,
  type MapKind,
  mapParts,
  type Range,
  rangeText,
  unionOf,
  zoomBlocks,
} from "../../src/web/address-map.ts";

function prefix(text: string): IpPrefix {
  const parsed = parsePrefix(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

const KINDS: MapKind[] = ["used", "new", "removed"];

describe("mapParts", () => {
  test("property: each address of the parent has the kind of the last layer holding it (model: every address walked)", () => {
    const range = (base: number) =>
      fc
        .tuple(fc.integer({ min: -20, max: 300 }), fc.integer({ min: 0, max: 40 }))
        .map(
          ([start, length]): Range => ({ first: BigInt(base + start), last: BigInt(base + start + length) }),
        );
    const base = 0x0a000000; // 10.0.0.0
    fc.assert(
      fc.property(
        fc.integer({ min: 24, max: 28 }),
        fc.array(fc.array(range(base), { maxLength: 6 }), { minLength: 1, maxLength: 3 }),
        (bits, rawLayers) => {
          const parent = IpPrefix.from(IpAddr.v4(base), bits);
          const layers = rawLayers
            .map((ranges) => unionOf(ranges.filter((r) => r.first >= 0n)))
            .map((ranges, i) => ({ kind: KINDS[i]!, ranges }));
          const parts = mapParts({ parent, base: "free", layers });
          const low = parent.first.toBigInt();
          const high = parent.last.toBigInt();
          // Parts tile the parent in order.
          expect(parts[0]!.first).toBe(low);
          expect(parts.at(-1)!.last).toBe(high);
          for (let i = 1; i < parts.length; i++) expect(parts[i]!.first).toBe(parts[i - 1]!.last + 1n);
          for (let address = low; address <= high; address++) {
            let kind: MapKind = "free";
            for (const layer of layers)
              if (layer.ranges.some((r) => r.first <= address && address <= r.last)) kind = layer.kind;
            const part = parts.find((p) => p.first <= address && address <= p.last)!;
            expect(part.kind).toBe(kind);
          }
          // Two neighbours of the same kind are two ranges of a layer (split's subnets), never base pieces.
          for (let i = 1; i < parts.length; i++) {
            if (parts[i]!.kind === "free") expect(parts[i - 1]!.kind).not.toBe("free");
          }
        },
      ),
      { numRuns: 300, seed: 26 },
    );
  });

  test("keeps each range of a layer as its own part, labelled by its CIDR (a split)", () => {
    const parts = mapParts({
      parent: prefix("10.0.0.0/22"),
      base: "free",
      layers: [
        { kind: "new", ranges: ["10.0.0.0/24", "10.0.1.0/24", "10.0.2.0/24", "10.0.3.0/24"].map(block) },
      ],
    });
    expect(parts.map((p) => `${p.kind} ${p.label}`)).toEqual([
      "new 10.0.0.0/24",
      "new 10.0.1.0/24",
      "new 10.0.2.0/24",
      "new 10.0.3.0/24",
    ]);
  });

  test("exact at the ends of the scale: a /128 used inside ::/0, and 8000::/1 new", () => {
    const parts = mapParts({
      parent: prefix("::/0"),
      base: "outside",
      layers: [
        { kind: "free", ranges: [block("::/0")] },
        { kind: "used", ranges: [block("::/128")] },
        { kind: "new", ranges: [block("8000::/1")] },
      ],
    });
    expect(parts.map((p) => `${p.kind} ${p.label}`)).toEqual([
      "used ::/128",
      "free ::1 – 7fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
      "new 8000::/1",
    ]);
    expect(parts[2]!.last - parts[2]!.first + 1n).toBe(1n << 127n);
  });

  test("clips layers to the parent", () => {
    const parts = mapParts({
      parent: prefix("192.0.2.0/25"),
      base: "free",
      layers: [{ kind: "used", ranges: [block("192.0.2.0/24")] }],
    });
    expect(parts.map((p) => `${p.kind} ${p.label}`)).toEqual(["used 192.0.2.0/25"]);
  });
});

function block(text: string): Range {
  const p = prefix(text);
  return { first: p.first.toBigInt(), last: p.last.toBigInt() };
}

describe("coverOf and rangeText", () => {
  test("the smallest block holding the ranges", () => {
    expect(String(coverOf([block("10.0.0.0/25"), block("10.0.1.0/24")], 4))).toBe("10.0.0.0/23");
    expect(String(coverOf([block("0.0.0.0/32"), block("255.255.255.255/32")], 4))).toBe("0.0.0.0/0");
    expect(String(coverOf([block("2001:db8::/48")], 6))).toBe("2001:db8::/48");
    expect(coverOf([], 6)).toBeNull();
  });

  test("a range is written as its CIDR when it is one block, else first – last", () => {
    expect(rangeText(block("10.0.0.64/26"), 4)).toBe("10.0.0.64/26");
    expect(rangeText({ first: 0x0a000001n, last: 0x0a000002n }, 4)).toBe("10.0.0.1 – 10.0.0.2");
    expect(rangeText({ first: 0n, last: (1n << 128n) - 1n }, 6)).toBe("::/0");
  });
});

describe("zoomBlocks: the map zooms to the smallest blocks that hold the lists (issue 34.7)", () => {
  test("sparse IPv4 lists are drawn in their own blocks, not in 0.0.0.0/0; a dense list in its cover", () => {
    const sparse = [block("10.0.0.0/24"), block("192.0.2.1/32")];
    expect(zoomBlocks(sparse, 4).map(String)).toEqual(["10.0.0.0/24", "192.0.2.1/32"]);
    expect(zoomBlocks([block("10.0.0.0/25"), block("10.0.1.0/24")], 4).map(String)).toEqual(["10.0.0.0/23"]);
    // Clusters inside clusters: 10.0.0.0/24 and 10.200.0.0/24 are apart inside 10.0.0.0/8 too.
    expect(
      zoomBlocks([block("10.0.0.0/24"), block("10.200.0.0/24"), block("198.51.100.0/24")], 4).map(String),
    ).toEqual(["10.0.0.0/24", "10.200.0.0/24", "198.51.100.0/24"]);
    expect(zoomBlocks([block("2001:db8::/48"), block("2001:db8:ffff::/48")], 6).map(String)).toEqual([
      "2001:db8::/48",
      "2001:db8:ffff::/48",
    ]);
    expect(zoomBlocks([], 4)).toEqual([]);
  });

  const v4Block = fc
    .tuple(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.integer({ min: 8, max: 32 }))
    .map(([value, bits]) => IpPrefix.from(IpAddr.fromBigInt(4, BigInt(value)), bits));

  test("property: every range lies in one block, the blocks are disjoint and sorted, at most 8, each the cover of what it holds", () => {
    fc.assert(
      fc.property(fc.array(v4Block, { minLength: 1, maxLength: 40 }), (blocks) => {
        const ranges = unionOf(blocks.map((b) => ({ first: b.first.toBigInt(), last: b.last.toBigInt() })));
        const zoomed = zoomBlocks(ranges, 4);
        expect(zoomed.length).toBeGreaterThan(0);
        expect(zoomed.length).toBeLessThanOrEqual(MAX_ZOOMED_MAPS);
        for (let i = 0; i + 1 < zoomed.length; i++) {
          expect(zoomed[i]!.last.toBigInt()).toBeLessThan(zoomed[i + 1]!.first.toBigInt());
        }
        for (const z of zoomed) {
          const inside = ranges.filter((r) => r.first >= z.first.toBigInt() && r.last <= z.last.toBigInt());
          expect(inside.length).toBeGreaterThan(0);
          // The smallest block holding its ranges: the model is coverOf on them.
          expect(String(coverOf(inside, 4))).toBe(String(z));
        }
        const held = ranges.filter((r) =>
          zoomed.some((z) => r.first >= z.first.toBigInt() && r.last <= z.last.toBigInt()),
        );
        expect(held.length).toBe(ranges.length);
        // Never zoomed out: one block is the cover of everything.
        if (zoomed.length === 1) expect(String(zoomed[0])).toBe(String(coverOf(ranges, 4)));
      }),
      { numRuns: 300 },
    );
  });
});
