/**
 * Encrypted PKCS#8 keys (`ENCRYPTED PRIVATE KEY`, RFC 5958 §3) decrypted inside the local budget
 * (CONTRACT §7.3, §8.2; issue 30): a key file states its own cost (PBKDF2 iterations, scrypt's N,
 * r and p), so the cost is read and checked against {@link KDF_CAPS} before anything is derived,
 * and the derivation runs off the main thread (node:crypto's asynchronous `pbkdf2` and `scrypt`)
 * where `--timeout` can stop waiting for it. Schemes: PBES2 (RFC 8018 §6.2) with PBKDF2 (HMAC-SHA-1
 * … SHA-512) or scrypt (RFC 7914 §7), and AES-128/192/256-CBC or DES-EDE3-CBC; any other scheme is
 * refused with words that name it and the openssl command that re-encrypts the key.
 *
 * Privacy: messages name schemes and numbers, never a byte of the key; the runtime's own error
 * text is not passed on.
 */
import { createDecipheriv, pbkdf2, scrypt } from "node:crypto";
import {
  children,
  isUniversal,
  readAlgorithm,
  readOid,
  readTlv,
  sequence,
  TAG,
  type Tlv,
} from "../adapters/crypto/der.ts";

/** What one key may cost to open. */
export const KDF_CAPS = {
  /**
   * PBKDF2 iterations: openssl writes 2048, OWASP's 2023 advice for HMAC-SHA-256 is 600,000; ten
   * million is about ten seconds on one core, the whole default budget.
   */
  maxPbkdf2Iterations: 10_000_000,
  /** scrypt memory, 128·N·r bytes: openssl's own default ceiling is 32 MiB; 64 MiB fits the budget. */
  maxScryptMemoryBytes: 64 * 1024 * 1024,
  /** scrypt parallelisation: the work grows with p; RFC 7914's examples use 1 to 16. */
  maxScryptParallelism: 16,
} as const;

/** The command that rewrites a key in the scheme read here. */
export const REENCRYPT = "openssl pkcs8 -topk8 -v2 aes-256-cbc -in KEY -out new.key";

const OID_PBES2 = "1.2.840.113549.1.5.13";
const OID_PBKDF2 = "1.2.840.113549.1.5.12";
const OID_SCRYPT = "1.3.6.1.4.1.11591.4.11";
const PRFS: Readonly<Record<string, string>> = {
  "1.2.840.113549.2.7": "sha1",
  "1.2.840.113549.2.8": "sha224",
  "1.2.840.113549.2.9": "sha256",
  "1.2.840.113549.2.10": "sha384",
  "1.2.840.113549.2.11": "sha512",
};
const CIPHERS: Readonly<Record<string, { name: string; keyLength: number }>> = {
  "2.16.840.1.101.3.4.1.2": { name: "aes-128-cbc", keyLength: 16 },
  "2.16.840.1.101.3.4.1.22": { name: "aes-192-cbc", keyLength: 24 },
  "2.16.840.1.101.3.4.1.42": { name: "aes-256-cbc", keyLength: 32 },
  "1.2.840.113549.3.7": { name: "des-ede3-cbc", keyLength: 24 },
};
/** Schemes met in the wild that are not read here, by name. */
const NAMED_SCHEMES: Readonly<Record<string, string>> = {
  "1.2.840.113549.1.5.3": "PBES1 (MD5 and DES)",
  "1.2.840.113549.1.5.6": "PBES1 (MD5 and RC2)",
  "1.2.840.113549.1.5.10": "PBES1 (SHA-1 and DES)",
  "1.2.840.113549.1.5.11": "PBES1 (SHA-1 and RC2)",
  "1.2.840.113549.1.12.1.1": "PKCS#12 PBE (SHA-1 and RC4-128)",
  "1.2.840.113549.1.12.1.2": "PKCS#12 PBE (SHA-1 and RC4-40)",
  "1.2.840.113549.1.12.1.3": "PKCS#12 PBE (SHA-1 and 3DES)",
  "1.2.840.113549.1.12.1.4": "PKCS#12 PBE (SHA-1 and 2-key 3DES)",
  "1.2.840.113549.1.12.1.5": "PKCS#12 PBE (SHA-1 and RC2-128)",
  "1.2.840.113549.1.12.1.6": "PKCS#12 PBE (SHA-1 and RC2-40)",
};

/** How the key is to be derived: read from the key, checked, not yet run. */
type Derivation =
  | { kdf: "PBKDF2"; salt: Uint8Array; iterations: number; prf: string }
  | { kdf: "scrypt"; salt: Uint8Array; n: number; r: number; p: number };

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
      stopped: `deriving the key's decryption key (${describe(derivation)})`,
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

function describe(derivation: Derivation): string {
  return derivation.kdf === "PBKDF2"
    ? `PBKDF2, ${derivation.iterations} iterations`
    : `scrypt, N=${derivation.n}, r=${derivation.r}, p=${derivation.p}`;
}

interface Scheme {
  derivation: Derivation;
  cipher: { name: string; keyLength: number };
  iv: Uint8Array;
  data: Uint8Array;
}

