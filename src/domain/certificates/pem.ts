/**
 * PEM scanner for the certificate-bundle endpoint (spec §2.8, §4.4 rules 1 and 9; CONTRACT §4.1).
 *
 * It splits the text into blocks and reports every problem with an exact location, in the order the
 * problems appear in the text. It never copies any of the scanned text into a message, except a
 * block's label when that label is a short, well-formed RFC 7468 label.
 *
 * Definitions used throughout:
 * - Lines end at LF, CRLF or a lone CR. Line numbers are 1-based; offsets are UTF-16 code-unit
 *   indexes into the original string, `end` exclusive.
 * - Whitespace is what `String.prototype.trim` removes (ECMAScript WhiteSpace and LineTerminator:
 *   space, tab, VT, FF, NBSP, BOM, the Unicode space separators, LS, PS), so a byte-order mark or a
 *   non-breaking space pasted around a bundle is tolerated.
 * - A boundary line may carry whitespace around it; its location starts at the first `-`.
 */
import type { Issue, TextLocation } from "../errors.ts";
import { MAX_CERTIFICATES, MAX_PEM_LENGTH } from "../limits.ts";

/** The only accepted block label (spec §2.8). */
export const CERTIFICATE_LABEL = "CERTIFICATE";
/** Exact message for any block whose label contains `PRIVATE KEY` (CONTRACT §4.1). */
export const PRIVATE_KEY_MESSAGE = "private key material is not accepted";
/** A label is quoted in a message only when it is a well-formed RFC 7468 label at most this long. */
export const MAX_QUOTED_LABEL_LENGTH = 64;

/** One well-formed CERTIFICATE block. */
export interface PemBlock {
  /** Zero-based position of the block among all blocks in the text. */
  index: number;
  /** One-based line of its BEGIN boundary. */
  line: number;
  /** From the `-` of `-----BEGIN` to just after the last `-` of its END line. */
  location: TextLocation;
  der: Uint8Array;
}

export interface PemScan {
  /** Well-formed CERTIFICATE blocks among the first MAX_CERTIFICATES blocks, in text order. */
  blocks: PemBlock[];
  /** Every block started by a BEGIN line, whatever its label or state (0 when the text was not scanned). */
  blockCount: number;
  /** False when the text was over the size limit and therefore not scanned. */
  scanned: boolean;
  /** Every problem, in text order; the whole-text problems (size, no block) carry no location. */
  issues: Issue[];
}

interface Line {
  number: number;
  /** Offset of the first code unit of the line. */
  start: number;
  /** Offset just before the line terminator (or the end of the text). */
  end: number;
}

interface OpenBlock {
  index: number;
  line: number;
  /** Offset of the `-` of `-----BEGIN`. */
  offset: number;
  /** The label, or null when the BEGIN line is not `-----BEGIN label-----`. */
  label: string | null;
  /** The BEGIN line without surrounding whitespace (checked for `PRIVATE KEY` even when malformed). */
  beginText: string;
  /** The block's content lines with all whitespace removed. */
  body: string[];
}

const BEGIN_PREFIX = "-----BEGIN";
const END_PREFIX = "-----END";
const BEGIN_LINE = /^-----BEGIN (.*)-----$/;
const END_LINE = /^-----END (.*)-----$/;
/** RFC 7468 §3 `label`: printable ASCII except `-`, single spaces or hyphens between them. */
const WELL_FORMED_LABEL = /^[\x21-\x2C\x2E-\x7E]+(?:[ -][\x21-\x2C\x2E-\x7E]+)*$/;
const PRIVATE_KEY = /PRIVATE KEY/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const WHITESPACE_RUN = /\s+/g;

/**
 * Scans `pem` into CERTIFICATE blocks and located issues (CONTRACT §4.1).
 *
 * A text over MAX_PEM_LENGTH UTF-16 code units or UTF-8 bytes is not scanned: one issue, path `["pem"]`.
 * Otherwise one issue per problem: text outside blocks (one per line), an END line without BEGIN,
 * and at most one per block (private key, malformed BEGIN, other label, missing END, mismatched END,
 * empty or invalid base64, in that priority), plus one for the first block beyond MAX_CERTIFICATES.
 */
