/**
 * Canonical address text, written once: IPv4 dotted decimal; IPv6 per RFC 5952 §4 (lowercase, no
 * leading zeros, the longest run of two or more zero groups as `::`, the first run on a tie, a
 * single zero group never shortened); IPv4-mapped addresses (`::ffff:0:0/96`) in the mixed
 * notation of RFC 5952 §5 (`::ffff:192.0.2.1`). This is Go `netip.Addr.String`'s behaviour.
 *
 * Text is written as ASCII bytes and decoded to strings in one step per batch: building thousands
 * of short strings by concatenation measured 3–5 times slower in Bun (see `docs/decisions/`).
 * The bytes come from lookup tables, four at a time, into pooled scratch space (figures in
 * `docs/performance.md`, "Domain micro-benchmarks").
 */
/** Longest canonical text of a prefix: `ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128`. */
const MAX_TEXT = 43;
/** Free bytes a write needs: the longest text plus 3, as every piece is stored as 4 bytes. */
const WRITE_ROOM = MAX_TEXT + 3;

const decoder = new TextDecoder();

const COLON = 58;
const DOT = 46;
const HEX = "0123456789abcdef";

// Lookup tables. Every piece of text (a hex group, a decimal octet, `/bits`) is at most 4 ASCII
// bytes; a table holds it packed into a 32-bit number, first character in the low byte, so one
// little-endian `DataView.setUint32` writes it, and `pos` then advances by its real length (the
// spare bytes are overwritten by the next piece). Measured about twice as fast as writing digit by
// digit. The group table is 64 Ki entries (320 KiB with its lengths), built once, on first use, in about a
// millisecond.

/** Packs the ASCII text `s` (at most 4 characters) into a number, first character lowest. */
function pack(s: string): number {
  let v = 0;
  for (let i = s.length - 1; i >= 0; i--) v = v * 256 + s.charCodeAt(i);
  return v;
}

/** A packed-text table of `size` entries from `text(i)`, with each entry's length. */
function textTable(size: number, text: (i: number) => string): { packed: Uint32Array; length: Uint8Array } {
  const packed = new Uint32Array(size);
  const length = new Uint8Array(size);
  for (let i = 0; i < size; i++) {
    const t = text(i);
    packed[i] = pack(t);
    length[i] = t.length;
  }
  return { packed, length };
}

/** A 16-bit group in lowercase hex without leading zeros. */
function groupText(g: number): string {
  let t = HEX[g & 15]!;
  for (g >>>= 4; g > 0; g >>>= 4) t = HEX[g & 15]! + t;
  return t;
}

/**
 * The IPv6 group table, built on the first IPv6 text (about 30 ms): a process that never writes
 * IPv6 text (`nettools match`, an IPv4 command) does not pay for it at start.
 */
let GROUPS: { packed: Uint32Array; length: Uint8Array } | null = null;
const groupTable = () => {
  GROUPS = textTable(0x10000, groupText);
  return GROUPS;
};
const OCTETS = textTable(256, String);
const SUFFIXES = textTable(129, (bits) => `/${bits}`);

/**
 * The zero run RFC 5952 shortens to `::`, for every pattern of zero groups: index = one bit per
 * group, group 0 highest, set when the group is zero. The run is the longest of two or more zero
 * groups, the first on a tie; `RUN_START` is 8 (never reached) when there is none.
 */
const RUN_START = new Uint8Array(256);
const RUN_END = new Uint8Array(256);
for (let zeros = 0; zeros < 256; zeros++) {
  let bestStart = 8;
  let bestLen = 1; // a run must be longer than this to be shortened
  let runStart = -1;
  for (let i = 0; i < 8; i++) {
    if ((zeros >> (7 - i)) & 1) {
      if (runStart < 0) runStart = i;
      if (i - runStart + 1 > bestLen) {
        bestLen = i - runStart + 1;
        bestStart = runStart;
      }
    } else {
      runStart = -1;
    }
  }
  RUN_START[zeros] = bestStart;
  RUN_END[zeros] = bestStart === 8 ? 8 : bestStart + bestLen;
}

