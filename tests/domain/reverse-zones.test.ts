/**
 * reverse-zones (CONTRACT §8.8): the contract's examples, the bounds of the list, the errors, and
 * 800 seeded random blocks of both families (IPv4-mapped text included, every text form the parser
 * accepts) against Python's `ipaddress` (tests/domain/reverse_zones_oracle.py): every zone name
 * must be the last labels of `reverse_pointer` plus a dot.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { reverseZones } from "../../src/domain/cidr/reverse-zones.ts";
import { entryNear, familyAndBase } from "./arbitraries.ts";
import { rejection } from "./rejection.ts";

describe("the contract's examples", () => {
  test.each([
    ["10.0.0.0/8", "10.0.0.0/8", ["10.in-addr.arpa."]],
    ["0.0.0.0/0", "0.0.0.0/0", ["in-addr.arpa."]],
    ["1.2.3.4", "1.2.3.4/32", ["4.3.2.1.in-addr.arpa."]],
    ["192.0.2.64/26", "192.0.2.64/26", ["64/26.2.0.192.in-addr.arpa."]],
    ["192.0.2.255/31", "192.0.2.254/31", ["254/31.2.0.192.in-addr.arpa."]],
    ["192.0.2.0/25", "192.0.2.0/25", ["0/25.2.0.192.in-addr.arpa."]],
    ["192.0.2.0/24", "192.0.2.0/24", ["2.0.192.in-addr.arpa."]],
    ["2001:db8::/32", "2001:db8::/32", ["8.b.d.0.1.0.0.2.ip6.arpa."]],
    ["::/0", "::/0", ["ip6.arpa."]],
    [
      "8000::/1",
      "8000::/1",
      [
        "8.ip6.arpa.",
        "9.ip6.arpa.",
        "a.ip6.arpa.",
        "b.ip6.arpa.",
        "c.ip6.arpa.",
        "d.ip6.arpa.",
        "e.ip6.arpa.",
        "f.ip6.arpa.",
      ],
    ],
  ])("%s", (cidr, normalized, zones) => {
    expect(reverseZones(cidr)).toEqual({ cidr: normalized, zones });
  });

  test("100.64.0.0/10 is 64 zones, 64.100 to 127.100, never a rounded /8 or /16", () => {
    const { zones } = reverseZones("100.64.0.0/10");
    expect(zones.length).toBe(64);
    expect(zones[0]).toBe("64.100.in-addr.arpa.");
    expect(zones[63]).toBe("127.100.in-addr.arpa.");
  });

  test("a /62 is four /64 zones; a /128 is its PTR name of 32 nibbles", () => {
    expect(reverseZones("2001:db8:0:4::/62").zones).toEqual(
      [4, 5, 6, 7].map((n) => `${n}.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa.`),
    );
    const ptr = reverseZones("2001:db8::abcd").zones;
    expect(ptr).toEqual([`d.c.b.a.${"0.".repeat(20)}8.b.d.0.1.0.0.2.ip6.arpa.`]);
    expect(ptr[0]!.split(".").length).toBe(32 + 3);
  });

  test("the list never exceeds 128 names (IPv4 /1, /9, /17) or 8 (IPv6)", () => {
    for (const p of [1, 9, 17]) expect(reverseZones(`128.0.0.0/${p}`).zones.length).toBe(128);
    for (let p = 0; p <= 32; p++) expect(reverseZones(`0.0.0.0/${p}`).zones.length).toBeLessThanOrEqual(128);
    for (let p = 0; p <= 128; p++) expect(reverseZones(`::/${p}`).zones.length).toBeLessThanOrEqual(8);
    expect(reverseZones("::/125").zones.length).toBe(8);
  });

  test("IPv4-mapped text is IPv6: nibbles under ip6.arpa.", () => {
    expect(reverseZones("::ffff:192.0.2.0/120")).toEqual({
      cidr: "::ffff:192.0.2.0/120",
      zones: ["2.0.0.0.0.c.f.f.f.f.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.ip6.arpa."],
    });
  });
});

describe('bad input: one issue at ["cidr"]', () => {
  test.each([
    ["10.0.0.256/24", '"10.0.0.256/24" is not a valid IPv4 CIDR: octet 256 is above 255'],
    ["fe80::1%eth0", "zone indexes"],
    ["", "cidr is empty"],
    ["x".repeat(65), "at most 64"],
    ["010.0.0.0/8", "leading zero"],
  ])("%j", (cidr, words) => {
    const error = rejection(() => reverseZones(cidr));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.issues.length).toBe(1);
    expect(error.issues[0]!.path).toEqual(["cidr"]);
    expect(error.issues[0]!.message).toContain(words);
  });

  test("not a string", () => {
    expect(rejection(() => reverseZones(42)).issues).toEqual([
      { message: "cidr must be a string", path: ["cidr"] },
    ]);
  });
});

const SEED = 8808;
/** A base inside ::ffff:0:0/96, so that entries near it are IPv4-mapped IPv6 text. */
const mappedBase = fc
  .bigInt({ min: 0n, max: 0xffff_ffffn })
  .map((v) => ({ family: 6 as const, base: (0xffffn << 32n) | v }));
const block = fc
  .oneof({ weight: 3, arbitrary: familyAndBase }, { weight: 1, arbitrary: mappedBase })
  .chain(({ family, base }) => entryNear(family, base));
const cases = fc.sample(block, { numRuns: 800, seed: SEED }).map((entry) => entry.text);

function askPython(texts: readonly string[]): { cidr: string; zones: string[] }[] {
  const run = Bun.spawnSync(["python3", new URL("./reverse_zones_oracle.py", import.meta.url).pathname], {
    stdin: new TextEncoder().encode(JSON.stringify({ cases: texts })),
  });
  if (run.exitCode !== 0) throw new Error(`reverse_zones_oracle.py failed: ${run.stderr.toString()}`);
  return JSON.parse(run.stdout.toString());
}

describe("every zone name is Python's reverse_pointer, cut to the zone, plus a dot", () => {
  const answers = askPython(cases);

  test("the sample holds both families, mapped text, RFC 2317 blocks, PTR names and wide lists", () => {
    const v4 = answers.filter((a) => a.zones[0]!.endsWith("in-addr.arpa."));
    const v6 = answers.filter((a) => a.zones[0]!.endsWith("ip6.arpa."));
    expect(v4.length).toBeGreaterThan(200);
    expect(v6.length).toBeGreaterThan(200);
    expect(answers.filter((a) => a.cidr.startsWith("::ffff:")).length).toBeGreaterThan(100);
    expect(v4.filter((a) => a.zones[0]!.includes("/")).length).toBeGreaterThan(20);
    expect(answers.filter((a) => a.cidr.endsWith("/32") || a.cidr.endsWith("/128")).length).toBeGreaterThan(
      50,
    );
    expect(answers.filter((a) => a.zones.length >= 16).length).toBeGreaterThan(20);
    expect(answers.filter((a) => a.zones.length === 8 && a.cidr.includes(":")).length).toBeGreaterThan(10);
  });

  test(`${cases.length} blocks`, () => {
    cases.forEach((cidr, i) => {
      expect({ input: cidr, ...reverseZones(cidr) }).toEqual({ input: cidr, ...answers[i]! });
    });
  });
});
