/**
 * How many bytes of each kind of local input `nettools` reads before it stops (CONTRACT §7.3's
 * local budget: no input may take more than 384 MB of memory, issue 30). A cap is checked while a
 * stream is read, chunk by chunk, so an endless input (`/dev/zero`, `yes |`) ends at the cap with
 * one line and exit 2 instead of filling memory. A regular file whose size is over the cap is
 * refused before a byte of it is read.
 *
 * Each cap is far above what a person's input of that kind holds, and low enough that the bytes,
 * their one copy into a single buffer and the text decoded from them stay inside the budget.
 */

/** A kind of input and its cap. `kind` names it in the refusal ("more than 16 MiB of …"). */
export interface InputLimit {
  readonly kind: string;
  readonly maxBytes: number;
}

const MiB = 1024 * 1024;

export const INPUT_LIMITS = {
  /**
   * Certificate files and bundles (PEM, DER, PKCS#7; `--roots` files; `csr -c`, `key-match -c`):
   * the local PEM limit is 4 MiB of text (LOCAL_CERTIFICATE_LIMITS), a DER or PKCS#7 bundle of
   * its 500 certificates is smaller still.
   */
  certificates: { kind: "certificates", maxBytes: 16 * MiB },
  /**
   * CIDR list inputs (files and stdin of merge, cover, diff, expand …): the local limit is a
   * million entries (LOCAL_CIDR_LIMITS), at most about 45 bytes each with a comment.
   */
  list: { kind: "a list", maxBytes: 64 * MiB },
  /** `match -f` pattern files: lists of CIDRs, as large as a list. */
  patterns: { kind: "patterns", maxBytes: 64 * MiB },
  /**
   * What `match` searches when it comes through a pipe (a regular file is mapped, not copied: its
   * size is known before a byte is read and the kernel can drop its pages).
   */
  searchedStream: { kind: "input to search", maxBytes: 128 * MiB },
  /** Certificate signing requests (`csr`, `key-match -r`): one PKCS#10 block is a few KiB. */
  request: { kind: "a certificate request", maxBytes: 1 * MiB },
  /** Private key files (`key-match -k`): an RSA-16384 PEM is under 13 KiB. */
  key: { kind: "a key file", maxBytes: 1 * MiB },
  /** `--passin file:PATH`: openssl reads a passphrase of at most 1 KiB from its first line. */
  passphrase: { kind: "a passphrase file", maxBytes: 64 * 1024 },
  /** CRL files: the largest public CRLs are tens of MiB of DER. */
  crl: { kind: "a CRL", maxBytes: 64 * MiB },
} as const satisfies Record<string, InputLimit>;

/** `16 MiB`, `64 KiB`: a cap in words. */
export function sizeInWords(bytes: number): string {
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** A local input past its cap: one line naming the input and the cap, exit code 2 in the CLI, no usage hint. */
export class InputTooLarge extends Error {
  override name = "InputTooLarge";
}
