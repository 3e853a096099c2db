/**
 * cidr-merge (CONTRACT §7.4): a list of addresses and CIDRs of either family collapsed into the
 * minimal list covering exactly their union, IPv4 blocks first, then IPv6; with `excludeSpecial`
 * (§8.5), the special-purpose space that is not globally reachable taken out first, each removed
 * block named by the registry row that decided it.
 */
import { DomainError, type Issue } from "../errors.ts";
import { type PrefixSink, splitRangeWords } from "../ip/range.ts";
import {
  countAddressesOf,
  countPrefixesOf,
  forEachOverlap,
  RangeList,
  subtractLists,
  unionOf,
} from "../ip/range-list.ts";
import { type SpecialBlock, specialRangeTable } from "../ip/special.ts";
import { TextBatch } from "../ip/text.ts";
import { API_TOOLBOX_LIMITS, type CidrLimits } from "../limits.ts";
import { invalidEntries, listsShapeIssues, readPrefixLists } from "./entries.ts";

/**
 * A set of addresses of both families as the CIDR results write it (cidr-merge's result, and each
 * of cidr-compare's `onlyA`, `onlyB`, `both`).
 */
export interface CidrSet {
  /**
   * The minimal list of canonical CIDRs covering exactly the set: the IPv4 blocks by network
   * address, then the IPv6 blocks by network address (IPv4-mapped IPv6 is IPv6).
   */
  cidrs: string[];
  /** Addresses of the set in IPv4, decimal ("0" when there is none). */
  ipv4AddressCount: string;
  /** Addresses of the set in IPv6, decimal ("0" when there is none). */
  ipv6AddressCount: string;
}

/** A block `excludeSpecial` removed, with the table row that decided it (CONTRACT §8.5). */
export interface ExcludedBlock {
  /** The removed addresses, one CIDR of the row's minimal list. */
  cidr: string;
  /** The deciding row's block, canonical (`::ffff:0.0.0.0/96`). */
  block: string;
  /** The row's name (`Private-Use`). */
  name: string;
  /** The row's RFC (`RFC 1918`). */
  rfc: string;
}

/** The result of cidr-merge, field for field; `excluded` only with `excludeSpecial`. */
export interface CidrMergeResult extends CidrSet {
  /** What `excludeSpecial` removed, by network address, IPv4 first; `[]` when nothing was. */
  excluded?: ExcludedBlock[];
}

/** How cidr-merge treats special-purpose space. */
export interface MergeOptions {
  /** Remove every address the special-purpose table marks not globally reachable (CONTRACT §8.5). */
  readonly excludeSpecial?: boolean | undefined;
}

/**
 * Collapses `inputs` (addresses or CIDRs, IPv4 and IPv6 mixed freely) into the minimal sorted
 * CIDR list covering exactly their union: duplicates and overlaps merged, neighbours joined
 * (`10.0.0.0/25` + `10.0.0.128/25` → `10.0.0.0/24`). Each family is merged on its own; the result
 * is what Python's `ipaddress.collapse_addresses` gives per family, IPv4 first.
 *
 * With `options.excludeSpecial`, every address whose most specific row in the IANA
 * special-purpose tables (src/domain/ip/special.ts) is not globally reachable is removed first:
 * `cidrs` and the counts describe what remains (`10.0.0.0/7` → `11.0.0.0/8`) and `excluded`
 * lists the removed addresses, per deciding row as its minimal CIDR list, all by network address,
 * IPv4 first. The two are disjoint and together cover the inputs exactly.
 *
 * Throws `DomainError`: `INVALID_INPUT` listing every invalid entry (path `["inputs", i]`) or for a
 * list outside 1–`limits.maxEntries` entries (path `["inputs"]`); `RESULT_TOO_LARGE` when the
 * result would exceed `limits.maxResultCidrs` (`cidrs` and `excluded` together; without
 * `excludeSpecial` the result never has more CIDRs than there are inputs, so only a limit below the
 * entry limit can be reached). `limits` defaults to the API's (1000 entries, 10000 CIDRs).
 */
export function mergeMixedCidrs(
  inputs: readonly string[],
  limits: CidrLimits = API_TOOLBOX_LIMITS,
  options: MergeOptions = {},
): CidrMergeResult {
  const shape = listsShapeIssues([{ name: "inputs", list: inputs, min: 1 }], limits.maxEntries);
  if (shape.length > 0) throw invalidEntries(shape);
  const issues: Issue[] = [];
  const v4 = new RangeList(4, inputs.length);
  const v6 = new RangeList(6, inputs.length);
  readPrefixLists(inputs, (i) => ({ path: ["inputs", i] }), issues, v4, v6);
  if (issues.length > 0) throw invalidEntries(issues);

  const union4 = unionOf(v4);
  const union6 = unionOf(v6);
  v4.release();
  v6.release();
  if (options.excludeSpecial === true) return mergeExcludingSpecial(union4, union6, limits.maxResultCidrs);
  const merged = cidrSetWithin(union4, union6, limits.maxResultCidrs);
  const total = merged === null ? countPrefixesOf(union4) + countPrefixesOf(union6) : 0;
  union4.release();
  union6.release();
  if (merged === null) {
    throw new DomainError(
      "RESULT_TOO_LARGE",
      `The merged list would have ${total} CIDRs, more than the limit of ${limits.maxResultCidrs}.`,
    );
  }
  return merged;
}

