/** cidr-subtract (spec §2.4, §2.5, §4.2; CONTRACT §1.1, §2, §3). Expected values are worked out by hand. */
import { describe, expect, test } from "bun:test";
import { type CidrSubtractResult, subtractCidrs } from "../../src/domain/cidr/subtract.ts";
import { rejection } from "./rejection.ts";

const TWO_127 = "170141183460469231731687303715884105728";
const TWO_128 = "340282366920938463463374607431768211456";

describe("cidr-subtract results", () => {
  const rows: [string, string[], string[], CidrSubtractResult][] = [
    [
      "a quarter removed from a /24",
      ["10.0.0.0/24"],
      ["10.0.0.0/26"],
      {
        family: "ipv4",
        normalizedInclude: ["10.0.0.0/24"],
        normalizedExclude: ["10.0.0.0/26"],
        cidrs: ["10.0.0.64/26", "10.0.0.128/25"],
        includedAddressCount: "256",
        removedAddressCount: "64",
        remainingAddressCount: "192",
      },
    ],
    [
      "nothing excluded: the union of the includes, minimal and sorted",
      ["10.0.2.0/24", "10.0.0.128/25", "10.0.0.0/25"],
      [],
      {
        family: "ipv4",
        normalizedInclude: ["10.0.2.0/24", "10.0.0.128/25", "10.0.0.0/25"],
        normalizedExclude: [],
        cidrs: ["10.0.0.0/24", "10.0.2.0/24"],
        includedAddressCount: "512",
        removedAddressCount: "0",
        remainingAddressCount: "512",
      },
    ],
    [
      "everything removed is a success with no CIDRs",
      ["10.0.0.0/24"],
      ["10.0.0.0/16"],
      {
        family: "ipv4",
        normalizedInclude: ["10.0.0.0/24"],
        normalizedExclude: ["10.0.0.0/16"],
        cidrs: [],
        includedAddressCount: "256",
        removedAddressCount: "256",
        remainingAddressCount: "0",
      },
    ],
    [
      "an exclude outside the include removes nothing",
      ["10.0.0.0/24"],
      ["192.168.0.0/16"],
      {
        family: "ipv4",
        normalizedInclude: ["10.0.0.0/24"],
        normalizedExclude: ["192.168.0.0/16"],
        cidrs: ["10.0.0.0/24"],
        includedAddressCount: "256",
        removedAddressCount: "0",
        remainingAddressCount: "256",
      },
    ],
    [
      "removed counts only the intersection, and overlapping excludes once",
      ["10.0.0.0/24"],
      ["10.0.0.128/25", "10.0.1.0/24", "10.0.0.192/26"],
      {
        family: "ipv4",
        normalizedInclude: ["10.0.0.0/24"],
        normalizedExclude: ["10.0.0.128/25", "10.0.1.0/24", "10.0.0.192/26"],
        cidrs: ["10.0.0.0/25"],
        includedAddressCount: "256",
        removedAddressCount: "128",
        remainingAddressCount: "128",
      },
    ],
    [
      "one address out of a /30",
      ["10.0.0.0/30"],
      ["10.0.0.1"],
      {
        family: "ipv4",
        normalizedInclude: ["10.0.0.0/30"],
        normalizedExclude: ["10.0.0.1/32"],
        cidrs: ["10.0.0.0/32", "10.0.0.2/31"],
        includedAddressCount: "4",
        removedAddressCount: "1",
        remainingAddressCount: "3",
      },
    ],
    [
      "normalized lists keep order, duplicates and normalization",
      ["10.0.0.5/24", "10.0.0.0/24"],
      ["10.0.0.7/31", "10.0.0.6/31"],
      {
        family: "ipv4",
        normalizedInclude: ["10.0.0.0/24", "10.0.0.0/24"],
        normalizedExclude: ["10.0.0.6/31", "10.0.0.6/31"],
        cidrs: [
          "10.0.0.0/30",
          "10.0.0.4/31",
          "10.0.0.8/29",
          "10.0.0.16/28",
          "10.0.0.32/27",
          "10.0.0.64/26",
          "10.0.0.128/25",
        ],
        includedAddressCount: "256",
        removedAddressCount: "2",
        remainingAddressCount: "254",
      },
    ],
    [
      "the two ends of the IPv4 space",
      ["0.0.0.0/0"],
      ["0.0.0.0/1", "255.255.255.255"],
      {
        family: "ipv4",
        normalizedInclude: ["0.0.0.0/0"],
        normalizedExclude: ["0.0.0.0/1", "255.255.255.255/32"],
        cidrs: [
          "128.0.0.0/2",
          "192.0.0.0/3",
          "224.0.0.0/4",
          "240.0.0.0/5",
          "248.0.0.0/6",
          "252.0.0.0/7",
          "254.0.0.0/8",
          "255.0.0.0/9",
          "255.128.0.0/10",
          "255.192.0.0/11",
          "255.224.0.0/12",
          "255.240.0.0/13",
          "255.248.0.0/14",
          "255.252.0.0/15",
          "255.254.0.0/16",
          "255.255.0.0/17",
          "255.255.128.0/18",
          "255.255.192.0/19",
          "255.255.224.0/20",
          "255.255.240.0/21",
          "255.255.248.0/22",
          "255.255.252.0/23",
          "255.255.254.0/24",
          "255.255.255.0/25",
          "255.255.255.128/26",
          "255.255.255.192/27",
          "255.255.255.224/28",
          "255.255.255.240/29",
          "255.255.255.248/30",
          "255.255.255.252/31",
          "255.255.255.254/32",
        ],
        includedAddressCount: "4294967296",
        removedAddressCount: "2147483649",
        remainingAddressCount: "2147483647",
      },
    ],
    [
      "IPv6: half of everything",
      ["::/0"],
      ["::/1"],
      {
        family: "ipv6",
        normalizedInclude: ["::/0"],
        normalizedExclude: ["::/1"],
        cidrs: ["8000::/1"],
        includedAddressCount: TWO_128,
        removedAddressCount: TWO_127,
        remainingAddressCount: TWO_127,
      },
    ],
    [
      "IPv6: a /64 out of a /62, and the IPv4-mapped block printed mixed",
      ["2001:DB8:0:4::/62", "::ffff:0:0/96"],
      ["2001:db8:0:5::1/64", "::ffff:10.0.0.0/104"],
      {
        family: "ipv6",
        normalizedInclude: ["2001:db8:0:4::/62", "::ffff:0.0.0.0/96"],
        normalizedExclude: ["2001:db8:0:5::/64", "::ffff:10.0.0.0/104"],
        cidrs: [
          "::ffff:0.0.0.0/101",
          "::ffff:8.0.0.0/103",
          "::ffff:11.0.0.0/104",
          "::ffff:12.0.0.0/102",
          "::ffff:16.0.0.0/100",
          "::ffff:32.0.0.0/99",
          "::ffff:64.0.0.0/98",
          "::ffff:128.0.0.0/97",
          "2001:db8:0:4::/64",
          "2001:db8:0:6::/63",
        ],
        includedAddressCount: "73786976299133173760", // 4·2^64 + 2^32
        removedAddressCount: "18446744073726328832", // 2^64 + 2^24
        remainingAddressCount: "55340232225406844928", // 3·2^64 + 2^32 − 2^24
      },
    ],
  ];
  test.each(rows)("%s", (_, include, exclude, expected) => {
    const result = subtractCidrs(include, exclude);
    expect(result).toEqual(expected);
    expect(Object.keys(result)).toEqual([
      "family",
      "normalizedInclude",
      "normalizedExclude",
      "cidrs",
      "includedAddressCount",
      "removedAddressCount",
      "remainingAddressCount",
    ]);
  });
});

