/**
 * cidr-allocate (CONTRACT §7.4) rule by rule: first fit, the lowest aligned free blocks inside
 * `within` and outside `used`, and what stays free; its errors (issues carry `path` only) and its
 * limits. Its properties against the brute-force model are in list-properties.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { allocateCidrs } from "../../src/domain/cidr/allocate.ts";
import { LOCAL_ALLOCATE_LIMITS } from "../../src/domain/limits.ts";
import { scattered } from "./list-model.ts";
import { rejection } from "./rejection.ts";

describe("cidr-allocate", () => {
  test("first fit: the lowest aligned blocks inside within and outside used, and what stays free", () => {
    expect(
      allocateCidrs({
        within: ["10.0.0.0/24"],
        used: ["10.0.0.0/26", "10.0.0.128/27"],
        prefixLength: 26,
        count: 2,
      }),
    ).toEqual({ cidrs: ["10.0.0.64/26", "10.0.0.192/26"], freeAddressCount: "32" });
  });

  test("within blocks may abut or overlap: two /25s hold a /24", () => {
    expect(
      allocateCidrs({ within: ["10.0.1.128/25", "10.0.1.0/25", "10.0.1.0/26"], prefixLength: 24 }),
    ).toEqual({
      cidrs: ["10.0.1.0/24"],
      freeAddressCount: "0",
    });
  });

  test("used may reach outside within; used and count default to none and 1", () => {
    expect(
      allocateCidrs({ within: ["10.0.0.0/23"], used: ["9.0.0.0/8", "10.0.0.0/24"], prefixLength: 25 }),
    ).toEqual({
      cidrs: ["10.0.1.0/25"],
      freeAddressCount: "128",
    });
  });

  test("alignment: a free range that starts mid-block gives the next aligned block", () => {
    expect(
      allocateCidrs({ within: ["10.0.0.1", "10.0.0.2/31", "10.0.0.4/30", "10.0.0.8/29"], prefixLength: 30 }),
    ).toEqual({
      cidrs: ["10.0.0.4/30"],
      freeAddressCount: "11",
    });
  });

  test("IPv6 counts are exact and nothing is enumerated", () => {
    expect(allocateCidrs({ within: ["::/0"], used: ["::/1"], prefixLength: 64, count: 2 })).toEqual({
      cidrs: ["8000::/64", "8000:0:0:1::/64"],
      freeAddressCount: String(2n ** 127n - 2n * 2n ** 64n),
    });
    expect(allocateCidrs({ within: ["::ffff:10.0.0.0/120"], prefixLength: 126 }).cidrs).toEqual([
      "::ffff:10.0.0.0/126",
    ]);
  });

  test("fewer blocks than asked for is INSUFFICIENT_SPACE, saying how many fit", () => {
    const cases: [number, string][] = [
      [5, "Only 4 free blocks of /26 fit inside within and outside used; count asks for 5."],
      [1000, "Only 4 free blocks of /26 fit inside within and outside used; count asks for 1000."],
    ];
    for (const [count, message] of cases) {
      const error = rejection(() => allocateCidrs({ within: ["10.0.0.0/24"], prefixLength: 26, count }));
      expect(error.code).toBe("INSUFFICIENT_SPACE");
      expect(error.message).toBe(message);
    }
    expect(
      rejection(() =>
        allocateCidrs({ within: ["10.0.0.0/24"], used: ["10.0.0.0/25"], prefixLength: 25, count: 2 }),
      ).message,
    ).toBe("Only 1 free block of /25 fits inside within and outside used; count asks for 2.");
    expect(
      rejection(() => allocateCidrs({ within: ["10.0.0.0/25", "10.0.1.0/25"], prefixLength: 24 })).message,
    ).toBe("No free block of /24 fits inside within and outside used; count asks for 1.");
  });

  test("mixed families: within mixing, or a used entry of the other family, read within then used", () => {
    const inWithin = rejection(() =>
      allocateCidrs({ within: ["10.0.0.0/8", "2001:db8::/32"], used: ["::1"], prefixLength: 24 }),
    );
    expect(inWithin.code).toBe("MIXED_ADDRESS_FAMILIES");
    expect(inWithin.issues).toEqual([
      {
        message:
          '"2001:db8::/32" is IPv6, but the first entry of within "10.0.0.0/8" is IPv4; all addresses must be of one family',
        path: ["within", 1],
      },
    ]);
    const inUsed = rejection(() =>
      allocateCidrs({
        within: ["10.0.0.0/8"],
        used: ["10.0.0.0/24", "::ffff:10.0.0.0/120"],
        prefixLength: 24,
      }),
    );
    expect(inUsed.code).toBe("MIXED_ADDRESS_FAMILIES");
    expect(inUsed.issues.map((i) => i.path)).toEqual([["used", 1]]);
  });

  test("prefixLength and count out of range are INVALID_INPUT on their fields, with the entries' problems", () => {
    const error = rejection(() =>
      allocateCidrs({ within: ["10.0.0.0/8", "10.0.0.256"], used: ["x"], prefixLength: 33, count: 0 }),
    );
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.issues.map((i) => i.path)).toEqual([
      ["within", 1],
      ["used", 0],
      ["prefixLength"],
      ["count"],
    ]);
    expect(error.issues[2]!.message).toBe("prefixLength must be an integer from 0 to 32 for IPv4; it is 33");
    expect(error.issues[3]!.message).toBe("count must be an integer from 1 to 1000; it is 0");
    const v6 = rejection(() => allocateCidrs({ within: ["::/0"], prefixLength: 129, count: 1001 }));
    expect(v6.issues.map((i) => i.message)).toEqual([
      "prefixLength must be an integer from 0 to 128 for IPv6; it is 129",
      "count must be an integer from 1 to 1000; it is 1001",
    ]);
    // when within[0] is invalid, the family is unknown and 0-128 applies
    const unknown = rejection(() => allocateCidrs({ within: ["nope", "10.0.0.0/8"], prefixLength: 64 }));
    expect(unknown.issues.map((i) => i.path)).toEqual([["within", 0]]);
  });

  test("lists: within 1 to 1000, used 0 to 1000, both together at most 1000 (one issue at [])", () => {
    expect(rejection(() => allocateCidrs({ within: [], prefixLength: 24 })).issues).toEqual([
      { message: "within must have 1 to 1000 entries; it has 0", path: ["within"] },
    ]);
    const both = rejection(() =>
      allocateCidrs({ within: scattered(500), used: scattered(501), prefixLength: 32 }),
    );
    expect(both.issues).toEqual([
      { message: "within and used together must have at most 1000 entries; they have 1001", path: [] },
    ]);
    expect(
      allocateCidrs(
        { within: ["10.0.0.0/8"], used: scattered(2000), prefixLength: 32, count: 2000 },
        LOCAL_ALLOCATE_LIMITS,
      ).cidrs,
    ).toHaveLength(2000);
  });
});
