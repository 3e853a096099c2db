/**
 * cidr-subtract (spec §2.4, §2.5, §4.2; CONTRACT §3): union(include) minus union(exclude) as a
 * minimal sorted CIDR list.
 */
import { DomainError, type Issue } from "../errors.ts";
import { PrefixList } from "../ip/prefix-list.ts";
import type { PrefixSink } from "../ip/range.ts";
import { countAddressesOf, subtractLists, unionOf } from "../ip/range-list.ts";
import { API_SUBTRACT_LIMITS, type CidrLimits } from "../limits.ts";
import { resultWith } from "../list-fields.ts";
import {
  type FamilyName,
  familyName,
  invalidEntries,
  listLengthProblem,
  mixedFamilies,
  otherFamilyAt,
  prefixListOfWords,
  rangeListOfWords,
  readPrefixWords,
} from "./entries.ts";

/** The result of cidr-subtract, field for field and in the order of spec §2.5. */
export interface CidrSubtractResult {
  family: FamilyName;
  /** Every include entry as a canonical CIDR, in input order, duplicates kept. */
  normalizedInclude: string[];
  /** Every exclude entry as a canonical CIDR, in input order, duplicates kept. */
  normalizedExclude: string[];
  /** Minimal list of canonical CIDRs covering exactly union(include) − union(exclude), by network address. */
  cidrs: string[];
  /** Addresses in union(include), decimal. */
  includedAddressCount: string;
  /** Addresses of union(include) that union(exclude) removes (the intersection), decimal. */
  removedAddressCount: string;
  /** `includedAddressCount − removedAddressCount`: the addresses `cidrs` covers, decimal. */
  remainingAddressCount: string;
}

/**
 * Removes the `exclude` address space from the `include` address space (addresses or CIDRs, one
 * family). Removing everything is a success with an empty `cidrs`.
 *
 * Throws `DomainError`: `INVALID_INPUT` listing every invalid entry (path `[list, i]`, `list`,
 * `index`) or for list lengths out of bounds; `MIXED_ADDRESS_FAMILIES` pointing at the first entry,
 * reading `include` then `exclude`, whose family differs from `include[0]`'s; `RESULT_TOO_LARGE`
 * when the result would exceed `limits.maxResultCidrs`, detected while producing it, so the cost is
 * bounded by the limit and not by the address count. `limits` defaults to the API's (1000 entries,
 * 10000 result CIDRs).
 */
export function subtractCidrs(
  include: readonly string[],
  exclude: readonly string[],
  limits: CidrLimits = API_SUBTRACT_LIMITS,
): CidrSubtractResult {
  const { maxEntries, maxResultCidrs } = limits;
  const shapeIssues = [
    listLengthProblem(include, "include", 1, maxEntries),
    listLengthProblem(exclude, "exclude", 0, maxEntries),
  ].filter((issue) => issue !== null);
  if (shapeIssues.length === 0 && include.length + exclude.length > maxEntries) {
    shapeIssues.push({
      message: `include and exclude together must have at most ${maxEntries} entries; they have ${include.length + exclude.length}`,
      path: [],
    });
  }
  if (shapeIssues.length > 0) throw invalidEntries(shapeIssues);

  const issues: Issue[] = [];
  // Read as words, not an object per entry (a local run's million entries, issue 30).
  const incPrefixes = readPrefixWords(
    include,
    (i) => ({ path: ["include", i], index: i, list: "include" }),
    issues,
  );
  const excPrefixes = readPrefixWords(
    exclude,
    (i) => ({ path: ["exclude", i], index: i, list: "exclude" }),
    issues,
  );
  if (issues.length > 0) throw invalidEntries(issues);
  const family = incPrefixes.families[0] === 4 ? 4 : 6;
  for (const [list, read, texts] of [
    ["include", incPrefixes, include],
    ["exclude", excPrefixes, exclude],
  ] as const) {
    const index = otherFamilyAt(read, family);
    if (index >= 0) {
      throw mixedFamilies(texts[index]!, family === 4 ? 6 : 4, "the first entry", include[0]!, family, {
        path: [list, index],
        index,
        list,
      });
    }
  }

  const includeList = rangeListOfWords(family, incPrefixes);
  const excludeList = rangeListOfWords(family, excPrefixes);
  const includeUnion = unionOf(includeList);
  const excludeUnion = unionOf(excludeList);
  // Each list is released once it is used, so a large run holds only what it still needs.
  includeList.release();
  excludeList.release();
  const remaining = subtractLists(includeUnion, excludeUnion);
  const included = countAddressesOf(includeUnion);
  includeUnion.release();
  excludeUnion.release();
  const cidrs = new PrefixList();
  const collect: PrefixSink = (w0, w1, w2, w3, bits) => {
    if (cidrs.length === maxResultCidrs) return false;
    cidrs.add(family, w0, w1, w2, w3, bits);
    return true;
  };
  if (!remaining.forEachPrefix(collect)) {
    throw new DomainError(
      "RESULT_TOO_LARGE",
      `The result would have more than ${maxResultCidrs} CIDRs, the limit; subtract fewer scattered ranges or split the request.`,
    );
  }
  const left = countAddressesOf(remaining);
  remaining.release();
  return resultWith<CidrSubtractResult>({
    family: familyName(family),
    normalizedInclude: prefixListOfWords(family, incPrefixes),
    normalizedExclude: prefixListOfWords(family, excPrefixes),
    cidrs,
    includedAddressCount: included.toString(),
    removedAddressCount: (included - left).toString(),
    remainingAddressCount: left.toString(),
  });
}
