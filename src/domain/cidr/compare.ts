/**
 * cidr-compare (CONTRACT §8.4): two lists of addresses and CIDRs compared as address sets —
 * what only the first holds, what only the second holds, what both hold — the question
 * `iprange --diff` and `--common` answer for two versions of a blocklist.
 */
import { DomainError, type Issue } from "../errors.ts";
import { countPrefixesOf, intersectLists, RangeList, subtractLists, unionOf } from "../ip/range-list.ts";
import { API_LIST_LIMITS, type CidrLimits } from "../limits.ts";
import { resultWith } from "../list-fields.ts";
import { invalidEntries, listsShapeIssues, readPrefixLists } from "./entries.ts";
import { type CidrSet, cidrSetOf } from "./merge-mixed.ts";

/** The result of cidr-compare, field for field. */
export interface CidrCompareResult {
  /** Addresses in union(a) and not in union(b). */
  onlyA: CidrSet;
  /** Addresses in union(b) and not in union(a). */
  onlyB: CidrSet;
  /** Addresses in both unions. */
  both: CidrSet;
  /** Whether the two unions are the same address set (`onlyA` and `onlyB` both empty). */
  equal: boolean;
}

/**
 * Compares the address sets of `a` and `b` (addresses or CIDRs, families mixed freely, either list
 * may be empty). Each of `onlyA`, `onlyB` and `both` is written as cidr-merge writes a set: the
 * minimal CIDR list, IPv4 first, each family by network address, with exact counts per family.
 * IPv4-mapped IPv6 (`::ffff:192.0.2.1`) is IPv6 and never meets `192.0.2.1`.
 *
 * The three lists' sizes are counted per range before any text is written ({@link countPrefixesOf}):
 * a comparison far too large to answer is refused, with its exact size, for what a small one costs.
 *
 * Throws `DomainError`: `INVALID_INPUT` for a list that is not 0–`limits.maxEntries` entries
 * (`["a"]`, `["b"]`), for both together over that (one issue at `[]`), or listing every invalid
 * entry (`["a", i]`, `["b", i]`); `RESULT_TOO_LARGE` when the three lists would hold more than
 * `limits.maxResultCidrs` CIDRs together, the message giving the exact total. `limits` defaults to
 * the API's (1000 entries, 10000 CIDRs).
 */
export function compareCidrs(
  a: readonly string[],
  b: readonly string[],
  limits: CidrLimits = API_LIST_LIMITS,
): CidrCompareResult {
  const shape = listsShapeIssues(
    [
      { name: "a", list: a, min: 0 },
      { name: "b", list: b, min: 0 },
    ],
    limits.maxEntries,
  );
  if (shape.length > 0) throw invalidEntries(shape);
  const issues: Issue[] = [];
  const a4 = new RangeList(4, a.length);
  const a6 = new RangeList(6, a.length);
  const b4 = new RangeList(4, b.length);
  const b6 = new RangeList(6, b.length);
  readPrefixLists(a, (i) => ({ path: ["a", i] }), issues, a4, a6);
  readPrefixLists(b, (i) => ({ path: ["b", i] }), issues, b4, b6);
  if (issues.length > 0) throw invalidEntries(issues);

  const unions = [unionOf(a4), unionOf(a6), unionOf(b4), unionOf(b6)] as const;
  for (const list of [a4, a6, b4, b6]) list.release();
  const [ua4, ua6, ub4, ub6] = unions;
  const onlyA = [subtractLists(ua4, ub4), subtractLists(ua6, ub6)] as const;
  const onlyB = [subtractLists(ub4, ua4), subtractLists(ub6, ua6)] as const;
  const both = [intersectLists(ua4, ub4), intersectLists(ua6, ub6)] as const;
  for (const list of unions) list.release();
  const parts = [...onlyA, ...onlyB, ...both];
  const total = parts.reduce((sum, list) => sum + countPrefixesOf(list), 0);
  if (total > limits.maxResultCidrs) {
    for (const list of parts) list.release();
    throw new DomainError(
      "RESULT_TOO_LARGE",
      `The comparison would list ${total} CIDRs in onlyA, onlyB and both together, more than the limit of ${limits.maxResultCidrs}.`,
    );
  }
  const result = resultWith<CidrCompareResult>({
    onlyA: cidrSetOf(...onlyA),
    onlyB: cidrSetOf(...onlyB),
    both: cidrSetOf(...both),
    equal: onlyA[0].length + onlyA[1].length + onlyB[0].length + onlyB[1].length === 0,
  });
  for (const list of parts) list.release();
  return result;
}
