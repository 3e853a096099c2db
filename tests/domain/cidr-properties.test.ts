/**
 * Property tests: the three use cases against the slow bigint model in `model.ts`, on thousands of
 * generated cases of both families with the edges (0.0.0.0, ::, all-ones, /0, /32, /128) over-weighted.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { coverCidrs } from "../../src/domain/cidr/cover.ts";
import { rangeToCidrs } from "../../src/domain/cidr/range-to-cidrs.ts";
import { subtractCidrs } from "../../src/domain/cidr/subtract.ts";
import { parseAddr } from "../../src/domain/ip/addr.ts";
import { parsePrefix } from "../../src/domain/ip/prefix.ts";
import { MAX_RESULT_CIDRS } from "../../src/domain/limits.ts";
import { addressPair, entryList, entryNear, familyAndBase, ipv6Text, subtractCase } from "./arbitraries.ts";
import { blockOf, formatAddr, formatCidr, maxValue, modelCover, modelRange, modelSubtract } from "./model.ts";
import { rejection } from "./rejection.ts";

const runs = (n: number) => ({ numRuns: n, seed: 20251122 });
/** Each property runs in well under a second on an idle machine; the margin is for a loaded one. */
const SLOW = 30_000;

describe("parsing and text", () => {
  test(
    "every generated entry text parses to the model's canonical CIDR, and that text round-trips",
    () => {
      fc.assert(
        fc.property(
          familyAndBase.chain(({ family, base }) => entryNear(family, base)),
          (entry) => {
            const parsed = parsePrefix(entry.text);
            expect(parsed.ok).toBe(true);
            if (!parsed.ok) return;
            const expected = formatCidr(entry.family, blockOf(entry).first, entry.bits);
            expect(parsed.value.toString()).toBe(expected);
            const again = parsePrefix(expected);
            expect(again.ok && again.value.toString()).toBe(expected);
          },
        ),
        runs(1500),
      );
    },
    SLOW,
  );

  test(
    "every IPv6 text style of a value parses to that value and prints canonically",
    () => {
      fc.assert(
        fc.property(
          fc.bigInt({ min: 0n, max: maxValue(6) }),
          fc.integer({ min: 0, max: 4 }),
          fc.nat(),
          fc.nat(),
          (value, style, pick, caseMask) => {
            const text = ipv6Text(value, style, pick, caseMask);
            const parsed = parseAddr(text);
            expect(parsed.ok).toBe(true);
            if (!parsed.ok) return;
            expect(parsed.value.toBigInt()).toBe(value);
            expect(parsed.value.toString()).toBe(formatAddr(6, value));
          },
        ),
        runs(1500),
      );
    },
    SLOW,
  );

  test(
    "IPv4 values print as the model prints them and parse back",
    () => {
      fc.assert(
        fc.property(fc.bigInt({ min: 0n, max: maxValue(4) }), (value) => {
          const text = formatAddr(4, value);
          const parsed = parseAddr(text);
          expect(parsed.ok && parsed.value.toBigInt()).toBe(value);
          expect(parsed.ok && parsed.value.toString()).toBe(text);
        }),
        runs(500),
      );
    },
    SLOW,
  );
});

