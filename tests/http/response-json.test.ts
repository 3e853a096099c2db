/**
 * The `deferredLists` encoder (src/adapters/http/encoders/deferred-lists.ts) writes the domain's
 * lists of prefixes, of excluded blocks and of reverse zone names from the values the domain keeps
 * (words, shared details, labels) instead of making and serializing strings: its output must be
 * `JSON.stringify`'s, byte for byte, for every result that holds such lists, and for anything else.
 * The other encoders are checked here too.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { encodeDeferredLists } from "../../src/adapters/http/encoders/deferred-lists.ts";
import { constantEncoder, encodeJson, encoderNamed } from "../../src/adapters/http/encoders/index.ts";
import { OPERATION_LIST } from "../../src/contract/operations.ts";
import { allocateCidrs, type CidrAllocateRequest } from "../../src/domain/cidr/allocate.ts";
import { compareCidrs } from "../../src/domain/cidr/compare.ts";
import { coverCidrs } from "../../src/domain/cidr/cover.ts";
import { mergeMixedCidrs } from "../../src/domain/cidr/merge-mixed.ts";
import { rangeToCidrs } from "../../src/domain/cidr/range-to-cidrs.ts";
import { reverseZones, ZoneNames } from "../../src/domain/cidr/reverse-zones.ts";
import { splitCidr } from "../../src/domain/cidr/split.ts";
import { subtractCidrs } from "../../src/domain/cidr/subtract.ts";
import { PrefixList } from "../../src/domain/ip/prefix-list.ts";
import { resultWith } from "../../src/domain/list-fields.ts";
import { type Family, formatAddr, formatCidr, maxValue, modelRange, width } from "../domain/model.ts";

/** The encoder's answer as text, whether it wrote bytes or text. */
const jsonOf = (value: unknown): string => {
  const body = encodeDeferredLists(value);
  return typeof body === "string" ? body : new TextDecoder().decode(body);
};

const body = <T>(name: string): T =>
  JSON.parse(readFileSync(new URL(`../../bench/data/${name}`, import.meta.url), "utf8")) as T;

describe("the deferredLists encoder: JSON.stringify's output, the lists written from their values", () => {
  test("the results of every operation that returns lists of CIDRs", () => {
    const merge = body<{ inputs: string[] }>("merge-1000.json");
    const subtract = body<{ include: string[]; exclude: string[] }>("subtract-1000.json");
    const cover = body<{ inputs: string[] }>("cover-1000.json");
    const results: unknown[] = [
      mergeMixedCidrs(merge.inputs),
      mergeMixedCidrs(merge.inputs, undefined, { excludeSpecial: true }),
      mergeMixedCidrs(["0.0.0.0/0", "::/0"], undefined, { excludeSpecial: true }),
      compareCidrs(merge.inputs.slice(0, 500), merge.inputs.slice(500)),
      splitCidr("2001:db8::/32", 64, undefined, { offset: "65536", limit: 1000 }),
      subtractCidrs(subtract.include, subtract.exclude),
      subtractCidrs(["10.0.0.0/8"], ["10.0.0.0/8"]), // an empty cidrs list
      coverCidrs(cover.inputs),
      splitCidr("10.0.0.0/14", 24),
      splitCidr("2001:db8::/48", 56),
      allocateCidrs(body<CidrAllocateRequest>("allocate-1000.json")),
      allocateCidrs({ within: ["10.0.0.0/16"], prefixLength: 24, count: 3 }),
      rangeToCidrs("::1", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe"),
      reverseZones("192.168.0.0/17"), // 128 zone names, kept with their JSON text
      reverseZones("100.64.0.0/10"),
      reverseZones("2001:db8::/29"),
    ];
    for (const result of results) expect(jsonOf(result)).toBe(JSON.stringify(result));
  });

  test("random ranges, short lists (made as texts) and long ones (kept as prefixes) alike", () => {
    const v4 = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".");
    let long = 0;
    fc.assert(
      fc.property(fc.nat({ max: 2 ** 32 - 1 }), fc.nat({ max: 2 ** 32 - 1 }), (a, b) => {
        const result = rangeToCidrs(v4(Math.min(a, b)), v4(Math.max(a, b)));
        if (result.cidrCount > 32) long++;
        expect(jsonOf(result)).toBe(JSON.stringify(result));
        expect(result.cidrs.length).toBe(result.cidrCount);
      }),
      { numRuns: 300, seed: 20261129 },
    );
    expect(long).toBeGreaterThan(0); // both kinds of answer were checked
    for (const [start, end] of [
      ["10.0.0.5", "10.0.0.77"],
      ["0.0.0.1", "255.255.255.254"],
      ["::", "::"],
      ["::1", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe"],
    ] as const) {
      const result = rangeToCidrs(start, end);
      expect(jsonOf(result)).toBe(JSON.stringify(result));
    }
  });

  test("random merges and splits, and values that are not such results", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.ipV4().map((a) => `${a}/${(a.length % 9) + 24}`),
          { minLength: 1, maxLength: 50 },
        ),
        fc.integer({ min: 16, max: 26 }),
        (inputs, length) => {
          const merged = mergeMixedCidrs(inputs);
          expect(jsonOf(merged)).toBe(JSON.stringify(merged));
          const split = splitCidr("192.0.0.0/16", length);
          expect(jsonOf(split)).toBe(JSON.stringify(split));
          const wrapped = { note: 'a "quoted" \u2028 text', merged: merged.cidrs, missing: undefined, n: 1 };
          expect(jsonOf(wrapped)).toBe(JSON.stringify(wrapped));
        },
      ),
      { numRuns: 200, seed: 20261124 },
    );
    for (const value of [null, 1, "text", [1, 2], { a: 1 }, { toJSON: () => "x" }, { a: [] }]) {
      expect(jsonOf(value)).toBe(JSON.stringify(value));
    }
  });
});

