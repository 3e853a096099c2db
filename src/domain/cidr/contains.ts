/**
 * cidr-contains (CONTRACT §7.4): for each entry, whether a block of a list holds it wholly or
 * shares addresses with it, and the most specific block that holds it — grepcidr's question, for
 * CIDRs too.
 */
import type { Issue } from "../errors.ts";
import { parsePrefix } from "../ip/prefix.ts";
import { TextBatch } from "../ip/text.ts";
import { API_LIST_LIMITS, type CidrLimits } from "../limits.ts";
import { BlockIndex, NO_OVERLAP } from "./block-index.ts";
import { invalidEntries, listsShapeIssues, readPrefixWords } from "./entries.ts";

/** What cidr-contains says about one entry. */
export interface ContainmentResult {
  /** The entry, canonical (host bits cleared; an address is a /32 or /128). */
  entry: string;
  /** Every address of the entry lies inside one block of `cidrs`. */
  contained: boolean;
  /** At least one address of the entry lies inside a block of `cidrs`. */
  overlaps: boolean;
  /** The most specific canonical block of `cidrs` holding the whole entry, or null. */
  matchedCidr: string | null;
  /** The label of `matchedCidr` (its first labelled occurrence in `cidrs`), or null. */
  label: string | null;
}

/** The result of cidr-contains: one answer per entry, in input order. */
export interface CidrContainsResult {
  results: ContainmentResult[];
}

/**
 * Answers, for every entry of `entries` (addresses or CIDRs), whether it lies wholly inside one
 * block of `cidrs` (`contained`, with the most specific such block as `matchedCidr`) and whether it
 * shares any address with one (`overlaps`). Families may mix: an entry is only compared with the
 * blocks of its own family, and IPv4-mapped IPv6 is IPv6. Being covered by several blocks together
 * (two /25s and their /24) is overlap, not containment.
 *
 * The blocks are indexed once, then each entry is one binary search: 1000 blocks × 1000 entries
 * cost about 1000 × 10 comparisons, not a million.
 *
 * Throws `DomainError` `INVALID_INPUT` for a list outside 1–`limits.maxEntries` entries (path
 * `["cidrs"]` or `["entries"]`), for the two lists together over `limits.maxEntries` (path `[]`),
 * or listing every invalid entry of either list (path `["cidrs", i]` or `["entries", i]`).
 * `limits` defaults to the API's (1000 entries in total). `labels[i]` is the label of `cidrs[i]`
 * (or null): each answer carries its `matchedCidr`'s label (CONTRACT §12).
 */
/** Each labelled block's canonical text → its label; the first label given for a block wins. */
function labelsByBlock(cidrs: readonly string[], labels: readonly (string | null)[]): Map<string, string> {
  const out = new Map<string, string>();
  labels.forEach((label, i) => {
    if (label === null) return;
    const parsed = parsePrefix(cidrs[i]!);
    if (!parsed.ok) return;
    const text = parsed.value.toString();
    if (!out.has(text)) out.set(text, label);
  });
  return out;
}

export function cidrsContain(
  cidrs: readonly string[],
  entries: readonly string[],
  limits: Pick<CidrLimits, "maxEntries"> = API_LIST_LIMITS,
  labels: readonly (string | null)[] = [],
): CidrContainsResult {
  const shape = listsShapeIssues(
    [
      { name: "cidrs", list: cidrs, min: 1 },
      { name: "entries", list: entries, min: 1 },
    ],
    limits.maxEntries,
  );
  if (shape.length > 0) throw invalidEntries(shape);
  const issues: Issue[] = [];
  const blocks = readPrefixWords(cidrs, (i) => ({ path: ["cidrs", i] }), issues);
  const items = readPrefixWords(entries, (i) => ({ path: ["entries", i] }), issues);
  if (issues.length > 0) throw invalidEntries(issues);

  const index = new BlockIndex(blocks);
  const batch = new TextBatch();
  const w = items.words;
  for (let i = 0; i < items.count; i++) {
    batch.add(
      items.families[i] === 4 ? 4 : 6,
      w[4 * i]!,
      w[4 * i + 1]!,
      w[4 * i + 2]!,
      w[4 * i + 3]!,
      items.lengths[i],
    );
  }
  const texts = batch.toStrings();
  const labelOf = labelsByBlock(cidrs, labels);
  const results = new Array<ContainmentResult>(items.count);
  for (let i = 0; i < items.count; i++) {
    const found = index.locate(items, i);
    const matchedCidr = found >= 0 ? index.blockText(items.families[i] === 4 ? 4 : 6, found) : null;
    results[i] = {
      entry: texts[i]!,
      contained: found >= 0,
      overlaps: found !== NO_OVERLAP,
      matchedCidr,
      label: matchedCidr === null ? null : (labelOf.get(matchedCidr) ?? null),
    };
  }
  return { results };
}
