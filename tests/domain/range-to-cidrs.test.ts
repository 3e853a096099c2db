/** range-to-cidrs (spec §2.6, §2.7, §4.3; CONTRACT §1.1, §2, §3). Expected values are worked out by hand. */
import { describe, expect, test } from "bun:test";
import { type RangeToCidrsResult, rangeToCidrs } from "../../src/domain/cidr/range-to-cidrs.ts";
import { parseAddr } from "../../src/domain/ip/addr.ts";
import { IpRange } from "../../src/domain/ip/range.ts";
import { type Family, formatCidr } from "./model.ts";
import { rejection } from "./rejection.ts";

/** The CIDRs of [1, 2^w − 2]: 2^k at 2^k going up, then halves of the upper half going down. */
function allButTheEnds(family: Family): string[] {
  const w = family === 4 ? 32 : 128;
  const out: string[] = [];
  for (let k = 0; k <= w - 2; k++) out.push(formatCidr(family, 1n << BigInt(k), w - k));
  let cur = 1n << BigInt(w - 1);
  for (let k = w - 2; k >= 0; k--) {
    out.push(formatCidr(family, cur, w - k));
    cur += 1n << BigInt(k);
  }
  return out;
}

describe("range-to-cidrs results", () => {
  const rows: [string, string, string, RangeToCidrsResult][] = [
    [
      "a small IPv4 range",
      "10.0.0.5",
      "10.0.0.77",
      {
        family: "ipv4",
        range: { first: "10.0.0.5", last: "10.0.0.77" },
        cidrs: [
          "10.0.0.5/32",
          "10.0.0.6/31",
          "10.0.0.8/29",
          "10.0.0.16/28",
          "10.0.0.32/27",
          "10.0.0.64/29",
          "10.0.0.72/30",
          "10.0.0.76/31",
        ],
        cidrCount: 8,
        addressCount: "73",
      },
    ],
    [
      "one address",
      "192.0.2.1",
      "192.0.2.1",
      {
        family: "ipv4",
        range: { first: "192.0.2.1", last: "192.0.2.1" },
        cidrs: ["192.0.2.1/32"],
        cidrCount: 1,
        addressCount: "1",
      },
    ],
    [
      "whitespace around the endpoints is ignored; network and broadcast addresses count",
      " 10.0.0.0\t",
      "10.0.0.255\r\n",
      {
        family: "ipv4",
        range: { first: "10.0.0.0", last: "10.0.0.255" },
        cidrs: ["10.0.0.0/24"],
        cidrCount: 1,
        addressCount: "256",
      },
    ],
    [
      "the whole IPv4 space",
      "0.0.0.0",
      "255.255.255.255",
      {
        family: "ipv4",
        range: { first: "0.0.0.0", last: "255.255.255.255" },
        cidrs: ["0.0.0.0/0"],
        cidrCount: 1,
        addressCount: "4294967296",
      },
    ],
    [
      "the whole IPv6 space",
      "::",
      "FFFF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF",
      {
        family: "ipv6",
        range: { first: "::", last: "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff" },
        cidrs: ["::/0"],
        cidrCount: 1,
        addressCount: "340282366920938463463374607431768211456",
      },
    ],
    [
      "IPv6 endpoints print canonically",
      "2001:DB8:0:0::1",
      "2001:0db8::3",
      {
        family: "ipv6",
        range: { first: "2001:db8::1", last: "2001:db8::3" },
        cidrs: ["2001:db8::1/128", "2001:db8::2/127"],
        cidrCount: 2,
        addressCount: "3",
      },
    ],
    [
      "IPv4-mapped endpoints are IPv6",
      "::ffff:10.0.0.0",
      "::ffff:10.0.0.255",
      {
        family: "ipv6",
        range: { first: "::ffff:10.0.0.0", last: "::ffff:10.0.0.255" },
        cidrs: ["::ffff:10.0.0.0/120"],
        cidrCount: 1,
        addressCount: "256",
      },
    ],
  ];
  test.each(rows)("%s", (_, start, end, expected) => {
    const result = rangeToCidrs(start, end);
    expect(result).toEqual(expected);
    expect(Object.keys(result)).toEqual(["family", "range", "cidrs", "cidrCount", "addressCount"]);
  });

  test("the worst IPv4 range needs 62 CIDRs", () => {
    const result = rangeToCidrs("0.0.0.1", "255.255.255.254");
    expect(result.cidrs).toEqual(allButTheEnds(4));
    expect(result.cidrs.slice(0, 2)).toEqual(["0.0.0.1/32", "0.0.0.2/31"]);
    expect(result.cidrs.slice(30, 32)).toEqual(["64.0.0.0/2", "128.0.0.0/2"]);
    expect(result.cidrCount).toBe(62);
    expect(result.addressCount).toBe("4294967294");
  });

  test("the worst IPv6 range needs 254 CIDRs, the spec's maximum", () => {
    const result = rangeToCidrs("::1", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe");
    expect(result.cidrs).toEqual(allButTheEnds(6));
    expect(result.cidrs.slice(0, 2)).toEqual(["::1/128", "::2/127"]);
    expect(result.cidrs.slice(126, 128)).toEqual(["4000::/2", "8000::/2"]);
    expect(result.cidrs.at(-1)).toBe("ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe/128");
    expect(result.cidrCount).toBe(254);
    expect(result.addressCount).toBe("340282366920938463463374607431768211454");
  });
});

describe("range-to-cidrs errors", () => {
  test("an endpoint with a prefix is invalid on its field", () => {
    const error = rejection(() => rangeToCidrs("10.0.0.0/24", "10.0.0.255"));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.issues).toEqual([
      {
        message:
          '"10.0.0.0/24" is not a valid IPv4 address: it has a prefix length ("/24"); only a bare address is accepted here',
        path: ["start"],
        field: "start",
      },
    ]);
  });

  test("both endpoints invalid: both reported", () => {
    const error = rejection(() => rangeToCidrs("x", "10.0.0.256"));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toBe("The request has 2 invalid values.");
    expect(error.issues).toEqual([
      {
        message:
          '"x" is not a valid IP address: expected an IPv4 address such as 192.0.2.1 or an IPv6 address such as 2001:db8::1',
        path: ["start"],
        field: "start",
      },
      {
        message: '"10.0.0.256" is not a valid IPv4 address: octet 256 is above 255',
        path: ["end"],
        field: "end",
      },
    ]);
  });

  test("a reversed range is invalid at start; endpoints are never swapped", () => {
    const error = rejection(() => rangeToCidrs("10.0.0.9", " 10.0.0.1"));
    expect(error.code).toBe("INVALID_INPUT");
    const message =
      'start "10.0.0.9" is after end "10.0.0.1"; the range must run upwards from start to end and is never swapped';
    expect(error.message).toBe(message);
    expect(error.issues).toEqual([{ message, path: ["start"], field: "start" }]);
  });

  test("different families: MIXED_ADDRESS_FAMILIES at end", () => {
    const error = rejection(() => rangeToCidrs("10.0.0.1", "::ffff:10.0.0.2"));
    expect(error.code).toBe("MIXED_ADDRESS_FAMILIES");
    expect(error.issues).toEqual([
      {
        message:
          '"::ffff:10.0.0.2" is IPv6, but start "10.0.0.1" is IPv4; all addresses must be of one family',
        path: ["end"],
        field: "end",
      },
    ]);
  });

  test("invalid endpoints win over mixed families", () => {
    const error = rejection(() => rangeToCidrs("::1", "10.0.0.0/8"));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.issues.map((i) => i.field)).toEqual(["end"]);
  });

  test("endpoint length is 1 to 64 characters, before trimming", () => {
    const error = rejection(() => rangeToCidrs("", `${"10.0.0.1".padStart(65)}`));
    expect(error.issues).toEqual([
      { message: "start is empty; expected an IP address", path: ["start"], field: "start" },
      { message: "end is 65 characters long; at most 64 are allowed", path: ["end"], field: "end" },
    ]);
  });

  test("zone indexes are rejected on endpoints too", () => {
    const error = rejection(() => rangeToCidrs("fe80::1%eth0", "fe80::2"));
    expect(error.issues[0]?.path).toEqual(["start"]);
    expect(error.issues[0]?.message).toContain("zone indexes");
  });
});

describe("IpRange", () => {
  const addr = (text: string) => {
    const r = parseAddr(text);
    if (!r.ok) throw new Error(r.message);
    return r.value;
  };

  test("prefixes and count of a range", () => {
    const range = IpRange.of(addr("192.0.2.7"), addr("192.0.2.16"));
    expect(range.prefixes().map(String)).toEqual(["192.0.2.7/32", "192.0.2.8/29", "192.0.2.16/32"]);
    expect(range.addressCount()).toBe(10n);
    expect(range.family).toBe(4);
  });

  test("endpoints must be ordered and of one family", () => {
    expect(() => IpRange.of(addr("10.0.0.2"), addr("10.0.0.1"))).toThrow(RangeError);
    expect(() => IpRange.of(addr("10.0.0.1"), addr("::1"))).toThrow(RangeError);
  });
});
