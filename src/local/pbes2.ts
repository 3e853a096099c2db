/**
 * PBES2 (RFC 8018 §6.2) as the user's machine reads it, written once for the two readers that
 * decrypt with it: encrypted PKCS#8 keys (src/adapters/keys-node/key-decryption.ts, node:crypto:
 * PBKDF2 or scrypt, AES or DES-EDE3) and PKCS#12 files (src/local/pkcs12.ts, WebCrypto: PBKDF2 and
 * AES only). The object identifiers, the hashes and ciphers known with the name each runtime
 * gives them, and the cost caps checked before anything is derived (ADR 0036); and the scheme of
 * an EncryptedPrivateKeyInfo (RFC 5958 §3) read and checked against the caps, never derived here.
 *
 * Privacy: messages name schemes and numbers, never a byte of the key.
 */
import {
  children,
  isUniversal,
  readAlgorithm,
  readOid,
  readTlv,
  sequence,
  TAG,
  type Tlv,
} from "../domain/der.ts";

export const OID_PBES2 = "1.2.840.113549.1.5.13";
export const OID_PBKDF2 = "1.2.840.113549.1.5.12";
export const OID_SCRYPT = "1.3.6.1.4.1.11591.4.11";

/** A PBKDF2 pseudo-random function (HMAC with …): node:crypto's digest name, WebCrypto's (null: none). */
export interface Pbkdf2Hash {
  node: "sha1" | "sha224" | "sha256" | "sha384" | "sha512";
  webCrypto: "SHA-1" | "SHA-256" | "SHA-384" | "SHA-512" | null;
}

/** PBKDF2's pseudo-random functions by OID (RFC 8018 Appendix B.1.2); SHA-224 is not in WebCrypto. */
export const PBKDF2_HASHES: Readonly<Record<string, Pbkdf2Hash>> = {
  "1.2.840.113549.2.7": { node: "sha1", webCrypto: "SHA-1" },
  "1.2.840.113549.2.8": { node: "sha224", webCrypto: null },
  "1.2.840.113549.2.9": { node: "sha256", webCrypto: "SHA-256" },
  "1.2.840.113549.2.10": { node: "sha384", webCrypto: "SHA-384" },
  "1.2.840.113549.2.11": { node: "sha512", webCrypto: "SHA-512" },
};

/** A PBES2 cipher: node:crypto's name, its key length in octets, and whether it is AES (WebCrypto's AES-CBC). */
export interface Pbes2Cipher {
  name: "aes-128-cbc" | "aes-192-cbc" | "aes-256-cbc" | "des-ede3-cbc";
  keyLength: number;
  aes: boolean;
}

/** PBES2's encryption schemes by OID (RFC 8018 Appendix B.2, RFC 3565 for AES). */
export const PBES2_CIPHERS: Readonly<Record<string, Pbes2Cipher>> = {
  "2.16.840.1.101.3.4.1.2": { name: "aes-128-cbc", keyLength: 16, aes: true },
  "2.16.840.1.101.3.4.1.22": { name: "aes-192-cbc", keyLength: 24, aes: true },
  "2.16.840.1.101.3.4.1.42": { name: "aes-256-cbc", keyLength: 32, aes: true },
  "1.2.840.113549.3.7": { name: "des-ede3-cbc", keyLength: 24, aes: false },
};

/** What one key or one PKCS#12 file may cost to open. */
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
export type Derivation =
  | { kdf: "PBKDF2"; salt: Uint8Array; iterations: number; prf: string }
  | { kdf: "scrypt"; salt: Uint8Array; n: number; r: number; p: number };

export function describeDerivation(derivation: Derivation): string {
  return derivation.kdf === "PBKDF2"
    ? `PBKDF2, ${derivation.iterations} iterations`
    : `scrypt, N=${derivation.n}, r=${derivation.r}, p=${derivation.p}`;
}

export interface Scheme {
  derivation: Derivation;
  cipher: Pbes2Cipher;
  iv: Uint8Array;
  data: Uint8Array;
}

/** The scheme of an EncryptedPrivateKeyInfo, checked against the caps; or why it is not read. */
export function readScheme(der: Uint8Array): Scheme | { message: string } {
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
  const cipher = PBES2_CIPHERS[encryption.oid];
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
      const named = PBKDF2_HASHES[readOid(der, children(der, extra)?.[0]) ?? ""]?.node;
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
