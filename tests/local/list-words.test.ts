/**
 * Lines the list commands print, made in src/local/ and checked against slow obvious models:
 * diff's `-`/`+` lines (src/local/diff-lines.ts), merge -x's reason lines
 * (src/local/special-reason-lines.ts), a file of ranges read line by line (src/local/list-lines.ts)
 * and split --cloud's lines (the domain's cloudSplitText, against cloudPlanText).
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { CLOUD_PROVIDERS, cloudPlanText, cloudSplitText } from "../../src/domain/ip/cloud-reserved.ts";
import { parsePrefix } from "../../src/domain/ip/prefix.ts";
import { specialReasonOf, specialReasonText } from "../../src/domain/ip/special-reasons.ts";
import { diffChunks } from "../../src/local/diff-lines.ts";
import { rangeLinesOf, rangeOrAddress } from "../../src/local/list-lines.ts";
import { writeSpecialReasons } from "../../src/local/special-reason-lines.ts";

/** A canonical CIDR of either family. */
const cidr = fc
  .oneof(
    fc.tuple(fc.ipV4(), fc.integer({ min: 0, max: 32 })),
    fc.tuple(fc.ipV6(), fc.integer({ min: 0, max: 128 })),
  )
  .map(([address, bits]) => {
    // parsePrefix takes host bits and answers the block: its network address makes the CIDR canonical.
    const parsed = parsePrefix(`${address}/${bits}`);
    return parsed.ok ? `${parsed.value.first}/${bits}` : `${address}/${bits}`;
  });

/** The model's order: IPv4 first, then by network address. */
function sortKey(text: string): [number, bigint] {
  const parsed = parsePrefix(text);
  if (!parsed.ok) throw new Error(text);
  return [parsed.value.family, parsed.value.first.toBigInt()];
}

/** The family and network address of a CIDR, or the text itself when it is none. */
const networkOf = (text: string): string => (parsePrefix(text).ok ? sortKey(text).join(" ") : text);

describe("diffChunks", () => {
  test("the lines of two disjoint sorted lists, in address order (model: sort every line)", () => {
    fc.assert(
      // Distinct network addresses: the lists of a comparison are disjoint.
      fc.property(fc.uniqueArray(cidr, { maxLength: 60, selector: networkOf }), (all) => {
        const valid = all.filter((text) => parsePrefix(text).ok);
        const sorted = [...valid].sort((x, y) => {
          const [fx, ax] = sortKey(x);
          const [fy, ay] = sortKey(y);
          return fx - fy || (ax < ay ? -1 : ax > ay ? 1 : 0);
        });
        const onlyA = sorted.filter((_, k) => k % 3 !== 0);
        const onlyB = sorted.filter((_, k) => k % 3 === 0);
        const lines = [...diffChunks(onlyA, onlyB)].join("");
        const model = sorted.map((text, k) => `${k % 3 === 0 ? "+" : "-"}${text}\n`).join("");
        expect(lines).toBe(model);
      }),
      { numRuns: 200 },
    );
  });

  test("a long diff comes in chunks of whole lines", () => {
    const onlyA = Array.from({ length: 5000 }, (_, k) => `10.${k >> 8}.${k & 255}.0/24`);
    const chunks = [...diffChunks(onlyA, [])];
    expect(chunks.length).toBe(2);
    for (const chunk of chunks) expect(chunk.endsWith("\n")).toBe(true);
    expect(chunks.join("").split("\n").length - 1).toBe(5000);
  });
});

describe("writeSpecialReasons", () => {
  const model = (entries: readonly string[], origins: readonly string[], only: "ipv4" | "ipv6" | null) =>
    entries.flatMap((entry, k) => {
      const parsed = parsePrefix(entry);
      if (!parsed.ok || (only !== null && (parsed.value.family === 6) !== (only === "ipv6"))) return [];
      const reason = specialReasonOf(parsed.value);
      if (reason === null) return [];
      const origin = origins[k]!;
      return [`${origin.startsWith("arg ") ? "" : `${origin}: `}${specialReasonText(entry.trim(), reason)}`];
    });

  test("one line per entry that meets special space, at its file's place (model: every entry parsed)", () => {
    const special = fc.constantFrom(
      "10.1.0.0/16",
      "10.0.0.0/7",
      "127.0.0.1",
      "fe80::/10",
      "2001:db8::/32",
      "192.0.2.0/24",
      "not an address",
    );
    fc.assert(
      fc.property(
        fc.array(fc.oneof(special, cidr), { maxLength: 40 }),
        fc.constantFrom(null, "ipv4" as const, "ipv6" as const),
        (entries, only) => {
          const origins = entries.map((_, k) => (k % 2 === 0 ? `arg ${k + 1}` : `list.txt:${k + 1}`));
          let written = "";
          writeSpecialReasons({ entries, origins }, only, (text) => {
            written += text;
          });
          const lines = model(entries, origins, only);
          expect(written).toBe(lines.length === 0 ? "" : `${lines.join("\n")}\n`);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("rangeLinesOf", () => {
  test("every range or address of a file at its line; comments, blank lines and CRLF skipped", () => {
    const text =
      "# ranges\r\n192.0.2.10 - 192.0.2.20\n\n  10.0.0.1  # one\nnot a range\r2001:db8::1-2001:db8::9\n";
    expect(rangeLinesOf(text, "r.txt")).toEqual([
      { origin: "r.txt:2", text: "192.0.2.10 - 192.0.2.20", endpoints: ["192.0.2.10", "192.0.2.20"] },
      { origin: "r.txt:4", text: "10.0.0.1", endpoints: ["10.0.0.1", "10.0.0.1"] },
      { origin: "r.txt:5", text: "not a range", endpoints: null },
      { origin: "r.txt:6", text: "2001:db8::1-2001:db8::9", endpoints: ["2001:db8::1", "2001:db8::9"] },
    ]);
  });

  test("one word is one address; two words or a dash are a range", () => {
    expect(rangeOrAddress(["192.0.2.1"])).toEqual(["192.0.2.1", "192.0.2.1"]);
    expect(rangeOrAddress(["192.0.2.1", "192.0.2.9"])).toEqual(["192.0.2.1", "192.0.2.9"]);
    expect(rangeOrAddress(["192.0.2.1-"])).toBeNull();
    expect(rangeOrAddress([""])).toBeNull();
  });
});

describe("cloudSplitText", () => {
  test("the lines are cloudPlanText's for the same subnets (model: each subnet sized on its own)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CLOUD_PROVIDERS),
        fc.integer({ min: 16, max: 30 }),
        fc.integer({ min: 0, max: 4 }),
        (provider, length, extra) => {
          const count = 2 ** Math.min(extra, 32 - length);
          const cidrs = Array.from({ length: count }, (_, k) => {
            const base = (10 << 24) >>> 0;
            const start = (base + k * 2 ** (32 - length)) >>> 0;
            return `${start >>> 24}.${(start >>> 16) & 255}.${(start >>> 8) & 255}.${start & 255}/${length}`;
          });
          const split = cloudSplitText(provider, { cidrs, prefixLength: length });
          const plan = cloudPlanText(provider, cidrs);
          expect(split.ok).toBe(plan.ok);
          if (split.ok && plan.ok) {
            expect(split.value.lines()).toBe(plan.value);
            expect(plan.value.startsWith(`${cidrs[0]}\t${split.value.usablePerSubnet}\t`)).toBe(true);
          }
          if (!split.ok && !plan.ok) expect(split.message.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 200 },
    );
  });
});