describe("the deferredLists encoder against the model's texts", () => {
  test("random splits of either family, whole or a page: the model's subnets, JSON.stringify'd", () => {
    const split = fc.constantFrom<Family>(4, 6).chain((family) =>
      fc.record({
        family: fc.constant(family),
        value: fc.bigInt({ min: 0n, max: maxValue(family) }),
        bits: fc.integer({ min: 0, max: width(family) }),
        steps: fc.integer({ min: 0, max: 11 }),
        offset: fc.bigInt({ min: 0n, max: 1n << 12n }),
        limit: fc.option(fc.integer({ min: 1, max: 300 }), { nil: undefined }),
      }),
    );
    fc.assert(
      fc.property(split, ({ family, value, bits, steps, offset, limit }) => {
        const length = Math.min(width(family), bits + steps);
        const host = BigInt(width(family) - bits);
        const network = (value >> host) << host;
        const subnets = 1n << BigInt(length - bits);
        const first = offset % subnets;
        const n = Number(
          limit === undefined || subnets - first < BigInt(limit) ? subnets - first : BigInt(limit),
        );
        const size = 1n << BigInt(width(family) - length);
        const cidrs = Array.from({ length: n }, (_, i) =>
          formatCidr(family, network + (first + BigInt(i)) * size, length),
        );
        const result = splitCidr(formatCidr(family, network, bits), length, undefined, {
          offset: first.toString(),
          limit,
        });
        const model = {
          network: formatCidr(family, network, bits),
          prefixLength: length,
          subnetCount: subnets.toString(),
          cidrs,
        };
        expect(jsonOf(result)).toBe(JSON.stringify(model));
      }),
      { numRuns: 300, seed: 20261130 },
    );
  });
});

describe("the deferredLists encoder: ranges walked while written", () => {
  test("random ranges of either family, short and long lists: the model's answer, JSON.stringify'd", () => {
    /** Values near the family's edges and aligned blocks, so both short and long lists come up. */
    const value = (family: Family) =>
      fc.oneof(
        fc.bigInt({ min: 0n, max: maxValue(family) }),
        fc.integer({ min: 0, max: width(family) }).map((bits) => (1n << BigInt(bits)) - 1n),
        fc.integer({ min: 0, max: width(family) - 1 }).map((bits) => maxValue(family) - (1n << BigInt(bits))),
      );
    const range = fc
      .constantFrom<Family>(4, 6)
      .chain((family) => fc.tuple(fc.constant(family), value(family), value(family)));
    let long = 0;
    fc.assert(
      fc.property(range, ([family, a, b]) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        const model = modelRange(family, low, high);
        if (model.cidrCount > 32) long++;
        const result = rangeToCidrs(formatAddr(family, low), formatAddr(family, high));
        expect(jsonOf(result)).toBe(JSON.stringify(model));
        expect(result).toEqual(model); // read as arrays: the same texts
      }),
      { numRuns: 500, seed: 20261130 },
    );
    expect(long).toBeGreaterThan(50);
  });
});

