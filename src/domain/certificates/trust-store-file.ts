/**
 * Trust-store files as people have them (CONTRACT §9.6): curl's and certifi's `cacert.pem` with
 * their `#` headers and titles, Debian's `ca-certificates.crt`, `openssl x509 -text` output,
 * `openssl x509 -trustout` files. They are read the way OpenSSL reads a CAfile
 * (`PEM_X509_INFO_read_bio`): text outside BEGIN/END blocks is ignored; `CERTIFICATE`,
 * `X509 CERTIFICATE` and `TRUSTED CERTIFICATE` blocks are certificates (a trusted certificate's
 * DER is the certificate followed by OpenSSL's trust settings, which are dropped); blocks of any
 * other label are skipped, and the caller says so once. A `PRIVATE KEY` block is the exception:
 * it stays an error, as in `pem` (a key has no business in a trust store, and the text is refused
 * before anything else reads it).
 *
 * The reading is a mask over the text: ignored lines become spaces of the same length and the
 * label of a certificate block is written as `CERTIFICATE` padded with spaces, so the strict
 * scanner (`scanPem`) then reads the masked text with every offset, line and location unchanged,
 * and every problem inside a block it reads is still reported where it is. `pem` never goes
 * through this: it stays strict (§4.1).
 */
import { decodeBase64 } from "./pem.ts";

/** Labels OpenSSL reads as a certificate from a CAfile. */
const CERTIFICATE_LABELS = new Set(["CERTIFICATE", "X509 CERTIFICATE", "TRUSTED CERTIFICATE"]);
const BEGIN_LINE = /^\s*-----BEGIN ([^-]+(?:-[^-]+)*)-----\s*$/;
const END_LINE = /-----END [^\n]*-----\s*$/;

/** A trust-store text prepared for the strict scanner. */
export interface TrustStoreText {
  /** The text with everything OpenSSL ignores turned into spaces: same length, same line breaks. */
  masked: string;
  /** Offsets (of the `-` of `-----BEGIN`) of the `TRUSTED CERTIFICATE` blocks: their DER carries trust settings. */
  trustedAt: ReadonlySet<number>;
  /** The labels of the skipped blocks, each once, in text order. */
  skippedLabels: string[];
}

/** Masks a trust-store file's text for `scanPem` (see the module comment). */
export function readTrustStoreText(text: string): TrustStoreText {
  const out: string[] = [];
  const trustedAt = new Set<number>();
  const skipped: string[] = [];
  let offset = 0;
  /** Inside a block: whether it is kept, until its END line. */
  let inside: "keep" | "skip" | null = null;
  for (const [line, terminator] of linesOf(text)) {
    let kept = line;
    if (inside === null) {
      const begin = BEGIN_LINE.exec(line);
      const label = begin?.[1];
      if (label === undefined) {
        // A malformed or joined boundary stays for the strict scanner to name; other text is ignored.
        kept = line.includes("-----BEGIN") ? line : blank(line);
      } else if (CERTIFICATE_LABELS.has(label)) {
        const at = line.indexOf("-----BEGIN");
        if (label === "TRUSTED CERTIFICATE") trustedAt.add(offset + at);
        kept = `${line.slice(0, at)}-----BEGIN CERTIFICATE-----`.padEnd(line.length, " ");
        inside = "keep";
      } else if (/PRIVATE KEY/i.test(label)) {
        inside = "keep";
      } else {
        if (!skipped.includes(label)) skipped.push(label);
        kept = blank(line);
        inside = "skip";
      }
    } else {
      const ends = END_LINE.test(line);
      if (inside === "skip") kept = blank(line);
      else if (ends && /^\s*-----END (X509 |TRUSTED )?CERTIFICATE-----\s*$/.test(line)) {
        const at = line.indexOf("-----END");
        kept = `${line.slice(0, at)}-----END CERTIFICATE-----`.padEnd(line.length, " ");
      }
      if (ends) inside = null;
    }
    out.push(kept, terminator);
    offset += line.length + terminator.length;
  }
  return { masked: out.join(""), trustedAt, skippedLabels: skipped };
}

/**
 * The certificate's DER out of a block's DER: all of it for a plain certificate, the first DER
 * element for a `TRUSTED CERTIFICATE` (OpenSSL's `d2i_X509_AUX`: certificate, then trust settings).
 */
export function certificateDer(der: Uint8Array, trusted: boolean): Uint8Array {
  if (!trusted) return der;
  const length = firstElementLength(der);
  return length === null || length >= der.length ? der : der.subarray(0, length);
}

/**
 * Every certificate's DER in a trust-store text, with no limit on their number: the blocks that
 * read (a block whose base64 does not read is left out, as OpenSSL stops short of it) and the
 * labels skipped. For files the service itself loads (REFERENCE_ROOTS_FILE, --reference-roots).
 */
export function trustStoreCertificates(text: string): { ders: Uint8Array[]; skippedLabels: string[] } {
  const { masked, trustedAt, skippedLabels } = readTrustStoreText(text);
  const ders: Uint8Array[] = [];
  const block = /-----BEGIN CERTIFICATE-----[ \t]*\r?\n([\s\S]*?)-----END CERTIFICATE-----/g;
  for (const match of masked.matchAll(block)) {
    const der = decodeBase64(match[1]!.replace(/\s+/g, ""));
    if (der !== null && der.length > 0) ders.push(certificateDer(der, trustedAt.has(match.index)));
  }
  return { ders, skippedLabels };
}

/** The one notice for skipped blocks: `skipped 2 blocks that are not certificates (X509 CRL, PUBLIC KEY)`. */
export function skippedNotice(labels: readonly string[]): string | null {
  if (labels.length === 0) return null;
  return `blocks that are not certificates were skipped (${labels.join(", ")}), as openssl skips them in a CA file`;
}

function blank(line: string): string {
  return " ".repeat(line.length);
}

/** [line, its terminator] pairs: LF, CRLF or a lone CR, as `scanPem` splits lines. */
function* linesOf(text: string): Generator<[string, string]> {
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit !== 0x0a && unit !== 0x0d) continue;
    const crlf = unit === 0x0d && text.charCodeAt(i + 1) === 0x0a;
    yield [text.slice(start, i), crlf ? "\r\n" : text[i]!];
    if (crlf) i++;
    start = i + 1;
  }
  yield [text.slice(start), ""];
}

/** The length of the DER element at the start of `der` (header and body), or null when it does not read. */
function firstElementLength(der: Uint8Array): number | null {
  if (der.length < 2) return null;
  const first = der[1]!;
  if (first < 0x80) return 2 + first;
  const count = first & 0x7f;
  if (count === 0 || count > 4 || der.length < 2 + count) return null;
  let length = 0;
  for (let k = 0; k < count; k++) length = length * 256 + der[2 + k]!;
  return 2 + count + length;
}