export function scanPem(pem: string): PemScan {
  const sizeIssue = checkPemSize(pem);
  if (sizeIssue) return { blocks: [], blockCount: 0, scanned: false, issues: [sizeIssue] };

  const issues: Issue[] = [];
  const blocks: PemBlock[] = [];
  let blockCount = 0;
  let certificateLabelled = 0;
  let open: OpenBlock | null = null;

  const finish = (block: OpenBlock, end: number, endLabel: string | null | undefined): void => {
    const location: TextLocation = { line: block.line, offset: block.offset, end };
    const problem = blockProblem(block, endLabel);
    if (block.label === CERTIFICATE_LABEL) certificateLabelled++;
    if (problem.message !== null) issues.push(pemIssue(problem.message, location));
    if (block.index === MAX_CERTIFICATES) {
      issues.push(
        pemIssue(
          `a bundle holds at most ${MAX_CERTIFICATES} PEM blocks; this is block ${MAX_CERTIFICATES + 1}`,
          location,
        ),
      );
    }
    if (problem.der && block.index < MAX_CERTIFICATES) {
      blocks.push({ index: block.index, line: block.line, location, der: problem.der });
    }
  };

  for (const line of splitLines(pem)) {
    const [from, to] = trimmedBounds(pem, line);
    if (from === to) continue;
    const text = pem.slice(from, to);
    if (open === null) {
      if (text.startsWith(BEGIN_PREFIX)) {
        open = openBlock(blockCount++, line, from, text);
      } else if (text.startsWith(END_PREFIX)) {
        issues.push(
          pemIssue("an END line stands outside any block (no BEGIN line before it)", at(line, from)),
        );
      } else {
        issues.push(
          pemIssue(
            "unexpected text outside a PEM block: only whitespace may stand before, between and after blocks",
            at(line, from),
          ),
        );
      }
    } else if (text.startsWith(END_PREFIX)) {
      finish(open, to, END_LINE.exec(text)?.[1] ?? null);
      open = null;
    } else if (text.startsWith(BEGIN_PREFIX)) {
      // A new BEGIN before an END: the open block has no END line; it spans to the end of the text.
      finish(open, pem.length, undefined);
      open = openBlock(blockCount++, line, from, text);
    } else {
      open.body.push(text.replace(WHITESPACE_RUN, ""));
    }
  }
  if (open !== null) finish(open, pem.length, undefined);

  if (certificateLabelled === 0) {
    issues.push({ message: "pem contains no CERTIFICATE block", path: ["pem"] });
  }
  return { blocks, blockCount, scanned: true, issues };
}

/** The size rule of spec §2.8 / CONTRACT §4.1, or null when `pem` is within both limits. */
export function checkPemSize(pem: string): Issue | null {
  if (pem.length > MAX_PEM_LENGTH) {
    return { message: `pem is longer than ${MAX_PEM_LENGTH} characters`, path: ["pem"] };
  }
  if (utf8Length(pem) > MAX_PEM_LENGTH) {
    return { message: `pem is larger than ${MAX_PEM_LENGTH} bytes of UTF-8`, path: ["pem"] };
  }
  return null;
}

/** Number of bytes of the UTF-8 encoding of `text` (a lone surrogate counts as U+FFFD, 3 bytes). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** Splits on LF, CRLF or a lone CR; the last line may be empty. */
function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  let number = 1;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit !== 0x0a && unit !== 0x0d) continue;
    lines.push({ number: number++, start, end: i });
    if (unit === 0x0d && text.charCodeAt(i + 1) === 0x0a) i++;
    start = i + 1;
  }
  lines.push({ number, start, end: text.length });
  return lines;
}

/** [first non-whitespace offset, offset after the last non-whitespace] of a line; equal when blank. */
function trimmedBounds(text: string, line: Line): [number, number] {
  let from = line.start;
  let to = line.end;
  while (from < to && isWhitespace(text.charCodeAt(from))) from++;
  while (to > from && isWhitespace(text.charCodeAt(to - 1))) to--;
  return [from, to];
}

