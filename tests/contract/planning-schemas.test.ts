/**
 * The schemas of reverse-zones and cidr-subnets (src/contract/planning-schemas.ts): every result
 * the use cases give satisfies its result schema (128 zones and a /128 PTR name included), and the
 * request schemas bound what the contract bounds.
 */
import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import fc from "fast-check";
import {
  CidrSubnetsRequest,
  CidrSubnetsResult,
  ReverseZonesRequest,
  ReverseZonesResult,
} from "../../src/contract/planning-schemas.ts";
import { reverseZones } from "../../src/domain/cidr/reverse-zones.ts";
import { cidrSubnets } from "../../src/domain/cidr/terraform-subnets.ts";
import { entryNear, familyAndBase } from "../domain/arbitraries.ts";

describe("results satisfy their schemas", () => {
  test("reverse-zones over generated blocks, and the extremes", () => {
    fc.assert(
      fc.property(
        familyAndBase.chain(({ family, base }) => entryNear(family, base)),
        (entry) => {
          expect(Value.Check(ReverseZonesRequest, { cidr: entry.text })).toBe(true);
          expect(Value.Check(ReverseZonesResult, reverseZones(entry.text))).toBe(true);
        },
      ),
      { numRuns: 300, seed: 8810 },
    );
    for (const cidr of [
      "128.0.0.0/17",
      "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
      "255.255.255.254/31",
      "::/0",
    ]) {
      expect(Value.Check(ReverseZonesResult, reverseZones(cidr))).toBe(true);
    }
  });

  test("cidr-subnets", () => {
    for (const request of [
      { prefix: "10.1.0.0/16", newbits: [4, 4, 8, 4] },
      { prefix: "::/0", newbits: Array.from({ length: 1000 }, () => 32) },
      { prefix: "10.0.0.0/8", newbits: [] },
    ]) {
      expect(Value.Check(CidrSubnetsRequest, request)).toBe(true);
      expect(Value.Check(CidrSubnetsResult, cidrSubnets(request))).toBe(true);
    }
  });
});

describe("request bounds", () => {
  test.each([
    [{ prefix: "10.0.0.0/8", newbits: ["8"] }],
    [{ prefix: "10.0.0.0/8", newbits: [1.5] }],
    [{ prefix: "10.0.0.0/8", newbits: Array.from({ length: 1001 }, () => 1) }],
    [{ prefix: "", newbits: [1] }],
    [{ prefix: "10.0.0.0/8" }],
  ])("cidr-subnets refuses %j", (request) => {
    expect(Value.Check(CidrSubnetsRequest, request)).toBe(false);
  });

  test("reverse-zones takes one entry of 1–64 characters", () => {
    expect(Value.Check(ReverseZonesRequest, { cidr: "" })).toBe(false);
    expect(Value.Check(ReverseZonesRequest, { cidr: "x".repeat(65) })).toBe(false);
    expect(Value.Check(ReverseZonesRequest, { cidr: "10.0.0.0/8", more: 1 })).toBe(false);
  });
});
