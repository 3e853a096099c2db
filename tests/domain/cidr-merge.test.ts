/**
 * cidr-merge (CONTRACT §7.4) rule by rule: the union of a list as the fewest CIDRs, both families
 * in one list, IPv4 first; its errors (issues carry `path` only) and its limits. Its properties
 * against the model are in list-properties.test.ts, its agreement with Python's ipaddress in
 * list-oracle.test.ts, `excludeSpecial` in special-ranges.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { mergeMixedCidrs } from "../../src/domain/cidr/merge-mixed.ts";
import { LOCAL_CIDR_LIMITS } from "../../src/domain/limits.ts";
import { scattered } from "./list-model.ts";
import { rejection } from "./rejection.ts";

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
