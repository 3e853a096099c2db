/**
 * Consecutive equal subnets written straight from words: what cidr-split and cidr-allocate cut a
 * block into. No address is enumerated; only the subnets asked for are made.
 */
import type { PrefixCollector } from "../ip/prefix-list.ts";
import { WORD_MAX } from "../ip/u128.ts";

/**
 * Adds to `texts` the canonical text of `count` consecutive blocks of length `prefixLength`, the
 * first at the network address with words `w0`–`w3` (`w3` alone for IPv4), which must be aligned
 * to that length. The caller keeps `count` within the space: the last block must end at or before
 * the family's last address.
 */
export function addSubnets(
  texts: PrefixCollector,
  family: 4 | 6,
  w0: number,
  w1: number,
  w2: number,
  w3: number,
  prefixLength: number,
  count: number,
): void {
  const hostBits = (family === 4 ? 32 : 128) - prefixLength;
  const word = 3 - (hostBits >>> 5); // the word holding the step's one bit
  const step = 2 ** (hostBits & 31);
  const words = [w0, w1, w2, w3];
  for (let n = 0; n < count; n++) {
    if (n > 0) {
      // The address is aligned to the step, so a word that overflows holds exactly 2^32 and
      // becomes zero, carrying one upwards.
      let k = word;
      words[k]! += step;
      while (words[k]! > WORD_MAX && k > 0) {
        words[k] = 0;
        k--;
        words[k]! += 1;
      }
    }
    texts.add(family, words[0]!, words[1]!, words[2]!, words[3]!, prefixLength);
  }
}