/** The scheme of an EncryptedPrivateKeyInfo, checked against the caps; or why it is not read. */
function readScheme(der: Uint8Array): Scheme | { message: string } {
  const damaged = {
    message: "the encrypted key is damaged: its structure is not an EncryptedPrivateKeyInfo",
  };
  const top = readTlv(der, 0, der.length);
  const parts = top === null || top.end !== der.length ? null : sequence(der, top);
  const scheme = parts?.length === 2 ? readAlgorithm(der, parts[0]) : null;
  const data = parts?.[1];
  if (scheme === null || !isUniversal(data, TAG.OCTET_STRING, false)) return damaged;
  if (scheme.oid !== OID_PBES2) {
    const name = NAMED_SCHEMES[scheme.oid] ?? `the scheme ${scheme.oid}`;
    return {
      message: `the key is encrypted with ${name}, which key-match does not read; re-encrypt it with ${REENCRYPT}`,
    };
  }
  const params = sequence(der, scheme.params);
  const kdf = params?.length === 2 ? readAlgorithm(der, params[0]) : null;
  const encryption = params?.length === 2 ? readAlgorithm(der, params[1]) : null;
  if (kdf === null || encryption === null) return damaged;
  const cipher = CIPHERS[encryption.oid];
  if (cipher === undefined) {
    return {
      message: `the key is encrypted with the cipher ${encryption.oid}, which key-match does not read; re-encrypt it with ${REENCRYPT}`,
    };
  }
  const iv = encryption.params;
  if (!isUniversal(iv, TAG.OCTET_STRING, false)) return damaged;
  const derivation = readDerivation(der, kdf);
  if ("message" in derivation) return derivation;
  return {
    derivation,
    cipher,
    iv: der.slice(iv.body, iv.end),
    data: der.slice(data.body, data.end),
  };
}

function readDerivation(
  der: Uint8Array,
  kdf: { oid: string; params?: Tlv },
): Derivation | { message: string } {
  const damaged = { message: "the encrypted key is damaged: its key derivation parameters cannot be read" };
  const fields = sequence(der, kdf.params);
  const salt = fields?.[0];
  if (fields === null || !isUniversal(salt, TAG.OCTET_STRING, false)) return damaged;
  const saltBytes = der.slice(salt.body, salt.end);
  if (kdf.oid === OID_PBKDF2) {
    const iterations = positive(der, fields[1]);
    if (iterations === null) return damaged;
    if (iterations > KDF_CAPS.maxPbkdf2Iterations) {
      return {
        message: `the key asks for ${iterations === Number.POSITIVE_INFINITY ? "more than 2^48" : iterations} PBKDF2 iterations, more than the ${KDF_CAPS.maxPbkdf2Iterations} key-match derives; re-encrypt it with ${REENCRYPT}`,
      };
    }
    let prf = "sha1";
    for (const extra of fields.slice(2)) {
      if (!isUniversal(extra, TAG.SEQUENCE, true)) continue;
      const named = PRFS[readOid(der, children(der, extra)?.[0]) ?? ""];
      if (named === undefined)
        return {
          message: `the key's PBKDF2 uses a hash key-match does not read; re-encrypt it with ${REENCRYPT}`,
        };
      prf = named;
    }
    return { kdf: "PBKDF2", salt: saltBytes, iterations, prf };
  }
  if (kdf.oid === OID_SCRYPT) {
    const n = positive(der, fields[1]);
    const r = positive(der, fields[2]);
    const p = positive(der, fields[3]);
    if (n === null || r === null || p === null) return damaged;
    const memory = 128 * n * r;
    if (memory > KDF_CAPS.maxScryptMemoryBytes || p > KDF_CAPS.maxScryptParallelism || (n & (n - 1)) !== 0) {
      return {
        message: `the key asks for scrypt with N=${n}, r=${r}, p=${p} (${Math.ceil(memory / 1048576)} MiB), more than key-match derives (${KDF_CAPS.maxScryptMemoryBytes / 1048576} MiB, p at most ${KDF_CAPS.maxScryptParallelism}); re-encrypt it with ${REENCRYPT}`,
      };
    }
    return { kdf: "scrypt", salt: saltBytes, n, r, p };
  }
  return {
    message: `the key's passphrase is stretched with ${kdf.oid}, which key-match does not read; re-encrypt it with ${REENCRYPT}`,
  };
}

/** A positive INTEGER's value; +Infinity past 2^48 (over every cap); null when not a positive INTEGER. */
function positive(der: Uint8Array, t: Tlv | undefined): number | null {
  if (!isUniversal(t, TAG.INTEGER, false) || t.end <= t.body || der[t.body]! & 0x80) return null;
  let start = t.body;
  while (start < t.end - 1 && der[start] === 0) start++;
  if (t.end - start > 6) return Number.POSITIVE_INFINITY;
  let n = 0;
  for (let k = start; k < t.end; k++) n = n * 256 + der[k]!;
  return n > 0 ? n : null;
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
