/**
 * cidr-subnets (CONTRACT §8.9): Terraform's documented examples, the contract's, the errors in
 * Terraform's words, the documented differences, and 700 seeded random requests of both families
 * against a transcription of go-cidr's algorithm on `bigint` (tests/domain/go-cidr-model.ts).
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { allocateCidrs } from "../../src/domain/cidr/allocate.ts";
import { cidrSubnets } from "../../src/domain/cidr/terraform-subnets.ts";
import { LOCAL_CIDR_LIMITS } from "../../src/domain/limits.ts";
import { valueNear } from "./arbitraries.ts";
import { terraformCidrSubnets } from "./go-cidr-model.ts";
import { type Family, formatCidr, width } from "./model.ts";
import { rejection } from "./rejection.ts";

describe("Terraform's documented examples and the contract's", () => {
  test('cidrsubnets("10.1.0.0/16", 4, 4, 8, 4)', () => {
    expect(cidrSubnets({ prefix: "10.1.0.0/16", newbits: [4, 4, 8, 4] })).toEqual({
      prefix: "10.1.0.0/16",
      cidrs: ["10.1.0.0/20", "10.1.16.0/20", "10.1.32.0/24", "10.1.48.0/20"],
    });
  });

  test('cidrsubnets("fd00:fd12:3456:7890::/56", 16, 16, 16, 32)', () => {
    expect(cidrSubnets({ prefix: "fd00:fd12:3456:7890::/56", newbits: [16, 16, 16, 32] })).toEqual({
      prefix: "fd00:fd12:3456:7800::/56",
      cidrs: [
        "fd00:fd12:3456:7800::/72",
        "fd00:fd12:3456:7800:100::/72",
        "fd00:fd12:3456:7800:200::/72",
        "fd00:fd12:3456:7800:300::/88",
      ],
    });
  });

  test("never backfilling: 10.0.0.0/16 with 8, 4, 8, where first fit takes 10.0.1.0/24 third", () => {
    const { cidrs } = cidrSubnets({ prefix: "10.0.0.0/16", newbits: [8, 4, 8] });
    expect(cidrs).toEqual(["10.0.0.0/24", "10.0.16.0/20", "10.0.32.0/24"]);
    const firstFit = allocateCidrs({ within: ["10.0.0.0/16"], used: cidrs.slice(0, 2), prefixLength: 24 });
    expect(firstFit.cidrs).toEqual(["10.0.1.0/24"]);
  });

  test("host bits are cleared, an address is a /32 or /128, no newbits is no block", () => {
    expect(cidrSubnets({ prefix: " 10.1.2.3/16 ", newbits: [8] })).toEqual({
      prefix: "10.1.0.0/16",
      cidrs: ["10.1.0.0/24"],
    });
    expect(cidrSubnets({ prefix: "10.1.2.3", newbits: [] })).toEqual({ prefix: "10.1.2.3/32", cidrs: [] });
  });

  test("the whole space: 0.0.0.0/0 and ::/0 pack from the start, up to the last address", () => {
    expect(cidrSubnets({ prefix: "0.0.0.0/0", newbits: [1, 2, 2] }).cidrs).toEqual([
      "0.0.0.0/1",
      "128.0.0.0/2",
      "192.0.0.0/2",
    ]);
    expect(cidrSubnets({ prefix: "::/0", newbits: [1, 1] }).cidrs).toEqual(["::/1", "8000::/1"]);
    const full = rejection(() => cidrSubnets({ prefix: "::/0", newbits: [1, 1, 32] }));
    expect(full.message).toBe(
      "newbits argument 3: not enough remaining address space for a subnet with a prefix of 32 bits after 8000::/1.",
    );
  });
});

describe("errors", () => {
  test("INSUFFICIENT_SPACE names the 1-based argument, its prefix length and the last block, in Terraform's words", () => {
    const error = rejection(() => cidrSubnets({ prefix: "10.0.0.0/24", newbits: [1, 2, 1, 4] }));
    expect(error.code).toBe("INSUFFICIENT_SPACE");
    const sentence =
      "newbits argument 3: not enough remaining address space for a subnet with a prefix of 25 bits after 10.0.0.128/26";
    expect(error.message).toBe(`${sentence}.`);
    expect(error.issues).toEqual([{ message: sentence, path: ["newbits", 2] }]);
  });

  test('every bad newbits is an issue at ["newbits", i], in Terraform\'s words', () => {
    const error = rejection(() => cidrSubnets({ prefix: "10.0.0.0/30", newbits: [0, 33, 3, 2, 1.5] }));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.issues).toEqual([
      { message: "newbits argument 1 (0): must extend prefix by at least one bit", path: ["newbits", 0] },
      {
        message: "newbits argument 2 (33): may not extend prefix by more than 32 bits",
        path: ["newbits", 1],
      },
      {
        message:
          "newbits argument 3 (3): would extend prefix to 33 bits, which is too long for an IPv4 address",
        path: ["newbits", 2],
      },
      { message: "newbits argument 5 (1.5): must be a whole number of bits", path: ["newbits", 4] },
    ]);
    const v6 = rejection(() => cidrSubnets({ prefix: "2001:db8::/120", newbits: [9] }));
    expect(v6.issues[0]!.message).toContain("too long for an IPv6 address");
  });

  test('a bad prefix is an issue at ["prefix"], with the newbits problems beside it', () => {
    const error = rejection(() => cidrSubnets({ prefix: "010.0.0.0/8", newbits: [40] }));
    expect(error.issues.map((issue) => issue.path)).toEqual([["prefix"], ["newbits", 0]]);
    expect(error.issues[0]!.message).toContain("leading zero");
  });

  test("at most limits.maxEntries arguments (1000 for the API)", () => {
    const many = Array.from({ length: 1001 }, () => 32);
    expect(rejection(() => cidrSubnets({ prefix: "::/0", newbits: many })).issues).toEqual([
      { message: "newbits must have at most 1000 entries; it has 1001", path: ["newbits"] },
    ]);
    expect(cidrSubnets({ prefix: "::/0", newbits: many }, LOCAL_CIDR_LIMITS).cidrs.length).toBe(1001);
  });
});

describe("against go-cidr's algorithm, transcribed on bigint", () => {
  test("the documented difference: a prefix at 0.0.0.0 or :: packs here, where Terraform wraps and finds no space", () => {
    for (const [family, prefix] of [
      [4, "0.0.0.0/8"],
      [6, "::/64"],
    ] as const) {
      const bits = Number(prefix.split("/")[1]);
      const theirs = terraformCidrSubnets(family, 0n, bits, [2]);
      expect(theirs.ok).toBe(false);
      if (!theirs.ok) expect(theirs.argument).toBe(1);
      expect(cidrSubnets({ prefix, newbits: [2] }).cidrs).toEqual([formatCidr(family, 0n, bits + 2)]);
    }
  });

  /** A prefix (often near the top of the space or small) and newbits that sometimes overflow it. */
  const request = fc.constantFrom<Family>(4, 6).chain((family) =>
    fc
      .tuple(
        valueNear(family, family === 4 ? 0xc0a8_0000n : 0x2001_0db8n << 96n),
        fc.integer({ min: 0, max: width(family) - 1 }),
        fc.array(fc.nat(), { minLength: 0, maxLength: 12 }),
        fc.integer({ min: 1, max: 32 }),
      )
      .map(([value, prefixLength, picks, spread]) => {
        const room = Math.min(32, width(family) - prefixLength, spread);
        return { family, value, prefixLength, newbits: picks.map((p) => 1 + (p % room)) };
      }),
  );
  const cases = fc.sample(request, { numRuns: 700, seed: 8809 });
  const textOf = (c: (typeof cases)[number]) =>
    formatCidr(c.family, c.value, width(c.family)).replace(/\/\d+$/, "");

  test("the sample holds both families, successes, failures and prefixes at zero", () => {
    const answers = cases.map((c) => terraformCidrSubnets(c.family, c.value, c.prefixLength, c.newbits));
    expect(cases.filter((c) => c.family === 4).length).toBeGreaterThan(250);
    expect(cases.filter((c) => c.family === 6).length).toBeGreaterThan(250);
    expect(answers.filter((a) => a.ok && a.cidrs.length >= 3).length).toBeGreaterThan(100);
    expect(answers.filter((a) => !a.ok && a.argument > 1).length).toBeGreaterThan(100);
    expect(
      cases.filter((c) => c.value >> BigInt(width(c.family) - c.prefixLength) === 0n).length,
    ).toBeGreaterThan(5);
  });

  test(`${cases.length} random requests give Terraform's blocks or Terraform's error`, () => {
    for (const c of cases) {
      const prefix = `${textOf(c)}/${c.prefixLength}`;
      const theirs = terraformCidrSubnets(c.family, c.value, c.prefixLength, c.newbits);
      const atZero = c.value >> BigInt(width(c.family) - c.prefixLength) === 0n;
      if (atZero && c.newbits.length > 0) {
        // Terraform's wrap-around (docs, ADR 29): it finds no space for the first block; we pack from zero.
        expect({ prefix, theirs }).toMatchObject({ theirs: { ok: false, argument: 1 } });
        continue;
      }
      if (theirs.ok) {
        expect({ input: prefix, newbits: c.newbits, ...cidrSubnets({ prefix, newbits: c.newbits }) }).toEqual(
          {
            input: prefix,
            prefix: formatCidr(
              c.family,
              c.value & ~((1n << BigInt(width(c.family) - c.prefixLength)) - 1n),
              c.prefixLength,
            ),
            newbits: c.newbits,
            cidrs: theirs.cidrs,
          },
        );
      } else {
        const error = rejection(() => cidrSubnets({ prefix, newbits: c.newbits }));
        expect({ prefix, newbits: c.newbits, code: error.code, message: error.message }).toEqual({
          prefix,
          newbits: c.newbits,
          code: "INSUFFICIENT_SPACE",
          message: `newbits argument ${theirs.argument}: not enough remaining address space for a subnet with a prefix of ${theirs.length} bits after ${theirs.after}.`,
        });
      }
    }
  });
});
