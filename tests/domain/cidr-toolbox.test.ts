/**
 * The CIDR additions of CONTRACT §7.4 rule by rule: cidr-merge, cidr-split, cidr-contains and
 * cidr-allocate, their results, their errors (issues carry `path` only) and their limits.
 */
import { describe, expect, test } from "bun:test";
import { allocateCidrs } from "../../src/domain/cidr/allocate.ts";
import { cidrsContain } from "../../src/domain/cidr/contains.ts";
import { mergeMixedCidrs } from "../../src/domain/cidr/merge-mixed.ts";
import { splitCidr } from "../../src/domain/cidr/split.ts";
import {
  API_ALLOCATE_LIMITS,
  API_TOOLBOX_LIMITS,
  LOCAL_ALLOCATE_LIMITS,
  LOCAL_CIDR_LIMITS,
  MAX_ALLOCATE_COUNT,
  MAX_RESULT_CIDRS,
  MAX_TOOLBOX_ENTRIES,
} from "../../src/domain/limits.ts";
import { rejection } from "./rejection.ts";

/** `n` distinct /32s, every other address of 10.0.0.0/8: no two merge. */
function scattered(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `10.${(i >> 15) & 255}.${(i >> 7) & 255}.${(i & 127) * 2}`);
}

describe("limits", () => {
  test("the API's are the contract's numbers; the local ones are at least a million", () => {
    expect(API_TOOLBOX_LIMITS).toEqual({ maxEntries: 1000, maxResultCidrs: 10000 });
    expect(API_ALLOCATE_LIMITS).toEqual({ maxEntries: 1000, maxResultCidrs: 10000, maxCount: 1000 });
    expect(MAX_TOOLBOX_ENTRIES).toBe(1000);
    expect(MAX_ALLOCATE_COUNT).toBe(1000);
    expect(LOCAL_CIDR_LIMITS.maxEntries).toBeGreaterThanOrEqual(1_000_000);
    expect(LOCAL_ALLOCATE_LIMITS.maxCount).toBeGreaterThanOrEqual(MAX_ALLOCATE_COUNT);
  });
});

describe("cidr-merge", () => {
  test("families mix: IPv4 blocks first, then IPv6, each sorted; counts per family", () => {
    expect(
      mergeMixedCidrs([
        "2001:db8:8000::/33",
        "10.0.0.128/25",
        " ::ffff:192.0.2.1 ",
        "2001:db8::/33",
        "10.0.0.0/25",
        "192.0.2.1",
        "10.0.0.7",
      ]),
    ).toEqual({
      cidrs: ["10.0.0.0/24", "192.0.2.1/32", "::ffff:192.0.2.1/128", "2001:db8::/32"],
      ipv4AddressCount: "257",
      ipv6AddressCount: "79228162514264337593543950337",
    });
  });

  test("one family alone: the other's count is zero; host bits are cleared", () => {
    expect(mergeMixedCidrs(["10.1.2.3/8"])).toEqual({
      cidrs: ["10.0.0.0/8"],
      ipv4AddressCount: "16777216",
      ipv6AddressCount: "0",
    });
    expect(mergeMixedCidrs(["::/0", "2001:db8::1"])).toEqual({
      cidrs: ["::/0"],
      ipv4AddressCount: "0",
      ipv6AddressCount: "340282366920938463463374607431768211456",
    });
  });

  test("every invalid entry is reported at its path, without legacy locators", () => {
    const error = rejection(() => mergeMixedCidrs(["10.0.0.0/8", "10.0.0.256", "::1", "fe80::1%eth0"]));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.issues.map((i) => i.path)).toEqual([
      ["inputs", 1],
      ["inputs", 3],
    ]);
    expect(error.issues.every((i) => Object.keys(i).join() === "message,path")).toBe(true);
  });

  test("an empty list and a list over the limit are issues at the list", () => {
    expect(rejection(() => mergeMixedCidrs([])).issues).toEqual([
      { message: "inputs must have 1 to 1000 entries; it has 0", path: ["inputs"] },
    ]);
    expect(rejection(() => mergeMixedCidrs(scattered(1001))).issues[0]!.path).toEqual(["inputs"]);
    expect(mergeMixedCidrs(scattered(1001), LOCAL_CIDR_LIMITS).cidrs).toHaveLength(1001);
  });

  test("a result over the result limit is RESULT_TOO_LARGE with no partial list", () => {
    const error = rejection(() => mergeMixedCidrs(scattered(5), { maxEntries: 10, maxResultCidrs: 4 }));
    expect(error.code).toBe("RESULT_TOO_LARGE");
    expect(error.message).toBe("The merged list would have 5 CIDRs, more than the limit of 4.");
    expect(mergeMixedCidrs(scattered(5), { maxEntries: 10, maxResultCidrs: 5 }).cidrs).toHaveLength(5);
  });
});

