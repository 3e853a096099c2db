/**
 * The grepcidr scanner's readers (src/local/grepcidr/patterns.ts) against the domain's address
 * parser (src/domain/ip/addr.ts, prefix.ts), where the two must agree: glibc's `inet_pton`, which
 * grepcidr reads a log's addresses with, accepts exactly the IPv4 text the domain accepts (four
 * decimal octets, no leading zero) and the IPv6 text without a zone; and a canonical CIDR pattern
 * is read as the range the domain's prefix covers. Where grepcidr is looser (`sscanf` for
 * patterns: `010.0.0.0/8`, text after the address) tests/cli/match-grepcidr.test.ts holds it to the
 * real program instead.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { IpAddr, parseAddr } from "../../src/domain/ip/addr.ts";
import { IpPrefix, parsePrefix } from "../../src/domain/ip/prefix.ts";
import { RangeList } from "../../src/domain/ip/range-list.ts";
import {
  inetPton4,
  inetPton6,
  type PatternLists,
  readPatternWords,
} from "../../src/local/grepcidr/patterns.ts";

const bytesOf = (text: string) => new TextEncoder().encode(text);

/** Text over the characters an IPv4 candidate is made of, often close to a dotted quad. */
const v4ish = fc.oneof(
  fc.stringMatching(/^[0-9.]{0,18}$/),
  fc
    .tuple(
      fc.array(
        fc.oneof(fc.integer({ min: 0, max: 300 }).map(String), fc.constantFrom("00", "01", "010", "")),
        {
          minLength: 3,
          maxLength: 5,
        },
      ),
    )
    .map(([octets]) => octets.join(".")),
);

/** Text over the characters an IPv6 candidate is made of, often close to an address. */
const v6ish = fc.oneof(
  fc.stringMatching(/^[0-9a-fA-F:.]{0,45}$/),
  fc.tuple(fc.bigInt({ min: 0n, max: (1n << 128n) - 1n })).map(([value]) => {
    const words = [0, 1, 2, 3].map((k) => Number((value >> BigInt(96 - 32 * k)) & 0xffffffffn));
    return IpAddr.v6(words[0]!, words[1]!, words[2]!, words[3]!).toString();
  }),
);

describe("inet_pton (the log's addresses) agrees with the domain's parser", () => {
  test("IPv4: accepted exactly when the domain reads an IPv4 address, with the same value", () => {
    fc.assert(
      fc.property(v4ish, (text) => {
        const value = inetPton4(bytesOf(text), 0, text.length);
        const parsed = parseAddr(text);
        const domain = parsed.ok && parsed.value.family === 4 ? parsed.value.w3 : -1;
        expect(value).toBe(domain);
      }),
      { numRuns: 3000 },
    );
  });

  test("IPv6: accepted exactly when the domain reads an IPv6 address, with the same words", () => {
    fc.assert(
      fc.property(v6ish, (text) => {
        const words = new Uint32Array(4);
        const accepted = inetPton6(bytesOf(text), 0, text.length, words);
        const parsed = parseAddr(text);
        const domain = parsed.ok && parsed.value.family === 6 && !text.includes("%") ? parsed.value : null;
        expect(accepted).toBe(domain !== null);
        if (domain !== null) expect([...words]).toEqual([domain.w0, domain.w1, domain.w2, domain.w3]);
      }),
      { numRuns: 3000 },
    );
  });
});

describe("a canonical CIDR pattern is the domain's prefix", () => {
  const prefixes = fc.oneof(
    fc
      .tuple(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 32 }))
      .map(([value, bits]) => IpPrefix.from(IpAddr.v4(value >>> 0), bits).toString()),
    fc
      .tuple(fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }), fc.integer({ min: 0, max: 128 }))
      .map(([value, bits]) => {
        const words = [0, 1, 2, 3].map((k) => Number((value >> BigInt(96 - 32 * k)) & 0xffffffffn));
        return IpPrefix.from(IpAddr.v6(words[0]!, words[1]!, words[2]!, words[3]!), bits).toString();
      }),
  );

  test("read as one range, from the prefix's first address to its last, without a warning", () => {
    fc.assert(
      fc.property(prefixes, (text) => {
        const parsed = parsePrefix(text);
        expect(parsed.ok).toBe(true);
        if (!parsed.ok) return;
        const lists: PatternLists = { v4: new RangeList(4), v6: new RangeList(6), warnings: [], skipped: 0 };
        readPatternWords(text, "pattern", lists);
        expect(lists.warnings).toEqual([]);
        const family = parsed.value.addr.family;
        const list = family === 4 ? lists.v4 : lists.v6;
        expect(list.length).toBe(1);
        expect((family === 4 ? lists.v6 : lists.v4).length).toBe(0);
        const first = parsed.value.first;
        const last = parsed.value.last;
        expect([...list.words.subarray(0, 8)]).toEqual([
          first.w0,
          first.w1,
          first.w2,
          first.w3,
          last.w0,
          last.w1,
          last.w2,
          last.w3,
        ]);
      }),
      { numRuns: 2000 },
    );
  });
});
