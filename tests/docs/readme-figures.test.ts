/**
 * The README's sizes (the npm packages, the page's assets) against a fresh measurement
 * (scripts/readme-figures.ts): each marked figure within 10 % of what the build gives now, and
 * every measured figure quoted. When this fails, `bun scripts/readme-figures.ts` rewrites them.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import {
  formatSize,
  markedFigures,
  measureFigures,
  parseSize,
  README,
  rewriteFigures,
  TOLERANCE,
} from "../../scripts/readme-figures.ts";

describe("writing and reading a size", () => {
  test("a written size reads back within its rounding (at most 5 %)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500_000_000 }), (bytes) => {
        const read = parseSize(formatSize(bytes));
        expect(Math.abs(read - bytes) / bytes).toBeLessThanOrEqual(0.05);
      }),
    );
    expect([950, 5_137, 51_628, 122_570, 1_732_839].map(formatSize)).toEqual([
      "950 B",
      "5.1 kB",
      "52 kB",
      "123 kB",
      "1.73 MB",
    ]);
    expect(parseSize("~280 KB")).toBeNaN();
  });

  test("rewriting replaces the marked figures it knows and leaves the rest", () => {
    const text =
      "a <!-- size:cli-packed -->280 KB<!-- /size --> b <!-- size:other -->1 kB<!-- /size --> ~12 KB <!-- size:x -->big<!-- /size -->";
    const rewritten = rewriteFigures(text, new Map([["cli-packed", 106_012]]));
    expect(rewritten).toBe(
      "a <!-- size:cli-packed -->106 kB<!-- /size --> b <!-- size:other -->1 kB<!-- /size --> ~12 KB <!-- size:x -->big<!-- /size -->",
    );
    expect(markedFigures(rewritten)).toEqual([
      { name: "cli-packed", text: "106 kB", bytes: 106_000 },
      { name: "other", text: "1 kB", bytes: 1_000 },
      { name: "x", text: "big", bytes: Number.NaN },
    ]);
  });
});

describe("the README's sizes match the build", () => {
  let measured = new Map<string, number>();
  beforeAll(async () => {
    measured = await measureFigures();
  }, 180_000);

  test("every marked figure is a known size within 10 % of the measurement", () => {
    const figures = markedFigures(readFileSync(README, "utf8"));
    const wrong = figures.flatMap((figure) => {
      const bytes = measured.get(figure.name);
      if (bytes === undefined) return [`${figure.name}: not a figure scripts/readme-figures.ts measures`];
      if (Number.isNaN(figure.bytes) || Math.abs(figure.bytes - bytes) / bytes > TOLERANCE)
        return [`${figure.name}: the README says ${figure.text}, the build gives ${formatSize(bytes)}`];
      return [];
    });
    expect(wrong, "run `bun scripts/readme-figures.ts` to rewrite the README's sizes").toEqual([]);
  });

  test("every measured size is quoted, the two packages' tarballs and the page's script first", () => {
    const names = new Set(markedFigures(readFileSync(README, "utf8")).map((figure) => figure.name));
    expect([...measured.keys()].filter((name) => !names.has(name))).toEqual([]);
    for (const name of ["cli-packed", "client-packed", "app-js"]) expect(names.has(name)).toBe(true);
    // The size the README once got wrong: the CLI package packs to under 320 kB (about 150 kB of
    // it is the dated reference-root snapshot, CONTRACT §9.2, which the CLI judges chains with).
    expect(measured.get("cli-packed")).toBeLessThan(320_000);
  });
});