describe("cidr-split", () => {
  test("every subnet in address order, with the count as a decimal string", () => {
    expect(splitCidr("10.1.2.3/22", 24)).toEqual({
      network: "10.1.0.0/22",
      prefixLength: 24,
      subnetCount: "4",
      cidrs: ["10.1.0.0/24", "10.1.1.0/24", "10.1.2.0/24", "10.1.3.0/24"],
    });
    expect(splitCidr("2001:db8::/47", 48).cidrs).toEqual(["2001:db8::/48", "2001:db8:1::/48"]);
  });

  test("an address is a /32 or /128; splitting into the block's own length gives the block", () => {
    expect(splitCidr("192.0.2.1", 32)).toEqual({
      network: "192.0.2.1/32",
      prefixLength: 32,
      subnetCount: "1",
      cidrs: ["192.0.2.1/32"],
    });
    expect(splitCidr("0.0.0.0/0", 0).cidrs).toEqual(["0.0.0.0/0"]);
    expect(splitCidr("::/0", 1).cidrs).toEqual(["::/1", "8000::/1"]);
  });

  test("carries run across words, and the last subnet of the space is reached", () => {
    expect(splitCidr("ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffc/126", 128).cidrs).toEqual([
      "ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffc/128",
      "ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffd/128",
      "ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe/128",
      "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128",
    ]);
    expect(splitCidr("2001:db8:0:ffff::/63", 64).cidrs).toEqual([
      "2001:db8:0:fffe::/64",
      "2001:db8:0:ffff::/64",
    ]);
    expect(splitCidr("::ffff:0:0/95", 96).cidrs).toEqual(["::fffe:0:0/96", "::ffff:0.0.0.0/96"]);
    expect(splitCidr("255.255.255.252/30", 31).cidrs).toEqual(["255.255.255.252/31", "255.255.255.254/31"]);
  });

  test("IPv4-mapped IPv6 stays IPv6 and prints in mixed notation", () => {
    expect(splitCidr("::ffff:192.0.2.0/126", 127).cidrs).toEqual([
      "::ffff:192.0.2.0/127",
      "::ffff:192.0.2.2/127",
    ]);
  });

  test("::/0 into /64s is refused at once, with the exact count in the message", () => {
    const error = rejection(() => splitCidr("::/0", 64));
    expect(error.code).toBe("RESULT_TOO_LARGE");
    expect(error.message).toContain("18446744073709551616");
    expect(error.message).toContain(String(MAX_RESULT_CIDRS));
    expect(error.issues).toEqual([]);
    expect(rejection(() => splitCidr("::/0", 128)).message).toContain(String(2n ** 128n));
  });

  test("the limit is exact: 8192 subnets pass, 16384 do not, unless the limit is larger", () => {
    expect(splitCidr("10.0.0.0/11", 24).cidrs).toHaveLength(8192);
    expect(rejection(() => splitCidr("10.0.0.0/10", 24)).message).toContain("gives 16384 CIDRs");
    expect(splitCidr("10.0.0.0/10", 24, LOCAL_CIDR_LIMITS).cidrs).toHaveLength(16384);
    expect(splitCidr("10.0.0.0/10", 24, LOCAL_CIDR_LIMITS).cidrs[16383]).toBe("10.63.255.0/24");
  });

  test("prefixLength out of the family's range or shorter than the block's is INVALID_INPUT on its field", () => {
    const cases: [string, number, string][] = [
      ["10.0.0.0/16", 8, "prefixLength 8 is shorter than the block's own /16; it must be from 16 to 32"],
      ["10.0.0.0/16", 33, "prefixLength 33 is outside 0 to 32 for IPv4"],
      ["2001:db8::/32", 129, "prefixLength 129 is outside 0 to 128 for IPv6"],
      ["10.0.0.0/16", -1, "prefixLength -1 is outside 0 to 32 for IPv4"],
      ["10.0.0.0/16", 24.5, "prefixLength must be an integer; it is 24.5"],
    ];
    for (const [cidr, prefixLength, message] of cases) {
      const error = rejection(() => splitCidr(cidr, prefixLength));
      expect(error.code).toBe("INVALID_INPUT");
      expect(error.issues).toEqual([{ message, path: ["prefixLength"] }]);
    }
  });

  test("an invalid block and an invalid length are both reported", () => {
    const error = rejection(() => splitCidr("10.0.0.0/33", 200));
    expect(error.issues.map((i) => i.path)).toEqual([["cidr"], ["prefixLength"]]);
    expect(error.issues[1]!.message).toBe("prefixLength 200 is outside 0 to 128");
    expect(rejection(() => splitCidr("", 24)).issues.map((i) => i.path)).toEqual([["cidr"]]);
  });
});

