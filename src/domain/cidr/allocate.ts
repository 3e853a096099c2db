/**
 * cidr-allocate (CONTRACT §7.4): the next free blocks of a given length inside a pool, first fit —
 * the IPAM and netipx `IPSet` question, answered from the lowest address up. Unlike Terraform's
 * `cidrsubnets` (cidr-subnets, terraform-subnets.ts), it fills the gaps earlier blocks left.
 */
import { DomainError } from "../errors.ts";
import { PrefixList } from "../ip/prefix-list.ts";
import { countAddressesOf, RangeList, subtractLists, unionOf } from "../ip/range-list.ts";
import { type AllocateLimits, API_ALLOCATE_LIMITS } from "../limits.ts";
import { resultWith } from "../list-fields.ts";
import { invalidEntries, listsShapeIssues, mixedFamilies, readPrefixLists } from "./entries.ts";
import { addSubnets } from "./subnets.ts";

/** A cidr-allocate request: the pool, what is taken, and what to take. */
export interface CidrAllocateRequest {
  /** The pool: blocks of one family; they may overlap or abut. */
  within: readonly string[];
  /** Blocks already taken (default none); they may reach outside `within`. */
  used?: readonly string[] | undefined;
  /** Length of each block to allocate. */
  prefixLength: number;
  /** How many blocks (default 1). */
  count?: number | undefined;
}

/** The result of cidr-allocate, field for field. */
export interface CidrAllocateResult {
  /** The allocated blocks, canonical, lowest address first. */
  cidrs: string[];
  /**
   * Addresses inside the union of `within`, outside the union of `used`, and not in `cidrs`:
   * what is still free after this allocation, decimal.
   */
  freeAddressCount: string;
}

/**
 * First fit: the `count` lowest-addressed blocks of length `prefixLength` (aligned, as every CIDR
 * is) lying wholly inside the union of `within` and sharing no address with the union of `used`.
 * Allocating again with the answer added to `used` gives the next blocks, never the same ones.
 *
 * The free space is `within` minus `used` as sorted ranges; each free range is cut into its
 * minimal CIDR list, whose blocks no longer than `prefixLength` hold exactly the aligned blocks of
 * that length inside the range. The walk stops at the `count`-th block, so the cost is bounded by
 * the entries and `count`, never by the size of the space.
 *
 * Throws `DomainError`:
 * - `INVALID_INPUT` for a list out of bounds (`["within"]`, `["used"]`, or `[]` for both together
 *   over `limits.maxEntries`), every invalid entry (`["within", i]`, `["used", i]`), a `count`
 *   that is not an integer from 1 to `limits.maxCount` (`["count"]`), a `prefixLength` that is not
 *   an integer from 0 to 32 (IPv4) or 128 (IPv6) (`["prefixLength"]`);
 * - `MIXED_ADDRESS_FAMILIES` at the first entry, reading `within` then `used`, whose family
 *   differs from `within[0]`'s;
 * - `INSUFFICIENT_SPACE` when fewer than `count` blocks fit, saying how many do.
 *
 * `limits` defaults to the API's (1000 entries in total, `count` at most 1000).
 */
