/**
 * cidr-merge (CONTRACT §7.4): a list of addresses and CIDRs of either family collapsed into the
 * minimal list covering exactly their union, IPv4 blocks first, then IPv6.
 */
import { DomainError, type Issue } from "../errors.ts";
import type { PrefixSink } from "../ip/range.ts";
import { countAddressesOf, RangeList, unionOf } from "../ip/range-list.ts";
import { TextBatch } from "../ip/text.ts";
import { API_TOOLBOX_LIMITS, type CidrLimits } from "../limits.ts";
import { invalidEntries, listsShapeIssues, readPrefixLists } from "./entries.ts";

/** The result of cidr-merge, field for field. */
export interface CidrMergeResult {
  /**
   * The minimal list of canonical CIDRs covering exactly the union of the inputs: the IPv4 blocks
   * by network address, then the IPv6 blocks by network address (IPv4-mapped IPv6 is IPv6).
   */
  cidrs: string[];
  /** Addresses of the union in IPv4, decimal ("0" when there is none). */
  ipv4AddressCount: string;
  /** Addresses of the union in IPv6, decimal ("0" when there is none). */
  ipv6AddressCount: string;
}

/**
 * Collapses `inputs` (addresses or CIDRs, IPv4 and IPv6 mixed freely) into the minimal sorted
 * CIDR list covering exactly their union: duplicates and overlaps merged, neighbours joined
 * (`10.0.0.0/25` + `10.0.0.128/25` → `10.0.0.0/24`). Each family is merged on its own; the result
 * is what Python's `ipaddress.collapse_addresses` gives per family, IPv4 first.
 *
 * Throws `DomainError`: `INVALID_INPUT` listing every invalid entry (path `["inputs", i]`) or for a
 * list outside 1–`limits.maxEntries` entries (path `["inputs"]`); `RESULT_TOO_LARGE` when the result
 * would exceed `limits.maxResultCidrs` (it never has more CIDRs than there are inputs, so only a
 * limit below the entry limit can be reached). `limits` defaults to the API's (1000 entries).
 */
export function mergeMixedCidrs(
  inputs: readonly string[],
  limits: CidrLimits = API_TOOLBOX_LIMITS,
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
  const { maxResultCidrs } = limits;
  const cidrs = new TextBatch();
  let family: 4 | 6 = 4;
  const collect: PrefixSink = (w0, w1, w2, w3, bits) => {
    if (cidrs.length === maxResultCidrs) return false;
    cidrs.add(family, w0, w1, w2, w3, bits);
    return true;
  };
  for (const union of [union4, union6]) {
    family = union.family;
    if (!union.forEachPrefix(collect)) {
      cidrs.toStrings(); // hands the batch's space back
      throw new DomainError(
        "RESULT_TOO_LARGE",
        `The merged list would have more than ${maxResultCidrs} CIDRs, the limit.`,
      );
    }
  }
  const result = {
    cidrs: cidrs.toStrings(),
    ipv4AddressCount: countAddressesOf(union4).toString(),
    ipv6AddressCount: countAddressesOf(union6).toString(),
  };
  for (const list of [v4, v6, union4, union6]) list.release();
  return result;
}
