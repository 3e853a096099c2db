/**
 * "Does this key match?" on the page (CONTRACT §8.2): a private key is reduced to the SHA-256 of
 * its public half, its SubjectPublicKeyInfo, in the browser with WebCrypto only, and compared with
 * the `publicKeySha256` of the certificates the API returns for the certificate text; the key
 * itself is never sent, stored or logged. WebCrypto cannot export a public key from a private
 * one, hence the detour: `importKey("pkcs8", …, extractable)` → `exportKey("jwk")` → the public
 * members re-imported → `exportKey("spki")` → `digest("SHA-256")`. PKCS#1 (`RSA PRIVATE KEY`)
 * and SEC1 (`EC PRIVATE KEY`) keys are wrapped into PKCS#8 here first. Encrypted keys are refused
 * with the command that reads them instead: this page asks for no passphrase.
 *
 * Messages name labels, block numbers and lines, never a byte of the key; the runtime's own error
 * text is not passed on. Decoded key bytes are overwritten once used.
 */
import {
  hexLower,
  isContext,
  isUniversal,
  readAlgorithm,
  readOid,
  readTlv,
  sequence,
  TAG,
} from "../adapters/crypto/der.ts";
import { decodeBase64 } from "../domain/certificates/pem.ts";

/** The key's public identity, or why it could not be read. */
export type KeyReading =
  | { ok: true; keyType: string; publicKeySha256: string }
  | { ok: false; message: string };

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

const KEY_BLOCK = /-----BEGIN ([A-Z0-9 ]*PRIVATE KEY)-----([\s\S]*?)-----END \1-----/g;

/** A key block found in a text: its label and line, and its body (base64 and any headers). */
export interface KeyBlock {
  label: string;
  line: number;
  body: string;
}

/** Every complete private-key block of `text`, in order. */
export function keyBlocksOf(text: string): KeyBlock[] {
  return [...text.matchAll(KEY_BLOCK)].map((match) => ({
    label: match[1]!,
    line: text.slice(0, match.index).split(/\r\n|\r|\n/).length,
    body: match[2]!,
  }));
}

/** DER TLV of `tag` around `content` (definite length). */
function tlv(tag: number, ...content: Uint8Array[]): Uint8Array {
  const size = content.reduce((sum, part) => sum + part.length, 0);
  const length: number[] = [];
  for (let rest = size; rest > 0; rest >>= 8) length.unshift(rest & 0xff);
  const head = size < 0x80 ? [tag, size] : [tag, 0x80 | length.length, ...length];
  const out = new Uint8Array(head.length + size);
  out.set(head);
  let at = head.length;
  for (const part of content) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Bytes written as hex pairs. */
function bytes(hex: string): Uint8Array {
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
}

const VERSION_0 = bytes("020100");
/** AlgorithmIdentifier { rsaEncryption, NULL }. */
const RSA_ALGORITHM = bytes("300d06092a864886f70d0101010500");
/** OBJECT IDENTIFIER id-ecPublicKey (1.2.840.10045.2.1). */
const EC_OID = bytes("06072a8648ce3d0201");

/** PrivateKeyInfo (RFC 5208) around a PKCS#1 or SEC1 key, with the algorithm identifier given. */
function pkcs8(algorithm: Uint8Array, key: Uint8Array): Uint8Array {
  return tlv(0x30, VERSION_0, algorithm, tlv(0x04, key));
}

/**
 * The named curve of a SEC1 ECPrivateKey (`[0] parameters`, RFC 5915 §3) as its OID TLV bytes,
 * or null when the key does not carry it.
 */
function sec1Curve(der: Uint8Array): Uint8Array | null {
  const parts = sequence(der, readTlv(der, 0, der.length) ?? undefined);
  const parameters = parts?.find((part) => isContext(part, 0, true));
  if (parameters === undefined) return null;
  const curve = readTlv(der, parameters.body, parameters.end);
  return curve !== null && isUniversal(curve, TAG.OID, false) ? der.slice(curve.start, curve.end) : null;
}

/** The PKCS#8 DER of a key block, or why it cannot be read here. */
function pkcs8Of(block: KeyBlock): Uint8Array | string {
  const where = `the private key (${block.label}, line ${block.line})`;
  if (block.label === "ENCRYPTED PRIVATE KEY" || /Proc-Type:\s*4,ENCRYPTED/.test(block.body)) {
    return `${where} is encrypted, and this page asks for no passphrase: check it with nettools key-match -k KEY --passin env:VAR -c CERT, or check a decrypted copy made with openssl pkey -in KEY -out plain.key`;
  }
  const der = decodeBase64(block.body.replace(/\s+/g, ""));
  if (der === null) return `${where} is not valid base64`;
  if (block.label === "PRIVATE KEY") return der;
  if (block.label === "RSA PRIVATE KEY") return pkcs8(RSA_ALGORITHM, der);
  if (block.label === "EC PRIVATE KEY") {
    const curve = sec1Curve(der);
    if (curve === null) return `${where} does not name its curve: ${ELSEWHERE}`;
    return pkcs8(tlv(0x30, EC_OID, curve), der);
  }
  return `${where}: this page reads PRIVATE KEY, RSA PRIVATE KEY and EC PRIVATE KEY blocks; ${ELSEWHERE}`;
}

/** The WebCrypto algorithm for a PKCS#8 key, and its type in words, or why it is not read here. */
function algorithmOf(
  der: Uint8Array,
): { algorithm: RsaHashedImportParams | EcKeyImportParams | Algorithm; keyType: string } | string {
  const outer = sequence(der, readTlv(der, 0, der.length) ?? undefined);
  const identifier = outer === null ? null : readAlgorithm(der, outer[1]);
  if (identifier === null) return "the private key is not a PKCS#8 PrivateKeyInfo";
  switch (identifier.oid) {
    case RSA_ENCRYPTION:
      return { algorithm: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, keyType: "RSA" };
    case EC_PUBLIC_KEY: {
      const curve = CURVES[readOid(der, identifier.params) ?? ""];
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

/** The key's type and the SHA-256 of its SubjectPublicKeyInfo, computed in the browser. */
export async function readPrivateKey(block: KeyBlock): Promise<KeyReading> {
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
    const spki = await crypto.subtle.exportKey("spki", publicKey);
    return {
      ok: true,
      keyType,
      publicKeySha256: hexLower(new Uint8Array(await crypto.subtle.digest("SHA-256", spki))),
    };
  } finally {
    der.fill(0);
  }
}
