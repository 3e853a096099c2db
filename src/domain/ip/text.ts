/**
 * Canonical address text, written once: IPv4 dotted decimal; IPv6 per RFC 5952 §4 (lowercase, no
 * leading zeros, the longest run of two or more zero groups as `::`, the first run on a tie, a
 * single zero group never shortened); IPv4-mapped addresses (`::ffff:0:0/96`) in the mixed
 * notation of RFC 5952 §5 (`::ffff:192.0.2.1`). This is Go `netip.Addr.String`'s behaviour.
 *
 * Text is written as ASCII bytes and decoded to strings in one step per batch: building thousands
 * of short strings by concatenation measured 3–5 times slower in Bun (see `docs/decisions/`).
 */

/** Longest canonical text of a prefix: `ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128`. */
const MAX_TEXT = 43;

const decoder = new TextDecoder();

/** ASCII codes of the hex digits, lowercase. */
const HEX = [48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 97, 98, 99, 100, 101, 102];

const COLON = 58;
const DOT = 46;
const SLASH = 47;

function writeDecimal(buf: Uint8Array, pos: number, n: number): number {
  if (n >= 100) buf[pos++] = 48 + Math.floor(n / 100);
  if (n >= 10) buf[pos++] = 48 + (Math.floor(n / 10) % 10);
  buf[pos++] = 48 + (n % 10);
  return pos;
}

function writeV4(buf: Uint8Array, pos: number, v: number): number {
  pos = writeDecimal(buf, pos, v >>> 24);
  buf[pos++] = DOT;
  pos = writeDecimal(buf, pos, (v >>> 16) & 0xff);
  buf[pos++] = DOT;
  pos = writeDecimal(buf, pos, (v >>> 8) & 0xff);
  buf[pos++] = DOT;
  return writeDecimal(buf, pos, v & 0xff);
}

function writeGroup(buf: Uint8Array, pos: number, g: number): number {
  if (g >= 0x1000) buf[pos++] = HEX[g >>> 12]!;
  if (g >= 0x100) buf[pos++] = HEX[(g >>> 8) & 15]!;
  if (g >= 0x10) buf[pos++] = HEX[(g >>> 4) & 15]!;
  buf[pos++] = HEX[g & 15]!;
  return pos;
}

/** Scratch for the eight groups of the IPv6 address being written. */
const groups = new Uint16Array(8);

function writeV6(buf: Uint8Array, pos: number, w0: number, w1: number, w2: number, w3: number): number {
  if (w0 === 0 && w1 === 0 && w2 === 0xffff) {
    buf[pos++] = COLON;
    buf[pos++] = COLON;
    for (let i = 0; i < 4; i++) buf[pos++] = 102; // "ffff"
    buf[pos++] = COLON;
    return writeV4(buf, pos, w3);
  }
  const g = groups;
  g[0] = w0 >>> 16;
  g[1] = w0; // a Uint16Array keeps the low 16 bits
  g[2] = w1 >>> 16;
  g[3] = w1;
  g[4] = w2 >>> 16;
  g[5] = w2;
  g[6] = w3 >>> 16;
  g[7] = w3;
  let bestStart = -1;
  let bestLen = 1; // a run must be longer than this to be shortened
  let runStart = -1;
  for (let i = 0; i < 8; i++) {
    if (g[i] === 0) {
      if (runStart < 0) runStart = i;
      if (i - runStart + 1 > bestLen) {
        bestLen = i - runStart + 1;
        bestStart = runStart;
      }
    } else {
      runStart = -1;
    }
  }
  const afterRun = bestStart + bestLen;
  let i = 0;
  while (i < 8) {
    if (i === bestStart) {
      buf[pos++] = COLON;
      buf[pos++] = COLON;
      i = afterRun;
      continue;
    }
    if (i > 0 && i !== afterRun) buf[pos++] = COLON;
    pos = writeGroup(buf, pos, g[i]!);
    i++;
  }
  return pos;
}

/**
 * Writes the canonical text of the address with these words (`w3` alone for IPv4) into `buf` at
 * `pos`; returns the position after it. `buf` needs 39 free bytes.
 */
export function writeAddrText(
  buf: Uint8Array,
  pos: number,
  family: 4 | 6,
  w0: number,
  w1: number,
  w2: number,
  w3: number,
): number {
  return family === 4 ? writeV4(buf, pos, w3) : writeV6(buf, pos, w0, w1, w2, w3);
}

const single = new Uint8Array(MAX_TEXT);

/** The canonical text of one address, or of one prefix when `bits` is given. */
export function formatWords(
  family: 4 | 6,
  w0: number,
  w1: number,
  w2: number,
  w3: number,
  bits?: number,
): string {
  let pos = writeAddrText(single, 0, family, w0, w1, w2, w3);
  if (bits !== undefined) {
    single[pos++] = SLASH;
    pos = writeDecimal(single, pos, bits);
  }
  return decoder.decode(single.subarray(0, pos));
}

/**
 * Collects the canonical texts of many addresses or prefixes and turns them into strings in one
 * decoding step. Use one batch per output list.
 */
export class TextBatch {
  private buf = new Uint8Array(1024);
  private pos = 0;
  private readonly ends: number[] = [];

  /** Number of texts added so far. */
  get length(): number {
    return this.ends.length;
  }

  /** Adds the canonical text of an address, followed by `/bits` when `bits` is given. */
  add(family: 4 | 6, w0: number, w1: number, w2: number, w3: number, bits?: number): void {
    if (this.buf.length - this.pos < MAX_TEXT) {
      const bigger = new Uint8Array(this.buf.length * 2);
      bigger.set(this.buf.subarray(0, this.pos));
      this.buf = bigger;
    }
    let pos = writeAddrText(this.buf, this.pos, family, w0, w1, w2, w3);
    if (bits !== undefined) {
      this.buf[pos++] = SLASH;
      pos = writeDecimal(this.buf, pos, bits);
    }
    this.pos = pos;
    this.ends.push(pos);
  }

  /** The texts, in the order they were added. */
  toStrings(): string[] {
    const all = decoder.decode(this.buf.subarray(0, this.pos));
    const out = new Array<string>(this.ends.length);
    let start = 0;
    for (let i = 0; i < out.length; i++) {
      const end = this.ends[i]!;
      out[i] = all.slice(start, end);
      start = end;
    }
    return out;
  }
}
