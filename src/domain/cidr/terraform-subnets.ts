/**
 * cidr-subnets (CONTRACT §8.9): Terraform's `cidrsubnets(prefix, newbits...)`, reproduced exactly —
 * consecutive blocks of different lengths packed one after another from the start of a prefix.
 *
 * Terraform's implementation (hashicorp/terraform `internal/lang/funcs/cidr.go`, `CidrSubnetsFunc`)
 * starts from apparentlymart/go-cidr's `PreviousSubnet` (the block just before the prefix) and calls
 * `NextSubnet` once per argument: the block of the new length that follows the one holding the
 * previous block's last address. It never goes back, so a short block after a long one leaves a gap
 * that is never filled (where cidr-allocate's first fit fills it). Reasoning and the differences
 * from Terraform: docs/decisions/0029-terraform-cidrsubnets.md.
 */
import { DomainError, type Issue } from "../errors.ts";
import { type IpFamily, quoteEntry } from "../ip/addr.ts";
import { parsePrefix, scanPrefixWords } from "../ip/prefix.ts";
import { PrefixList } from "../ip/prefix-list.ts";
import { formatWords } from "../ip/text.ts";
import { maskWord, WORD_MAX } from "../ip/u128.ts";
import { API_LIST_LIMITS, type CidrLimits } from "../limits.ts";
import { resultWith } from "../list-fields.ts";
import { entryBoundsProblem, invalidEntries } from "./entries.ts";

/** A cidr-subnets request: the prefix to pack from, and one number of new bits per block. */
export interface CidrSubnetsRequest {
  prefix: string;
  newbits: readonly number[];
}

/** The result of cidr-subnets, field for field. */
export interface CidrSubnetsResult {
  /** The prefix, canonical (host bits cleared, as Terraform clears them). */
  prefix: string;
  /** One block per `newbits` entry, in the same order. */
  cidrs: string[];
}

/** Most bits one argument may add: Terraform's bound, for 32-bit platforms' subnet numbers. */
export const MAX_NEWBITS = 32;

/** Words of the prefix being read: the network address in 0–3, the family in 4. */
const prefixWords = new Uint32Array(5);

/**
 * Terraform's `cidrsubnets(prefix, newbits...)`: for each n of `newbits` in order, the block of
 * length L = prefix length + n that starts at the first L-aligned address after the previous block
 * (after the address before `prefix` for the first one). In the contract's words: with E the last
 * address given so far (initially the address before the prefix) and S = 2^(bits − L), the block
 * starts at ⌊E / S⌋·S + S. Here the cursor is E + 1 rounded up to a multiple of S, the same
 * address, which needs no address before `0.0.0.0`: a prefix starting at `0.0.0.0` or `::` packs
 * from there (Terraform's go-cidr wraps around to the last address instead and reports no space).
 *
 * `10.1.0.0/16` with 4, 4, 8, 4 gives `10.1.0.0/20`, `10.1.16.0/20`, `10.1.32.0/24`,
 * `10.1.48.0/20` (Terraform's documented example: the /24 leaves 10.1.33.0–10.1.47.255 unused).
 * No `newbits` gives no blocks. The cost is one step per argument, whatever the sizes.
 *
 * Throws `DomainError`:
 * - `INVALID_INPUT` for a `prefix` that is not an address or CIDR (`["prefix"]`), more than
 *   `limits.maxEntries` arguments (`["newbits"]`), and each argument that is not a whole number from
 *   1 to 32 or makes the prefix longer than the family's 32 or 128 bits (`["newbits", i]`, in
 *   Terraform's words);
 * - `INSUFFICIENT_SPACE` when a block would start outside `prefix`: its message names the argument
 *   (1-based, as Terraform counts them), the prefix length and the last block given, in Terraform's
 *   words ("not enough remaining address space for a subnet with a prefix of 24 bits after
 *   10.0.255.0/24"), with one issue at `["newbits", i]`.
 */
