/**
 * Certificate text and files as people have them (CONTRACT §7.6), read on the page with the
 * CLI's own reader: the certificate form and the key-match panel share these.
 */
import { pemBlock } from "../domain/certificates/pem.ts";
import { BinaryInputError, CertificateBundleText } from "../local/certificate-files.ts";
import { looksLikePkcs12, readPkcs12 } from "../local/pkcs12.ts";
import { h, show } from "./dom.ts";

/** Most bytes read from the files of one pick: far above any bundle the API takes (48 KiB of PEM). */
export const MAX_FILE_BYTES = 1 << 20;

/**
 * Certificate files as people have them, read here with the CLI's own reader (CONTRACT §7.6):
 * PEM, DER (`.cer`, `.der`, `.crt`), DER or PEM PKCS#7 (`.p7b`, `.p7c`), several files as one
 * bundle in order, a byte-order mark ignored; a private key block is set aside before the text
 * reaches the editor, so it is never shown or sent. Returns the PEM text and the notices, or a
 * one-line refusal (binary data names its offset and at most 16 bytes in hex). A PKCS#12 file
 * (`.p12`, `.pfx`; CONTRACT §10.3) is read here with `password` (the empty one when none is
 * given): its certificates join the bundle in file order; its key is never read, and the password
 * never leaves this function.
 */
export async function readCertificateFiles(
  files: ArrayLike<File> & Iterable<File>,
  password?: string,
): Promise<CertificateBundleText | string> {
  let size = 0;
  for (const file of files) size += file.size;
  if (size > MAX_FILE_BYTES)
    return `${size} bytes chosen: more than a certificate bundle holds (1 MiB read at most).`;
  const bundle = new CertificateBundleText();
  try {
    for (const file of files) {
      const bytes = new Uint8Array(await file.arrayBuffer());
      if (!looksLikePkcs12(bytes)) {
        bundle.addFile(bytes, file.name);
        continue;
      }
      const read = await readPkcs12(bytes, password === "" ? undefined : password, false);
      if (!read.ok) return pkcs12Refusal(file.name, read.kind, read.message);
      bundle.addText(read.certificates.map(pemBlock).join(""), `${file.name} (PKCS#12)`);
      bundle.notices.push(
        `${file.name}: a PKCS#12 file: ${read.certificates.length} certificate(s) read in this browser; its private key was not read`,
      );
    }
  } catch (error) {
    if (error instanceof BinaryInputError) return error.message;
    throw error;
  }
  return bundle;
}

/** Why a PKCS#12 file could not be read, in the page's words. */
function pkcs12Refusal(name: string, kind: string, message: string): string {
  if (kind === "legacy") {
    return `${name}: ${message}; convert its certificates first: openssl pkcs12 -legacy -in ${name} -nokeys -out certificates.pem`;
  }
  if (kind === "password")
    return `${name}: ${message}: enter the file's password in the PKCS#12 password field`;
  return `${name}: ${message}`;
}

/**
 * PEM PKCS#7 blocks pasted in a box become their certificates in the box itself (so that issue
 * locations point at what the user sees), as the CLI reads them; returns the notices.
 */
export function convertPastedPkcs7(box: HTMLTextAreaElement): string[] {
  if (!/-----BEGIN (PKCS7|CMS)-----/.test(box.value)) return [];
  const bundle = new CertificateBundleText();
  bundle.addText(box.value, "the pasted text");
  box.value = bundle.pem;
  return bundle.notices;
}

/**
 * Reads chosen or dropped files into `target` as PEM, with one notice a line in `notes` (what was
 * converted, what was set aside), or the refusal there, leaving `target` as it was.
 */
export async function loadCertificateFiles(
  files: FileList | null | undefined,
  target: HTMLTextAreaElement,
  notes: HTMLElement,
  password?: () => string,
): Promise<void> {
  if (!files?.length) return;
  const read = await readCertificateFiles(files, password?.());
  if (typeof read === "string") {
    show(notes, h("p", { class: "problem", role: "alert" }, read));
    return;
  }
  target.value = read.pem;
  show(notes, ...read.notices.map((notice) => h("p", { class: "notice", role: "status" }, notice)));
  target.focus();
}
