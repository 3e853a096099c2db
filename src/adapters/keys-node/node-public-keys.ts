/**
 * The PublicKeyReader of the CLI (src/local/ports.ts): private keys for `nettools key-match`
 * (CONTRACT §8.2), read in this process only and reduced at once to their public half, the DER
 * SubjectPublicKeyInfo. PEM only: PKCS#8 `PRIVATE KEY` (RSA, EC, Ed25519, Ed448), PKCS#1
 * `RSA PRIVATE KEY`, SEC1 `EC PRIVATE KEY`, and `ENCRYPTED PRIVATE KEY` with a passphrase, decrypted
 * first within the command's budget (key-decryption.ts, its cost checked before anything is
 * derived). The legacy `Proc-Type: 4,ENCRYPTED` PEM is refused with the openssl command that
 * converts it.
 *
 * Privacy: no message here holds any byte of a key (PEM, base64, DER or hex), whatever the input;
 * the runtime's own error text is never passed on (it could quote what it read). Messages name the
 * file and the block's line, nothing else.
 *
 * Keys are read with `node:crypto` (`createPrivateKey`, then `createPublicKey(…).export` as SPKI),
 * which works under Bun and Node. Bun's BoringSSL has no Ed448: there, an Ed448 PKCS#8 key is read
 * by src/local/private-keys.ts and its public half computed by ed448.ts.
 */
import { createPrivateKey, createPublicKey } from "node:crypto";
import { decodeBase64, pemBlock } from "../../domain/certificates/pem.ts";
import type { PrivateKeyBlock, PublicHalf, PublicKeyReader } from "../../local/ports.ts";
import { describeLabel, ed448Secret, ed448Spki, LEGACY_CONVERSION } from "../../local/private-keys.ts";
import { ed448PublicKey } from "./ed448.ts";
import { decryptPrivateKeyInfo, derivationLeftRunning } from "./key-decryption.ts";

/** node:crypto's reading of private keys, an encrypted one decrypted within `timeoutMs`. */
export const NODE_PUBLIC_KEYS: PublicKeyReader = {
  async publicHalfOf(block, origin, passphrase, timeoutMs) {
    if (block.label !== "ENCRYPTED PRIVATE KEY" || passphrase === undefined)
      return publicHalfOf(block, origin, passphrase);
    const where = `${origin}, line ${block.line}`;
    const der = decodeBase64(block.text.replace(/^-----[^\n]*\n|-----END[^\n]*$/g, "").replace(/\s+/g, ""));
    if (der === null) return { ok: false, message: `${where}: the encrypted key is not valid base64` };
    const opened = await decryptPrivateKeyInfo(der, passphrase, timeoutMs);
    if ("stopped" in opened) return { ok: false, stopped: opened.stopped };
    if (!opened.ok) return { ok: false, message: `${where}: ${opened.message}` };
    const readable = {
      ...block,
      label: "PRIVATE KEY",
      text: pemBlock(opened.privateKeyInfo).replaceAll("CERTIFICATE", "PRIVATE KEY").trimEnd(),
    };
    opened.privateKeyInfo.fill(0);
    return publicHalfOf(readable, origin, passphrase);
  },
  derivationLeftRunning,
};

/**
 * The SubjectPublicKeyInfo DER of the unencrypted (or already decrypted) private key in `block`
 * (from file `origin`). `passphrase` says whether one was given: an `ENCRYPTED PRIVATE KEY`
 * without one is refused with the words that ask for it.
 */
function publicHalfOf(block: PrivateKeyBlock, origin: string, passphrase: string | undefined): PublicHalf {
  const where = `${origin}, line ${block.line}`;
  if (/^Proc-Type:\s*4,ENCRYPTED/m.test(block.text)) {
    return {
      ok: false,
      message: `${where}: this key is encrypted the legacy PEM way (Proc-Type: 4,ENCRYPTED), which key-match does not read; convert it to encrypted PKCS#8 with ${LEGACY_CONVERSION} and give the passphrase with --passin`,
    };
  }
  const encrypted = block.label === "ENCRYPTED PRIVATE KEY";
  if (encrypted && passphrase === undefined) {
    return {
      ok: false,
      message: `${where}: the key is encrypted: give its passphrase with --passin env:VAR or --passin file:PATH`,
    };
  }
  try {
    const key = createPrivateKey({
      key: block.text,
      format: "pem",
      ...(encrypted ? { passphrase: passphrase ?? "" } : {}),
    });
    return { ok: true, spki: new Uint8Array(createPublicKey(key).export({ type: "spki", format: "der" })) };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ERR_OSSL_EVP_UNSUPPORTED_ALGORITHM" && !encrypted) {
      const ed448 = ed448Fallback(block);
      if (ed448 !== null) return ed448;
    }
    return {
      ok: false,
      message: encrypted
        ? `${where}: the key could not be decrypted: the passphrase is wrong, or the key is damaged`
        : `${where}: this ${describeLabel(block.label)} could not be read (key-match reads PKCS#8, PKCS#1 and SEC1 keys)`,
    };
  }
}

/**
 * The Ed448 public half of an unencrypted PKCS#8 block that `node:crypto` could not load, or null
 * when it is not an Ed448 key (then the caller's own message stands). An encrypted key reaches
 * here decrypted.
 */
function ed448Fallback(block: PrivateKeyBlock): PublicHalf | null {
  const der = base64Body(block.text);
  if (der === null) return null;
  const secret = ed448Secret(der);
  if (secret === null) return null;
  return { ok: true, spki: ed448Spki(ed448PublicKey(secret)) };
}

function base64Body(pem: string): Uint8Array | null {
  const body = pem.replace(/^-----[^\n]*\n|-----END[^\n]*$/g, "").replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body)) return null;
  return new Uint8Array(Buffer.from(body, "base64"));
}
