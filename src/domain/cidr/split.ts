/**
 * cidr-split (CONTRACT §7.4): one block cut into every subnet of a longer prefix length, as
 * `ipcalc -S` and `sipcalc -s` do.
 */
import { DomainError, type Issue } from "../errors.ts";
import { type IpPrefix, parsePrefix } from "../ip/prefix.ts";
import { TextBatch } from "../ip/text.ts";
import { API_TOOLBOX_LIMITS, type CidrLimits } from "../limits.ts";
import { entryBoundsProblem, invalidEntries } from "./entries.ts";
import { addSubnets } from "./subnets.ts";

/** The result of cidr-split, field for field. */
export interface CidrSplitResult {
  /** The block split, canonical (host bits cleared). */
  network: string;
  /** The length of every subnet. */
  prefixLength: number;
  /** Number of subnets, 2^(prefixLength − the block's length), decimal. */
  subnetCount: string;
  /** Every subnet, by network address. */
  cidrs: string[];
}

/**
 * Every subnet of length `prefixLength` inside `cidr` (a CIDR, or an address: a /32 or /128),
 * in address order. Splitting a block into its own length gives the block itself.
 *
 * The number of subnets is known before any is made, so the cost is bounded by the result limit
 * and not by the address space: `::/0` into /64s is rejected at once.
 *
 * Throws `DomainError`: `INVALID_INPUT` with an issue at `["cidr"]` for an invalid block and one at
 * `["prefixLength"]` for a length that is not an integer from the block's own length to 32 (IPv4)
 * or 128 (IPv6); `RESULT_TOO_LARGE` when there would be more than `limits.maxResultCidrs` subnets,
 * its message giving the exact count. `limits` defaults to the API's (10000 CIDRs).
 */
export function splitCidr(
  cidr: string,
  prefixLength: number,
  limits: Pick<CidrLimits, "maxResultCidrs"> = API_TOOLBOX_LIMITS,
): CidrSplitResult {
  const issues: Issue[] = [];
  let block: IpPrefix | null = null;
  const bounds = entryBoundsProblem(cidr, "cidr");
  if (bounds !== null) issues.push({ message: bounds, path: ["cidr"] });
  else {
    const parsed = parsePrefix(cidr);
    if (parsed.ok) block = parsed.value;
    else issues.push({ message: parsed.message, path: ["cidr"] });
  }
  const lengthProblem = prefixLengthProblem(prefixLength, block);
  if (lengthProblem !== null) issues.push({ message: lengthProblem, path: ["prefixLength"] });
  if (block === null || issues.length > 0) throw invalidEntries(issues);

  const network = block.toString();
  const steps = prefixLength - block.bits; // the block holds 2^steps subnets
  const subnetCount = 1n << BigInt(steps);
  if (subnetCount > BigInt(limits.maxResultCidrs)) {
    throw new DomainError(
      "RESULT_TOO_LARGE",
      `Splitting ${network} into /${prefixLength} subnets gives ${subnetCount} CIDRs, more than the limit of ${limits.maxResultCidrs}; split a smaller block, or into a shorter prefix length.`,
    );
  }
  return {
    network,
    prefixLength,
    subnetCount: subnetCount.toString(),
    cidrs: subnetTexts(block, prefixLength, Number(subnetCount)),
  };
}

/** Why `prefixLength` cannot split `block` (any family when `block` is unknown), or `null`. */
function prefixLengthProblem(prefixLength: number, block: IpPrefix | null): string | null {
  const max = block === null ? 128 : block.first.bitLength;
  if (!Number.isInteger(prefixLength)) return `prefixLength must be an integer; it is ${prefixLength}`;
  if (prefixLength < 0 || prefixLength > max) {
    const which = block === null ? "" : ` for IPv${block.family}`;
    return `prefixLength ${prefixLength} is outside 0 to ${max}${which}`;
  }
  if (block !== null && prefixLength < block.bits) {
    return `prefixLength ${prefixLength} is shorter than the block's own /${block.bits}; it must be from ${block.bits} to ${max}`;
  }
  return null;
}

/** The texts of the first `count` subnets of length `prefixLength` of `block`. */
function subnetTexts(block: IpPrefix, prefixLength: number, count: number): string[] {
  const texts = new TextBatch();
  const { w0, w1, w2, w3 } = block.first;
  addSubnets(texts, block.family, w0, w1, w2, w3, prefixLength, count);
  return texts.toStrings();
}