/** ECMAScript WhiteSpace or LineTerminator (what `trim` and `\s` use). */
function isWhitespace(unit: number): boolean {
  return (
    unit === 0x20 ||
    (unit >= 0x09 && unit <= 0x0d) ||
    unit === 0xa0 ||
    unit === 0x1680 ||
    (unit >= 0x2000 && unit <= 0x200a) ||
    unit === 0x2028 ||
    unit === 0x2029 ||
    unit === 0x202f ||
    unit === 0x205f ||
    unit === 0x3000 ||
    unit === 0xfeff
  );
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

function openBlock(index: number, line: Line, offset: number, text: string): OpenBlock {
  return {
    index,
    line: line.number,
    offset,
    label: BEGIN_LINE.exec(text)?.[1] ?? null,
    beginText: text,
    body: [],
  };
}

/** Location of text outside blocks: from its first non-whitespace character to the end of the line. */
function at(line: Line, from: number): TextLocation {
  return { line: line.number, offset: from, end: line.end };
}

function pemIssue(message: string, location: TextLocation): Issue {
  return { message, path: ["pem"], location };
}

/**
 * The one problem of a block (message null when none) and, for a good CERTIFICATE block, its DER.
 * `endLabel` is undefined when the END line is missing and null when it is malformed.
 */
function blockProblem(
  block: OpenBlock,
  endLabel: string | null | undefined,
): { message: string | null; der?: Uint8Array } {
  if (PRIVATE_KEY.test(block.beginText) || (endLabel != null && PRIVATE_KEY.test(endLabel))) {
    return { message: PRIVATE_KEY_MESSAGE };
  }
  if (block.label === null) return { message: "the BEGIN line of this block is malformed" };
  if (block.label !== CERTIFICATE_LABEL) {
    const named = describeLabel(block.label);
    return {
      message: named
        ? `PEM blocks labelled ${named} are not accepted; only CERTIFICATE blocks are`
        : "this PEM block's label is not accepted; only CERTIFICATE blocks are",
    };
  }
  if (endLabel === undefined) return { message: "this CERTIFICATE block has no END line" };
  if (endLabel !== CERTIFICATE_LABEL) {
    return {
      message: "the END line of this block does not match its BEGIN line (expected label CERTIFICATE)",
    };
  }
  const base64 = block.body.join("");
  if (base64.length === 0) return { message: "this CERTIFICATE block is empty" };
  const der = decodeBase64(base64);
  if (der === null) return { message: "this CERTIFICATE block does not contain valid base64" };
  return { message: null, der };
}

/** `"LABEL"` when the label may be quoted, else null. */
function describeLabel(label: string): string | null {
  if (label.length > MAX_QUOTED_LABEL_LENGTH || !WELL_FORMED_LABEL.test(label)) return null;
  return `"${label}"`;
}

const BASE64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const BASE64_VALUE = new Map([...BASE64_ALPHABET].map((char, value) => [char.charCodeAt(0), value]));

/**
 * Strict RFC 4648 §4 base64 (padding required, `=` only at the end), or null when invalid.
 * Non-zero pad bits are tolerated, as most decoders do.
 */
export function decodeBase64(text: string): Uint8Array | null {
  if (text.length % 4 !== 0 || !BASE64.test(text)) return null;
  const padding = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
  const out = new Uint8Array((text.length / 4) * 3 - padding);
  let o = 0;
  for (let i = 0; i < text.length; i += 4) {
    const a = BASE64_VALUE.get(text.charCodeAt(i)) ?? 0;
    const b = BASE64_VALUE.get(text.charCodeAt(i + 1)) ?? 0;
    const c = BASE64_VALUE.get(text.charCodeAt(i + 2)) ?? 0;
    const d = BASE64_VALUE.get(text.charCodeAt(i + 3)) ?? 0;
    const bits = (a << 18) | (b << 12) | (c << 6) | d;
    if (o < out.length) out[o++] = (bits >> 16) & 0xff;
    if (o < out.length) out[o++] = (bits >> 8) & 0xff;
    if (o < out.length) out[o++] = bits & 0xff;
  }
  return out;
}
