/**
 * cidr-split (CONTRACT §7.4) rule by rule: every subnet of a block at a longer prefix length, in
 * address order, with the exact count; a page of them (`offset`, `limit`) however many the block
 * holds; its errors (issues carry `path` only) and its limits. Its properties against the model
 * are in list-properties.test.ts, its agreement with Python's ipaddress in list-oracle.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { splitCidr } from "../../src/domain/cidr/split.ts";
import { LOCAL_CIDR_LIMITS, MAX_RESULT_CIDRS } from "../../src/domain/limits.ts";
import { rejection } from "./rejection.ts";

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
