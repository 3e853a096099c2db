/**
 * The CIDR use cases take their limits as a parameter (issue 13): the API's by default (the
 * contract's numbers, the list operations' included), larger ones for a local `nettools` run.
 * And merge (cidr-merge): the union of a list, families mixed.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { coverCidrs } from "../../src/domain/cidr/cover.ts";
import { mergeMixedCidrs as mergeCidrs } from "../../src/domain/cidr/merge-mixed.ts";
import { subtractCidrs } from "../../src/domain/cidr/subtract.ts";
import {
  API_ALLOCATE_LIMITS,
  API_COVER_LIMITS,
  API_LIST_LIMITS,
  API_SUBTRACT_LIMITS,
  LOCAL_ALLOCATE_LIMITS,
  LOCAL_CIDR_LIMITS,
  MAX_ALLOCATE_COUNT,
  MAX_COVER_INPUTS,
  MAX_LIST_ENTRIES,
  MAX_RESULT_CIDRS,
  MAX_SUBTRACT_ENTRIES,
} from "../../src/domain/limits.ts";
import { entryList } from "./arbitraries.ts";
import { scattered } from "./list-model.ts";
import { modelSubtract } from "./model.ts";
import { rejection } from "./rejection.ts";

describe("defaults are the spec's values", () => {
  test("the API limits are the spec's numbers; the local ones are larger and still bounded", () => {
    expect(API_COVER_LIMITS.maxEntries).toBe(MAX_COVER_INPUTS);
    expect(API_SUBTRACT_LIMITS).toEqual({
      maxEntries: MAX_SUBTRACT_ENTRIES,
      maxResultCidrs: MAX_RESULT_CIDRS,
    });
    expect(LOCAL_CIDR_LIMITS.maxEntries).toBeGreaterThanOrEqual(100_000);
    expect(LOCAL_CIDR_LIMITS.maxResultCidrs).toBeGreaterThanOrEqual(1_000_000);
    expect(Number.isSafeInteger(LOCAL_CIDR_LIMITS.maxEntries)).toBe(true);
  });

  test("cover: 1001 entries fail by default and pass with a larger limit", () => {
    const inputs = scattered(MAX_COVER_INPUTS + 1);
    const error = rejection(() => coverCidrs(inputs));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.issues[0]!.message).toBe("inputs must have 1 to 1000 entries; it has 1001");
    expect(coverCidrs(inputs, LOCAL_CIDR_LIMITS).cidr).toBe("10.0.0.0/21");
    expect(rejection(() => coverCidrs(inputs, { maxEntries: 1000 })).code).toBe("INVALID_INPUT");
  });

  test("subtract: the entry limit counts include and exclude together, whatever the limit", () => {
    const include = scattered(600);
    const exclude = scattered(500);
    expect(rejection(() => subtractCidrs(include, exclude)).issues[0]!.message).toBe(
      "include and exclude together must have at most 1000 entries; they have 1100",
    );
    const limits = { maxEntries: 1099, maxResultCidrs: 100 };
    expect(rejection(() => subtractCidrs(include, exclude, limits)).issues[0]!.message).toBe(
      "include and exclude together must have at most 1099 entries; they have 1100",
    );
    expect(subtractCidrs(include, exclude, { ...limits, maxEntries: 1100 }).cidrs).toHaveLength(100);
  });

  test("subtract: the result limit is the parameter's, checked while producing the list", () => {
    // 999 single-address holes 4096 apart in a /8: about 23 CIDRs between two holes.
    const holes = Array.from({ length: 999 }, (_, i) => {
      const value = 0x0a000000 + i * 4096 + 1;
      return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join(".");
    });
    const error = rejection(() => subtractCidrs(["10.0.0.0/8"], holes));
    expect(error.code).toBe("RESULT_TOO_LARGE");
    expect(error.message).toContain(`more than ${MAX_RESULT_CIDRS} CIDRs`);
    const local = subtractCidrs(["10.0.0.0/8"], holes, LOCAL_CIDR_LIMITS);
    expect(local.cidrs.length).toBeGreaterThan(MAX_RESULT_CIDRS);
    expect(local.remainingAddressCount).toBe(String(2 ** 24 - 999));
    const small = rejection(() => mergeCidrs(scattered(5), { maxEntries: 10, maxResultCidrs: 4 }));
    expect(small.code).toBe("RESULT_TOO_LARGE");
    expect(small.message).toContain("5 CIDRs, more than the limit of 4");
    expect(mergeCidrs(scattered(5), { maxEntries: 10, maxResultCidrs: 5 }).cidrs).toHaveLength(5);
  });

  test("merge: 20000 entries pass with the local limits and fail with the API's", () => {
    const entries = scattered(20_000);
    expect(rejection(() => mergeCidrs(entries)).code).toBe("INVALID_INPUT");
    expect(mergeCidrs(entries, LOCAL_CIDR_LIMITS).cidrs).toHaveLength(20_000);
  });
});

describe("the list operations' limits", () => {
  test("the API's are the contract's numbers; the local ones are at least a million", () => {
    expect(API_LIST_LIMITS).toEqual({ maxEntries: 1000, maxResultCidrs: 10000 });
    expect(API_ALLOCATE_LIMITS).toEqual({ maxEntries: 1000, maxResultCidrs: 10000, maxCount: 1000 });
    expect(MAX_LIST_ENTRIES).toBe(1000);
    expect(MAX_ALLOCATE_COUNT).toBe(1000);
    expect(LOCAL_CIDR_LIMITS.maxEntries).toBeGreaterThanOrEqual(1_000_000);
    expect(LOCAL_ALLOCATE_LIMITS.maxCount).toBeGreaterThanOrEqual(MAX_ALLOCATE_COUNT);
  });
});

describe("merge", () => {
  test.each([
    [["10.0.0.0/25", "10.0.0.128/25"], ["10.0.0.0/24"]],
    [["10.0.0.5", "10.0.0.5", "10.0.0.4/31"], ["10.0.0.4/31"]],
    [
      ["192.0.2.0/24", "192.0.2.77", "10.0.0.0/8"],
      ["10.0.0.0/8", "192.0.2.0/24"],
    ],
    [
      ["10.0.0.1", "10.0.0.2"],
      ["10.0.0.1/32", "10.0.0.2/32"],
    ],
    [["2001:db8::/33", "2001:db8:8000::/33", "2001:db8::1"], ["2001:db8::/32"]],
  ])("%j → %j", (entries, cidrs) => {
    expect(mergeCidrs(entries).cidrs).toEqual(cidrs);
  });

  test("equals the slow model's union, for both families", () => {
    fc.assert(
      fc.property(entryList(1, 20), ({ family, entries }) => {
        const model = modelSubtract(entries, [], MAX_RESULT_CIDRS);
        if ("tooLarge" in model) throw new Error("a union never needs more CIDRs than entries");
        const merged = mergeCidrs(entries.map((e) => e.text));
        expect(merged.cidrs).toEqual(model.cidrs);
        expect(family === 4 ? merged.ipv4AddressCount : merged.ipv6AddressCount).toBe(
          model.remainingAddressCount,
        );
        expect(family === 4 ? merged.ipv6AddressCount : merged.ipv4AddressCount).toBe("0");
      }),
      { seed: 1303, numRuns: 300 },
    );
  });

  test("families mix (IPv4 first); errors point into the list at its path", () => {
    expect(mergeCidrs(["::1", "10.0.0.1"]).cidrs).toEqual(["10.0.0.1/32", "::1/128"]);
    const error = rejection(() => mergeCidrs(["10.0.0.1", "::1/129"]));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.issues[0]!.path).toEqual(["inputs", 1]);
  });
});