function writeOctet(out: DataView, pos: number, n: number): number {
  out.setUint32(pos, OCTETS.packed[n]!, true);
  return pos + OCTETS.length[n]!;
}

function writeV4(out: DataView, pos: number, v: number): number {
  pos = writeOctet(out, pos, v >>> 24);
  out.setUint8(pos++, DOT);
  pos = writeOctet(out, pos, (v >>> 16) & 0xff);
  out.setUint8(pos++, DOT);
  pos = writeOctet(out, pos, (v >>> 8) & 0xff);
  out.setUint8(pos++, DOT);
  return writeOctet(out, pos, v & 0xff);
}

/** `::ffff:` packed in two pieces. */
const MAPPED_HEAD = pack("::ff");
const MAPPED_TAIL = pack("ff:");

/** Scratch for the eight groups of the IPv6 address being written. */
const groups = new Int32Array(8);

function writeV6(out: DataView, pos: number, w0: number, w1: number, w2: number, w3: number): number {
  if (w0 === 0 && w1 === 0 && w2 === 0xffff) {
    out.setUint32(pos, MAPPED_HEAD, true);
    out.setUint32(pos + 4, MAPPED_TAIL, true);
    return writeV4(out, pos + 7, w3);
  }
  const g = groups;
  g[0] = w0 >>> 16;
  g[1] = w0 & 0xffff;
  g[2] = w1 >>> 16;
  g[3] = w1 & 0xffff;
  g[4] = w2 >>> 16;
  g[5] = w2 & 0xffff;
  g[6] = w3 >>> 16;
  g[7] = w3 & 0xffff;
  const zeros =
    (w0 >>> 16 === 0 ? 0x80 : 0) |
    ((w0 & 0xffff) === 0 ? 0x40 : 0) |
    (w1 >>> 16 === 0 ? 0x20 : 0) |
    ((w1 & 0xffff) === 0 ? 0x10 : 0) |
    (w2 >>> 16 === 0 ? 0x08 : 0) |
    ((w2 & 0xffff) === 0 ? 0x04 : 0) |
    (w3 >>> 16 === 0 ? 0x02 : 0) |
    ((w3 & 0xffff) === 0 ? 0x01 : 0);
  const table = GROUPS ?? groupTable();
  const runStart = RUN_START[zeros]!;
  // runStart is 8 when no run of two zero groups is compressed: then every group is written here.
  for (let i = 0; i < runStart; i++) {
    if (i > 0) out.setUint8(pos++, COLON);
    const group = g[i]!;
    out.setUint32(pos, table.packed[group]!, true);
    pos += table.length[group]!;
  }
  if (runStart === 8) return pos;
  out.setUint16(pos, 0x3a3a); // "::"
  pos += 2;
  for (let i = RUN_END[zeros]!; i < 8; i++) {
    const group = g[i]!;
    out.setUint32(pos, table.packed[group]!, true);
    pos += table.length[group]!;
    if (i < 7) out.setUint8(pos++, COLON);
  }
  return pos;
}

/**
 * Writes the canonical text of the address with these words (`w3` alone for IPv4), then `/bits`
 * unless `bits` is undefined, into `out` at `pos`; returns the position after it. `out` needs
 * {@link TEXT_WRITE_ROOM} free bytes. The bytes {@link formatWords} decodes, for a writer that
 * never makes strings (`nettools expand`).
 */
export function writeText(
  out: DataView,
  pos: number,
  family: 4 | 6,
  w0: number,
  w1: number,
  w2: number,
  w3: number,
  bits: number | undefined,
): number {
  pos = family === 4 ? writeV4(out, pos, w3) : writeV6(out, pos, w0, w1, w2, w3);
  if (bits === undefined) return pos;
  out.setUint32(pos, SUFFIXES.packed[bits]!, true);
  return pos + SUFFIXES.length[bits]!;
}