export function cidrSubnets(
  request: CidrSubnetsRequest,
  limits: Pick<CidrLimits, "maxEntries"> = API_LIST_LIMITS,
): CidrSubnetsResult {
  const { prefix, newbits } = request;
  const issues: Issue[] = [];
  const w = prefixWords;
  let prefixBits = -1;
  const bounds = entryBoundsProblem(prefix, "prefix");
  if (bounds !== null) issues.push({ message: bounds, path: ["prefix"] });
  else {
    prefixBits = scanPrefixWords(prefix, w);
    if (prefixBits < 0) {
      const parsed = parsePrefix(prefix);
      issues.push({ message: parsed.ok ? "prefix is not a CIDR" : parsed.message, path: ["prefix"] });
    }
  }
  const family: IpFamily | null = prefixBits < 0 ? null : w[4] === 4 ? 4 : 6;
  if (!Array.isArray(newbits))
    issues.push({ message: "newbits must be an array of numbers", path: ["newbits"] });
  else if (newbits.length > limits.maxEntries) {
    issues.push({
      message: `newbits must have at most ${limits.maxEntries} entries; it has ${newbits.length}`,
      path: ["newbits"],
    });
  } else {
    for (let i = 0; i < newbits.length; i++) {
      const n: unknown = newbits[i];
      const problem = newbitsProblem(n, family, prefixBits);
      if (problem === null) continue;
      const given = typeof n === "number" ? String(n) : quoteEntry(String(n));
      issues.push({ message: `newbits argument ${i + 1} (${given}): ${problem}`, path: ["newbits", i] });
    }
  }
  if (family === null || issues.length > 0) throw invalidEntries(issues);
  return resultWith<CidrSubnetsResult>({
    prefix: formatWords(family, w[0]!, w[1]!, w[2]!, w[3]!, prefixBits),
    cidrs: packBlocks(family, w, prefixBits, newbits),
  });
}

/**
 * Why `n` cannot extend a prefix of `prefixBits` bits (any family when `family` is null), in
 * Terraform's words; or null.
 */
function newbitsProblem(n: unknown, family: IpFamily | null, prefixBits: number): string | null {
  if (typeof n !== "number" || !Number.isInteger(n)) return "must be a whole number of bits";
  if (n < 1) return "must extend prefix by at least one bit";
  if (n > MAX_NEWBITS) return `may not extend prefix by more than ${MAX_NEWBITS} bits`;
  if (family === null) return null;
  const length = prefixBits + n;
  const width = family === 4 ? 32 : 128;
  if (length > width)
    return `would extend prefix to ${length} bits, which is too long for an IPv${family} address`;
  return null;
}

/** The blocks of Terraform's packing inside the block `network/prefixBits` (words in `network[0 … 3]`). */
function packBlocks(
  family: IpFamily,
  network: Uint32Array,
  prefixBits: number,
  newbits: readonly number[],
): PrefixList {
  const offset = family === 4 ? 96 : 0; // lengths counted over the whole 128-bit value
  const prefixLen = prefixBits + offset;
  const net = [network[0]!, network[1]!, network[2]!, network[3]!];
  // The first address after the last block given: where the next block may start, once aligned.
  const cursor = [...net];
  let exhausted = false; // the last block ended at the family's last address
  let last = "";
  const texts = new PrefixList(newbits.length);
  for (let i = 0; i < newbits.length; i++) {
    const length = prefixBits + newbits[i]!;
    const len = length + offset;
    if (!exhausted) exhausted = !alignUp(cursor, len, family);
    const inside = !exhausted && cursor.every((word, k) => (word & maskWord(prefixLen, k)) >>> 0 === net[k]);
    if (!inside) {
      const message = `newbits argument ${i + 1}: not enough remaining address space for a subnet with a prefix of ${length} bits after ${last}`;
      throw new DomainError("INSUFFICIENT_SPACE", `${message}.`, [{ message, path: ["newbits", i] }]);
    }
    texts.add(family, cursor[0]!, cursor[1]!, cursor[2]!, cursor[3]!, length);
    last = formatWords(family, cursor[0]!, cursor[1]!, cursor[2]!, cursor[3]!, length);
    exhausted = !addPowerOfTwo(cursor, 128 - len, family);
  }
  return texts;
}

/**
 * Rounds `words` up to the next multiple of 2^(128 − len) (clears the bits after the first `len`,
 * adding one block when any was set). False when that passes the family's last address.
 */
function alignUp(words: number[], len: number, family: IpFamily): boolean {
  let partial = false;
  for (let k = 0; k < 4; k++) {
    const kept = (words[k]! & maskWord(len, k)) >>> 0;
    if (kept !== words[k]) partial = true;
    words[k] = kept;
  }
  return partial ? addPowerOfTwo(words, 128 - len, family) : true;
}

/**
 * Adds 2^power to the value in `words` (0 ≤ power < 128), carrying upwards. False when the sum
 * passes the family's last address (2^32 − 1 or 2^128 − 1); `words` is then meaningless.
 */
function addPowerOfTwo(words: number[], power: number, family: IpFamily): boolean {
  let k = 3 - (power >>> 5);
  words[k]! += 2 ** (power & 31);
  while (words[k]! > WORD_MAX) {
    if (k === 0 || family === 4) return false;
    words[k] = 0;
    k--;
    words[k]! += 1;
  }
  return true;
}
