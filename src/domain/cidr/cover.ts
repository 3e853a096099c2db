/**
 * cidr-cover (spec §2.2, §2.3, §4.1): the smallest single CIDR that contains every input.
 */
import type { Issue } from "../errors.ts";
import { IpAddr } from "../ip/addr.ts";
import { IpPrefix } from "../ip/prefix.ts";
import { countAddressesOf, unionOf } from "../ip/range-list.ts";
import { commonPrefixLengthOfWords } from "../ip/u128.ts";
import { API_COVER_LIMITS, type CidrLimits } from "../limits.ts";
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

/** The result of cidr-cover, field for field and in the order of spec §2.3. */
export interface CidrCoverResult {
  family: FamilyName;
  /** Every input as a canonical CIDR, in input order, duplicates kept. */
  normalizedInputs: string[];
  /** The longest-prefix CIDR containing every input address. */
  cidr: string;
  /** First and last address of `cidr`. */
  range: { first: string; last: string };
  /** Distinct addresses in the union of the inputs (overlaps counted once), decimal. */
  inputAddressCount: string;
  /** Addresses in `cidr`, decimal. */
  coveredAddressCount: string;
  /** `coveredAddressCount − inputAddressCount`, decimal. */
  additionalAddressCount: string;
}

/**
 * The smallest single CIDR covering every address of `inputs` (addresses or CIDRs, one family).
 *
 * Throws `DomainError`: `INVALID_INPUT` listing every invalid entry (path `["inputs", i]`, `index`),
 * or for a list outside 1–`limits.maxEntries` entries (path `["inputs"]`); `MIXED_ADDRESS_FAMILIES`
 * pointing at the first entry whose family differs from the first entry's. `limits` defaults to the
 * API's (1000 entries).
 */
export function coverCidrs(
  inputs: readonly string[],
  limits: Pick<CidrLimits, "maxEntries"> = API_COVER_LIMITS,
): CidrCoverResult {
  const lengthIssue = listLengthProblem(inputs, "inputs", 1, limits.maxEntries);
  if (lengthIssue !== null) throw invalidEntries([lengthIssue]);
  const issues: Issue[] = [];
  // Read as words, not an object per entry (a local run's million entries, issue 30).
  const prefixes = readPrefixWords(inputs, (i) => ({ path: ["inputs", i], index: i }), issues);
  if (issues.length > 0) throw invalidEntries(issues);
  const family = prefixes.families[0] === 4 ? 4 : 6;
  const other = otherFamilyAt(prefixes, family);
  if (other >= 0) {
    throw mixedFamilies(inputs[other]!, family === 4 ? 6 : 4, "the first entry", inputs[0]!, family, {
      path: ["inputs", other],
      index: other,
    });
  }

  const list = rangeListOfWords(family, prefixes);
  const union = unionOf(list);
  const top = union.length - 1;
  const [l0, l1, l2, l3] = [0, 1, 2, 3].map((k) => union.first(0, k)) as [number, number, number, number];
  const low = IpAddr.fromWords(family, l0, l1, l2, l3);
  const shared = commonPrefixLengthOfWords(
    l0,
    l1,
    l2,
    l3,
    union.last(top, 0),
    union.last(top, 1),
    union.last(top, 2),
    union.last(top, 3),
  );
  const cidr = IpPrefix.from(low, shared - (128 - low.bitLength));
  const input = countAddressesOf(union);
  list.release();
  union.release();
  const covered = cidr.addressCount();
  return resultWith<CidrCoverResult>({
    family: familyName(low.family),
    normalizedInputs: prefixListOfWords(family, prefixes),
    cidr: cidr.toString(),
    range: { first: cidr.first.toString(), last: cidr.last.toString() },
    inputAddressCount: input.toString(),
    coveredAddressCount: covered.toString(),
    additionalAddressCount: (covered - input).toString(),
  });
}
