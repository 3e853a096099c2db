/**
 * PEM text in and out. In: the scanner for the certificate endpoints (spec §2.8, §4.4 rules 1 and 9;
 * CONTRACT §4.1) and, with another {@link PemKind}, for the certificate-request endpoint (CONTRACT
 * §8.2: the same rules, other labels and words). Out: `pemBlock`, one certificate written from its
 * DER (the chain's `fullchainPem`, CONTRACT §7.1, and the CLI's conversions of DER and PKCS#7 files).
 *
 * The scanner splits the text into blocks and reports every problem with an exact location, in the order the
 * problems appear in the text. It never copies any of the scanned text into a message, except a
 * block's label when that label is a short, well-formed RFC 7468 label. Each common mistake gives
 * exactly one issue that names it: two blocks joined without a line break, binary DER pasted as
 * text, `openssl x509 -text` output or `#` comments around the blocks, a PKCS#7 or other label
 * (with the openssl command that helps).
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
/** Message of the one issue for a text with nothing in it but whitespace. */
export const NO_CERTIFICATE_MESSAGE = "pem contains no CERTIFICATE block";

/** How much one scan reads: the API's limits by default; a local caller may pass larger ones. */
export interface PemLimits {
  /** Most blocks read; the next one is an issue located at it. */
  maxBlocks: number;
  /** Longest text, in UTF-16 code units and in UTF-8 bytes. */
  maxPemLength: number;
  /** Most blocks of a `roots` text, when it differs from `maxBlocks` (a local trust-store file, CONTRACT §9.6). */
  maxRootBlocks?: number;
}

/** The limits of the HTTP API (spec §2.8): 16 blocks, 49152 characters and bytes. */
export const DEFAULT_PEM_LIMITS: Readonly<PemLimits> = {
  maxBlocks: MAX_CERTIFICATES,
  maxPemLength: MAX_PEM_LENGTH,
};

/** Messages for the common mistakes in text outside blocks (CONTRACT §4.1), one issue each. */
export const OUTSIDE_TEXT_MESSAGES = {
  missingLineBreak:
    "a line break is missing between the END line of one block and the BEGIN line of the next (as when a file without a final newline is joined to another with cat): start the BEGIN line on a line of its own",
  missingLineBreakBeforeEnd:
    "a line break is missing before the END line of this block: put the END line on a line of its own",
  binary:
    "binary data was pasted as text (a DER certificate, not PEM): convert it with openssl x509 -inform DER -in cert.der -out cert.pem (a .p7b bundle: openssl pkcs7 -inform DER -print_certs -in bundle.p7b -out bundle.pem) and paste the PEM text",
  comment:
    "comment lines (starting with #) are not part of PEM: remove them and keep only the BEGIN and END blocks",
  opensslText:
    "this is the readable text form of a certificate (openssl x509 -text output) around the block: keep only the BEGIN and END blocks, every one of them, for example with sed -n '/BEGIN CERTIFICATE/,/END CERTIFICATE/p' cert.pem > clean.pem",
  opensslAttributes:
    "these are openssl's description lines (subject, issuer or Bag Attributes) around the block: keep only the BEGIN and END blocks, every one of them, for example with sed -n '/BEGIN CERTIFICATE/,/END CERTIFICATE/p' cert.pem > clean.pem",
  base64WithoutBegin:
    "base64 lines stand outside any block: the BEGIN CERTIFICATE line before them is missing",
  endWithoutBegin: "an END line stands outside any block (no BEGIN line before it)",
  unexpected:
    "unexpected text outside a PEM block: only whitespace may stand before, between and after blocks",
} as const;

/** Which mistake a run of text outside blocks is (CONTRACT §4.1). */
export type RunKind = keyof typeof OUTSIDE_TEXT_MESSAGES;

/**
 * What one scan reads and how its messages name it: the certificate bundle's CERTIFICATE blocks
 * ({@link CERTIFICATE_PEM}, the default), or another kind of block such as a certificate request
 * (src/domain/certificates/csr.ts). Every rule of the scan is the same; only labels and words differ.
 */
