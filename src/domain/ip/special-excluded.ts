/**
 * The addresses the special-purpose table excludes (CONTRACT §8.5): those whose **most specific**
 * row of `special.ts` says Globally Reachable = False. A row saying True or N/A keeps its
 * addresses even inside an excluding row (`192.0.0.9/32` inside `192.0.0.0/24`, TEREDO
 * `2001::/32` inside `2001::/23`); addresses outside every row are kept (unallocated IPv6 space,
 * whose fallback type in `classifyPrefix` is not a row).
 *
 * Rows are nested or disjoint, so applying them from the widest to the narrowest — adding an
 * excluding row's addresses, removing a keeping row's — leaves each address decided by the last,
 * most specific row containing it. The result is a handful of ranges, built once on first use.
 */
import { AddressSet } from "./address-set.ts";
import { RangeList, subtractLists, unionOf } from "./range-list.ts";
import { SPECIAL_BLOCKS } from "./special.ts";

/** The excluded addresses of one family as a sorted list of disjoint ranges. */
export function specialExcludedRanges(family: 4 | 6): RangeList {
  const rows = SPECIAL_BLOCKS.filter((row) => row.parsed.family === family).sort(
    (a, b) => a.parsed.bits - b.parsed.bits,
  );
  let excluded = new RangeList(family);
  for (const row of rows) {
    const { w0, w1, w2, w3 } = row.parsed.addr;
    const block = new RangeList(family, 1);
    block.pushPrefix(w0, w1, w2, w3, row.parsed.bits);
    if (row.globallyReachable === false) {
      for (let i = 0; i < excluded.length; i++) {
        block.push(
          excluded.first(i, 0),
          excluded.first(i, 1),
          excluded.first(i, 2),
          excluded.first(i, 3),
          excluded.last(i, 0),
          excluded.last(i, 1),
          excluded.last(i, 2),
          excluded.last(i, 3),
        );
      }
      excluded = unionOf(block);
    } else {
      excluded = subtractLists(excluded, block);
    }
  }
  return excluded;
}

let excludedSet: AddressSet | null = null;

/**
 * Whether an address is excluded by the special-purpose table, as an {@link AddressSet} (both
 * families), built on first use.
 */
export function specialExcludedSet(): AddressSet {
  excludedSet ??= new AddressSet(specialExcludedRanges(4), specialExcludedRanges(6));
  return excludedSet;
}