export function allocateCidrs(
  request: CidrAllocateRequest,
  limits: AllocateLimits = API_ALLOCATE_LIMITS,
): CidrAllocateResult {
  const { within, prefixLength } = request;
  const used = request.used ?? [];
  const count = request.count ?? 1;
  const issues = listsShapeIssues(
    [
      { name: "within", list: within, min: 1 },
      { name: "used", list: used, min: 0 },
    ],
    limits.maxEntries,
  );
  const listsOk = issues.length === 0;
  // Each entry's family in list order (within, then used), for the one-family rule.
  const families = new Uint8Array(listsOk ? within.length + used.length : 0);
  const pool = new RangeList(4, listsOk ? within.length : 0);
  const pool6 = new RangeList(6, listsOk ? within.length : 0);
  const taken = new RangeList(4, listsOk ? used.length : 0);
  const taken6 = new RangeList(6, listsOk ? used.length : 0);
  if (listsOk) {
    readPrefixLists(within, (i) => ({ path: ["within", i] }), issues, pool, pool6, families, 0);
    readPrefixLists(used, (i) => ({ path: ["used", i] }), issues, taken, taken6, families, within.length);
  }
  // The bound is that of within[0]'s family; when within[0] is unknown, the widest.
  const family = families[0] === 4 || families[0] === 6 ? families[0] : null;
  const maxLength = family === 4 ? 32 : 128;
  if (!Number.isInteger(prefixLength) || prefixLength < 0 || prefixLength > maxLength) {
    const which = family === null ? "" : ` for IPv${family}`;
    issues.push({
      message: `prefixLength must be an integer from 0 to ${maxLength}${which}; it is ${prefixLength}`,
      path: ["prefixLength"],
    });
  }
  if (!Number.isInteger(count) || count < 1 || count > limits.maxCount) {
    issues.push({
      message: `count must be an integer from 1 to ${limits.maxCount}; it is ${count}`,
      path: ["count"],
    });
  }
  if (issues.length > 0) throw invalidEntries(issues);
  const mixed = mixedAt(within, used, families);
  if (mixed !== null) throw mixed;

  const poolFamily = family ?? 4;
  const poolUnion = unionOf(poolFamily === 4 ? pool : pool6);
  const takenUnion = unionOf(poolFamily === 4 ? taken : taken6);
  const free = subtractLists(poolUnion, takenUnion);
  const { cidrs, fit } = firstFit(free, prefixLength, count);
  const freeCount = countAddressesOf(free);
  for (const list of [pool, pool6, taken, taken6, poolUnion, takenUnion, free]) list.release();
  if (fit < count) {
    const what = fit === 0 ? "No free block" : fit === 1 ? "Only 1 free block" : `Only ${fit} free blocks`;
    throw new DomainError(
      "INSUFFICIENT_SPACE",
      `${what} of /${prefixLength} ${fit === 1 || fit === 0 ? "fits" : "fit"} inside within and outside used; count asks for ${count}.`,
    );
  }
  const blockSize = 1n << BigInt((poolFamily === 4 ? 32 : 128) - prefixLength);
  return resultWith<CidrAllocateResult>({
    cidrs,
    freeAddressCount: (freeCount - BigInt(count) * blockSize).toString(),
  });
}

/**
 * `MIXED_ADDRESS_FAMILIES` at the first entry of `within` then `used` whose family differs from
 * `within[0]`'s, or `null`. `families` holds every entry's family, `within`'s then `used`'s.
 */
function mixedAt(
  within: readonly string[],
  used: readonly string[],
  families: Uint8Array,
): DomainError | null {
  const other = families.findIndex((family) => family !== families[0]);
  if (other < 0) return null;
  const inPool = other < within.length;
  const list = inPool ? "within" : "used";
  const index = inPool ? other : other - within.length;
  const text = inPool ? within[index]! : used[index]!;
  return mixedFamilies(
    text,
    families[other] === 4 ? 4 : 6,
    "the first entry of within",
    within[0]!,
    families[0] === 4 ? 4 : 6,
    { path: [list, index] },
  );
}

/**
 * The texts of the first `count` aligned blocks of length `prefixLength` inside `free` (sorted,
 * disjoint ranges), lowest first; fewer when fewer fit.
 *
 * Every aligned block of that length inside a range lies inside exactly one block of the range's
 * minimal CIDR list that is at least as large (a block straddling two of them would make the list
 * non-minimal), so the blocks wanted are those list blocks cut into pieces of `prefixLength`.
 */
function firstFit(free: RangeList, prefixLength: number, count: number): { cidrs: PrefixList; fit: number } {
  const texts = new PrefixList(Math.min(count, 1024));
  const family = free.family;
  free.forEachPrefix((w0, w1, w2, w3, bits) => {
    if (bits > prefixLength) return true; // too small for one block
    const steps = prefixLength - bits; // this block holds 2^steps of them
    const wanted = count - texts.length;
    addSubnets(
      texts,
      family,
      w0,
      w1,
      w2,
      w3,
      prefixLength,
      steps >= 31 ? wanted : Math.min(wanted, 2 ** steps),
    );
    return texts.length < count;
  });
  const fit = texts.length;
  return { cidrs: texts, fit };
}
