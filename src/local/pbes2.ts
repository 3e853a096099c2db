/**
 * PBES2 (RFC 8018 §6.2) as the user's machine reads it, written once for the two readers that
 * decrypt with it: encrypted PKCS#8 keys (src/adapters/keys-node/key-decryption.ts, node:crypto:
 * PBKDF2 or scrypt, AES or DES-EDE3) and PKCS#12 files (src/local/pkcs12.ts, WebCrypto: PBKDF2 and
 * AES only). The object identifiers, the hashes and ciphers known with the name each runtime
 * gives them, and the cost caps checked before anything is derived (ADR 0036).
 */

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
