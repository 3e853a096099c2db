/**
 * Private key material recognised by what it is, not by how it is wrapped (CONTRACT §7.6, §8.2):
 * the one recogniser of every input that may send text off the user's machine (`nettools cert`,
 * `chain` and `csr` with `--server`, the page's certificate and key panels). A key is found
 *
 * - in a complete PEM block whose label holds `PRIVATE KEY` (any label: `OPENSSH PRIVATE KEY` too);
 * - by its base64 body alone, whatever surrounds it (a BEGIN line with four dashes, a missing or
 *   cut BEGIN or END line, a body pasted bare, a key relabelled `CERTIFICATE`): the first bytes of
 *   the decoded body are a PKCS#8 `PrivateKeyInfo`/`OneAsymmetricKey` (RFC 5208, RFC 5958), an
 *   encrypted PKCS#8 (RFC 5958 §3, a PKCS#5 or PKCS#12 scheme), a PKCS#1 `RSAPrivateKey`
 *   (RFC 8017 §A.1.2, and openssl's DSA key of the same shape), a SEC1 `ECPrivateKey` (RFC 5915)
 *   or an OpenSSH key (`openssh-key-v1\0`). Only the start is read, so a body cut short is found
 *   too;
 * - by the headers of a legacy encrypted PEM (`Proc-Type: 4,ENCRYPTED`, `DEK-Info:`), whose body
 *   is ciphertext and has no shape to recognise.
 *
 * Each key found is a span of the text: the body with the armour lines around it (a damaged BEGIN
 * or END line, the headers), widened to the whole PEM block it sits in. Callers blank the span
 * (line breaks kept, so every later line number stays the user's) and say where it was, never
 * what it held.
 *
 * No Bun, Node or DOM API here: the CLI and the page (bundled by src/web/build-app.ts) import it.
 */

import { PRIVATE_KEY_MESSAGE } from "../domain/certificates/pem.ts";
import { isUniversal, readTlv, sequence, TAG } from "../domain/der.ts";
import type { Issue } from "../domain/errors.ts";

/** What a key found in a text was recognised as. */
export type KeyKind =
  | "PEM private key block"
  | "PKCS#8"
  | "encrypted PKCS#8"
  | "PKCS#1"
  | "SEC1"
  | "OpenSSH"
  | "legacy encrypted PEM";

/** One private key in a text: the span to set aside, and where it starts for the user. */
export interface KeyMaterial {
  kind: KeyKind;
  /** UTF-16 offsets of the span, `end` exclusive. */
  start: number;
  end: number;
  /** 1-based line of the span's first line. */
  line: number;
  /**
   * Its position among the text's blocks (1-based): complete PEM blocks and keys found, counted
   * together in text order, so an intact key keeps the number it always had.
   */
  block: number;
}

/** Base64 characters read from a candidate start to recognise it (96 bytes: any key's prefix). */
const PREFIX_CHARACTERS = 128;
const OPENSSH_MAGIC = "openssh-key-v1\0";
/** Its base64, without the last character (which the next byte shares). */
const OPENSSH_MAGIC_BASE64 = "b3BlbnNzaC1rZXktdjE";
/** DER of the OID arcs of PKCS#5 (1.2.840.113549.1.5) and PKCS#12 PBE (1.2.840.113549.1.12.1). */
const PKCS5_ARC = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x05] as const;
const PKCS12_PBE_ARC = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x0c, 0x01] as const;

const COMPLETE_BLOCK = /-----BEGIN ([^-\r\n]{1,64})-----[\s\S]*?-----END \1-----/g;
const LEGACY_HEADER = /^[ \t]*(Proc-Type:[ \t]*4,ENCRYPTED|DEK-Info:)/im;

