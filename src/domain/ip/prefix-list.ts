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
  /** Four words per entry, most significant first (IPv4: the address in the fourth). */
  private words = new Uint32Array(64);
  /** Per entry: its family (4 or 6). */
  private families = new Uint8Array(16);
  /** Per entry: its prefix length, or {@link NO_BITS} for an address. */
  private lengths = new Uint8Array(16);

  get length(): number {
    return this.count;
  }

  add(family: 4 | 6, w0: number, w1: number, w2: number, w3: number, bits?: number): void {
    const i = this.count;
    if (i === this.families.length) this.grow();
    const w = this.words;
    w[4 * i] = w0;
    w[4 * i + 1] = w1;
    w[4 * i + 2] = w2;
    w[4 * i + 3] = w3;
    this.families[i] = family;
    this.lengths[i] = bits === undefined ? NO_BITS : bits;
    this.count = i + 1;
  }

  private grow(): void {
    const size = this.families.length * 2;
    const words = new Uint32Array(4 * size);
    words.set(this.words);
    this.words = words;
    const families = new Uint8Array(size);
    families.set(this.families);
    this.families = families;
    const lengths = new Uint8Array(size);
    lengths.set(this.lengths);
    this.lengths = lengths;
  }

  /**
   * Writes the canonical text of entry `i` into `out` at `pos` ({@link writeText}: `out` needs
   * `TEXT_WRITE_ROOM` free bytes there); returns the position after it.
   */
  writeTextOf(i: number, out: DataView, pos: number): number {
    const w = this.words;
    const bits = this.lengths[i]!;
    return writeText(
      out,
      pos,
      this.families[i] === 4 ? 4 : 6,
      w[4 * i]!,
      w[4 * i + 1]!,
      w[4 * i + 2]!,
      w[4 * i + 3]!,
      bits === NO_BITS ? undefined : bits,
    );
  }

  /** The canonical texts, in order, made now. */
  toArray(): string[] {
    const batch = new TextBatch();
    const w = this.words;
    for (let i = 0; i < this.count; i++) {
      const bits = this.lengths[i]!;
      batch.add(
        this.families[i] === 4 ? 4 : 6,
        w[4 * i]!,
        w[4 * i + 1]!,
        w[4 * i + 2]!,
        w[4 * i + 3]!,
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
