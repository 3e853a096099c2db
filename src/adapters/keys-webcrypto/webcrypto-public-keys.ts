/**
 * The PublicKeyReader of the page (src/local/ports.ts): a private key reduced to its public half,
 * its SubjectPublicKeyInfo, in the browser with WebCrypto only; the key itself is never sent,
 * stored or logged. WebCrypto cannot export a public key from a private one, hence the detour:
 * `importKey("pkcs8", …, extractable)` → `exportKey("jwk")` → the public members re-imported →
 * `exportKey("spki")`. PKCS#1 (`RSA PRIVATE KEY`) and SEC1 (`EC PRIVATE KEY`) keys are wrapped
 * into PKCS#8 first (src/local/private-keys.ts). Encrypted keys are refused with the command that
 * reads them instead: the page asks for no passphrase.
 *
 * Messages name labels and lines, never a byte of the key; the runtime's own error text is not
 * passed on. Decoded key bytes are overwritten once used.
 */
import { decodeBase64 } from "../../domain/certificates/pem.ts";
import type { PrivateKeyBlock, PublicHalf, PublicKeyReader } from "../../local/ports.ts";
import { asPkcs8, blockBody, privateKeyAlgorithm } from "../../local/private-keys.ts";

const RSA_ENCRYPTION = "1.2.840.113549.1.1.1";
const EC_PUBLIC_KEY = "1.2.840.10045.2.1";
const ED25519 = "1.3.101.112";
const CURVES: Readonly<Record<string, string>> = {
  "1.2.840.10045.3.1.7": "P-256",
  "1.3.132.0.34": "P-384",
  "1.3.132.0.35": "P-521",
};
/** What the page cannot read, by OID: the CLI can. */
const ELSEWHERE = "check it with nettools key-match -k KEY -c CERT, which reads every key type";

/** The PKCS#8 DER of a key block, or why it cannot be read here. */
function pkcs8Of(block: PrivateKeyBlock): Uint8Array | string {
  const where = `the private key (${block.label}, line ${block.line})`;
  const body = blockBody(block);
  if (block.label === "ENCRYPTED PRIVATE KEY" || /Proc-Type:\s*4,ENCRYPTED/.test(body)) {
    return `${where} is encrypted, and this page asks for no passphrase: check it with nettools key-match -k KEY --passin env:VAR -c CERT, or check a decrypted copy made with openssl pkey -in KEY -out plain.key`;
  }
  const der = decodeBase64(body.replace(/\s+/g, ""));
  if (der === null) return `${where} is not valid base64`;
  const wrapped = asPkcs8(block.label, der);
  if (wrapped === "no-curve") return `${where} does not name its curve: ${ELSEWHERE}`;
  if (wrapped === "other-label")
    return `${where}: this page reads PRIVATE KEY, RSA PRIVATE KEY and EC PRIVATE KEY blocks; ${ELSEWHERE}`;
  return wrapped;
}

/** The WebCrypto algorithm for a PKCS#8 key, and its type in words, or why it is not read here. */
function algorithmOf(
  der: Uint8Array,
): { algorithm: RsaHashedImportParams | EcKeyImportParams | Algorithm; keyType: string } | string {
  const identifier = privateKeyAlgorithm(der);
  if (identifier === null) return "the private key is not a PKCS#8 PrivateKeyInfo";
  switch (identifier.oid) {
    case RSA_ENCRYPTION:
      return { algorithm: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, keyType: "RSA" };
    case EC_PUBLIC_KEY: {
      const curve = CURVES[identifier.parameterOid ?? ""];
      if (curve === undefined)
        return `the private key is on an elliptic curve this page does not read: ${ELSEWHERE}`;
      return { algorithm: { name: "ECDSA", namedCurve: curve }, keyType: `EC ${curve}` };
    }
    case ED25519:
      return { algorithm: { name: "Ed25519" }, keyType: "Ed25519" };
    default:
      return `the private key's algorithm (${identifier.oid}) is not one this page reads: ${ELSEWHERE}`;
  }
}

/** JWK members of a public key, by key type (RFC 7518 §6); the private members are left behind. */
const PUBLIC_MEMBERS = ["kty", "crv", "n", "e", "x", "y"] as const;

/** The key's type and its SubjectPublicKeyInfo, computed in the browser. */
async function publicHalfOf(block: PrivateKeyBlock): Promise<PublicHalf> {
  const der = pkcs8Of(block);
  if (typeof der === "string") return { ok: false, message: der };
  try {
    const chosen = algorithmOf(der);
    if (typeof chosen === "string") return { ok: false, message: chosen };
    const { algorithm, keyType } = chosen;
    let privateKey: CryptoKey;
    try {
      privateKey = await crypto.subtle.importKey("pkcs8", der as BufferSource, algorithm, true, ["sign"]);
    } catch {
      return {
        ok: false,
        message: `the browser could not read the private key (line ${block.line}): ${ELSEWHERE}`,
      };
    }
    const jwk = await crypto.subtle.exportKey("jwk", privateKey);
    const publicJwk: JsonWebKey = {};
    for (const member of PUBLIC_MEMBERS) if (jwk[member] !== undefined) publicJwk[member] = jwk[member];
    const publicKey = await crypto.subtle.importKey("jwk", publicJwk, algorithm, true, ["verify"]);
    return { ok: true, keyType, spki: new Uint8Array(await crypto.subtle.exportKey("spki", publicKey)) };
  } finally {
    der.fill(0);
  }
}

/** WebCrypto's reading of private keys: no passphrase, so no derivation is ever left running. */
export const WEBCRYPTO_PUBLIC_KEYS: PublicKeyReader = {
  publicHalfOf: (block) => publicHalfOf(block),
  derivationLeftRunning: () => false,
};
