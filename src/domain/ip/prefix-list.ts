/**
 * Lists of prefixes (or addresses) as the domain makes them: their words, not their text. A
 * {@link PrefixList} is what cidr-split, cidr-merge and the other list operations return in a list
 * field (through `resultWith`, src/domain/list-fields.ts): the canonical texts are made only when
 * the field is read, in one decoding step ({@link TextBatch}), and a writer that only needs the
 * texts' bytes (the HTTP edge's encoders) writes them straight from the words with
 * {@link writeText}, never making a string per prefix.
 */
import { DeferredList } from "../list-fields.ts";
import { TextBatch, writeText } from "./text.ts";

/** Where consecutive prefixes are added (a {@link PrefixList}, or a {@link TextBatch} of texts). */
export interface PrefixCollector {
  /** Adds the address with these words (`w3` alone for IPv4), with `/bits` unless `bits` is undefined. */
  add(family: 4 | 6, w0: number, w1: number, w2: number, w3: number, bits?: number): void;
}

/** No prefix length: the entry is an address. */
const NO_BITS = 255;

/** A list of addresses and prefixes by their words, read as their canonical texts. */
export class PrefixList extends DeferredList<string> implements PrefixCollector {
  private count = 0;
  /**
   * Five words per entry: the four address words, most significant first (IPv4: the address in
   * the fourth), then the family and the prefix length as `family << 8 | bits` ({@link NO_BITS}
   * for an address). One array, so that a list grows by one allocation at a time. Signed: a word
   * above 2^31 is kept as its 32 bits and read back as a small integer (the text writer only
   * shifts and masks it), where an unsigned array reads it as a double (range-ipv6-worst's
   * encoder and domain, paired: B/A 0.95–0.97).
   */
  private words: Int32Array;

  /** @param capacity entries to make room for at once (a list grows past it when needed). */
  constructor(capacity = 64) {
    super();
    this.words = new Int32Array(5 * Math.max(1, capacity));
  }

  get length(): number {
    return this.count;
  }

  add(family: 4 | 6, w0: number, w1: number, w2: number, w3: number, bits?: number): void {
    let at = 5 * this.count;
    if (at === this.words.length) this.grow();
    const w = this.words;
    w[at++] = w0;
    w[at++] = w1;
    w[at++] = w2;
    w[at++] = w3;
    w[at] = (family << 8) | (bits === undefined ? NO_BITS : bits);
    this.count += 1;
  }

  /** Empties the list, keeping its space (for a list used as scratch). */
  clear(): void {
    this.count = 0;
  }

  private grow(): void {
    const words = new Int32Array(this.words.length * 2);
    words.set(this.words);
    this.words = words;
  }

  /**
   * Writes the canonical text of entry `i` into `out` at `pos` ({@link writeText}: `out` needs
   * `TEXT_WRITE_ROOM` free bytes there); returns the position after it.
   */
  writeTextOf(i: number, out: DataView, pos: number): number {
    const w = this.words;
    const at = 5 * i;
    const tag = w[at + 4]!;
    const bits = tag & 0xff;
    return writeText(
      out,
      pos,
      tag >>> 8 === 4 ? 4 : 6,
      w[at]!,
      w[at + 1]!,
      w[at + 2]!,
      w[at + 3]!,
      bits === NO_BITS ? undefined : bits,
    );
  }

  /** The canonical texts, in order, made now. */
  toArray(): string[] {
    const batch = new TextBatch();
    const w = this.words;
    for (let at = 0; at < 5 * this.count; at += 5) {
      const tag = w[at + 4]!;
      const bits = tag & 0xff;
      batch.add(
        tag >>> 8 === 4 ? 4 : 6,
        w[at]!,
        w[at + 1]!,
        w[at + 2]!,
        w[at + 3]!,
        bits === NO_BITS ? undefined : bits,
      );
    }
    return batch.toStrings();
  }
}

/**
 * A list of objects that each name one prefix, `{ cidr, ...details }`: the prefixes as a
 * {@link PrefixList}, the other fields of each entry as an object shared by many entries (the
 * row of a table). An entry is `{ cidr: text, ...detailsOf(i) }`, so `cidr` comes first and the
 * details never hold a `cidr` of their own.
 */
export class PrefixEntries<D extends object> extends DeferredList<{ cidr: string } & D> {
  constructor(
    /** The entries' prefixes, in order. */
    readonly prefixes: PrefixList,
    /** Per entry, its other fields (`details.length` is `prefixes.length`). */
    readonly details: readonly D[],
  ) {
    super();
  }

  get length(): number {
    return this.prefixes.length;
  }

  toArray(): ({ cidr: string } & D)[] {
    const texts = this.prefixes.toArray();
    return texts.map((cidr, i) => ({ cidr, ...this.details[i]! }));
  }
}