export interface PemKind {
  /** The labels of the blocks it reads (RFC 7468 §2); any other label is refused, named. */
  readonly labels: readonly string[];
  /** How messages name the accepted labels: `CERTIFICATE`. */
  readonly accepted: string;
  /** Message of the one issue for a text without any block of an accepted label. */
  readonly noBlockMessage: string;
  /** The message for each kind of text outside blocks. */
  readonly outsideText: Readonly<Record<RunKind, string>>;
  /** Advice for blocks of other labels, by label. */
  readonly labelAdvice: Readonly<Record<string, string>>;
  /**
   * Which blocks `maxBlocks` counts: `every` block whatever its label (a bundle's 17th block is
   * refused), or only those with an `accepted` label (a request's second request block is).
   */
  readonly counts: "every" | "accepted";
  /** The issue at the first block beyond `maxBlocks`. */
  readonly tooManyMessage: (maxBlocks: number) => string;
}

/** One well-formed block of an accepted label (a CERTIFICATE block by default). */
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
  /** Well-formed blocks of an accepted label among the first `maxBlocks` blocks, in text order. */
  blocks: PemBlock[];
  /** Every block started by a BEGIN line, whatever its label or state (0 when the text was not scanned). */
  blockCount: number;
  /** False when the text was over the size limit and therefore not scanned. */
  scanned: boolean;
  /** Every problem, in text order; the whole-text problems (size, nothing but whitespace) carry no location. */
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
  /** True when its END line followed base64 on the same line. */
  endJoined: boolean;
}

/** Consecutive non-blank lines of text outside blocks: one issue (CONTRACT §4.1). */
interface OutsideRun {
  line: number;
  offset: number;
  end: number;
  /** Each line's text without surrounding whitespace. */
  texts: string[];
}

const BEGIN_PREFIX = "-----BEGIN";
const END_PREFIX = "-----END";
const BEGIN_LINE = /^-----BEGIN (.*)-----$/;
const END_LINE = /^-----END (.*)-----$/;
/** RFC 7468 §3 `label`: printable ASCII except `-`, single spaces or hyphens between them. */
const WELL_FORMED_LABEL = /^[\x21-\x2C\x2E-\x7E]+(?:[ -][\x21-\x2C\x2E-\x7E]+)*$/;
const PRIVATE_KEY = /PRIVATE KEY/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const BASE64_LINE = /^[A-Za-z0-9+/=]+$/;
/** What tells base64 from a word: a digit, `+`, `/` or `=`, or a long line. */
const BASE64_SIGN = /[0-9+/=]|^.{40}/;
const WHITESPACE_RUN = /\s+/g;
/** Bytes no text has: C0 controls other than whitespace, DEL, C1 controls, U+FFFD (an undecodable byte). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is detected
const BINARY = /[\u0000-\u0008\u000e-\u001f\u007f-\u009f\ufffd]/;
/** First words of the lines `openssl x509 -text` prints. */
const OPENSSL_TEXT =
  /^(?:Certificate:|Data:|Version: ?\d|Serial Number:|Signature Algorithm:|Issuer:|Validity$|Not Before ?:|Not After ?:|Subject:|Subject Public Key Info:|Public Key Algorithm:|X509v3 extensions:|Signature Value:)/;
/** Lines openssl prints about a certificate: `subject=`, `issuer=`, PKCS#12 bag attributes, s_client's chain lines. */
const OPENSSL_ATTRIBUTES = /^(?:subject\s*=|issuer\s*=|Bag Attributes|friendlyName:|localKeyID:|\d+ s:|i:)/;

/**
 * Scans `pem` into CERTIFICATE blocks and located issues (CONTRACT §4.1).
 *
 * A text over `limits.maxPemLength` UTF-16 code units or UTF-8 bytes is not scanned: one issue,
 * path `["pem"]`. Otherwise one issue per problem: per run of text outside blocks (named when it is
 * a common mistake), per missing line break between two blocks (both blocks are still read), at
 * most one per block (private key, malformed BEGIN, other label, missing END, END joined to base64,
 * mismatched END, empty or invalid base64, in that priority), plus one for the first block beyond
 * `limits.maxBlocks`. A text with nothing but whitespace gets one unlocated issue.
 */
export function scanPem(
  pem: string,
  limits: PemLimits = DEFAULT_PEM_LIMITS,
  kind: PemKind = CERTIFICATE_PEM,
): PemScan {
  const sizeIssue = checkPemSize(pem, limits.maxPemLength);
  if (sizeIssue) return { blocks: [], blockCount: 0, scanned: false, issues: [sizeIssue] };
  const scanner = new Scanner(pem, limits.maxBlocks, kind);
  for (const line of splitLines(pem)) scanner.scanLine(line);
  return scanner.finish();
}

/**
 * The private-key issues of `pem`, exactly as the API reports them (same message and location),
 * whatever the text's size or block count. For callers that must refuse a key before sending it
 * anywhere (the CLI with `--server`, the web page): pure, no platform APIs.
 */
