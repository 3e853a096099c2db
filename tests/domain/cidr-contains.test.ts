/**
 * cidr-contains (CONTRACT §7.4) rule by rule: for each entry in input order, whether a block holds
 * it, overlaps it, and the most specific block that holds it; its errors (issues carry `path`
 * only) and the limit on both lists together. Its properties against the model are in
 * list-properties.test.ts, its agreement with Python's ipaddress in list-oracle.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { cidrsContain } from "../../src/domain/cidr/contains.ts";
import { LOCAL_CIDR_LIMITS } from "../../src/domain/limits.ts";
import { scattered } from "./list-model.ts";
import { rejection } from "./rejection.ts";

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
      { entry: "10.1.2.3/32", contained: true, overlaps: true, matchedCidr: "10.1.0.0/16", label: null },
      { entry: "10.2.0.0/24", contained: true, overlaps: true, matchedCidr: "10.0.0.0/8", label: null },
      { entry: "11.0.0.0/8", contained: false, overlaps: false, matchedCidr: null, label: null },
      { entry: "0.0.0.0/0", contained: false, overlaps: true, matchedCidr: null, label: null },
      { entry: "10.2.0.200/32", contained: true, overlaps: true, matchedCidr: "10.2.0.128/25", label: null },
      {
        entry: "2001:db8:1::/48",
        contained: true,
        overlaps: true,
        matchedCidr: "2001:db8::/32",
        label: null,
      },
      { entry: "10.1.0.0/16", contained: true, overlaps: true, matchedCidr: "10.1.0.0/16", label: null },
    ]);
  });

  test("two blocks covering an entry together overlap it but do not contain it", () => {
    expect(cidrsContain(["10.2.0.0/25", "10.2.0.128/25"], ["10.2.0.0/24"]).results[0]).toEqual({
      entry: "10.2.0.0/24",
      contained: false,
      overlaps: true,
      matchedCidr: null,
      label: null,
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
