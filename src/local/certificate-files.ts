/**
 * Files people have, read by the CLI before a certificate operation (CONTRACT §7.6, issue 17):
 * the file never leaves the machine, so the CLI accepts more than the API's PEM text, and reads
 * it the same way from a FILE argument and from stdin (by content, never by name).
 *
 * - A DER certificate, or several one after another, is read directly.
 * - A PKCS#7 / CMS SignedData (`.p7b`, `.p7c`), DER or PEM (`PKCS7`, `CMS` labels), gives its
 *   certificates, in the order it stores them.
 * - A private key in a PEM file (HAProxy's leaf+key `crt` file) is set aside: the block is blanked
 *   (its lines kept, so later line numbers stay the file's) before anything is sent or inspected,
 *   and a notice names its position (block and line), never its text.
 * - A UTF-8 byte-order mark at the start is ignored.
 * - Other binary data is refused here, naming the offset and at most 16 bytes in hex: binary
 *   bytes never reach the terminal.
 * Anything else is passed on as text, so the API's PEM rules report it exactly.
 *
 * Several files make one bundle ({@link CertificateBundleText}), in the order given (Apache's
 * `cert.pem chain.pem`); a line of the bundle maps back to its file and line, for messages.
 *
 * No Bun or Node API here (bytes in, text out): the web page's file picker reads files with this
 * same module, so the page and the CLI accept exactly the same files.
 */

import { pemBlock } from "../domain/certificates/chain.ts";
import { decodeBase64 } from "../domain/certificates/pem.ts";
import { children, isContext, isUniversal, readOid, readTlv, sequence, TAG } from "../domain/der.ts";
import { blankKeyMaterial, findKeyMaterial, looksLikeDerKey } from "./key-material.ts";

export { looksLikeDerKey };

/** PKCS#7 signedData (RFC 2315 §9.1, RFC 5652 §5.1). */
const OID_SIGNED_DATA = "1.2.840.113549.1.7.2";
const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;
/** Most bytes an error about binary input shows, in hex. */
export const MAX_BINARY_BYTES_SHOWN = 16;

/** Binary input that is no certificate encoding: where it starts, never the bytes as text. */
export class BinaryInputError extends Error {
  constructor(
    readonly source: string,
    readonly offset: number,
    readonly hex: string,
  ) {
    super(
      `${source}: binary data, not a certificate (PEM, DER or PKCS#7): byte ${offset} onwards reads ${hex}`,
    );
    this.name = "BinaryInputError";
  }
}

/** A run of lines of the bundle text and where they came from. */
interface Piece {
  /** Line of the bundle text where the piece starts (1-based). */
  firstLine: number;
  lineCount: number;
  /** The file as named on the command line (`stdin` for `-`). */
  source: string;
  /** Line of the file the piece starts at, when the piece is the file's own text; else null. */
  sourceLine: number | null;
  /** What the piece was made from, when converted: `a DER certificate`, `a PKCS#7 bundle`. */
  madeFrom: string | null;
}

/** Where a line of the bundle text came from. */
export interface LineOrigin {
  source: string;
  /** The file's own line, or null for text made from DER or PKCS#7. */
  line: number | null;
  madeFrom: string | null;
}

/** The PEM text of one or several certificate files, read as one bundle in order. */
export class CertificateBundleText {
  private text = "";
  private lines = 0;
  private readonly pieces: Piece[] = [];
  /** One line each: what was recognised or set aside (positions only, never key text). */
  readonly notices: string[] = [];

  /** The bundle as PEM text, each file starting on a line of its own. */
  get pem(): string {
    return this.text;
  }

  /**
   * Adds one file's bytes (`source` names it in messages).
   * @throws BinaryInputError for binary data that is no DER certificate or PKCS#7.
   */
  addFile(bytes: Uint8Array, source: string): void {
    const start = startsWithBom(bytes) ? UTF8_BOM.length : 0;
    // A DER private key is set aside like a PEM one: never read as a certificate, sent or shown.
    if (looksLikeDerKey(bytes.subarray(start))) {
      this.notices.push(`${source}: a private key (DER) was set aside: it is not read, sent or shown`);
      return;
    }
    const der = derCertificates(bytes, start);
    if (der !== null) {
      this.notices.push(`${source}: ${der.description}`);
      this.addPiece(der.certificates.map(pemBlock).join(""), source, null, der.madeFrom);
      return;
    }
    const offset = binaryOffset(bytes, start);
    if (offset >= 0) {
      const shown = bytes.subarray(offset, offset + MAX_BINARY_BYTES_SHOWN);
      throw new BinaryInputError(source, offset, hexBytes(shown));
    }
    this.addText(new TextDecoder().decode(bytes.subarray(start)), source);
  }

