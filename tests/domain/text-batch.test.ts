/**
 * `TextBatch` writes texts from lookup tables into pooled scratch space. Its texts must be the
 * model's canonical texts, whatever the value (zero runs anywhere, IPv4-mapped, every prefix
 * length), and batches open at the same time or used again must never mix their texts. A
 * `PrefixList` (the words of a result's list, read as texts on demand) reads as the same texts.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { SubnetRun } from "../../src/domain/cidr/subnets.ts";
import { PrefixEntries, PrefixList } from "../../src/domain/ip/prefix-list.ts";
import { formatWords, TEXT_WRITE_ROOM, TextBatch } from "../../src/domain/ip/text.ts";
import { bigIntWord } from "../../src/domain/ip/u128.ts";
import { type Family, formatAddr, formatCidr, maxValue, width } from "./model.ts";

/** A value whose 16-bit groups are often zero, or an IPv4-mapped one. */
const ipv6Value = fc.oneof(
  fc.bigInt({ min: 0n, max: maxValue(6) }),
  fc
    .array(fc.oneof(fc.constant(0n), fc.constant(0xffffn), fc.bigInt({ min: 0n, max: 0xffffn })), {
      minLength: 8,
      maxLength: 8,
    })
    .map((groups) => groups.reduce((v, g) => (v << 16n) | g, 0n)),
  fc.bigInt({ min: 0n, max: maxValue(4) }).map((v) => (0xffffn << 32n) | v),
);

const item = fc
  .oneof(
    fc.record({ family: fc.constant<Family>(4), value: fc.bigInt({ min: 0n, max: maxValue(4) }) }),
    fc.record({ family: fc.constant<Family>(6), value: ipv6Value }),
  )
  .chain(({ family, value }) =>
    fc.record({
      family: fc.constant(family),
      value: fc.constant(value),
      bits: fc.option(fc.integer({ min: 0, max: width(family) }), { nil: undefined }),
    }),
  );

type Item = { family: Family; value: bigint; bits: number | undefined };

const expected = (x: Item) =>
  x.bits === undefined ? formatAddr(x.family, x.value) : formatCidr(x.family, x.value, x.bits);

function add(batch: TextBatch | PrefixList, x: Item): void {
  const w = (k: number) => bigIntWord(x.value, k);
  batch.add(x.family, w(0), w(1), w(2), w(3), x.bits);
}

describe("TextBatch", () => {
  test("two batches filled in turn give each its own canonical texts, and can be used again", () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 400 }), fc.array(item, { maxLength: 40 }), (xs, ys) => {
        for (let round = 0; round < 2; round++) {
          const a = new TextBatch();
          const b = new TextBatch();
          for (let i = 0; i < Math.max(xs.length, ys.length); i++) {
            if (i < xs.length) add(a, xs[i]!);
            if (i < ys.length) add(b, ys[i]!);
          }
          expect(a.length).toBe(xs.length);
          expect(b.toStrings()).toEqual(ys.map(expected));
          expect(a.toStrings()).toEqual(xs.map(expected));
          expect(a.length).toBe(0);
          expect(a.toStrings()).toEqual([]);
        }
      }),
      { numRuns: 300, seed: 20261124 },
    );
  });

  test("the longest texts and a batch that grows well past its first space", () => {
    const batch = new TextBatch();
    const all = 0xffff_ffff;
    const n = 5000;
    for (let i = 0; i < n; i++) batch.add(6, all, all, all, all, 128);
    batch.add(6, 0, 0, 0xffff, all, 128);
    batch.add(4, 0, 0, 0, all, 32);
    const texts = batch.toStrings();
    expect(texts).toHaveLength(n + 2);
    expect(new Set(texts.slice(0, n))).toEqual(new Set(["ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128"]));
    expect(texts.slice(n)).toEqual(["::ffff:255.255.255.255/128", "255.255.255.255/32"]);
  });

  test("a PrefixList read: the same canonical texts, in order, from the words it keeps", () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 300 }), (xs) => {
        const list = new PrefixList();
        for (const x of xs) add(list, x);
        expect(list.length).toBe(xs.length);
        expect(list.toArray()).toEqual(xs.map(expected));
        expect(list.toArray()).toEqual(xs.map(expected)); // read again: made again, the same
      }),
      { numRuns: 300, seed: 20261125 },
    );
  });

  test("a PrefixList cleared and used again: the texts added since", () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 300 }), fc.array(item, { maxLength: 300 }), (xs, ys) => {
        const list = new PrefixList(4);
        for (const x of xs) add(list, x);
        list.clear();
        expect(list.length).toBe(0);
        expect(list.toArray()).toEqual([]);
        for (const y of ys) add(list, y);
        expect(list.length).toBe(ys.length);
        expect(list.toArray()).toEqual(ys.map(expected));
      }),
      { numRuns: 200, seed: 20261129 },
    );
  });

  test("PrefixEntries read: each entry its prefix's text first, then its details' fields", () => {
    const details = [
      { block: "10.0.0.0/8", name: "Private-Use", rfc: "RFC 1918" },
      { block: "0.0.0.0/8", name: '"This network"', rfc: "RFC 791" },
    ];
    fc.assert(
      fc.property(fc.array(fc.tuple(item, fc.nat(1)), { maxLength: 200 }), (xs) => {
        const prefixes = new PrefixList();
        for (const [x] of xs) add(prefixes, x);
        const entries = new PrefixEntries(
          prefixes,
          xs.map(([, t]) => details[t]!),
        );
        const objects = xs.map(([x, t]) => ({ cidr: expected(x), ...details[t]! }));
        expect(entries.toArray()).toEqual(objects);
        for (const entry of entries.toArray()) expect(Object.keys(entry)[0]).toBe("cidr");
      }),
      { numRuns: 200, seed: 20261126 },
    );
  });
});

