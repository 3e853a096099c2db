/**
 * The digest behind a certificate's signature algorithm, by OID (RFC 3279, RFC 4055, RFC 5758):
 * what the verifier hashes with, and what the chain's SHA1_SIGNATURE rule reads (CONTRACT §8.1).
 */
import { children, readAlgorithm, readTlv, sequence } from "../../domain/der.ts";

export type Digest = "SHA-1" | "SHA-224" | "SHA-256" | "SHA-384" | "SHA-512";

/** RSASSA-PKCS1-v1_5 signature OIDs by digest. */
export const RSA_PKCS1: Readonly<Record<string, Digest>> = {
  "1.2.840.113549.1.1.5": "SHA-1",
  "1.3.14.3.2.29": "SHA-1",
  "1.2.840.113549.1.1.14": "SHA-224",
  "1.2.840.113549.1.1.11": "SHA-256",
  "1.2.840.113549.1.1.12": "SHA-384",
  "1.2.840.113549.1.1.13": "SHA-512",
};

/** ECDSA signature OIDs by digest. */
export const ECDSA: Readonly<Record<string, Digest>> = {
  "1.2.840.10045.4.1": "SHA-1",
  "1.2.840.10045.4.3.1": "SHA-224",
  "1.2.840.10045.4.3.2": "SHA-256",
  "1.2.840.10045.4.3.3": "SHA-384",
  "1.2.840.10045.4.3.4": "SHA-512",
};

/** DSA signature OIDs by digest (the verifier does not implement DSA; the digest still counts). */
const DSA: Readonly<Record<string, Digest>> = {
  "1.2.840.10040.4.3": "SHA-1",
  "1.3.14.3.2.27": "SHA-1",
  "2.16.840.1.101.3.4.3.1": "SHA-224",
  "2.16.840.1.101.3.4.3.2": "SHA-256",
};

/** Hash algorithm OIDs (as in RSASSA-PSS parameters). */
export const HASHES: Readonly<Record<string, Digest>> = {
  "1.3.14.3.2.26": "SHA-1",
  "2.16.840.1.101.3.4.2.4": "SHA-224",
  "2.16.840.1.101.3.4.2.1": "SHA-256",
  "2.16.840.1.101.3.4.2.2": "SHA-384",
  "2.16.840.1.101.3.4.2.3": "SHA-512",
};

export const OID_RSASSA_PSS = "1.2.840.113549.1.1.10";
/** RSASSA-PSS-params' hashAlgorithm when absent (RFC 4055 §3.1: DEFAULT sha1). */
export const PSS_DEFAULT_HASH = "1.3.14.3.2.26";

/**
 * The digest of a signature algorithm: from its OID, or for RSASSA-PSS from its parameters'
 * `hashAlgorithm` (SHA-1 when absent). Null when the algorithm hashes with none of these (Ed25519,
 * MD5, unknown) or its parameters do not read.
 */
export function signatureDigest(oid: string, parameters: Uint8Array | null): Digest | null {
  const named = RSA_PKCS1[oid] ?? ECDSA[oid] ?? DSA[oid];
  if (named !== undefined) return named;
  if (oid !== OID_RSASSA_PSS || parameters === null) return null;
  const params = readTlv(parameters, 0, parameters.length);
  const fields = params === null || params.end !== parameters.length ? null : sequence(parameters, params);
  if (fields === null) return null;
  const hashField = fields.find((field) => field.cls === 2 && field.tag === 0);
  if (hashField === undefined) return HASHES[PSS_DEFAULT_HASH]!;
  const inner = children(parameters, hashField);
  const algorithm = inner?.length === 1 ? readAlgorithm(parameters, inner[0]) : null;
  return algorithm === null ? null : (HASHES[algorithm.oid] ?? null);
}