  /** Adds PEM text: PKCS#7 blocks become their certificates, private keys are blanked. */
  addText(text: string, source: string): void {
    const raw = text.startsWith("\uFEFF") ? text.slice(1) : text;
    // Keys are found by content (a damaged armour, a bare body) and blanked before anything else.
    const keys = findKeyMaterial(raw);
    const body = blankKeyMaterial(raw, keys, "lines");
    const notices: { at: number; notice: string }[] = keys.map((key) => ({
      at: key.start,
      notice: `${source}: a private key (block ${key.block}, line ${key.line}) was set aside: it is not read, sent or shown`,
    }));
    let block = 0;
    let done = 0;
    let line = 1;
    for (const match of body.matchAll(BLOCK)) {
      const [whole, label] = match as unknown as [string, string];
      const at = match.index;
      block++;
      const before = body.slice(done, at);
      this.addPiece(before, source, line, null);
      line += lineBreaks(before);
      const blockLine = line;
      line += lineBreaks(whole);
      done = at + whole.length;
      const certificates = label === "PKCS7" || label === "CMS" ? pkcs7OfPem(whole) : null;
      if (certificates === null) {
        this.addPiece(whole, source, blockLine, null);
        continue;
      }
      const number = block + keys.filter((key) => key.start < at).length;
      notices.push({
        at,
        notice: `${source}: a PEM PKCS#7 bundle (block ${number}, line ${blockLine}); its ${countOf(certificates.length)} were read in stored order`,
      });
      // Without its last line break: the rest of the block's END line follows on that line.
      const converted = certificates.map(pemBlock).join("").slice(0, -1);
      this.addPiece(converted, source, null, `the PKCS#7 bundle at line ${blockLine}`);
    }
    this.addPiece(body.slice(done), source, line, null);
    for (const { notice } of notices.sort((a, b) => a.at - b.at)) this.notices.push(notice);
  }

  /** Where line `line` (1-based) of {@link pem} came from; null past its end. */
  origin(line: number): LineOrigin | null {
    for (const piece of this.pieces) {
      if (line < piece.firstLine || line >= piece.firstLine + Math.max(1, piece.lineCount)) continue;
      return {
        source: piece.source,
        line: piece.sourceLine === null ? null : piece.sourceLine + (line - piece.firstLine),
        madeFrom: piece.madeFrom,
      };
    }
    return null;
  }

  /** `chain.pem:12`, or `cert.der (a DER certificate)` for converted text. */
  place(line: number): string | null {
    const origin = this.origin(line);
    if (origin === null) return null;
    if (origin.line !== null) return `${origin.source}:${origin.line}`;
    return `${origin.source} (${origin.madeFrom ?? "converted"})`;
  }

  private addPiece(text: string, source: string, sourceLine: number | null, madeFrom: string | null): void {
    if (text === "") return;
    // A file not ending in a line break must not run into the next file's first line.
    if (this.text !== "" && !this.text.endsWith("\n") && this.isNewFile(source)) this.append("\n");
    const piece: Piece = { firstLine: this.lines + 1, lineCount: 0, source, sourceLine, madeFrom };
    this.pieces.push(piece);
    this.append(text);
    piece.lineCount = this.lines + 1 - piece.firstLine + (text.endsWith("\n") ? 0 : 1);
  }

  private isNewFile(source: string): boolean {
    return this.pieces.at(-1)?.source !== source;
  }

  private append(text: string): void {
    this.text += text;
    this.lines += lineBreaks(text);
  }
}

const BLOCK = /-----BEGIN ([^-\r\n]{1,64})-----[\s\S]*?-----END \1-----/g;

/** Line breaks in `text`: LF, CRLF or a lone CR, as the PEM scanner counts lines (CONTRACT §4.1). */
function lineBreaks(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) count++;
    else if (c === 13) {
      count++;
      if (text.charCodeAt(i + 1) === 10) i++;
    }
  }
  return count;
}

function countOf(count: number): string {
  return count === 1 ? "1 certificate" : `${count} certificates`;
}

function startsWithBom(bytes: Uint8Array): boolean {
  return bytes[0] === UTF8_BOM[0] && bytes[1] === UTF8_BOM[1] && bytes[2] === UTF8_BOM[2];
}