export function privateKeyIssues(pem: string): Issue[] {
  return scanPem(pem, {
    maxBlocks: Number.POSITIVE_INFINITY,
    maxPemLength: Number.POSITIVE_INFINITY,
  }).issues.filter((issue) => issue.message === PRIVATE_KEY_MESSAGE);
}

/** The state of one scan: the open block, the open run of outside text, what was found. */
class Scanner {
  private readonly issues: Issue[] = [];
  private readonly blocks: PemBlock[] = [];
  private blockCount = 0;
  /** Blocks whose BEGIN label is accepted, whatever their state. */
  private acceptedLabelled = 0;
  private open: OpenBlock | null = null;
  private run: OutsideRun | null = null;
  /** The last outside-text issue since the last block, for merging binary runs split by blank lines. */
  private lastRun: { kind: RunKind; issue: Issue } | null = null;

  constructor(
    private readonly pem: string,
    private readonly maxBlocks: number,
    private readonly kind: PemKind,
  ) {}

  scanLine(line: Line): void {
    const [from, to] = trimmedBounds(this.pem, line);
    if (from === to) {
      this.closeRun();
      return;
    }
    this.scanSegment(line, from, to);
  }

  finish(): PemScan {
    this.closeRun();
    if (this.open !== null) this.finishBlock(this.open, this.pem.length, undefined);
    if (this.issues.length === 0 && this.acceptedLabelled === 0) {
      this.issues.push({ message: this.kind.noBlockMessage, path: ["pem"] });
    }
    return { blocks: this.blocks, blockCount: this.blockCount, scanned: true, issues: this.issues };
  }

  /** The text `[from, to)` of one line, trimmed; a boundary joined to other text is split off. */
  private scanSegment(line: Line, from: number, to: number): void {
    const text = this.pem.slice(from, to);
    const open = this.open;
    if (open === null) {
      const begin = text.indexOf(BEGIN_PREFIX);
      if (begin === -1) {
        this.extendRun(line, from, line.end, text);
        return;
      }
      if (begin > 0) {
        const before = text.slice(0, begin).trimEnd();
        this.extendRun(line, from, from + before.length, before);
      }
      this.closeRun();
      this.openBlock(line, from + begin, text.slice(begin));
      return;
    }
    if (text.startsWith(END_PREFIX)) {
      const begin = text.indexOf(BEGIN_PREFIX, END_PREFIX.length);
      if (begin === -1) {
        this.finishBlock(open, to, END_LINE.exec(text)?.[1] ?? null);
        return;
      }
      // `-----END X----------BEGIN Y-----`: two blocks joined without a line break.
      const endText = text.slice(0, begin).trimEnd();
      this.finishBlock(open, from + endText.length, END_LINE.exec(endText)?.[1] ?? null);
      this.issues.push(
        pemIssue(this.kind.outsideText.missingLineBreak, { line: line.number, offset: from, end: to }),
      );
      this.openBlock(line, from + begin, text.slice(begin));
      return;
    }
    if (text.startsWith(BEGIN_PREFIX)) {
      // A new BEGIN before an END: the open block has no END line; it spans to the end of the text.
      this.finishBlock(open, this.pem.length, undefined);
      this.openBlock(line, from, text);
      return;
    }
    const end = text.indexOf(END_PREFIX);
    if (end > 0) {
      // Base64 and the END line on one line: read both, and say a line break is missing.
      open.body.push(text.slice(0, end).replace(WHITESPACE_RUN, ""));
      open.endJoined = true;
      this.scanSegment(line, from + end, to);
      return;
    }
    open.body.push(text.replace(WHITESPACE_RUN, ""));
  }

  private openBlock(line: Line, offset: number, text: string): void {
    this.closeRun();
    this.lastRun = null;
    this.open = {
      index: this.blockCount++,
      line: line.number,
      offset,
      label: BEGIN_LINE.exec(text)?.[1] ?? null,
      beginText: text,
      body: [],
      endJoined: false,
    };
  }

