/**
 * CRL files as operators have them (CONTRACT §10.2): PEM (`X509 CRL`) or DER, of any size, read on
 * the user's machine by `nettools crl` and `nettools chain --crl`. A CA's full list can be several
 * megabytes: the file is read once, up to {@link MAX_CRL_FILE_BYTES} (the LocalFiles port's
 * `readCapped`), and the strict reader walks it without holding its entries as objects, so memory
 * stays about the file's size.
 */
import { scanPem } from "../domain/certificates/pem.ts";
import { CRL_PEM, NOT_A_CRL_MESSAGE } from "../domain/certificates/revocation.ts";
import type { RevocationListData } from "../domain/certificates/revocation-list-model.ts";
import type { RevocationListDecoder } from "../domain/ports.ts";
import { INPUT_LIMITS } from "./input-limits.ts";

/**
 * The largest CRL file read: the local input cap for CRLs (`INPUT_LIMITS.crl`, 64 MiB, inside the
 * 384 MB budget of CONTRACT §7.3). The largest public CRLs (a few CAs' full lists) are tens of
 * megabytes; anything bigger is refused before it is read, so a wrong file cannot exhaust memory.
 */
export const MAX_CRL_FILE_BYTES = INPUT_LIMITS.crl.maxBytes;

/** Whether `bytes` look like PEM text: whitespace (and a byte-order mark) then `-----BEGIN`. */
function isPemText(bytes: Uint8Array): boolean {
  let at = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (at < bytes.length && (bytes[at] === 0x20 || (bytes[at]! >= 0x09 && bytes[at]! <= 0x0d))) at++;
  const begin = "-----BEGIN";
  for (let k = 0; k < begin.length; k++) if (bytes[at + k] !== begin.charCodeAt(k)) return false;
  return true;
}

/**
 * One CRL from a file's bytes, PEM or DER by content, or one line saying why not (never a byte of
 * the file). `source` names the file in messages.
 */
export function readRevocationListBytes(
  bytes: Uint8Array,
  source: string,
  decoder: RevocationListDecoder,
): { ok: true; list: RevocationListData } | { ok: false; message: string } {
  let der = bytes;
  if (isPemText(bytes)) {
    const text = new TextDecoder().decode(bytes);
    const scan = scanPem(text, { maxBlocks: 1, maxPemLength: Math.max(text.length, bytes.length) }, CRL_PEM);
    const block = scan.blocks[0];
    if (block === undefined || scan.issues.length > 0) {
      const issue = scan.issues[0];
      const where = issue?.location === undefined ? "" : ` (line ${issue.location.line})`;
      return { ok: false, message: `${source}${where}: ${issue?.message ?? CRL_PEM.noBlockMessage}` };
    }
    der = block.der;
  }
  const decoded = decoder.decodeRevocationList(der);
  if (decoded.ok) return decoded;
  return { ok: false, message: `${source}: ${NOT_A_CRL_MESSAGE}: ${decoded.reason}` };
}