/** `30 82 05 2a …`: bytes as lowercase hex pairs. */
export function hexBytes(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join(" ");
}

/** The certificates of a DER PEM-less file, or null when the bytes are not DER SEQUENCEs. */
function derCertificates(
  bytes: Uint8Array,
  start: number,
): { certificates: Uint8Array[]; description: string; madeFrom: string } | null {
  if (bytes[start] !== 0x30) return null;
  const parts: Uint8Array[] = [];
  let at = start;
  while (at < bytes.length && bytes[at] === 0x30) {
    const tlv = readTlv(bytes, at, bytes.length);
    if (tlv === null) return null;
    parts.push(bytes.subarray(tlv.start, tlv.end));
    at = tlv.end;
  }
  // Only line breaks and spaces may follow (a DER file saved with a trailing newline).
  for (; at < bytes.length; at++) if (![0x0a, 0x0d, 0x20, 0x09].includes(bytes[at]!)) return null;
  const fromPkcs7 = parts.length === 1 ? pkcs7Certificates(parts[0]!) : null;
  if (fromPkcs7 !== null) {
    return {
      certificates: fromPkcs7,
      description: `a DER PKCS#7 bundle; its ${countOf(fromPkcs7.length)} were read in stored order`,
      madeFrom: "a DER PKCS#7 bundle",
    };
  }
  return {
    certificates: parts.map((part) => part.slice()),
    description:
      parts.length === 1
        ? "a DER file, read as one certificate"
        : `a DER file of ${parts.length} certificates, read in order`,
    madeFrom: parts.length === 1 ? "a DER certificate" : "DER certificates",
  };
}

/** The certificates of a PEM `PKCS7`/`CMS` block, or null when its base64 is not one. */
function pkcs7OfPem(block: string): Uint8Array[] | null {
  const body = block.slice(block.indexOf("-----", 5) + 5, block.lastIndexOf("-----END"));
  const der = decodeBase64(body.replace(/\s+/g, ""));
  return der === null ? null : pkcs7Certificates(der);
}

/**
 * The offset of the first byte from `start` that is not text, or -1: a byte that is not part of
 * valid UTF-8 (RFC 3629 §4: no overlong forms, no surrogates, nothing past U+10FFFF), or a control
 * character other than tab, line feed, form feed and carriage return.
 */
export function binaryOffset(bytes: Uint8Array, start = 0): number {
  let i = start;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      if ((b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0c && b !== 0x0d) || b === 0x7f) return i;
      i++;
      continue;
    }
    let count: number;
    let low = 0x80;
    let high = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) count = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      count = 2;
      if (b === 0xe0) low = 0xa0;
      if (b === 0xed) high = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      count = 3;
      if (b === 0xf0) low = 0x90;
      if (b === 0xf4) high = 0x8f;
    } else return i;
    for (let k = 1; k <= count; k++) {
      const next = bytes[i + k];
      if (next === undefined || next < (k === 1 ? low : 0x80) || next > (k === 1 ? high : 0xbf)) return i;
    }
    i += count + 1;
  }
  return -1;
}

/**
 * The certificates of a PKCS#7 SignedData (`ContentInfo { contentType signedData, [0] EXPLICIT
 * SignedData { version, digestAlgorithms, encapContentInfo, [0] IMPLICIT certificates … } }`),
 * DER of each, in stored order; null when the bytes are not one.
 */
export function pkcs7Certificates(der: Uint8Array): Uint8Array[] | null {
  const outer = readTlv(der, 0, der.length);
  if (outer === null || outer.end !== der.length) return null;
  const info = sequence(der, outer);
  if (info === null || info.length < 2 || readOid(der, info[0]) !== OID_SIGNED_DATA) return null;
  const explicit = info[1];
  if (!isContext(explicit, 0, true)) return null;
  const inner = children(der, explicit);
  const signedData = inner?.length === 1 ? sequence(der, inner[0]) : null;
  if (signedData === null) return null;
  const certificates = signedData.find((part) => isContext(part, 0, true));
  if (certificates === undefined) return [];
  const list = children(der, certificates);
  if (list === null) return null;
  const out: Uint8Array[] = [];
  for (const entry of list) {
    if (!isUniversal(entry, TAG.SEQUENCE, true)) continue; // other certificate formats (attribute certificates)
    out.push(der.slice(entry.start, entry.end));
  }
  return out;
}