const BASE64_VALUES = new Int16Array(128).fill(-1);
for (const [index, char] of [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"].entries())
  BASE64_VALUES[char.charCodeAt(0)] = index;

function isBase64Char(code: number): boolean {
  return code < 128 && BASE64_VALUES[code]! >= 0;
}
function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d || code === 0x0c;
}

/**
 * The kind of private key whose DER starts with `der` (the whole key or only its first bytes), or
 * null. Reads headers only; lengths may point past the end of a cut-short body.
 */
export function derKeyKindOfPrefix(der: Uint8Array): KeyKind | null {
  if (startsWithText(der, OPENSSH_MAGIC)) return "OpenSSH";
  if (der[0] !== 0x30) return null;
  const first = headerEnd(der, 0);
  if (first === null) return null;
  const tag = der[first];
  if (tag === 0x02 && der[first + 1] === 0x01) {
    const version = der[first + 2];
    const next = der[first + 3];
    if (version === 0 && next === 0x30) return "PKCS#8";
    if (version === 1 && next === 0x30) return "PKCS#8"; // OneAsymmetricKey v2 (RFC 5958)
    if ((version === 0 || version === 1) && next === 0x02) return "PKCS#1";
    if (version === 1 && next === 0x04) return "SEC1";
    return null;
  }
  if (tag === 0x30) {
    const inner = headerEnd(der, first);
    if (inner === null || der[inner] !== 0x06) return null;
    const oid = der.subarray(inner + 2, inner + 2 + (der[inner + 1] ?? 0));
    return startsWith(oid, PKCS5_ARC) || startsWith(oid, PKCS12_PBE_ARC) ? "encrypted PKCS#8" : null;
  }
  return null;
}

/**
 * True when whole DER bytes are a private key rather than a certificate, a request or PKCS#7: a
 * SEQUENCE whose first element is an INTEGER (PKCS#8, PKCS#1, SEC1 all start with a version), or
 * that holds exactly an AlgorithmIdentifier and an OCTET STRING (encrypted PKCS#8), or whose first
 * bytes have a key's shape. Such a file is refused without being read further, converted or sent.
 */
export function looksLikeDerKey(bytes: Uint8Array): boolean {
  if (derKeyKindOfPrefix(bytes) !== null) return true;
  const top = readTlv(bytes, 0, bytes.length);
  const parts = top === null ? null : sequence(bytes, top);
  if (parts === null || parts.length === 0) return false;
  if (isUniversal(parts[0], TAG.INTEGER, false)) return true;
  return (
    parts.length === 2 &&
    isUniversal(parts[0], TAG.SEQUENCE, true) &&
    isUniversal(parts[1], TAG.OCTET_STRING, false)
  );
}

/** Every private key in `text`, in text order, spans not overlapping. */
export function findKeyMaterial(text: string): KeyMaterial[] {
  const blocks = [...text.matchAll(COMPLETE_BLOCK)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
    isKey: /PRIVATE KEY/i.test(match[1]!),
  }));
  const spans: { kind: KeyKind; start: number; end: number }[] = [];
  for (const block of blocks) if (block.isKey) spans.push({ kind: "PEM private key block", ...block });
  for (const found of bodiesByContent(text)) {
    let { start, end } = widenToArmour(text, found.start, found.end);
    for (const block of blocks) {
      if (block.start < end && start < block.end) {
        start = Math.min(start, block.start);
        end = Math.max(end, block.end);
      }
    }
    spans.push({ kind: found.kind, start, end });
  }
  const merged = mergeSpans(spans);
  // Block numbers: complete blocks and keys in text order, a key covering blocks counted once.
  const keys: KeyMaterial[] = [];
  let ordinal = 0;
  let blockAt = 0;
  for (const span of merged) {
    while (blockAt < blocks.length && blocks[blockAt]!.end <= span.start) {
      ordinal++;
      blockAt++;
    }
    ordinal++;
    while (blockAt < blocks.length && blocks[blockAt]!.start < span.end) blockAt++;
    keys.push({ ...span, line: lineAt(text, span.start), block: ordinal });
  }
  return keys;
}

/**
 * `text` with the spans of `keys` blanked: every character but line breaks becomes a space
 * (`"spaces"`: columns stay too), or is dropped (`"lines"`: only the line breaks stay).
 */
export function blankKeyMaterial(
  text: string,
  keys: readonly KeyMaterial[],
  keep: "spaces" | "lines" = "spaces",
): string {
  let out = "";
  let done = 0;
  for (const key of keys) {
    const span = text.slice(key.start, key.end);
    out += text.slice(done, key.start) + span.replace(/[^\r\n]/g, keep === "spaces" ? " " : "");
    done = key.end;
  }
  return out + text.slice(done);
}

/**
 * The API's words for each key in `text` (CONTRACT §4.1: "private key material is not accepted",
 * located at the key's span, at `path`): for inputs that refuse a key rather than set it aside.
 */
export function keyMaterialIssues(text: string, path: (string | number)[] = ["pem"]): Issue[] {
  return findKeyMaterial(text).map((key) => ({
    message: PRIVATE_KEY_MESSAGE,
    path,
    location: { line: key.line, offset: key.start, end: key.end },
  }));
}

/** Text with its private keys blanked out, and a notice per key set aside. */
export interface KeysSetAside {
  pem: string;
  /** One sentence per key: its block number and line, never its text. */
  notices: string[];
}

