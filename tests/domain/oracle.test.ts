/**
 * An independent oracle: the same few thousand generated cases go through the domain and through
 * Python's `ipaddress` module (tests/domain/oracle.py, one python3 process for all of them), and
 * every field must agree, for both families.
 *
 * Two honest caveats, both about Python rather than the arithmetic:
 * - IPv4-mapped addresses: Python ≤ 3.12 prints `::ffff:c000:201`, 3.13 prints `::ffff:192.0.2.1`.
 *   The oracle writes mixed notation itself from Python's `ipv4_mapped` value (see oracle.py), so
 *   for those addresses the notation is our rule (CONTRACT §2) and the digits are Python's.
 * - Python accepts IPv6 zone indexes (`fe80::1%eth0`), which CONTRACT §2 rejects, and netmask or
 *   zero-padded prefix lengths (`/255.0.0.0`, `/024`). Texts with `%` are left out of the parse
 *   comparison; prefix lengths are always generated in canonical decimal.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { coverCidrs } from "../../src/domain/cidr/cover.ts";
import { rangeToCidrs } from "../../src/domain/cidr/range-to-cidrs.ts";
import { subtractCidrs } from "../../src/domain/cidr/subtract.ts";
import { parseAddr } from "../../src/domain/ip/addr.ts";
import { parsePrefix } from "../../src/domain/ip/prefix.ts";
import { addressPair, entryList, entryNear, familyAndBase, subtractCase } from "./arbitraries.ts";

const SEED = 4291;

/** A valid address text with up to three random edits: most become invalid, some stay valid. */
const mutatedText = fc
  .tuple(
    addressPair.map((p) => p.a.text),
    fc.array(
      fc.record({
        op: fc.constantFrom("insert", "delete", "replace", "double"),
        at: fc.nat(),
        char: fc.constantFrom(..."0123456789abcdefABCDEFgx:.:.::/[] \t%\u00a0"),
      }),
      { minLength: 0, maxLength: 3 },
    ),
  )
  .map(([text, edits]) => {
    let s = text;
    for (const { op, at, char } of edits) {
      const i = s.length === 0 ? 0 : at % (s.length + 1);
      if (op === "insert") s = s.slice(0, i) + char + s.slice(i);
      else if (op === "delete") s = s.slice(0, i) + s.slice(i + 1);
      else if (op === "replace") s = s.slice(0, i) + char + s.slice(i + 1);
      else s = s.slice(0, i) + s.slice(i - 2, i) + s.slice(i);
    }
    return s;
  });

const sample = <T>(arb: fc.Arbitrary<T>, n: number, offset: number) =>
  fc.sample(arb, { numRuns: n, seed: SEED + offset });

const texts = [
  ...sample(
    addressPair.map((p) => p.a.text),
    500,
    0,
  ),
  ...sample(mutatedText, 2500, 1),
].filter((t) => !t.includes("%"));
const prefixes = sample(
  familyAndBase.chain(({ family, base }) => entryNear(family, base)).map((e) => e.text),
  600,
  2,
);
const covers = sample(entryList(1, 12), 400, 3).map(({ entries }) => entries.map((e) => e.text));
const subtracts = sample(subtractCase, 300, 4).map(({ include, exclude }) => ({
  include: include.map((e) => e.text),
  exclude: exclude.map((e) => e.text),
}));
const ranges = sample(addressPair, 500, 5).map(({ a, b }) =>
  a.value <= b.value ? [a.text, b.text] : [b.text, a.text],
);

type Answer = Record<string, unknown>;

function askPython(): Answer[] {
  const cases = [
    ...texts.map((input) => ({ kind: "text", input })),
    ...prefixes.map((input) => ({ kind: "prefix", input })),
    ...covers.map((inputs) => ({ kind: "cover", inputs })),
    ...subtracts.map((c) => ({ kind: "subtract", ...c })),
    ...ranges.map(([start, end]) => ({ kind: "range", start, end })),
  ];
  const run = Bun.spawnSync(["python3", new URL("./oracle.py", import.meta.url).pathname], {
    stdin: new TextEncoder().encode(JSON.stringify({ cases })),
  });
  if (run.exitCode !== 0) throw new Error(`oracle.py failed: ${run.stderr.toString()}`);
  const answers = JSON.parse(run.stdout.toString()) as Answer[];
  expect(answers.length).toBe(cases.length);
  return answers;
}

describe("the domain agrees with Python's ipaddress", () => {
  const answers = askPython();
  let start = 0;
  const next = (n: number): Answer[] => {
    const slice = answers.slice(start, start + n);
    start += n;
    return slice;
  };
  const textAnswers = next(texts.length);
  const prefixAnswers = next(prefixes.length);
  const coverAnswers = next(covers.length);
  const subtractAnswers = next(subtracts.length);
  const rangeAnswers = next(ranges.length);

  test("both families, valid and invalid text are in the sample", () => {
    expect(textAnswers.filter((a) => a.ok && a.family === "ipv4").length).toBeGreaterThan(100);
    expect(textAnswers.filter((a) => a.ok && a.family === "ipv6").length).toBeGreaterThan(100);
    expect(textAnswers.filter((a) => !a.ok).length).toBeGreaterThan(500);
    expect(
      coverAnswers.some((a) => a.family === "ipv4") && coverAnswers.some((a) => a.family === "ipv6"),
    ).toBe(true);
    expect(subtractAnswers.filter((a) => (a.cidrs as string[]).length === 0).length).toBeGreaterThan(5);
  });

  test(`address parsing and RFC 5952 text (${texts.length} texts)`, () => {
    texts.forEach((input, i) => {
      const ours = parseAddr(input);
      const theirs = textAnswers[i]!;
      const view = ours.ok
        ? {
            ok: true,
            family: ours.value.family === 4 ? "ipv4" : "ipv6",
            text: ours.value.toString(),
            value: String(ours.value.toBigInt()),
          }
        : { ok: false };
      expect({ input, ...view } as Answer).toEqual({ input, ...theirs });
    });
  });

  test(`prefix normalization (${prefixes.length} CIDRs)`, () => {
    prefixes.forEach((input, i) => {
      const ours = parsePrefix(input);
      if (!ours.ok) throw new Error(ours.message);
      const p = ours.value;
      expect({
        text: p.toString(),
        first: p.first.toString(),
        last: p.last.toString(),
        count: String(p.addressCount()),
      }).toEqual(prefixAnswers[i] as never);
    });
  });

  test(`cidr-cover (${covers.length} requests)`, () => {
    covers.forEach((inputs, i) => {
      expect(coverCidrs(inputs)).toEqual(coverAnswers[i] as never);
    });
  });

  test(`cidr-subtract (${subtracts.length} requests)`, () => {
    subtracts.forEach(({ include, exclude }, i) => {
      expect(subtractCidrs(include, exclude)).toEqual(subtractAnswers[i] as never);
    });
  });

  test(`range-to-cidrs (${ranges.length} requests)`, () => {
    ranges.forEach(([start, end], i) => {
      expect(rangeToCidrs(start!, end!)).toEqual(rangeAnswers[i] as never);
    });
  });
});
