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
import { isUniversal, readTlv, sequence, TAG } from "../../domain/der.ts";
import { type Derivation, describeDerivation, readScheme } from "../../local/pbes2.ts";

const WRONG_PASSPHRASE = "the key could not be decrypted: the passphrase is wrong, or the key is damaged";

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
    const plain = new Uint8Array(Buffer.concat([decipher.update(data), decipher.final()]));
    // CBC's padding is the only check a wrong passphrase meets, and about one wrong passphrase in
    // 256 passes it by chance: what it leaves is noise, not a PrivateKeyInfo, and gets the same words.
    if (looksLikePrivateKeyInfo(plain)) return { ok: true, privateKeyInfo: plain };
    plain.fill(0);
    return { ok: false, message: WRONG_PASSPHRASE };
  } catch {
    return { ok: false, message: WRONG_PASSPHRASE };
  } finally {
    derived.fill(0);
  }
}

/**
 * Whether `der` is shaped as a PrivateKeyInfo (RFC 5958 §2): one SEQUENCE filling it, with at
 * least three fields, the first the version INTEGER. Noise that got past the padding is shaped so
 * far less than once in a million. (src/local/key-material.ts's recogniser knows this header too,
 * but an adapter reaches src/local only for its ports: ADR 0050, tests/architecture.test.ts.)
 */
function looksLikePrivateKeyInfo(der: Uint8Array): boolean {
  const top = readTlv(der, 0, der.length);
  if (top === null || top.end !== der.length) return false;
  const fields = sequence(der, top);
  return fields !== null && fields.length >= 3 && isUniversal(fields[0], TAG.INTEGER, false);
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