/**
 * The page's words for keys in pasted text: every key {@link findKeyMaterial} finds is blanked
 * before anything is sent, and a notice names its position (block number and first line).
 */
export function setAsidePrivateKeys(text: string): KeysSetAside {
  const keys = findKeyMaterial(text);
  return {
    pem: blankKeyMaterial(text, keys),
    notices: keys.map(
      (key) =>
        `A private key (block ${key.block}, line ${key.line}) was set aside: it is not sent and not shown.`,
    ),
  };
}

/** Bodies whose content is a key, and legacy encrypted PEM bodies: spans of the base64 itself. */
function bodiesByContent(text: string): { kind: KeyKind; start: number; end: number }[] {
  const found: { kind: KeyKind; start: number; end: number }[] = [];
  let at = 0;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    const boundary = at === 0 || !isBase64Char(text.charCodeAt(at - 1));
    if (!boundary || !isBase64Char(code) || (code !== 0x4d /* M */ && code !== 0x62) /* b */) {
      at++;
      continue;
    }
    // Cheap first: eight characters say whether a DER value could start here (or the OpenSSH magic).
    const openssh = code === 0x62 && text.startsWith(OPENSSH_MAGIC_BASE64, at);
    const prefix = openssh || mayStartKey(base64Prefix(text, at, 8)) ? base64Prefix(text, at) : null;
    const kind = prefix === null ? null : derKeyKindOfPrefix(prefix);
    if (prefix === null || kind === null) {
      at++;
      continue;
    }
    const end = base64RunEnd(text, at, kind === "OpenSSH" ? null : derCharacters(prefix));
    found.push({ kind, start: at, end });
    at = end;
  }
  for (const legacy of legacyBodies(text)) found.push(legacy);
  return found.sort((a, b) => a.start - b.start);
}

/**
 * True when six decoded bytes can begin a key: a SEQUENCE with a sane length header whose first
 * element is an INTEGER or a SEQUENCE.
 */
function mayStartKey(bytes: Uint8Array): boolean {
  if (bytes.length < 6 || bytes[0] !== 0x30) return false;
  const first = headerEnd(bytes, 0);
  return first !== null && (bytes[first] === 0x02 || bytes[first] === 0x30);
}

/** The first bytes decoded from the base64 at `start` (white space skipped, up to `characters` characters). */
function base64Prefix(text: string, start: number, characters = PREFIX_CHARACTERS): Uint8Array {
  const values: number[] = [];
  for (let at = start; at < text.length && values.length < characters; at++) {
    const code = text.charCodeAt(at);
    if (isBase64Char(code)) values.push(BASE64_VALUES[code]!);
    else if (!isSpace(code)) break;
  }
  const usable = values.length - (values.length % 4);
  const prefix = new Uint8Array((usable / 4) * 3);
  for (let i = 0, o = 0; i < usable; i += 4) {
    const bits = (values[i]! << 18) | (values[i + 1]! << 12) | (values[i + 2]! << 6) | values[i + 3]!;
    prefix[o++] = bits >> 16;
    prefix[o++] = (bits >> 8) & 0xff;
    prefix[o++] = bits & 0xff;
  }
  return prefix;
}

/** Base64 characters of the whole DER value whose first bytes are `prefix`, or null when unknown. */
function derCharacters(prefix: Uint8Array): number | null {
  const first = prefix[1];
  if (first === undefined) return null;
  let length: number;
  let header: number;
  if (first < 0x80) {
    length = first;
    header = 2;
  } else {
    const count = first & 0x7f;
    if (count === 0 || count > 3 || prefix.length < 2 + count) return null;
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + prefix[2 + i]!;
    header = 2 + count;
  }
  return Math.ceil((header + length) / 3) * 4;
}

/**
 * Where the base64 run from `start` ends: at the first character that is neither base64, `=` nor
 * white space, or after `characters` base64 characters (the whole DER value) and their padding.
 */
function base64RunEnd(text: string, start: number, characters: number | null): number {
  let end = start;
  let count = 0;
  for (let at = start; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x3d /* = */) {
      end = at + 1;
      count++;
    } else if (isBase64Char(code)) {
      if (characters !== null && count >= characters) break;
      end = at + 1;
      count++;
    } else if (!isSpace(code)) break;
  }
  return end;
}