describe("SubnetRun (cidr-split's subnets as a progression)", () => {
  /** A block (its network value and length) and a longer length, with a run of its subnets. */
  const run = fc
    .constantFrom<Family>(4, 6)
    .chain((family) =>
      fc.record({
        family: fc.constant(family),
        value: family === 4 ? fc.bigInt({ min: 0n, max: maxValue(4) }) : ipv6Value,
        bits: fc.integer({ min: 0, max: width(family) }),
        steps: fc.integer({ min: 0, max: 10 }),
        skip: fc.bigInt({ min: 0n, max: 1n << 12n }),
        count: fc.integer({ min: 1, max: 300 }),
      }),
    )
    .map(({ family, value, bits, steps, skip, count }) => {
      const length = Math.min(width(family), bits + steps);
      const size = 1n << BigInt(width(family) - length);
      const network = (value >> BigInt(width(family) - bits)) << BigInt(width(family) - bits);
      const subnets = 1n << BigInt(length - bits);
      const first = skip % subnets;
      const n = Number(subnets - first < BigInt(count) ? subnets - first : BigInt(count));
      return { family, start: network + first * size, size, length, n };
    });

  test("each subnet's text written from its index, and the array read, are the model's texts", () => {
    fc.assert(
      fc.property(run, ({ family, start, size, length, n }) => {
        const w = (k: number) => bigIntWord(start, k);
        const subnets = new SubnetRun(family, w(0), w(1), w(2), w(3), length, n);
        const texts = Array.from({ length: n }, (_, i) =>
          formatCidr(family, start + BigInt(i) * size, length),
        );
        expect(subnets.length).toBe(n);
        const bytes = new Uint8Array(TEXT_WRITE_ROOM * (n + 1));
        const view = new DataView(bytes.buffer);
        const written: string[] = [];
        for (let i = 0; i < n; i++) {
          const end = subnets.writeTextOf(i, view, 0);
          written.push(new TextDecoder().decode(bytes.subarray(0, end)));
        }
        expect(written).toEqual(texts);
        expect(subnets.toArray()).toEqual(texts);
      }),
      { numRuns: 300, seed: 20261130 },
    );
  });
});

describe("IPv6 text (RFC 5952 §4, the mapped form of §5)", () => {
  const textOf = (value: bigint, bits?: number) =>
    formatWords(
      6,
      bigIntWord(value, 0),
      bigIntWord(value, 1),
      bigIntWord(value, 2),
      bigIntWord(value, 3),
      bits,
    );
  const groupsOf = (text: string) => text.split(":").reduce((v, g) => (v << 16n) | BigInt(`0x${g}`), 0n);

  test("the zero run shortened, or not, as RFC 5952 says", () => {
    for (const [groups, text] of [
      ["0:0:0:0:0:0:0:0", "::"],
      ["0:0:0:0:0:0:0:1", "::1"],
      ["1:0:0:0:0:0:0:0", "1::"],
      ["1:0:1:1:1:1:1:1", "1:0:1:1:1:1:1:1"], // a single zero group stays
      ["0:1:1:1:1:1:1:0", "0:1:1:1:1:1:1:0"],
      ["1:0:0:1:0:0:1:1", "1::1:0:0:1:1"], // a tie: the first run
      ["1:0:0:1:0:0:0:1", "1:0:0:1::1"], // the longest run, wherever it is
      ["0:0:1:0:0:0:1:0", "0:0:1::1:0"],
      ["2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"],
      ["0:0:0:0:0:ffff:c000:201", "::ffff:192.0.2.1"], // IPv4-mapped
      ["0:0:0:0:1:ffff:c000:201", "::1:ffff:c000:201"], // not mapped
      ["0:0:0:0:0:fffe:c000:201", "::fffe:c000:201"],
      ["ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
      ["abcd:ef:0:0:0:0:0:1", "abcd:ef::1"],
    ] as const) {
      expect(textOf(groupsOf(groups))).toBe(text);
      expect(textOf(groupsOf(groups))).toBe(formatAddr(6, groupsOf(groups)));
    }
  });

  test("every pattern of zero groups, the other groups any value: the model's text", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 255 }),
        fc.array(fc.integer({ min: 1, max: 0xffff }), { minLength: 8, maxLength: 8 }),
        fc.option(fc.integer({ min: 0, max: 128 }), { nil: undefined }),
        (zeros, groups, bits) => {
          const value = groups.reduce((v, g, i) => (v << 16n) | BigInt((zeros >> (7 - i)) & 1 ? 0 : g), 0n);
          expect(textOf(value, bits)).toBe(
            bits === undefined ? formatAddr(6, value) : formatCidr(6, value, bits),
          );
        },
      ),
      { numRuns: 3000, seed: 20261130 },
    );
  });
});