describe("the 10000-CIDR limit", () => {
  // 2001:db8::/103 + /106 + /107 + /108 + /112 are contiguous: 625 blocks of 2^16 addresses.
  // Removing the first address of each block (i·2^16) leaves 625 gaps [1, 2^16 − 1], and each
  // needs exactly 16 prefixes (/128, /127, …, /113): 10000 CIDRs, the limit.
  const include = [
    "2001:db8::/103",
    "2001:db8::200:0/106",
    "2001:db8::240:0/107",
    "2001:db8::260:0/108",
    "2001:db8::270:0/112",
  ];
  const exclude = Array.from({ length: 625 }, (_, i) => `2001:db8::${i.toString(16)}:0`);

  test("exactly 10000 CIDRs is a result", () => {
    const result = subtractCidrs(include, exclude);
    expect(result.cidrs.length).toBe(10000);
    expect(result.cidrs.slice(0, 3)).toEqual(["2001:db8::1/128", "2001:db8::2/127", "2001:db8::4/126"]);
    expect(result.cidrs.slice(14, 17)).toEqual([
      "2001:db8::4000/114",
      "2001:db8::8000/113",
      "2001:db8::1:1/128",
    ]);
    expect(result.cidrs.at(-1)).toBe("2001:db8::270:8000/113");
    expect(result.normalizedExclude[0]).toBe("2001:db8::/128");
    expect(result.includedAddressCount).toBe("40960000");
    expect(result.removedAddressCount).toBe("625");
    expect(result.remainingAddressCount).toBe("40959375");
  });

  test("one more is RESULT_TOO_LARGE, with the limit in the message and no partial list", () => {
    const error = rejection(() => subtractCidrs([...include, "2001:db8:ffff::1"], exclude));
    expect(error.code).toBe("RESULT_TOO_LARGE");
    expect(error.message).toBe(
      "The result would have more than 10000 CIDRs, the limit; subtract fewer scattered ranges or split the request.",
    );
    expect(error.issues).toEqual([]);
  });

  test("an adversarial request (::/0 minus 999 scattered addresses) is refused", () => {
    const scattered = Array.from({ length: 999 }, (_, i) => {
      const g = (n: number) => ((n * 40503 + i * 9973) & 0xffff).toString(16);
      return `${g(1)}:${g(2)}:${g(3)}:${g(4)}:${g(5)}:${g(6)}:${g(7)}:${g(8)}`;
    });
    const error = rejection(() => subtractCidrs(["::/0"], scattered));
    expect(error.code).toBe("RESULT_TOO_LARGE");
  });
});

