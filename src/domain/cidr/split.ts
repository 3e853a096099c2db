/**
 * cidr-split (CONTRACT §7.4): one block cut into every subnet of a longer prefix length, as
 * `ipcalc -S` and `sipcalc -s` do, or one page of them (`offset`, `limit`: the N-th subnet is
 * Terraform's `cidrsubnet`).
 */
import { DomainError, type Issue } from "../errors.ts";
import { type IpPrefix, parsePrefix } from "../ip/prefix.ts";
import { bigIntWord } from "../ip/u128.ts";
import { API_LIST_LIMITS, type CidrLimits } from "../limits.ts";
import { resultWith } from "../list-fields.ts";
import { entryBoundsProblem, invalidEntries } from "./entries.ts";
import { SubnetRun } from "./subnets.ts";

/** The result of cidr-split, field for field. */
export interface CidrSplitResult {
  /** The block split, canonical (host bits cleared). */
  network: string;
  /** The length of every subnet. */
  prefixLength: number;
  /** Number of subnets, 2^(prefixLength − the block's length), decimal. */
  subnetCount: string;
  /** Every subnet, by network address; with a page, the subnets of the page. */
  cidrs: string[];
}

/** Which subnets to answer (CONTRACT §7.4): numbered from 0 in address order. */
export interface SplitPage {
  /** The number of the first subnet, a decimal string (default "0"); below the subnet count. */
  readonly offset?: string | undefined;
  /**
   * How many subnets at most (an integer from 1 to the result limit). With it the answer is never
   * RESULT_TOO_LARGE; without it every subnet from `offset` on is answered, within the limit.
   */
  readonly limit?: number | undefined;
}

/** A decimal count without leading zeros, as every count is written. */
const DECIMAL = /^(0|[1-9][0-9]*)$/;

/**
 * Every subnet of length `prefixLength` inside `cidr` (a CIDR, or an address: a /32 or /128),
 * in address order. Splitting a block into its own length gives the block itself. With `page`,
 * only the subnets numbered `offset` to `offset + limit − 1` (fewer at the end), `subnetCount`
 * still counting them all: `{ offset: "5", limit: 1 }` is the sixth subnet, Terraform's
 * `cidrsubnet(cidr, prefixLength − bits, 5)`.
 *
 * The number of subnets is known before any is made, so the cost is bounded by the result limit
 * (or the page) and not by the address space: `::/0` into /64s is rejected at once, and its
 * 2^63-th /64 is answered at once.
 *
 * Throws `DomainError`: `INVALID_INPUT` with an issue at `["cidr"]` for an invalid block, one at
 * `["prefixLength"]` for a length that is not an integer from the block's own length to 32 (IPv4)
 * or 128 (IPv6), one at `["offset"]` for an offset that is not a decimal string below the subnet
 * count, one at `["limit"]` for a limit that is not an integer from 1 to `limits.maxResultCidrs`;
 * `RESULT_TOO_LARGE`, without a limit, when there would be more than `limits.maxResultCidrs`
 * subnets, its message giving the exact count. `limits` defaults to the API's (10000 CIDRs).
 */
export function splitCidr(
  cidr: string,
  prefixLength: number,
  limits: Pick<CidrLimits, "maxResultCidrs"> = API_LIST_LIMITS,
  page: SplitPage = {},
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
  const { offset = "0", limit } = page;
  if (typeof offset !== "string" || !DECIMAL.test(offset)) {
    issues.push({ message: `offset must be a decimal string such as "0" or "12"`, path: ["offset"] });
  }
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > limits.maxResultCidrs)) {
    issues.push({
      message: `limit must be an integer from 1 to ${limits.maxResultCidrs}; it is ${limit}`,
      path: ["limit"],
    });
  }
  if (block === null || issues.length > 0) throw invalidEntries(issues);

  const network = block.toString();
  const steps = prefixLength - block.bits; // the block holds 2^steps subnets
  const subnetCount = 1n << BigInt(steps);
  const first = BigInt(offset);
  if (first >= subnetCount) {
    const message = `offset must be below subnetCount ${subnetCount} (${network} holds ${subnetCount} subnets of /${prefixLength}, numbered from 0); it is ${offset}`;
    throw invalidEntries([{ message, path: ["offset"] }]);
  }
  const rest = subnetCount - first;
  if (limit === undefined && rest > BigInt(limits.maxResultCidrs)) {
    const from = first === 0n ? "" : ` from number ${first}`;
    throw new DomainError(
      "RESULT_TOO_LARGE",
      `Splitting ${network} into /${prefixLength} subnets${from} gives ${rest} CIDRs, more than the limit of ${limits.maxResultCidrs}; split a smaller block, or into a shorter prefix length.`,
    );
  }
  const count = limit === undefined || BigInt(limit) > rest ? Number(rest) : limit;
  return resultWith<CidrSplitResult>({
    network,
    prefixLength,
    subnetCount: subnetCount.toString(),
    cidrs: subnetRun(block, prefixLength, first, count),
  });
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

/** The `count` subnets of length `prefixLength` of `block`, from subnet number `first`. */
function subnetRun(block: IpPrefix, prefixLength: number, first: bigint, count: number): SubnetRun {
  let { w0, w1, w2, w3 } = block.first;
  if (first > 0n) {
    const start = block.first.toBigInt() + (first << BigInt(block.first.bitLength - prefixLength));
    w0 = bigIntWord(start, 0);
    w1 = bigIntWord(start, 1);
    w2 = bigIntWord(start, 2);
    w3 = bigIntWord(start, 3);
  }
  return new SubnetRun(block.family, w0, w1, w2, w3, prefixLength, count);
}
