/**
 * merge (command-line only): a list of addresses and CIDRs collapsed into the minimal sorted CIDR
 * list covering exactly their union — cidr-subtract with nothing excluded, so the two can never
 * disagree and the result has cidr-subtract's shape.
 */
import { API_SUBTRACT_LIMITS, type CidrLimits } from "../limits.ts";
import { type CidrSubtractResult, subtractCidrs } from "./subtract.ts";

/**
 * The minimal list of canonical CIDRs, by network address, covering exactly the union of
 * `entries` (addresses or CIDRs, one family): overlaps and duplicates merged, adjacent blocks
 * joined (`10.0.0.0/25` + `10.0.0.128/25` → `10.0.0.0/24`).
 *
 * Throws `DomainError` exactly as {@link subtractCidrs} with an empty exclude list: issues point at
 * `["include", i]`. `limits` defaults to the API's.
 */
export function mergeCidrs(
  entries: readonly string[],
  limits: CidrLimits = API_SUBTRACT_LIMITS,
): CidrSubtractResult {
  return subtractCidrs(entries, [], limits);
}
