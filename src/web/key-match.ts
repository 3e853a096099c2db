/**
 * "Does this key match?" on the page (CONTRACT §8.2): a private key is reduced to the SHA-256 of
 * its public half, its SubjectPublicKeyInfo, in the browser, through the PublicKeyReader port
 * (src/local/ports.ts) that the page's composition root (app.ts) binds to WebCrypto
 * (src/adapters/keys-webcrypto/); it is compared with the `publicKeySha256` of the certificates
 * the API returns for the certificate text. The key itself is never sent, stored or logged.
 */
import { publicKeySha256 } from "../local/key-match.ts";
import type { PrivateKeyBlock, PublicKeyReader } from "../local/ports.ts";

export { keyBlocksOf } from "../local/private-keys.ts";

/** A key block found in a text: its label, its line and its text. */
export type KeyBlock = PrivateKeyBlock;

/** The key's public identity, or why it could not be read. */
export type KeyReading =
  | { ok: true; keyType: string; publicKeySha256: string }
  | { ok: false; message: string };

/** The key's type and the SHA-256 of its SubjectPublicKeyInfo, computed in the browser. */
export async function readPrivateKey(block: KeyBlock, publicKeys: PublicKeyReader): Promise<KeyReading> {
  // The page asks for no passphrase: nothing is derived, so there is no budget to give.
  const half = await publicKeys.publicHalfOf(block, "the key", undefined, 0);
  if (!half.ok) return { ok: false, message: "message" in half ? half.message : half.stopped };
  return { ok: true, keyType: half.keyType ?? "", publicKeySha256: await publicKeySha256(half.spki) };
}