  private finishBlock(block: OpenBlock, end: number, endLabel: string | null | undefined): void {
    this.open = null;
    const location: TextLocation = { line: block.line, offset: block.offset, end };
    const problem = blockProblem(block, endLabel, this.kind);
    const accepted = block.label !== null && this.kind.labels.includes(block.label);
    if (accepted) this.acceptedLabelled++;
    if (problem.message !== null) this.issues.push(pemIssue(problem.message, location));
    // The position `maxBlocks` counts: this block's among every block, or among the accepted ones.
    const counted = this.kind.counts === "every" ? block.index : accepted ? this.acceptedLabelled - 1 : -1;
    if (counted === this.maxBlocks) {
      this.issues.push(pemIssue(this.kind.tooManyMessage(this.maxBlocks), location));
    }
    if (problem.der && counted < this.maxBlocks) {
      this.blocks.push({ index: block.index, line: block.line, location, der: problem.der });
    }
  }

  private extendRun(line: Line, offset: number, end: number, text: string): void {
    if (this.run === null) this.run = { line: line.number, offset, end, texts: [text] };
    else {
      this.run.end = end;
      this.run.texts.push(text);
    }
  }

  /** Turns the open run into its one issue; a binary run right after another one extends it. */
  private closeRun(): void {
    const run = this.run;
    if (run === null) return;
    this.run = null;
    const kind = classifyRun(run.texts);
    if (kind === "binary" && this.lastRun?.kind === "binary" && this.lastRun.issue.location) {
      this.lastRun.issue.location.end = run.end;
      return;
    }
    const issue = pemIssue(this.kind.outsideText[kind], {
      line: run.line,
      offset: run.offset,
      end: run.end,
    });
    this.issues.push(issue);
    this.lastRun = { kind, issue };
  }
}

/** Which common mistake a run of outside text is, from its lines (CONTRACT §4.1). */
function classifyRun(texts: readonly string[]): RunKind {
  if (texts.some((text) => BINARY.test(text))) return "binary";
  if (texts.every((text) => text.startsWith("#"))) return "comment";
  if (texts.some((text) => OPENSSL_TEXT.test(text))) return "opensslText";
  if (texts.some((text) => OPENSSL_ATTRIBUTES.test(text))) return "opensslAttributes";
  const ends = texts.filter((text) => text.startsWith(END_PREFIX));
  const base64 = texts.filter((text) => !text.startsWith(END_PREFIX) && BASE64_LINE.test(text));
  if (
    base64.length > 0 &&
    base64.length + ends.length === texts.length &&
    base64.some((text) => BASE64_SIGN.test(text))
  ) {
    return "base64WithoutBegin";
  }
  if (ends.length === texts.length) return "endWithoutBegin";
  return "unexpected";
}

