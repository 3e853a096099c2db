/**
 * Consecutive equal subnets written straight from words: what cidr-split and cidr-allocate cut a
 * block into. No address is enumerated; only the subnets asked for are made.
 */
import { type PrefixCollector, PrefixList } from "../ip/prefix-list.ts";
import { TextBatch, writeText } from "../ip/text.ts";
import { WORD_MAX } from "../ip/u128.ts";
import { DeferredList } from "../list-fields.ts";

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

/**
 * `count` consecutive equal subnets as cidr-split answers them, kept as what they are: an
 * arithmetic progression (the first network address, the prefix length, the count). Nothing is
 * stored per subnet: a writer of their bytes (the HTTP edge's encoder) writes each text straight
 * from its index ({@link SubnetRun.writeTextOf}), and the array of texts is made only when the
 * field is read. An IPv4 subnet's address is one word, `first + i · 2^(32 − length)`; IPv6 subnets
 * are stepped into a {@link PrefixList} on the first need (their words carry from word to word).
 */
export class SubnetRun extends DeferredList<string> {
  /** IPv6 only: the subnets' words, made on the first need. */
  private listed: PrefixList | null = null;
  /** IPv4 only: addresses from one subnet to the next. */
  private readonly step: number;

  /**
   * @param family the block's family
   * @param w0 the first subnet's network address, most significant word first (`w3` alone for IPv4)
   * @param prefixLength every subnet's length
   * @param count how many subnets; the last must end at or before the family's last address
   */
  constructor(
    readonly family: 4 | 6,
    readonly w0: number,
    readonly w1: number,
    readonly w2: number,
    readonly w3: number,
    readonly prefixLength: number,
    private readonly count: number,
  ) {
    super();
    this.step = family === 4 ? 2 ** (32 - prefixLength) : 0;
  }

  get length(): number {
    return this.count;
  }

  /**
   * Writes the canonical text of subnet `i` into `out` at `pos` (`writeText`: `out` needs
   * `TEXT_WRITE_ROOM` free bytes there); returns the position after it.
   */
  writeTextOf(i: number, out: DataView, pos: number): number {
    if (this.family === 4) return writeText(out, pos, 4, 0, 0, 0, this.w3 + i * this.step, this.prefixLength);
    return this.words().writeTextOf(i, out, pos);
  }

  /** The subnets' canonical texts, in order, made now. */
  toArray(): string[] {
    if (this.family === 6) return this.words().toArray();
    const batch = new TextBatch();
    for (let i = 0, address = this.w3; i < this.count; i++, address += this.step) {
      batch.add(4, 0, 0, 0, address, this.prefixLength);
    }
    return batch.toStrings();
  }

  private words(): PrefixList {
    if (this.listed === null) {
      this.listed = new PrefixList(this.count);
      addSubnets(this.listed, this.family, this.w0, this.w1, this.w2, this.w3, this.prefixLength, this.count);
    }
    return this.listed;
  }
}
