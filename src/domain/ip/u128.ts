/**
 * Exact unsigned 128-bit values as four 32-bit words, most significant first.
 *
 * Why words and not `bigint`: every BigInt operation allocates, and the hot loops of the CIDR use
 * cases (sorting, merging, halving ranges into prefixes, printing thousands of addresses) run
 * several times faster on plain numbers (measured in `docs/decisions/`). `bigint` is used only at
 * the edges, for exact address counts. IPv4 values live in `w3` with the other words zero, so one
 * set of algorithms serves both families.
 *
 * Every word is an integer in [0, 2^32). JavaScript bitwise operators work on signed 32-bit
 * integers, so results are brought back with `>>> 0` where a word is stored.
 */

/** A 128-bit unsigned value: `w0` holds bits 127–96, `w3` bits 31–0. */
export interface U128 {
  readonly w0: number;
  readonly w1: number;
  readonly w2: number;
  readonly w3: number;
}

/** The largest word value, 2^32 − 1. */
export const WORD_MAX = 0xffff_ffff;

/**
 * Word `k` (0 = most significant) of the network mask whose `len` leading bits are ones,
 * for 0 ≤ len ≤ 128 counted over the whole 128-bit value.
 */
export function maskWord(len: number, k: number): number {
  const n = len - 32 * k;
  if (n >= 32) return WORD_MAX;
  if (n <= 0) return 0;
  return (WORD_MAX << (32 - n)) >>> 0;
}

/** Orders two values: negative when a < b, zero when equal, positive when a > b. */
export function compareU128(a: U128, b: U128): number {
  if (a.w0 !== b.w0) return a.w0 < b.w0 ? -1 : 1;
  if (a.w1 !== b.w1) return a.w1 < b.w1 ? -1 : 1;
  if (a.w2 !== b.w2) return a.w2 < b.w2 ? -1 : 1;
  if (a.w3 !== b.w3) return a.w3 < b.w3 ? -1 : 1;
  return 0;
}

/** Number of leading bits `a` and `b` share, 0–128 (128 when they are equal). */
export function commonPrefixLength(a: U128, b: U128): number {
  return commonPrefixLengthOfWords(a.w0, a.w1, a.w2, a.w3, b.w0, b.w1, b.w2, b.w3);
}

/** {@link commonPrefixLength} of two values given as words, for loops that keep words in variables. */
export function commonPrefixLengthOfWords(
  a0: number,
  a1: number,
  a2: number,
  a3: number,
  b0: number,
  b1: number,
  b2: number,
  b3: number,
): number {
  if (a0 !== b0) return Math.clz32(a0 ^ b0);
  if (a1 !== b1) return 32 + Math.clz32(a1 ^ b1);
  if (a2 !== b2) return 64 + Math.clz32(a2 ^ b2);
  if (a3 !== b3) return 96 + Math.clz32(a3 ^ b3);
  return 128;
}

/** The value as a `bigint`, for exact counts and for tests. */
export function u128ToBigInt(a: U128): bigint {
  return (BigInt(a.w0) << 96n) | (BigInt(a.w1) << 64n) | (BigInt(a.w2) << 32n) | BigInt(a.w3);
}

/** Word `k` (0 = most significant) of a `bigint` in [0, 2^128). */
export function bigIntWord(value: bigint, k: number): number {
  return Number((value >> BigInt(96 - 32 * k)) & 0xffff_ffffn);
}