/** The size rule of spec §2.8 / CONTRACT §4.1, or null when `pem` is within both limits. */
export function checkPemSize(pem: string, maxPemLength: number = MAX_PEM_LENGTH): Issue | null {
  if (pem.length > maxPemLength) {
    return { message: `pem is longer than ${maxPemLength} characters`, path: ["pem"] };
  }
  if (pem.length * 3 > maxPemLength && utf8Length(pem) > maxPemLength) {
    return { message: `pem is larger than ${maxPemLength} bytes of UTF-8`, path: ["pem"] };
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

function pemIssue(message: string, location: TextLocation): Issue {
  return { message, path: ["pem"], location };
}

/**
 * The one problem of a block (message null when none) and, for a good block of an accepted label,
 * its DER. `endLabel` is undefined when the END line is missing and null when it is malformed.
 */
function blockProblem(
  block: OpenBlock,
  endLabel: string | null | undefined,
  kind: PemKind,
): { message: string | null; der?: Uint8Array } {
  if (PRIVATE_KEY.test(block.beginText) || (endLabel != null && PRIVATE_KEY.test(endLabel))) {
    return { message: PRIVATE_KEY_MESSAGE };
  }
  const label = block.label;
  if (label === null) return { message: "the BEGIN line of this block is malformed" };
  if (!kind.labels.includes(label)) return { message: labelMessage(label, kind) };
  if (endLabel === undefined) return { message: `this ${label} block has no END line` };
  if (block.endJoined) {
    const der = endLabel === label ? decodeBase64(block.body.join("")) : null;
    const message = kind.outsideText.missingLineBreakBeforeEnd;
    return der ? { message, der } : { message };
  }
  if (endLabel !== label) {
    return {
      message: `the END line of this block does not match its BEGIN line (expected label ${label})`,
    };
  }
  const base64 = block.body.join("");
  if (base64.length === 0) return { message: `this ${label} block is empty` };
  const der = decodeBase64(base64);
  if (der === null) return { message: `this ${label} block does not contain valid base64` };
  return { message: null, der };
}

/** What to do with a block of another type, by label (CONTRACT §4.1: name the label, give the openssl command). */
const LABEL_ADVICE: Readonly<Record<string, string>> = {
  PKCS7:
    "this is a PKCS#7 bundle, so extract its certificates with openssl pkcs7 -print_certs -in bundle.p7b -out bundle.pem",
  "PKCS #7 SIGNED DATA":
    "this is a PKCS#7 bundle, so extract its certificates with openssl pkcs7 -print_certs -in bundle.p7b -out bundle.pem",
  CMS: "this is a CMS (PKCS#7) structure, so extract its certificates with openssl pkcs7 -print_certs -in bundle.p7b -out bundle.pem",
  "TRUSTED CERTIFICATE":
    "this is OpenSSL's certificate-with-trust-settings form, so convert it with openssl x509 -in cert.pem -out plain.pem (the trust settings are dropped)",
  "X509 CERTIFICATE":
    "this older label means a certificate, so change it to CERTIFICATE on both the BEGIN and END lines",
  "X509 CRL": "a certificate revocation list is not a certificate, so leave it out of the bundle",
  "CERTIFICATE REQUEST":
    "a certificate signing request is not a certificate, so send it to your CA and paste the certificate it issues",
  "NEW CERTIFICATE REQUEST":
    "a certificate signing request is not a certificate, so send it to your CA and paste the certificate it issues",
  "PUBLIC KEY": "a public key alone is not a certificate, so paste the certificate that contains it",
  "RSA PUBLIC KEY": "a public key alone is not a certificate, so paste the certificate that contains it",
};

/** The certificate bundle's blocks (spec §2.8, CONTRACT §4.1): the default kind of a scan. */
export const CERTIFICATE_PEM: PemKind = {
  labels: [CERTIFICATE_LABEL],
  accepted: CERTIFICATE_LABEL,
  noBlockMessage: NO_CERTIFICATE_MESSAGE,
  outsideText: OUTSIDE_TEXT_MESSAGES,
  labelAdvice: LABEL_ADVICE,
  counts: "every",
  tooManyMessage: (maxBlocks) =>
    `a bundle holds at most ${maxBlocks} PEM blocks; this is block ${maxBlocks + 1}`,
};

/** The message for a block of a label the kind does not read: the label when it may be quoted, and advice. */
function labelMessage(label: string, kind: PemKind): string {
  const named = describeLabel(label);
  if (named === null) return `this PEM block's label is not accepted; only ${kind.accepted} blocks are`;
  const upper = label.toUpperCase();
  const advice =
    kind.labelAdvice[label] ??
    (kind.labels.includes(upper)
      ? `labels are case-sensitive, so write ${upper} in capitals on both the BEGIN and END lines`
      : null);
  const base = `PEM blocks labelled ${named} are not accepted; only ${kind.accepted} blocks are`;
  return advice === null ? base : `${base}: ${advice}`;
}

/** `"LABEL"` when the label may be quoted, else null. */
function describeLabel(label: string): string | null {
  if (label.length > MAX_QUOTED_LABEL_LENGTH || !WELL_FORMED_LABEL.test(label)) return null;
  return `"${label}"`;
}

const BASE64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
/** Each base64 character's value by its code (0–127), -1 for anything else. */
const BASE64_VALUE = new Int8Array(128).fill(-1);
for (let value = 0; value < BASE64_ALPHABET.length; value++)
  BASE64_VALUE[BASE64_ALPHABET.charCodeAt(value)] = value;

/**
 * ES2026's `Uint8Array.fromBase64` where the engine has it (Bun does; browsers from 2025 on; Node
 * 20 does not), read without its type as `toHex` is in der.ts. A bundle's certificates are
 * kilobytes of base64 per request, which the engine decodes about fifteen times faster than a
 * loop (ADR 0069).
 */
const engineFromBase64 = (Uint8Array as { fromBase64?: (text: string) => Uint8Array }).fromBase64;

/**
 * Strict RFC 4648 §4 base64 (padding required, `=` only at the end), or null when invalid.
 * Non-zero pad bits are tolerated, as most decoders do. The text is judged here; the engine's
 * decoder (its default, loose last chunk: the same tolerance) only decodes what was accepted.
 */
export function decodeBase64(text: string): Uint8Array | null {
  if (text.length % 4 !== 0 || !BASE64.test(text)) return null;
  return engineFromBase64 !== undefined
    ? engineFromBase64.call(Uint8Array, text)
    : decodeBase64Portable(text);
}

/**
 * The decoding of text {@link decodeBase64} has accepted, in plain code: used where the engine
 * has no `fromBase64`, and the model the tests hold the engine's to. Expects valid input.
 */
export function decodeBase64Portable(text: string): Uint8Array {
  const padding = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
  const out = new Uint8Array((text.length / 4) * 3 - padding);
  const value = (at: number) => Math.max(BASE64_VALUE[text.charCodeAt(at)] ?? 0, 0);
  let o = 0;
  for (let i = 0; i < text.length; i += 4) {
    const bits = (value(i) << 18) | (value(i + 1) << 12) | (value(i + 2) << 6) | value(i + 3);
    if (o < out.length) out[o++] = (bits >> 16) & 0xff;
    if (o < out.length) out[o++] = (bits >> 8) & 0xff;
    if (o < out.length) out[o++] = bits & 0xff;
  }
  return out;
}

/** RFC 4648 §4 base64 with padding, in plain code so that the domain needs no runtime API. */
export function encodeBase64(bytes: Uint8Array): string {
  let out = "";
  let at = 0;
  for (; at + 2 < bytes.length; at += 3) {
    const n = (bytes[at]! << 16) | (bytes[at + 1]! << 8) | bytes[at + 2]!;
    out +=
      BASE64_ALPHABET[n >>> 18]! +
      BASE64_ALPHABET[(n >>> 12) & 63]! +
      BASE64_ALPHABET[(n >>> 6) & 63]! +
      BASE64_ALPHABET[n & 63]!;
  }
  const rest = bytes.length - at;
  if (rest === 1) {
    const n = bytes[at]! << 16;
    out += `${BASE64_ALPHABET[n >>> 18]!}${BASE64_ALPHABET[(n >>> 12) & 63]!}==`;
  } else if (rest === 2) {
    const n = (bytes[at]! << 16) | (bytes[at + 1]! << 8);
    out += `${BASE64_ALPHABET[n >>> 18]!}${BASE64_ALPHABET[(n >>> 12) & 63]!}${BASE64_ALPHABET[(n >>> 6) & 63]!}=`;
  }
  return out;
}

/** Characters of base64 per line of a written block (RFC 7468 §2: exactly 64, the last line shorter). */
export const PEM_LINE_LENGTH = 64;

const PEM_HEADER = `-----BEGIN ${CERTIFICATE_LABEL}-----\n`;
const PEM_FOOTER = `-----END ${CERTIFICATE_LABEL}-----\n`;
const BASE64_CODES = Uint8Array.from(BASE64_ALPHABET, (char) => char.charCodeAt(0));
const EQUALS = 0x3d;
const NEWLINE = 0x0a;
const latin1Text = new TextDecoder("latin1");

/**
 * One CERTIFICATE block written from its DER (RFC 7468's strict form, as `openssl x509` writes
 * it): 64-character base64 lines, `\n` line ends, a final `\n`. The base64 body is written into one
 * byte buffer and read as text once (the chain answer writes up to 16 of these per request).
 */
export function pemBlock(der: Uint8Array): string {
  if (der.length === 0) return `${PEM_HEADER}\n${PEM_FOOTER}`;
  const encoded = Math.ceil(der.length / 3) * 4;
  const lineCount = Math.ceil(encoded / PEM_LINE_LENGTH);
  const out = new Uint8Array(encoded + lineCount);
  let o = 0;
  let column = 0;
  const put = (code: number) => {
    out[o++] = code;
    if (++column === PEM_LINE_LENGTH) {
      out[o++] = NEWLINE;
      column = 0;
    }
  };
  let at = 0;
  for (; at + 2 < der.length; at += 3) {
    const n = (der[at]! << 16) | (der[at + 1]! << 8) | der[at + 2]!;
    put(BASE64_CODES[n >>> 18]!);
    put(BASE64_CODES[(n >>> 12) & 63]!);
    put(BASE64_CODES[(n >>> 6) & 63]!);
    put(BASE64_CODES[n & 63]!);
  }
  const rest = der.length - at;
  if (rest > 0) {
    const n = (der[at]! << 16) | (rest === 2 ? der[at + 1]! << 8 : 0);
    put(BASE64_CODES[n >>> 18]!);
    put(BASE64_CODES[(n >>> 12) & 63]!);
    put(rest === 2 ? BASE64_CODES[(n >>> 6) & 63]! : EQUALS);
    put(EQUALS);
  }
  if (column !== 0) out[o++] = NEWLINE;
  return PEM_HEADER + latin1Text.decode(out.subarray(0, o)) + PEM_FOOTER;
}