/**
 * The `excludeSpecial` merge of two unions (CONTRACT §8.5): the union minus the excluded rows'
 * space, and the removed addresses cut at the rows' boundaries. Texts are written until the limit
 * is passed; then the exact total is counted per range ({@link countPrefixesOf}), not listed, and
 * nothing written is returned.
 */
function mergeExcludingSpecial(
  union4: RangeList,
  union6: RangeList,
  maxResultCidrs: number,
): CidrMergeResult {
  const remaining: RangeList[] = [];
  /** The removed addresses of both families: ranges cut at the rows' boundaries, and their rows. */
  const pieces: RangeList[] = [];
  const pieceRows: SpecialBlock[] = [];
  for (const union of [union4, union6]) {
    const table = specialRangeTable(union.family);
    remaining.push(subtractLists(union, table.excludedUnion));
    const cut = new RangeList(union.family);
    forEachOverlap(union, table.excluded.ranges, (_, segment, p) => {
      cut.push(p[0]!, p[1]!, p[2]!, p[3]!, p[4]!, p[5]!, p[6]!, p[7]!);
      pieceRows.push(table.excluded.rows[segment]!);
    });
    pieces.push(cut);
    union.release();
  }
  const lists = [...remaining, ...pieces];
  const tooLarge = () => {
    const total = lists.reduce((sum, list) => sum + countPrefixesOf(list), 0);
    for (const list of lists) list.release();
    return new DomainError(
      "RESULT_TOO_LARGE",
      `The merged list and its excluded blocks would have ${total} CIDRs together, more than the limit of ${maxResultCidrs}.`,
    );
  };
  const kept = cidrSetWithin(remaining[0]!, remaining[1]!, maxResultCidrs);
  if (kept === null) throw tooLarge();
  // One text per prefix of each piece, and the piece's row for each text.
  const budget = maxResultCidrs - kept.cidrs.length;
  const texts = new TextBatch();
  const textRows: SpecialBlock[] = [];
  let family: 4 | 6 = 4;
  let row: SpecialBlock | undefined;
  const collect: PrefixSink = (w0, w1, w2, w3, bits) => {
    if (texts.length === budget) return false;
    texts.add(family, w0, w1, w2, w3, bits);
    textRows.push(row!);
    return true;
  };
  let piece = 0;
  for (const cut of pieces) {
    family = cut.family;
    const bitLength = family === 4 ? 32 : 128;
    for (let i = 0; i < cut.length; i++, piece++) {
      row = pieceRows[piece];
      const whole = splitRangeWords(
        bitLength,
        cut.first(i, 0),
        cut.first(i, 1),
        cut.first(i, 2),
        cut.first(i, 3),
        cut.last(i, 0),
        cut.last(i, 1),
        cut.last(i, 2),
        cut.last(i, 3),
        collect,
      );
      if (!whole) {
        texts.toStrings(); // hands the batch's space back
        throw tooLarge();
      }
    }
  }
  const cidrs = texts.toStrings();
  const excluded = new Array<ExcludedBlock>(cidrs.length);
  for (let k = 0; k < cidrs.length; k++) {
    const { prefix, name, rfc } = textRows[k]!;
    excluded[k] = { cidr: cidrs[k]!, block: prefix, name, rfc };
  }
  for (const list of lists) list.release();
  return { ...kept, excluded };
}

/**
 * The {@link CidrSet} of the IPv4 union `v4` and the IPv6 union `v6` ({@link unionOf}'s form):
 * their prefixes as one list of texts, IPv4 first, and each family's exact count; `null`, with
 * nothing kept, as soon as there are more than `maxCidrs` prefixes.
 */
export function cidrSetWithin(v4: RangeList, v6: RangeList, maxCidrs: number): CidrSet | null {
  const texts = new TextBatch();
  let family: 4 | 6 = 4;
  const collect: PrefixSink = (w0, w1, w2, w3, bits) => {
    if (texts.length === maxCidrs) return false;
    texts.add(family, w0, w1, w2, w3, bits);
    return true;
  };
  for (const list of [v4, v6]) {
    family = list.family;
    if (!list.forEachPrefix(collect)) {
      texts.toStrings(); // hands the batch's space back
      return null;
    }
  }
  return {
    cidrs: texts.toStrings(),
    ipv4AddressCount: countAddressesOf(v4).toString(),
    ipv6AddressCount: countAddressesOf(v6).toString(),
  };
}

/** {@link cidrSetWithin} without a limit, for a caller that has counted the prefixes itself. */
export function cidrSetOf(v4: RangeList, v6: RangeList): CidrSet {
  const set = cidrSetWithin(v4, v6, Number.POSITIVE_INFINITY);
  if (set === null) throw new RangeError("a set written without a limit is never refused");
  return set;
}
