/**
 * The addresses the special-purpose table excludes (CONTRACT §8.5), as an {@link AddressSet} for
 * `match -x`: the union of the excluded ranges of {@link specialRangeTable}, where each address is
 * decided by the **most specific** row of `special.ts` containing it (a row saying True or N/A keeps
 * its addresses even inside an excluding row: `192.0.0.9/32` inside `192.0.0.0/24`, TEREDO
 * `2001::/32` inside `2001::/23`; addresses outside every row are kept). Built once, on first use.
 */
import { AddressSet } from "./address-set.ts";
import { specialRangeTable } from "./special.ts";

let excludedSet: AddressSet | null = null;

/** Whether an address is excluded by the special-purpose table, both families, built on first use. */
export function specialExcludedSet(): AddressSet {
  excludedSet ??= new AddressSet(specialRangeTable(4).excludedUnion, specialRangeTable(6).excludedUnion);
  return excludedSet;
}