describe("the deferredLists encoder: IPv4 splits of every length, to the top of the space", () => {
  test("every block length and every subnet length up to 10 steps longer: the model's texts", () => {
    for (const address of [0n, 0x0a000000n, 0xc0a80000n, 0xffffffffn]) {
      for (let bits = 0; bits <= 32; bits++) {
        const host = BigInt(32 - bits);
        const network = (address >> host) << host;
        for (let length = bits; length <= Math.min(32, bits + 10); length++) {
          const size = 1n << BigInt(32 - length);
          const n = 2 ** (length - bits);
          const model = {
            network: formatCidr(4, network, bits),
            prefixLength: length,
            subnetCount: String(n),
            cidrs: Array.from({ length: n }, (_, i) => formatCidr(4, network + BigInt(i) * size, length)),
          };
          expect(jsonOf(splitCidr(formatCidr(4, network, bits), length))).toBe(JSON.stringify(model));
        }
      }
    }
  });
});

describe("the deferredLists encoder: the other fields of a result, any text", () => {
  test("keys and string values with quotes, backslashes, controls, non-ASCII and lone surrogates", () => {
    const text = fc.oneof(
      fc.string(),
      fc.string({ unit: "binary" }),
      fc.constantFrom('"', "\\", "\n", "\u0000", "\u007f", "\u2028", "\ud800", "é", "~", " "),
    );
    fc.assert(
      fc.property(
        text,
        text,
        fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null)),
        (key, a, b) => {
          const list = new PrefixList();
          list.add(4, 0, 0, 0, 0x0a000000, 8);
          const result = resultWith<Record<string, unknown>>({
            [key]: a,
            cidrs: list,
            other: b,
            nested: { key: a },
          });
          expect(jsonOf(result)).toBe(JSON.stringify(result));
        },
      ),
      { numRuns: 1000, seed: 20261130 },
    );
  });
});

describe("the deferredLists encoder: reverse zone names", () => {
  test("random blocks of either family: JSON.stringify's text of the names", () => {
    const v4 = fc.tuple(fc.ipV4(), fc.integer({ min: 0, max: 32 })).map(([a, bits]) => `${a}/${bits}`);
    const v6 = fc.tuple(fc.ipV6(), fc.integer({ min: 0, max: 128 })).map(([a, bits]) => `${a}/${bits}`);
    fc.assert(
      fc.property(fc.oneof(v4, v6), (cidr) => {
        const result = reverseZones(cidr);
        expect(jsonOf(result)).toBe(JSON.stringify(result));
      }),
      { numRuns: 2000, seed: 20261130 },
    );
  });

  test("labels or shared labels that JSON must escape, or longer labels: still JSON.stringify's text", () => {
    for (const [labels, suffix] of [
      [['a"', "b", "c"], ".x.in-addr.arpa."],
      [["a", "b", "c"], '.x"y.'],
      [["a", "b\\", "c"], ".x."],
      [["abcd", "b", "c"], ".x."],
      [["é", "b", "c"], ".x."],
      [["0", "1", "2"], ".\u2028."],
    ] as const) {
      const zones = new ZoneNames(0, 3, labels, suffix);
      const result = resultWith<{ zones: string[] }>({ zones });
      expect(jsonOf(result)).toBe(JSON.stringify(result));
    }
  });
});

describe("the encoders a row names", () => {
  test("every row's encoder, or JSON.stringify; the list operations name deferredLists", () => {
    for (const operation of OPERATION_LIST) {
      const encode = encoderNamed(operation.encoder);
      expect(typeof encode).toBe("function");
      if (operation.encoder === undefined) expect(encode).toBe(encodeJson);
    }
    const deferred = OPERATION_LIST.filter((operation) => operation.encoder === "deferredLists").map(
      (operation): string => operation.id,
    );
    expect(deferred.sort()).toEqual(
      [
        "cidrAllocate",
        "cidrCompare",
        "cidrCover",
        "cidrMerge",
        "cidrSplit",
        "cidrSubnets",
        "cidrSubtract",
        "rangeToCidrs",
        "reverseZones",
      ].sort(),
    );
  });

  test("constant: a frozen answer serialized once, anything else serialized every time", () => {
    const encode = constantEncoder();
    const healthy = Object.freeze({ status: "ok" });
    expect(encode(healthy)).toBe('{"status":"ok"}');
    expect(encode(healthy)).toBe('{"status":"ok"}');
    const changing = { n: 1 };
    expect(encode(changing)).toBe('{"n":1}');
    changing.n = 2;
    expect(encode(changing)).toBe('{"n":2}'); // not frozen: never reused
    expect(encode(healthy)).toBe('{"status":"ok"}');
  });
});