describe("cidr-subtract errors", () => {
  test("every invalid entry of both lists is reported with path, index and list", () => {
    const error = rejection(() =>
      subtractCidrs(["10.0.0.0/33", "10.0.0.0/8"], ["bad", "10.0.0.1", "::1/129"]),
    );
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toBe("The request has 3 invalid values.");
    expect(error.issues).toEqual([
      {
        message: '"10.0.0.0/33" is not a valid IPv4 CIDR: prefix length 33 is above 32, the IPv4 maximum',
        path: ["include", 0],
        index: 0,
        list: "include",
      },
      {
        message:
          '"bad" is not a valid IP address: expected an IPv4 address such as 192.0.2.1 or an IPv6 address such as 2001:db8::1',
        path: ["exclude", 0],
        index: 0,
        list: "exclude",
      },
      {
        message: '"::1/129" is not a valid IPv6 CIDR: prefix length 129 is above 128, the IPv6 maximum',
        path: ["exclude", 2],
        index: 2,
        list: "exclude",
      },
    ]);
  });

  test("mixed families: the first differing entry, reading include then exclude", () => {
    const error = rejection(() =>
      subtractCidrs(["10.0.0.0/8", "10.1.0.0/16"], ["10.1.0.0/24", "::/0", "::1"]),
    );
    expect(error.code).toBe("MIXED_ADDRESS_FAMILIES");
    expect(error.issues).toEqual([
      {
        message:
          '"::/0" is IPv6, but the first entry "10.0.0.0/8" is IPv4; all addresses must be of one family',
        path: ["exclude", 1],
        index: 1,
        list: "exclude",
      },
    ]);
  });

  test("mixed families inside include", () => {
    const error = rejection(() => subtractCidrs(["2001:db8::/32", "192.0.2.0/24"], ["10.0.0.0/8"]));
    expect(error.code).toBe("MIXED_ADDRESS_FAMILIES");
    expect(error.issues).toEqual([
      {
        message:
          '"192.0.2.0/24" is IPv4, but the first entry "2001:db8::/32" is IPv6; all addresses must be of one family',
        path: ["include", 1],
        index: 1,
        list: "include",
      },
    ]);
  });

  test("invalid entries win over mixed families", () => {
    const error = rejection(() => subtractCidrs(["10.0.0.0/8"], ["::/0", "10.0.0.256"]));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.issues.map((i) => i.path)).toEqual([["exclude", 1]]);
  });

  test("entry length is 1 to 64 characters", () => {
    const error = rejection(() => subtractCidrs([""], ["x".repeat(65)]));
    expect(error.issues).toEqual([
      { message: "entry is empty; expected an IP address", path: ["include", 0], index: 0, list: "include" },
      {
        message: "entry is 65 characters long; at most 64 are allowed",
        path: ["exclude", 0],
        index: 0,
        list: "exclude",
      },
    ]);
  });

  test("list lengths: include 1 to 1000, exclude up to 1000, both together up to 1000", () => {
    expect(rejection(() => subtractCidrs([], [])).issues).toEqual([
      { message: "include must have 1 to 1000 entries; it has 0", path: ["include"] },
    ]);
    const many = Array.from({ length: 1001 }, () => "10.0.0.1");
    expect(rejection(() => subtractCidrs(["10.0.0.0/8"], many)).issues).toEqual([
      { message: "exclude must have at most 1000 entries; it has 1001", path: ["exclude"] },
    ]);
    expect(rejection(() => subtractCidrs(many.slice(0, 600), many.slice(0, 401))).issues).toEqual([
      { message: "include and exclude together must have at most 1000 entries; they have 1001", path: [] },
    ]);
    expect(subtractCidrs(many.slice(0, 600), many.slice(0, 400)).cidrs).toEqual([]);
  });
});