/** Free bytes {@link writeText} needs at its position. */
export const TEXT_WRITE_ROOM = WRITE_ROOM;

const single = new Uint8Array(WRITE_ROOM);
const singleView = new DataView(single.buffer);

/** The canonical text of one address, or of one prefix when `bits` is given. */
export function formatWords(
  family: 4 | 6,
  w0: number,
  w1: number,
  w2: number,
  w3: number,
  bits?: number,
): string {
  const end = writeText(singleView, 0, family, w0, w1, w2, w3, bits);
  return decoder.decode(single.subarray(0, end));
}

/** Growable scratch space a batch writes into: the bytes, a view on them, where each text ends. */
interface Scratch {
  bytes: Uint8Array;
  view: DataView;
  ends: Int32Array;
}

/**
 * Scratch space of finished batches, for the next ones. Allocating and growing fresh typed arrays
 * for every batch measured about a third of the text cost (range-to-cidrs, 254 CIDRs); a batch is
 * made, filled and read synchronously, so a finished batch's space is free. Batches open at the
 * same time (a use case filling two lists) each take their own. Space above `KEEP_BYTES` is left
 * to the garbage collector rather than held.
 */
const pool: Scratch[] = [];
const POOL_SIZE = 4;
const KEEP_BYTES = 1 << 20;

function newScratch(): Scratch {
  const bytes = new Uint8Array(4096);
  return { bytes, view: new DataView(bytes.buffer), ends: new Int32Array(128) };
}

/**
 * Collects the canonical texts of many addresses or prefixes and turns them into strings in one
 * decoding step. Use one batch per output list; after `toStrings` the batch is empty again.
 *
 * The texts are written back to back as ASCII bytes; each string is then a slice of the one
 * decoded string.
 */
export class TextBatch {
  /** Taken from the pool at the first `add`, handed back by `toStrings`. */
  private scratch: Scratch | null = null;
  private pos = 0;
  private count = 0;

  /** Number of texts added so far. */
  get length(): number {
    return this.count;
  }

  /** Adds the canonical text of an address, followed by `/bits` when `bits` is given. */
  add(family: 4 | 6, w0: number, w1: number, w2: number, w3: number, bits?: number): void {
    const s = this.scratch ?? this.takeScratch();
    if (s.bytes.length - this.pos < WRITE_ROOM) this.grow(s, WRITE_ROOM);
    if (this.count === s.ends.length) this.growIndex(s);
    this.pos = writeText(s.view, this.pos, family, w0, w1, w2, w3, bits);
    s.ends[this.count++] = this.pos;
  }

  /** Makes room for at least `room` more bytes. */
  private grow(s: Scratch, room: number): void {
    let size = s.bytes.length * 2;
    while (size - this.pos < room) size *= 2;
    const bigger = new Uint8Array(size);
    bigger.set(s.bytes.subarray(0, this.pos));
    s.bytes = bigger;
    s.view = new DataView(bigger.buffer);
  }

  /** Doubles the space for the texts' positions. */
  private growIndex(s: Scratch): void {
    const bigger = new Int32Array(this.count * 2);
    bigger.set(s.ends);
    s.ends = bigger;
  }

  /** The texts, in the order they were added, as an array; the batch is empty afterwards. */
  toStrings(): string[] {
    const s = this.scratch;
    const count = this.count;
    if (s === null) return [];
    const joint = decoder.decode(s.bytes.subarray(0, this.pos));
    const out = new Array<string>(count);
    let start = 0;
    for (let i = 0; i < count; i++) {
      const end = s.ends[i]!;
      out[i] = joint.slice(start, end);
      start = end;
    }
    this.scratch = null;
    this.pos = 0;
    this.count = 0;
    if (pool.length < POOL_SIZE && s.bytes.length <= KEEP_BYTES) pool.push(s);
    return out;
  }

  private takeScratch(): Scratch {
    const s = pool.pop() ?? newScratch();
    this.scratch = s;
    return s;
  }
}
