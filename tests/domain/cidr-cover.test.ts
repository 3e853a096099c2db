/** cidr-cover (spec §2.2, §2.3, §4.1; CONTRACT §1.1, §2). Expected values are worked out by hand. */
import { describe, expect, test } from "bun:test";
import { envelopeOf, MORE_ISSUES_OMITTED } from "../../src/contract/envelope.ts";
import { type CidrCoverResult, coverCidrs } from "../../src/domain/cidr/cover.ts";
import { rejection } from "./rejection.ts";

const TWO_128 = "340282366920938463463374607431768211456";

describe("cidr-cover results", () => {
  const rows: [string, string[], CidrCoverResult][] = [
    [
      "addresses and CIDRs, host bits normalized, whitespace trimmed",
      ["10.0.0.1", "10.0.0.7/30", " 10.0.1.0/24 "],
      {
        family: "ipv4",
        normalizedInputs: ["10.0.0.1/32", "10.0.0.4/30", "10.0.1.0/24"],
        cidr: "10.0.0.0/23",
        range: { first: "10.0.0.0", last: "10.0.1.255" },
        inputAddressCount: "261", // 1 + 4 + 256
        coveredAddressCount: "512",
        additionalAddressCount: "251",
      },
    ],
    [
      "one address is its own /32",
      ["192.0.2.1"],
      {
        family: "ipv4",
        normalizedInputs: ["192.0.2.1/32"],
        cidr: "192.0.2.1/32",
        range: { first: "192.0.2.1", last: "192.0.2.1" },
        inputAddressCount: "1",
        coveredAddressCount: "1",
        additionalAddressCount: "0",
      },
    ],
    [
      "duplicates kept in normalizedInputs, overlaps counted once",
      ["10.0.0.0/24", "10.0.0.0/24", "10.0.0.128/25", "10.0.0.77"],
      {
        family: "ipv4",
        normalizedInputs: ["10.0.0.0/24", "10.0.0.0/24", "10.0.0.128/25", "10.0.0.77/32"],
        cidr: "10.0.0.0/24",
        range: { first: "10.0.0.0", last: "10.0.0.255" },
        inputAddressCount: "256",
        coveredAddressCount: "256",
        additionalAddressCount: "0",
      },
    ],
    [
      "adjacent halves",
      ["10.0.0.128/25", "10.0.0.0/25"],
      {
        family: "ipv4",
        normalizedInputs: ["10.0.0.128/25", "10.0.0.0/25"],
        cidr: "10.0.0.0/24",
        range: { first: "10.0.0.0", last: "10.0.0.255" },
        inputAddressCount: "256",
        coveredAddressCount: "256",
        additionalAddressCount: "0",
      },
    ],
    [
      "a cover that straddles a big boundary is large",
      ["127.255.255.255", "128.0.0.0"],
      {
        family: "ipv4",
        normalizedInputs: ["127.255.255.255/32", "128.0.0.0/32"],
        cidr: "0.0.0.0/0",
        range: { first: "0.0.0.0", last: "255.255.255.255" },
        inputAddressCount: "2",
        coveredAddressCount: "4294967296",
        additionalAddressCount: "4294967294",
      },
    ],
    [
      "the whole IPv4 space",
      ["0.0.0.0/0", "10.0.0.0/8"],
      {
        family: "ipv4",
        normalizedInputs: ["0.0.0.0/0", "10.0.0.0/8"],
        cidr: "0.0.0.0/0",
        range: { first: "0.0.0.0", last: "255.255.255.255" },
        inputAddressCount: "4294967296",
        coveredAddressCount: "4294967296",
        additionalAddressCount: "0",
      },
    ],
    [
      "the top of the IPv4 space",
      ["255.255.255.254", "255.255.255.255"],
      {
        family: "ipv4",
        normalizedInputs: ["255.255.255.254/32", "255.255.255.255/32"],
        cidr: "255.255.255.254/31",
        range: { first: "255.255.255.254", last: "255.255.255.255" },
        inputAddressCount: "2",
        coveredAddressCount: "2",
        additionalAddressCount: "0",
      },
    ],
    [
      "IPv6 addresses",
      ["2001:db8::1", "2001:DB8::ff"],
      {
        family: "ipv6",
        normalizedInputs: ["2001:db8::1/128", "2001:db8::ff/128"],
        cidr: "2001:db8::/120",
        range: { first: "2001:db8::", last: "2001:db8::ff" },
        inputAddressCount: "2",
        coveredAddressCount: "256",
        additionalAddressCount: "254",
      },
    ],
    [
      "the whole IPv6 space: 2^128 exactly",
      ["::/0", "::1"],
      {
        family: "ipv6",
        normalizedInputs: ["::/0", "::1/128"],
        cidr: "::/0",
        range: { first: "::", last: "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff" },
        inputAddressCount: TWO_128,
        coveredAddressCount: TWO_128,
        additionalAddressCount: "0",
      },
    ],
    [
      "the two ends of the IPv6 space",
      ["::", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
      {
        family: "ipv6",
        normalizedInputs: ["::/128", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128"],
        cidr: "::/0",
        range: { first: "::", last: "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff" },
        inputAddressCount: "2",
        coveredAddressCount: TWO_128,
        additionalAddressCount: "340282366920938463463374607431768211454",
      },
    ],
    [
      "IPv4-mapped text stays IPv6 and prints in mixed notation",
      ["::ffff:10.0.0.1", "::FFFF:a00:2"],
      {
        family: "ipv6",
        normalizedInputs: ["::ffff:10.0.0.1/128", "::ffff:10.0.0.2/128"],
        cidr: "::ffff:10.0.0.0/126",
        range: { first: "::ffff:10.0.0.0", last: "::ffff:10.0.0.3" },
        inputAddressCount: "2",
        coveredAddressCount: "4",
        additionalAddressCount: "2",
      },
    ],
    [
      "IPv6 /64s in two /48s",
      ["2001:db8:1:2::/64", "2001:db8:1:3:ffff::/64", "2001:db8:2::/48"],
      {
        family: "ipv6",
        normalizedInputs: ["2001:db8:1:2::/64", "2001:db8:1:3::/64", "2001:db8:2::/48"],
        cidr: "2001:db8::/46",
        range: { first: "2001:db8::", last: "2001:db8:3:ffff:ffff:ffff:ffff:ffff" },
        inputAddressCount: "1208962713102776593809408", // 2·2^64 + 2^80
        coveredAddressCount: "4835703278458516698824704", // 2^82
        additionalAddressCount: "3626740565355740105015296",
      },
    ],
  ];
  test.each(rows)("%s", (_, inputs, expected) => {
    const result = coverCidrs(inputs);
    expect(result).toEqual(expected);
    expect(Object.keys(result)).toEqual([
      "family",
      "normalizedInputs",
      "cidr",
      "range",
      "inputAddressCount",
      "coveredAddressCount",
      "additionalAddressCount",
    ]);
  });

  test("an entry of exactly 64 characters, whitespace included, is accepted", () => {
    const entry = `${" ".repeat(54)}10.0.0.1  `;
    expect(entry.length).toBe(64);
    expect(coverCidrs([entry]).cidr).toBe("10.0.0.1/32");
  });

  test("1000 entries are accepted", () => {
    const inputs = Array.from({ length: 1000 }, (_, i) => `10.${i >> 8}.${i & 255}.0/24`);
    const result = coverCidrs(inputs);
    expect(result.cidr).toBe("10.0.0.0/14");
    expect(result.inputAddressCount).toBe(String(1000 * 256));
    expect(result.additionalAddressCount).toBe(String(4 * 65536 - 1000 * 256));
  });
});

describe("cidr-cover errors", () => {
  test("every invalid entry is reported, with path and index, and nothing about families", () => {
    const error = rejection(() => coverCidrs(["10.0.0.1", "10.0.0.256", "x", "::1", "10.0.0.0/33"]));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toBe("The request has 3 invalid values.");
    expect(error.issues).toEqual([
      {
        message: '"10.0.0.256" is not a valid IPv4 address: octet 256 is above 255',
        path: ["inputs", 1],
        index: 1,
      },
      {
        message:
          '"x" is not a valid IP address: expected an IPv4 address such as 192.0.2.1 or an IPv6 address such as 2001:db8::1',
        path: ["inputs", 2],
        index: 2,
      },
      {
        message: '"10.0.0.0/33" is not a valid IPv4 CIDR: prefix length 33 is above 32, the IPv4 maximum',
        path: ["inputs", 4],
        index: 4,
      },
    ]);
  });

  test("one invalid entry: its message is the error's message", () => {
    const error = rejection(() => coverCidrs(["fe80::1%eth0"]));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toBe(error.issues[0]!.message);
    expect(error.issues).toEqual([
      {
        message:
          '"fe80::1%eth0" is not a valid IPv6 address: zone indexes such as "%eth0" are not accepted: a zone names a link on one host and has no meaning in address arithmetic',
        path: ["inputs", 0],
        index: 0,
      },
    ]);
  });

  test("entry length is 1 to 64 characters, measured before trimming", () => {
    const padded = ` ${"10.0.0.1".padEnd(64)}`; // 65 characters around a valid address
    const error = rejection(() => coverCidrs(["", padded, "10.0.0.1"]));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.issues).toEqual([
      { message: "entry is empty; expected an IP address", path: ["inputs", 0], index: 0 },
      { message: "entry is 65 characters long; at most 64 are allowed", path: ["inputs", 1], index: 1 },
    ]);
  });

  test("mixed families: one issue at the first entry whose family differs from the first entry's", () => {
    const error = rejection(() => coverCidrs(["10.0.0.1", "10.0.0.2", " ::1 ", "::2", "10.0.0.3"]));
    expect(error.code).toBe("MIXED_ADDRESS_FAMILIES");
    expect(error.issues).toEqual([
      {
        message: '"::1" is IPv6, but the first entry "10.0.0.1" is IPv4; all addresses must be of one family',
        path: ["inputs", 2],
        index: 2,
      },
    ]);
  });

  test("IPv4-mapped IPv6 is IPv6: mixing it with IPv4 is mixing families", () => {
    const error = rejection(() => coverCidrs(["::ffff:1.2.3.4", "1.2.3.4"]));
    expect(error.code).toBe("MIXED_ADDRESS_FAMILIES");
    expect(error.issues).toEqual([
      {
        message:
          '"1.2.3.4" is IPv4, but the first entry "::ffff:1.2.3.4" is IPv6; all addresses must be of one family',
        path: ["inputs", 1],
        index: 1,
      },
    ]);
  });

  test("more than 100 invalid entries: checking stops at 101, the envelope lists 100 and says more", () => {
    const inputs = Array.from({ length: 150 }, (_, i) => `10.0.0.${256 + i}`);
    const error = rejection(() => coverCidrs(inputs));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.issues.length).toBe(101);
    expect(error.issues[99]).toEqual({
      message: '"10.0.0.355" is not a valid IPv4 address: octet 355 is above 255',
      path: ["inputs", 99],
      index: 99,
    });
    const envelope = envelopeOf(error);
    expect(envelope.error.issues).toHaveLength(100);
    expect(envelope.error.message).toBe(MORE_ISSUES_OMITTED);
  });

  test("the list must have 1 to 1000 entries", () => {
    for (const inputs of [[], Array.from({ length: 1001 }, () => "10.0.0.1")]) {
      const error = rejection(() => coverCidrs(inputs));
      expect(error.code).toBe("INVALID_INPUT");
      expect(error.issues).toEqual([
        { message: `inputs must have 1 to 1000 entries; it has ${inputs.length}`, path: ["inputs"] },
      ]);
    }
  });

  test("a value that is not a string is an invalid entry", () => {
    const error = rejection(() => coverCidrs(["10.0.0.1", 42 as unknown as string]));
    expect(error.issues).toEqual([{ message: "entry must be a string", path: ["inputs", 1], index: 1 }]);
  });
});
