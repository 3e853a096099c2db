/**
 * Encrypted PKCS#8 keys (`ENCRYPTED PRIVATE KEY`, RFC 5958 §3) decrypted inside the local budget
 * (CONTRACT §7.3, §8.2; issue 30) with node:crypto: the scheme is read and its cost checked first
 * (src/local/pbes2.ts, against KDF_CAPS), then the derivation runs off the main thread
 * (node:crypto's asynchronous `pbkdf2` and `scrypt`) where `--timeout` can stop waiting for it.
 * Schemes: PBES2 (RFC 8018 §6.2) with PBKDF2 (HMAC-SHA-1 … SHA-512) or scrypt (RFC 7914 §7), and
 * AES-128/192/256-CBC or DES-EDE3-CBC; any other scheme is refused with words that name it and the
 * openssl command that re-encrypts the key.
 *
 * Privacy: messages name schemes and numbers, never a byte of the key; the runtime's own error
 * text is not passed on.
 */
import { createDecipheriv, pbkdf2, scrypt } from "node:crypto";
import { type Derivation, describeDerivation, readScheme } from "../../local/pbes2.ts";

/** The outcome: the PrivateKeyInfo DER, a refusal in words, or the budget spent while deriving. */
export type Decryption =
  | { ok: true; privateKeyInfo: Uint8Array }
  | { ok: false; message: string }
  | { ok: false; stopped: string };

/**
 * The PrivateKeyInfo inside the EncryptedPrivateKeyInfo `der`, decrypted with `passphrase`;
 * derivation abandoned after `timeoutMs` (the rest of the command's budget).
 */
export async function decryptPrivateKeyInfo(
  der: Uint8Array,
  passphrase: string,
  timeoutMs: number,
): Promise<Decryption> {
  const plan = readScheme(der);
  if ("message" in plan) return { ok: false, message: plan.message };
  const { derivation, cipher, iv, data } = plan;
  const derived = await withTimeout(derive(derivation, passphrase, cipher.keyLength), timeoutMs);
  if (derived === null) {
    leftRunning = true;
    return {
      ok: false,
      stopped: `deriving the key's decryption key (${describeDerivation(derivation)})`,
    };
  }
  try {
    const decipher = createDecipheriv(cipher.name, derived, iv);
    return {
      ok: true,
      privateKeyInfo: new Uint8Array(Buffer.concat([decipher.update(data), decipher.final()])),
    };
  } catch {
    return {
      ok: false,
      message: "the key could not be decrypted: the passphrase is wrong, or the key is damaged",
    };
  } finally {
    derived.fill(0);
  }
}

/**
 * True once a derivation was abandoned at the deadline: it still runs on a worker thread, which
 * no API can stop, so the process exits when the command is done instead of waiting for it.
 */
let leftRunning = false;

/** See above: whether a derivation was left running on a worker thread. */
export function derivationLeftRunning(): boolean {
  return leftRunning;
}

function derive(derivation: Derivation, passphrase: string, keyLength: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, key: Buffer) => (error ? reject(error) : resolve(key));
    if (derivation.kdf === "PBKDF2")
      pbkdf2(passphrase, derivation.salt, derivation.iterations, keyLength, derivation.prf, done);
    else {
      const { n, r, p } = derivation;
      scrypt(
        passphrase,
        derivation.salt,
        keyLength,
        { N: n, r, p, maxmem: 128 * n * r + 128 * r * p + 1024 * 1024 },
        done,
      );
    }
  });
}

/** `work`'s value, or null once `ms` have passed first. */
async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
