/**
 * cidr-merge (CONTRACT §7.4): a list of addresses and CIDRs of either family collapsed into the
 * minimal list covering exactly their union, IPv4 blocks first, then IPv6; with `excludeSpecial`
 * (§8.5), the special-purpose space that is not globally reachable taken out first, each removed
 * block named by the registry row that decided it.
 */
import { DomainError, type Issue } from "../errors.ts";
import { PrefixEntries, PrefixList } from "../ip/prefix-list.ts";
import { countRangePrefixesAt, type PrefixSink, splitRangeWords } from "../ip/range.ts";
import {
  countAddressesOf,
  countPrefixesOf,
  forEachOverlap,
  RangeList,
  subtractLists,
  unionOf,
} from "../ip/range-list.ts";
import { specialRangeTable } from "../ip/special.ts";
import { API_LIST_LIMITS, type CidrLimits } from "../limits.ts";
import { type ResultFields, resultWith } from "../list-fields.ts";
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
  limits: CidrLimits = API_LIST_LIMITS,
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
 * The `excludeSpecial` merge of two unions (CONTRACT §8.5): the removed addresses, cut at the rows'
 * boundaries, written straight from the walk over the table's segments, then the union minus the
 * excluded rows' space. Texts are written until the limit is passed; then the exact total is
 * counted per range ({@link countRangePrefixesAt}), not listed, and nothing written is returned.
 */
function mergeExcludingSpecial(
  union4: RangeList,
  union6: RangeList,
  maxResultCidrs: number,
): CidrMergeResult {
  const unions = [union4, union6];
  // The removed addresses first: one text per prefix of each piece, with the piece's row.
  const texts = new PrefixList();
  const textRows: ExcludedDetails[] = [];
  let family: 4 | 6 = 4;
  let row: ExcludedDetails | undefined;
  const collect: PrefixSink = (w0, w1, w2, w3, bits) => {
    if (texts.length === maxResultCidrs) return false;
    texts.add(family, w0, w1, w2, w3, bits);
    textRows.push(row!);
    return true;
  };
  let fits = true;
  const removedIn = [0, 0]; // texts written per family
  for (const [f, union] of unions.entries()) {
    family = union.family;
    const bitLength = family === 4 ? 32 : 128;
    const { excluded } = specialRangeTable(family);
    const details = excludedDetails(family);
    const before = texts.length;
    fits = forEachOverlap(union, excluded.ranges, (_, segment, p) => {
      row = details[segment]!;
      return splitRangeWords(bitLength, p[0]!, p[1]!, p[2]!, p[3]!, p[4]!, p[5]!, p[6]!, p[7]!, collect);
    });
    removedIn[f] = texts.length - before;
    if (!fits) break;
  }
  // What remains: the union itself in a family where nothing was removed (the usual case).
  const remaining = unions.map((union, f) =>
    removedIn[f] === 0 && fits ? union : subtractLists(union, specialRangeTable(union.family).excludedUnion),
  );
  const kept = fits ? cidrSetFields(remaining[0]!, remaining[1]!, maxResultCidrs - texts.length) : null;
  const release = () => {
    for (const list of new Set([...unions, ...remaining])) list.release();
  };
  if (kept === null) {
    const total =
      removedPrefixCount(unions) + countPrefixesOf(remaining[0]!) + countPrefixesOf(remaining[1]!);
    release();
    throw new DomainError(
      "RESULT_TOO_LARGE",
      `The merged list and its excluded blocks would have ${total} CIDRs together, more than the limit of ${maxResultCidrs}.`,
    );
  }
  release();
  // Each entry is its prefix and its row's details, made into objects only when read.
  const excluded = new PrefixEntries(texts, textRows);
  return resultWith<CidrMergeResult>({ ...kept, excluded });
}

/** How many CIDRs the removed addresses of `unions` make, counted per piece, not listed. */
function removedPrefixCount(unions: readonly RangeList[]): number {
  let total = 0;
  for (const union of unions) {
    forEachOverlap(union, specialRangeTable(union.family).excluded.ranges, (_, __, p) => {
      total += countRangePrefixesAt(p, 0);
      return true;
    });
  }
  return total;
}

/** An {@link ExcludedBlock} without its `cidr`: what its row decides. */
type ExcludedDetails = Omit<ExcludedBlock, "cidr">;
const detailsByFamily = new Map<4 | 6, ExcludedDetails[]>();

/**
 * For each excluded segment of `family`'s table, the details every {@link ExcludedBlock} it
 * decides shares (`block`, `name`, `rfc`), made once: one object per row, not per block.
 */
function excludedDetails(family: 4 | 6): ExcludedDetails[] {
  let details = detailsByFamily.get(family);
  if (details === undefined) {
    details = specialRangeTable(family).excluded.rows.map(({ prefix, name, rfc }) => ({
      block: prefix,
      name,
      rfc,
    }));
    detailsByFamily.set(family, details);
  }
  return details;
}

/**
 * The {@link CidrSet} of the IPv4 union `v4` and the IPv6 union `v6` ({@link unionOf}'s form):
 * their prefixes as one list of texts, IPv4 first, and each family's exact count; `null`, with
 * nothing kept, as soon as there are more than `maxCidrs` prefixes.
 */
export function cidrSetWithin(v4: RangeList, v6: RangeList, maxCidrs: number): CidrSet | null {
  const fields = cidrSetFields(v4, v6, maxCidrs);
  return fields === null ? null : resultWith<CidrSet>(fields);
}

/** {@link cidrSetWithin}'s fields, the list still as its batch wrote it (to add fields to). */
function cidrSetFields(v4: RangeList, v6: RangeList, maxCidrs: number): ResultFields<CidrSet> | null {
  const texts = new PrefixList();
  let family: 4 | 6 = 4;
  const collect: PrefixSink = (w0, w1, w2, w3, bits) => {
    if (texts.length === maxCidrs) return false;
    texts.add(family, w0, w1, w2, w3, bits);
    return true;
  };
  for (const list of [v4, v6]) {
    family = list.family;
    if (!list.forEachPrefix(collect)) return null;
  }
  return {
    cidrs: texts,
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