describe("use cases against the model", () => {
  test(
    "cidr-cover",
    () => {
      fc.assert(
        fc.property(entryList(1, 12), ({ entries }) => {
          expect(coverCidrs(entries.map((e) => e.text))).toEqual(modelCover(entries));
        }),
        runs(1000),
      );
    },
    SLOW,
  );

  test(
    "cidr-subtract",
    () => {
      fc.assert(
        fc.property(subtractCase, ({ include, exclude }) => {
          const expected = modelSubtract(include, exclude, MAX_RESULT_CIDRS);
          const run = () =>
            subtractCidrs(
              include.map((e) => e.text),
              exclude.map((e) => e.text),
            );
          if ("tooLarge" in expected) expect(rejection(run).code).toBe("RESULT_TOO_LARGE");
          else expect(run()).toEqual(expected);
        }),
        runs(1000),
      );
    },
    SLOW,
  );

  test(
    "range-to-cidrs, and a reversed range is rejected at start",
    () => {
      fc.assert(
        fc.property(addressPair, ({ family, a, b }) => {
          if (a.value <= b.value) {
            const result = rangeToCidrs(a.text, b.text);
            expect(result).toEqual(modelRange(family, a.value, b.value));
            expect(result.cidrCount).toBeGreaterThanOrEqual(1);
            expect(result.cidrCount).toBeLessThanOrEqual(family === 4 ? 62 : 254);
          } else {
            const error = rejection(() => rangeToCidrs(a.text, b.text));
            expect(error.code).toBe("INVALID_INPUT");
            expect(error.issues.map((i) => i.field)).toEqual(["start"]);
          }
        }),
        runs(1500),
      );
    },
    SLOW,
  );

  test(
    "subtracting a list from itself leaves nothing; subtracting nothing leaves the union's CIDRs",
    () => {
      fc.assert(
        fc.property(entryList(1, 10), ({ entries }) => {
          const texts = entries.map((e) => e.text);
          const none = subtractCidrs(texts, texts);
          expect(none.cidrs).toEqual([]);
          expect(none.remainingAddressCount).toBe("0");
          expect(none.removedAddressCount).toBe(none.includedAddressCount);
          const all = subtractCidrs(texts, []);
          expect(all.includedAddressCount).toBe(coverCidrs(texts).inputAddressCount);
          // the CIDRs of the union, read back, are disjoint, sorted and cover the same count
          const blocks = all.cidrs.map((c) => {
            const p = parsePrefix(c);
            if (!p.ok) throw new Error(p.message);
            return { first: p.value.first.toBigInt(), last: p.value.last.toBigInt() };
          });
          for (let i = 1; i < blocks.length; i++)
            expect(blocks[i]!.first).toBeGreaterThan(blocks[i - 1]!.last);
          const total = blocks.reduce((s, b) => s + b.last - b.first + 1n, 0n);
          expect(String(total)).toBe(all.remainingAddressCount);
        }),
        runs(300),
      );
    },
    SLOW,
  );
});

describe("result limit", () => {
  // The whole space minus the addresses i·2^k (i < m): each gap [i·2^k + 1, (i+1)·2^k − 1] needs
  // exactly k prefixes, and the tail after the last gap needs what the model's greedy split says.
  // m·k runs from 2400 to about 100000, so both sides of MAX_RESULT_CIDRS are exercised.
  test(
    "the result is refused exactly when it would exceed the limit, and refusing stays fast",
    () => {
      fc.assert(
        fc.property(
          fc.constantFrom<4 | 6>(4, 6),
          fc.integer({ min: 300, max: 999 }),
          fc.integer({ min: 8, max: 100 }),
          (family, m, kRaw) => {
            const k = family === 4 ? 8 + (kRaw % 15) : kRaw; // IPv4: m·2^k must stay below 2^32
            const step = 1n << BigInt(k);
            const exclude = Array.from({ length: m }, (_, i) => formatAddr(family, BigInt(i) * step));
            const tailStart = BigInt(m) * step;
            const tail = modelRange(family, tailStart, maxValue(family)).cidrCount;
            const expected = m * k + tail;
            const include = [family === 4 ? "0.0.0.0/0" : "::/0"];
            if (expected > MAX_RESULT_CIDRS) {
              const error = rejection(() => subtractCidrs(include, exclude));
              expect(error.code).toBe("RESULT_TOO_LARGE");
              expect(error.message).toContain(String(MAX_RESULT_CIDRS));
              expect(error.issues).toEqual([]);
            } else {
              const result = subtractCidrs(include, exclude);
              expect(result.cidrs.length).toBe(expected);
              expect(result.removedAddressCount).toBe(String(m));
            }
          },
        ),
        runs(40),
      );
    },
    SLOW,
  );
});
