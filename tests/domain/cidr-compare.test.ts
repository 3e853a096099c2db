/**
 * cidr-compare (CONTRACT §8.4) rule by rule and against the slow model of list-model.ts: the
 * three sets written as cidr-merge writes a list, `equal`, its issues (paths only, both lists
 * 0–1000 and together at most 1000) and RESULT_TOO_LARGE with the exact total, counted without
 * listing.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { compareCidrs } from "../../src/domain/cidr/compare.ts";
import { mergeMixedCidrs } from "../../src/domain/cidr/merge-mixed.ts";
import { LOCAL_CIDR_LIMITS } from "../../src/domain/limits.ts";
import { mixedEntries, modelCompare } from "./list-model.ts";
import { rejection } from "./rejection.ts";

const runs = (n: number) => ({ numRuns: n, seed: 8404 });
const SLOW = 30_000;
const EMPTY = { cidrs: [], ipv4AddressCount: "0", ipv6AddressCount: "0" };

describe("cidr-compare", () => {
  test("the contract's example: a /24 against its upper half and one address", () => {
    expect(compareCidrs(["10.0.0.0/24"], ["10.0.0.128/25", "192.0.2.1"])).toEqual({
      onlyA: { cidrs: ["10.0.0.0/25"], ipv4AddressCount: "128", ipv6AddressCount: "0" },
      onlyB: { cidrs: ["192.0.2.1/32"], ipv4AddressCount: "1", ipv6AddressCount: "0" },
      both: { cidrs: ["10.0.0.128/25"], ipv4AddressCount: "128", ipv6AddressCount: "0" },
      equal: false,
    });
  });

  test("lists are compared as address sets: spelling, order, duplicates and splits do not matter", () => {
    const result = compareCidrs(
      ["10.0.0.0/25", "10.0.0.128/25", "2001:DB8::/32", "10.0.0.7"],
      ["2001:db8:8000::/33", "10.0.0.0/24", "2001:db8::/33"],
    );
    expect(result).toEqual({
      onlyA: EMPTY,
      onlyB: EMPTY,
      both: {
        cidrs: ["10.0.0.0/24", "2001:db8::/32"],
        ipv4AddressCount: "256",
        ipv6AddressCount: String(2n ** 96n),
      },
      equal: true,
    });
  });

  test("empty lists: two are equal, one against a list has everything on one side", () => {
    expect(compareCidrs([], [])).toEqual({ onlyA: EMPTY, onlyB: EMPTY, both: EMPTY, equal: true });
    const one = compareCidrs([], ["::/0", "0.0.0.0/0"]);
    expect(one.onlyB).toEqual({
      cidrs: ["0.0.0.0/0", "::/0"],
      ipv4AddressCount: String(2n ** 32n),
      ipv6AddressCount: String(2n ** 128n),
    });
    expect(one.equal).toBe(false);
  });

  test("IPv4-mapped IPv6 is IPv6: it never meets the IPv4 address it carries", () => {
    const result = compareCidrs(["192.0.2.1"], ["::ffff:192.0.2.1"]);
    expect(result.onlyA.cidrs).toEqual(["192.0.2.1/32"]);
    expect(result.onlyB.cidrs).toEqual(["::ffff:192.0.2.1/128"]);
    expect(result.both).toEqual(EMPTY);
  });

  test(
    "equals the model on mixed lists of both families, and each side is cidr-merge's answer",
    () => {
      fc.assert(
        fc.property(mixedEntries(0, 20), mixedEntries(0, 20), (a, b) => {
          const [ta, tb] = [a.map((e) => e.text), b.map((e) => e.text)];
          const result = compareCidrs(ta, tb);
          expect({ ta, tb, ...result }).toEqual({ ta, tb, ...modelCompare(a, b) } as never);
          // onlyA ∪ both is a's merge; the sets are disjoint (their counts add up).
          if (ta.length > 0) {
            const merged = mergeMixedCidrs(ta);
            const again = compareCidrs([...result.onlyA.cidrs, ...result.both.cidrs], ta);
            expect(again.equal).toBe(true);
            expect(BigInt(result.onlyA.ipv4AddressCount) + BigInt(result.both.ipv4AddressCount)).toBe(
              BigInt(merged.ipv4AddressCount),
            );
          }
        }),
        runs(600),
      );
    },
    SLOW,
  );

  test("each list is 0 to 1000 entries and both together at most 1000: issues at the list, or at []", () => {
    const many = Array.from({ length: 1001 }, () => "10.0.0.1");
    expect(rejection(() => compareCidrs(many, [])).issues).toEqual([
      { message: "a must have at most 1000 entries; it has 1001", path: ["a"] },
    ]);
    expect(rejection(() => compareCidrs(many.slice(0, 600), many.slice(0, 401))).issues).toEqual([
      { message: "a and b together must have at most 1000 entries; they have 1001", path: [] },
    ]);
    expect(compareCidrs(many.slice(0, 600), many.slice(0, 400)).equal).toBe(true);
  });

  test("every invalid entry of both lists, with paths only", () => {
    const error = rejection(() => compareCidrs(["10.0.0.0/24", "10.0.0.0/33"], ["fe80::1%eth0", "::1"]));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.issues.map((i) => i.path)).toEqual([
      ["a", 1],
      ["b", 0],
    ]);
    expect(error.issues.every((i) => Object.keys(i).join() === "message,path")).toBe(true);
  });

  test("over the result limit is RESULT_TOO_LARGE with the exact total, and no partial list", () => {
    // ::/0 less 2^12 scattered addresses: each hole costs about 2 × 128 CIDRs.
    const holes = Array.from({ length: 4096 }, (_, i) => `${(i * 16 + 1).toString(16)}:1::`);
    const whole = compareCidrs(["::/0"], holes, LOCAL_CIDR_LIMITS);
    const total = whole.onlyA.cidrs.length + whole.onlyB.cidrs.length + whole.both.cidrs.length;
    expect(total).toBeGreaterThan(400_000);
    const error = rejection(() =>
      compareCidrs(["::/0"], holes, { maxEntries: 10_000, maxResultCidrs: total - 1 }),
    );
    expect(error.code).toBe("RESULT_TOO_LARGE");
    expect(error.message).toBe(
      `The comparison would list ${total} CIDRs in onlyA, onlyB and both together, more than the limit of ${total - 1}.`,
    );
    expect(
      compareCidrs(["::/0"], holes, { maxEntries: 10_000, maxResultCidrs: total }).onlyA.cidrs,
    ).toHaveLength(whole.onlyA.cidrs.length);
  });

  test("deciding RESULT_TOO_LARGE lists nothing: far over the limit costs a fraction of listing it", () => {
    const holes = Array.from({ length: 999 }, (_, i) => `${(i * 64 + 1).toString(16)}:1::`);
    const timed = (call: () => void) => {
      const started = performance.now();
      for (let i = 0; i < 5; i++) call();
      return performance.now() - started;
    };
    const listing = timed(() =>
      expect(compareCidrs(["::/0"], holes, LOCAL_CIDR_LIMITS).onlyA.cidrs.length).toBeGreaterThan(100_000),
    );
    const refusing = timed(() =>
      expect(rejection(() => compareCidrs(["::/0"], holes)).code).toBe("RESULT_TOO_LARGE"),
    );
    expect(refusing).toBeLessThan(listing / 5);
  });
});