describe("cidr-split pages (offset, limit)", () => {
  test("the subnets numbered offset to offset + limit − 1, fewer at the end, subnetCount still all of them", () => {
    expect(splitCidr("10.0.0.0/22", 24, undefined, { offset: "1", limit: 2 })).toEqual({
      network: "10.0.0.0/22",
      prefixLength: 24,
      subnetCount: "4",
      cidrs: ["10.0.1.0/24", "10.0.2.0/24"],
    });
    expect(splitCidr("10.0.0.0/22", 24, undefined, { offset: "3", limit: 10 }).cidrs).toEqual([
      "10.0.3.0/24",
    ]);
    expect(splitCidr("10.0.0.0/22", 24, undefined, { limit: 10 })).toEqual(splitCidr("10.0.0.0/22", 24));
    // offset alone: every subnet from there on, within the result limit
    expect(splitCidr("10.0.0.0/22", 24, undefined, { offset: "2" }).cidrs).toEqual([
      "10.0.2.0/24",
      "10.0.3.0/24",
    ]);
  });

  test("a page is never RESULT_TOO_LARGE, however many subnets the block holds; carries cross words", () => {
    expect(splitCidr("::/0", 128, undefined, { offset: String(2n ** 128n - 1n), limit: 5 })).toEqual({
      network: "::/0",
      prefixLength: 128,
      subnetCount: String(2n ** 128n),
      cidrs: ["ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128"],
    });
    expect(splitCidr("2001:db8::/32", 64, undefined, { offset: "4294967295", limit: 1 }).cidrs).toEqual([
      "2001:db8:ffff:ffff::/64",
    ]);
    expect(splitCidr("::/0", 64, undefined, { offset: String(2n ** 32n - 1n), limit: 2 }).cidrs).toEqual([
      "0:0:ffff:ffff::/64",
      "0:1::/64",
    ]);
    // Terraform: cidrsubnet("10.1.0.0/16", 8, 2) = "10.1.2.0/24"; ("fd00:fd12:3456:7890::/56", 16, 162)
    expect(splitCidr("10.1.0.0/16", 24, undefined, { offset: "2", limit: 1 }).cidrs).toEqual(["10.1.2.0/24"]);
    expect(splitCidr("fd00:fd12:3456:7890::/56", 72, undefined, { offset: "162", limit: 1 }).cidrs).toEqual([
      "fd00:fd12:3456:7800:a200::/72",
    ]);
  });

  test("offset alone past the limit is RESULT_TOO_LARGE counting from the offset", () => {
    const error = rejection(() => splitCidr("10.0.0.0/8", 24, undefined, { offset: "100" }));
    expect(error.code).toBe("RESULT_TOO_LARGE");
    expect(error.message).toContain("from number 100 gives 65436 CIDRs");
    expect(splitCidr("10.0.0.0/8", 24, undefined, { offset: "65000" }).cidrs).toHaveLength(536);
  });

  test("an offset at or past subnetCount, a bad offset text and a limit out of range are INVALID_INPUT on their fields", () => {
    const past = rejection(() => splitCidr("10.0.0.0/22", 24, undefined, { offset: "4", limit: 1 }));
    expect(past.code).toBe("INVALID_INPUT");
    expect(past.issues).toEqual([
      {
        message:
          "offset must be below subnetCount 4 (10.0.0.0/22 holds 4 subnets of /24, numbered from 0); it is 4",
        path: ["offset"],
      },
    ]);
    for (const offset of ["-1", "01", "1.5", "x", ""]) {
      expect(
        rejection(() => splitCidr("10.0.0.0/22", 24, undefined, { offset })).issues.map((i) => i.path),
      ).toEqual([["offset"]]);
    }
    for (const limit of [0, 10001, 1.5]) {
      expect(rejection(() => splitCidr("10.0.0.0/22", 24, undefined, { limit })).issues).toEqual([
        { message: `limit must be an integer from 1 to 10000; it is ${limit}`, path: ["limit"] },
      ]);
    }
    expect(splitCidr("10.0.0.0/8", 32, LOCAL_CIDR_LIMITS, { limit: 20000 }).cidrs).toHaveLength(20000);
  });
});

