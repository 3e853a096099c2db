/**
 * fast-check generators for addresses, prefixes and ranges of both families, biased towards the
 * edges (0.0.0.0, ::, all-ones, /0, /32, /128) and towards entries that share long prefixes, so that
 * overlaps, adjacency and containment happen often. Each entry comes with a text written in one of
 * the many forms the parser must accept (RFC 4291 §2.2 styles, any case, surrounding whitespace).
 */
import fc from "fast-check";
import { type Family, formatAddr, type ModelEntry, maxValue, width } from "./model.ts";

/** An entry and a text for it. */
export interface TextEntry extends ModelEntry {
  text: string;
}

const randomCase = (s: string, mask: number): string =>
  [...s].map((c, i) => ((mask >> (i % 30)) & 1 ? c.toUpperCase() : c)).join("");

function groupsOf(value: bigint): number[] {
  const out: number[] = [];
  for (let i = 7; i >= 0; i--) out.push(Number((value >> BigInt(16 * i)) & 0xffffn));
  return out;
}

function dotted(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((s) => String((value >> s) & 0xffn)).join(".");
}

/**
 * An IPv6 text for `value` in `style`: 0 canonical, 1 full with zero padding, 2 with `::` standing
 * for a zero run chosen by `pick` (possibly a single group), 3 with a dotted IPv4 tail, 4 both.
 */
export function ipv6Text(value: bigint, style: number, pick: number, caseMask: number): string {
  const groups = groupsOf(value);
  const hex = groups.map((g, i) => g.toString(16).padStart(1 + ((pick >> i) & 3), "0"));
  const tailV4 = style >= 3;
  const parts = tailV4 ? [...hex.slice(0, 6), dotted(value & 0xffffffffn)] : hex;
  let text: string;
  if (style === 0) {
    text = formatAddr(6, value);
  } else if (style === 1 || style === 3) {
    text = parts.join(":");
  } else {
    const limit = tailV4 ? 6 : 8;
    const runs: [number, number][] = [];
    for (let i = 0; i < limit; i++) {
      for (let j = i; j < limit && groups[j] === 0; j++) runs.push([i, j - i + 1]);
    }
    const run = runs[pick % Math.max(1, runs.length)];
    if (run === undefined) {
      text = parts.join(":");
    } else {
      const head = parts.slice(0, run[0]).join(":");
      const tail = parts.slice(run[0] + run[1]).join(":");
      text = `${head}::${tail}`;
    }
  }
  return randomCase(text, caseMask);
}

/** An address value of `family`, often at an edge or near `base`. */
export function valueNear(family: Family, base: bigint): fc.Arbitrary<bigint> {
  const w = width(family);
  const max = maxValue(family);
  return fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom(0n, max, 1n, max - 1n, 1n << BigInt(w - 1)) },
    { weight: 2, arbitrary: fc.bigInt({ min: 0n, max }) },
    {
      weight: 6,
      arbitrary: fc
        .tuple(fc.integer({ min: 0, max: Math.min(w, 24) }), fc.bigInt({ min: 0n, max }))
        .map(([low, noise]) => {
          const mask = (1n << BigInt(low)) - 1n;
          return (base & ~mask & max) | (noise & mask);
        }),
    },
  );
}

/** A prefix length, often 0, the full width, or long. */
export function prefixLength(family: Family): fc.Arbitrary<number> {
  const w = width(family);
  return fc.oneof(
    fc.constantFrom(0, w),
    fc.integer({ min: 0, max: w }),
    fc.integer({ min: Math.max(0, w - 24), max: w }),
  );
}

/** Surrounding whitespace the parser must ignore. */
const padding = fc.constantFrom("", "", "", " ", "\t", "\r\n", "  ");

/** How an entry is written: surrounding whitespace, IPv6 style, zero run to shorten, letter case. */
interface Writing {
  before: string;
  after: string;
  style: number;
  pick: number;
  caseMask: number;
}

const writing: fc.Arbitrary<Writing> = fc.record({
  before: padding,
  after: padding,
  style: fc.integer({ min: 0, max: 4 }),
  pick: fc.nat(),
  caseMask: fc.nat(),
});

/** Text of `value` (and `/bits` unless `bits` is null) written as `how` says. */
function textFor(family: Family, value: bigint, bits: number | null, how: Writing): string {
  const addr = family === 4 ? formatAddr(4, value) : ipv6Text(value, how.style, how.pick, how.caseMask);
  const text = bits === null ? addr : `${addr}/${bits}`;
  const padded = how.before + text + how.after;
  return padded.length <= 64 ? padded : text;
}

/** One address-or-CIDR entry near `base`; a bare address stands for the full-length prefix. */
export function entryNear(family: Family, base: bigint): fc.Arbitrary<TextEntry> {
  return fc
    .tuple(valueNear(family, base), prefixLength(family), fc.boolean(), writing)
    .map(([value, bits, bare, how]) => ({
      family,
      value,
      bits: bare ? width(family) : bits,
      text: textFor(family, value, bare ? null : bits, how),
    }));
}

/** A family and a base value entries cluster around. */
export const familyAndBase: fc.Arbitrary<{ family: Family; base: bigint }> = fc
  .constantFrom<Family>(4, 6)
  .chain((family) => valueNear(family, 0n).map((base) => ({ family, base })));

/** A non-empty list of entries of one family. */
export function entryList(minLength: number, maxLength: number) {
  return familyAndBase.chain(({ family, base }) =>
    fc.array(entryNear(family, base), { minLength, maxLength }).map((entries) => ({ family, entries })),
  );
}

/** Include and exclude lists of one family around one base. */
export const subtractCase = familyAndBase.chain(({ family, base }) =>
  fc
    .tuple(
      fc.array(entryNear(family, base), { minLength: 1, maxLength: 12 }),
      fc.array(entryNear(family, base), { minLength: 0, maxLength: 12 }),
    )
    .map(([include, exclude]) => ({ family, include, exclude })),
);

/** Two addresses of one family with their texts (any order). */
export const addressPair = familyAndBase.chain(({ family, base }) =>
  fc.tuple(valueNear(family, base), valueNear(family, base), writing, writing).map(([a, b, howA, howB]) => ({
    family,
    a: { value: a, text: textFor(family, a, null, howA) },
    b: { value: b, text: textFor(family, b, null, howB) },
  })),
);
