/**
 * The schemas of the CIDR list operations (src/contract/cidr-list-schemas.ts): every result
 * the use cases give satisfies its result schema, and the request schemas bound what the contract
 * bounds.
 */
import { describe, expect, test } from "bun:test";
import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import fc from "fast-check";
import {
  CidrAllocateRequest,
  CidrAllocateResult,
  CidrContainsRequest,
  CidrContainsResult,
  CidrMergeRequest,
  CidrMergeResult,
  CidrSplitRequest,
  CidrSplitResult,
} from "../../src/contract/cidr-list-schemas.ts";
import { allocateCidrs } from "../../src/domain/cidr/allocate.ts";
import { cidrsContain } from "../../src/domain/cidr/contains.ts";
import { mergeMixedCidrs } from "../../src/domain/cidr/merge-mixed.ts";
import { splitCidr } from "../../src/domain/cidr/split.ts";
import { allocateCase, entryText, mixedEntries } from "../domain/list-model.ts";

const runs = { numRuns: 200, seed: 7405 };
const valid = (schema: TSchema, value: unknown) => Value.Check(schema, value);
const texts = (n: number) => Array.from({ length: n }, (_, i) => `10.0.${i >> 8}.${i & 255}`);

describe("results satisfy their schemas", () => {
  test("merge, contains and allocate over generated requests", () => {
    fc.assert(
      fc.property(mixedEntries(1, 20), mixedEntries(1, 20), (a, b) => {
        const inputs = a.map((e) => e.text);
        expect(valid(CidrMergeRequest, { inputs })).toBe(true);
        expect(valid(CidrMergeResult, mergeMixedCidrs(inputs))).toBe(true);
        const request = { cidrs: inputs, entries: b.map((e) => e.text) };
        expect(valid(CidrContainsRequest, request)).toBe(true);
        expect(valid(CidrContainsResult, cidrsContain(request.cidrs, request.entries))).toBe(true);
      }),
      runs,
    );
    let allocated = 0;
    fc.assert(
      fc.property(allocateCase, ({ within, used, prefixLength, count }) => {
        const request = { within: within.map(entryText), used: used.map(entryText), prefixLength, count };
        expect(valid(CidrAllocateRequest, request)).toBe(true);
        try {
          expect(valid(CidrAllocateResult, allocateCidrs(request))).toBe(true);
          allocated++;
        } catch {
          // INSUFFICIENT_SPACE: no result to check
        }
      }),
      runs,
    );
    expect(allocated).toBeGreaterThan(50);
  });

  test("split, the largest answer included", () => {
    expect(valid(CidrSplitResult, splitCidr("10.0.0.0/14", 24))).toBe(true);
    expect(valid(CidrSplitResult, splitCidr("::/115", 128))).toBe(true);
    expect(valid(CidrSplitResult, splitCidr("::ffff:10.0.0.1", 128))).toBe(true);
  });
});

describe("requests are bounded as the contract says", () => {
  test("lists: 1 to 1000 entries each (used may be empty or absent), entries 1 to 64 characters", () => {
    expect(valid(CidrMergeRequest, { inputs: texts(1000) })).toBe(true);
    expect(valid(CidrMergeRequest, { inputs: texts(1001) })).toBe(false);
    expect(valid(CidrMergeRequest, { inputs: [] })).toBe(false);
    expect(valid(CidrMergeRequest, { inputs: ["x".repeat(65)] })).toBe(false);
    expect(valid(CidrContainsRequest, { cidrs: [], entries: ["10.0.0.1"] })).toBe(false);
    expect(valid(CidrAllocateRequest, { within: ["10.0.0.0/8"], prefixLength: 24 })).toBe(true);
    expect(valid(CidrAllocateRequest, { within: ["10.0.0.0/8"], used: [], prefixLength: 24 })).toBe(true);
    expect(valid(CidrAllocateRequest, { within: [], prefixLength: 24 })).toBe(false);
  });

  test("prefixLength is an integer 0 to 128 and count an integer 1 to 1000; no unknown fields", () => {
    expect(valid(CidrSplitRequest, { cidr: "::/0", prefixLength: 128 })).toBe(true);
    for (const prefixLength of [-1, 129, 24.5, "24", null]) {
      expect(valid(CidrSplitRequest, { cidr: "10.0.0.0/8", prefixLength })).toBe(false);
    }
    for (const count of [0, 1001, 1.5, "1"]) {
      expect(valid(CidrAllocateRequest, { within: ["10.0.0.0/8"], prefixLength: 24, count })).toBe(false);
    }
    expect(valid(CidrAllocateRequest, { within: ["10.0.0.0/8"], prefixLength: 24, count: 1000 })).toBe(true);
    expect(valid(CidrSplitRequest, { cidr: "10.0.0.0/8", prefixLength: 9, extra: 1 })).toBe(false);
    expect(valid(CidrSplitRequest, { cidr: "10.0.0.0/8" })).toBe(false);
  });
});