/** Legacy encrypted PEM: from the `Proc-Type`/`DEK-Info` headers to the end of the body after them. */
function legacyBodies(text: string): { kind: KeyKind; start: number; end: number }[] {
  const found: { kind: KeyKind; start: number; end: number }[] = [];
  const headers = new RegExp(LEGACY_HEADER.source, "gim");
  let searchFrom = 0;
  for (;;) {
    headers.lastIndex = searchFrom;
    const match = headers.exec(text);
    if (match === null) break;
    let at = text.indexOf("\n", match.index);
    if (at < 0) at = text.length;
    // Further header lines and the blank line after them.
    while (at < text.length && LEGACY_HEADER.test(lineFrom(text, at + 1))) {
      const next = text.indexOf("\n", at + 1);
      at = next < 0 ? text.length : next;
    }
    let bodyStart = at;
    while (bodyStart < text.length && isSpace(text.charCodeAt(bodyStart))) bodyStart++;
    const end = bodyStart < text.length ? base64RunEnd(text, bodyStart, null) : at;
    found.push({ kind: "legacy encrypted PEM", start: match.index, end: Math.max(end, at) });
    searchFrom = Math.max(end, at, match.index + 1);
  }
  return found;
}

function lineFrom(text: string, at: number): string {
  const end = text.indexOf("\n", at);
  return text.slice(at, end < 0 ? text.length : end);
}

/** A damaged BEGIN line above a body (never another block's END line). */
const ARMOUR_ABOVE = /^[\s-]*(BEGIN\b.*|.*PRIVATE KEY.*|-{2,}[\s-]*)$/i;
/** A damaged END line below a body (never another block's BEGIN line). */
const ARMOUR_BELOW = /^[\s-]*(END\b.*|.*PRIVATE KEY.*|-{2,}[\s-]*)$/i;

/**
 * The span of a body widened to the armour around it: the rest of its first and last lines when
 * they hold only armour, the line above when it is a (damaged) BEGIN line, the line below when it
 * is a (damaged) END line.
 */
function widenToArmour(text: string, bodyStart: number, bodyEnd: number): { start: number; end: number } {
  let start = bodyStart;
  const lineStart = text.lastIndexOf("\n", bodyStart - 1) + 1;
  const before = text.slice(lineStart, bodyStart);
  if (before.trim() === "" || ARMOUR_ABOVE.test(before.trimEnd()) || LEGACY_HEADER.test(before)) {
    start = lineStart;
    if (before.trim() === "" && lineStart > 0) {
      const aboveStart = text.lastIndexOf("\n", lineStart - 2) + 1;
      const above = text.slice(aboveStart, lineStart - 1).replace(/\r$/, "");
      if (above.trim() !== "" && ARMOUR_ABOVE.test(above) && !/\bEND\b/.test(above)) start = aboveStart;
    }
  }
  let end = bodyEnd;
  const newline = text.indexOf("\n", bodyEnd);
  const lineEnd = newline < 0 ? text.length : newline;
  const after = text.slice(bodyEnd, lineEnd).replace(/\r$/, "");
  if (after.trim() === "" || (ARMOUR_BELOW.test(after) && !/\bBEGIN\b/.test(after))) {
    end = bodyEnd + after.length;
    if (after.trim() === "" && newline >= 0) {
      const belowEnd = text.indexOf("\n", newline + 1);
      const below = text.slice(newline + 1, belowEnd < 0 ? text.length : belowEnd).replace(/\r$/, "");
      if (below.trim() !== "" && ARMOUR_BELOW.test(below) && !/\bBEGIN\b/.test(below))
        end = newline + 1 + below.length;
    }
  }
  return { start, end };
}

function mergeSpans<T extends { start: number; end: number }>(spans: T[]): T[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const out: T[] = [];
  for (const span of sorted) {
    const last = out.at(-1);
    if (last !== undefined && span.start < last.end) last.end = Math.max(last.end, span.end);
    else out.push({ ...span });
  }
  return out;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x0a) line++;
    else if (code === 0x0d && text.charCodeAt(i + 1) !== 0x0a) line++;
  }
  return line;
}

/** DER header end (tag and length) of the element at `at`, or null when the bytes stop inside it. */
function headerEnd(der: Uint8Array, at: number): number | null {
  const first = der[at + 1];
  if (first === undefined) return null;
  if (first < 0x80) return at + 2;
  const count = first & 0x7f;
  if (count === 0 || count > 4 || at + 2 + count > der.length) return null;
  return at + 2 + count;
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte);
}

function startsWithText(bytes: Uint8Array, prefix: string): boolean {
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix.charCodeAt(i)) return false;
  return true;
}
