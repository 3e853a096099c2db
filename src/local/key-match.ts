/**
 * "Does this key match?" (CONTRACT §8.2), decided once for `nettools key-match` and the page's key
 * panel: which key is compared, and which certificates hold it. Keys and certificates are compared
 * by the SHA-256 of their SubjectPublicKeyInfo (`publicKeySha256`), which works for every key type.
 */

/**
 * The key a check compares: the key given (`-k KEY`, the page's key box) when there is one, which
 * must be exactly one block; else the one key found in the certificate files (HAProxy's crt file),
 * none when they hold none. `setAside`: a key in the certificate files is ignored because one was
 * given (the caller says so in a notice). A refusal counts the keys where the one was looked for.
 */
export function keyToCompare<K>(
  given: readonly K[] | null,
  inCertificates: readonly K[],
):
  | { ok: true; key: K | null; setAside: boolean }
  | { ok: false; from: "given" | "certificates"; count: number } {
  if (given !== null) {
    if (given.length !== 1) return { ok: false, from: "given", count: given.length };
    return { ok: true, key: given[0]!, setAside: inCertificates.length > 0 };
  }
  if (inCertificates.length > 1) return { ok: false, from: "certificates", count: inCertificates.length };
  return { ok: true, key: inCertificates[0] ?? null, setAside: false };
}

/** The indexes (in the order given) of the certificates whose public key is `publicKeySha256`. */
export function certificatesHolding(
  publicKeySha256: string | null,
  certificates: readonly { publicKeySha256: string }[],
): number[] {
  return certificates.flatMap((certificate, index) =>
    certificate.publicKeySha256 === publicKeySha256 ? [index] : [],
  );
}

/** SHA-256 of a SubjectPublicKeyInfo, 64 lowercase hex digits (WebCrypto, in the CLI and the page alike). */
export async function publicKeySha256(spki: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", spki.slice()));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