describe("cidr-contains", () => {
  const blocks = [
    "10.0.0.0/8",
    "10.1.0.0/16",
    "10.2.0.0/25",
    "10.2.0.128/25",
    "2001:db8::/32",
    "10.1.0.0/16",
  ];

  test("contained, overlaps and the most specific block, per entry in input order", () => {
    const { results } = cidrsContain(blocks, [
      "10.1.2.3",
      "10.2.0.0/24",
      "11.0.0.0/8",
      "0.0.0.0/0",
      "10.2.0.200",
      "2001:db8:1::/48",
      "10.1.0.0/16",
    ]);
    expect(results).toEqual([
      { entry: "10.1.2.3/32", contained: true, overlaps: true, matchedCidr: "10.1.0.0/16" },
      { entry: "10.2.0.0/24", contained: true, overlaps: true, matchedCidr: "10.0.0.0/8" },
      { entry: "11.0.0.0/8", contained: false, overlaps: false, matchedCidr: null },
      { entry: "0.0.0.0/0", contained: false, overlaps: true, matchedCidr: null },
      { entry: "10.2.0.200/32", contained: true, overlaps: true, matchedCidr: "10.2.0.128/25" },
      { entry: "2001:db8:1::/48", contained: true, overlaps: true, matchedCidr: "2001:db8::/32" },
      { entry: "10.1.0.0/16", contained: true, overlaps: true, matchedCidr: "10.1.0.0/16" },
    ]);
  });

  test("two blocks covering an entry together overlap it but do not contain it", () => {
    expect(cidrsContain(["10.2.0.0/25", "10.2.0.128/25"], ["10.2.0.0/24"]).results[0]).toEqual({
      entry: "10.2.0.0/24",
      contained: false,
      overlaps: true,
      matchedCidr: null,
    });
  });

  test("IPv4-mapped IPv6 is IPv6: it never matches an IPv4 block, and IPv4 never matches ::/0", () => {
    const { results } = cidrsContain(["10.0.0.0/8", "::ffff:0:0/96"], ["::ffff:10.0.0.1", "10.0.0.1"]);
    expect(results.map((r) => r.matchedCidr)).toEqual(["::ffff:0.0.0.0/96", "10.0.0.0/8"]);
    expect(cidrsContain(["::/0"], ["10.0.0.1"]).results[0]!.overlaps).toBe(false);
    expect(cidrsContain(["0.0.0.0/0"], ["::ffff:10.0.0.1"]).results[0]!.overlaps).toBe(false);
  });

  test("the edges of the space", () => {
    const { results } = cidrsContain(
      ["255.255.255.255", "0.0.0.0/1", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128"],
      ["255.255.255.255", "255.255.255.254/31", "127.255.255.255", "128.0.0.0", "::/0"],
    );
    expect(results.map((r) => [r.contained, r.overlaps, r.matchedCidr])).toEqual([
      [true, true, "255.255.255.255/32"],
      [false, true, null],
      [true, true, "0.0.0.0/1"],
      [false, false, null],
      [false, true, null],
    ]);
  });

  test("each list out of bounds is an issue at the list; both together over 1000 is one issue at []", () => {
    expect(rejection(() => cidrsContain([], [])).issues).toEqual([
      { message: "cidrs must have 1 to 1000 entries; it has 0", path: ["cidrs"] },
      { message: "entries must have 1 to 1000 entries; it has 0", path: ["entries"] },
    ]);
    expect(rejection(() => cidrsContain(scattered(600), scattered(401))).issues).toEqual([
      { message: "cidrs and entries together must have at most 1000 entries; they have 1001", path: [] },
    ]);
    expect(cidrsContain(scattered(600), scattered(400)).results).toHaveLength(400);
    expect(cidrsContain(scattered(600), scattered(401), LOCAL_CIDR_LIMITS).results).toHaveLength(401);
  });

  test("invalid entries of both lists are all reported, with paths only", () => {
    const error = rejection(() => cidrsContain(["10.0.0.0/8", "10.0.0.0/33"], ["x", "10.0.0.1", "1.2.3"]));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.issues.map((i) => i.path)).toEqual([
      ["cidrs", 1],
      ["entries", 0],
      ["entries", 2],
    ]);
    expect(error.issues.every((i) => Object.keys(i).join() === "message,path")).toBe(true);
  });
});

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
