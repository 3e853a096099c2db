/**
 * Private keys on the user's machine (CONTRACT §8.2), what every runtime reads the same way: the
 * PEM blocks of a text, a PKCS#1 or SEC1 key wrapped into PKCS#8, the algorithm a PKCS#8 key
 * names, and an Ed448 key's secret. The public half itself is computed by a runtime's adapter of
 * the PublicKeyReader port (src/local/ports.ts): node:crypto for the CLI
 * (src/adapters/keys-node/), WebCrypto for the page (src/adapters/keys-webcrypto/).
 *
 * Privacy: nothing here puts a byte of a key (PEM, base64, DER or hex) into a message.
 */
import { isContext, isUniversal, readAlgorithm, readOid, readTlv, sequence, TAG } from "../domain/der.ts";
import type { PrivateKeyBlock } from "./ports.ts";

export { looksLikeDerKey } from "./key-material.ts";

/** The command that turns a legacy encrypted PEM into encrypted PKCS#8 (CONTRACT §8.2). */
export const LEGACY_CONVERSION = "openssl pkey -in old.key -aes256 -out new.key";

/** One PEM block of a text: its label, where it starts, and its whole text. */
export interface PemBlockText extends PrivateKeyBlock {
  /** UTF-16 offsets of the block, `end` exclusive. */
  offset: number;
  end: number;
}

const BLOCK = /-----BEGIN ([^-\r\n]{1,64})-----[\s\S]*?-----END \1-----/g;

/** Every complete PEM block of `text`, in order (the CLI's reading: any label, then filtered). */
export function pemBlocksOf(text: string): PemBlockText[] {
  const blocks: PemBlockText[] = [];
  for (const match of text.matchAll(BLOCK)) {
    const offset = match.index;
    blocks.push({
      label: match[1]!,
      line: text.slice(0, offset).split(/\r\n|\r|\n/).length,
      offset,
      end: offset + match[0].length,
      text: match[0],
    });
  }
  return blocks;
}

/** True for a block of private key material (what the API refuses, CONTRACT §4.1). */
export function isPrivateKeyBlock(block: PrivateKeyBlock): boolean {
  return /PRIVATE KEY/i.test(block.label);
}

const KEY_BLOCK = /-----BEGIN ([A-Z0-9 ]*PRIVATE KEY)-----([\s\S]*?)-----END \1-----/g;

/** Every complete private-key block of `text`, in order (the page's reading: upper-case labels only). */
export function keyBlocksOf(text: string): PrivateKeyBlock[] {
  return [...text.matchAll(KEY_BLOCK)].map((match) => ({
    label: match[1]!,
    line: text.slice(0, match.index).split(/\r\n|\r|\n/).length,
    text: match[0],
  }));
}

/** What lies between a block's BEGIN and END lines (its headers and base64). */
export function blockBody(block: PrivateKeyBlock): string {
  return block.text.slice(`-----BEGIN ${block.label}-----`.length, -`-----END ${block.label}-----`.length);
}

/** A block's label in a message: the label when it is plain words, else "key block". */
export function describeLabel(label: string): string {
  return /^[A-Z0-9 ]{1,40}$/.test(label) ? `${label} block` : "key block";
}

// ---------------------------------------------------------------------------------------------
// PKCS#1 and SEC1 keys wrapped into PKCS#8 (RFC 5208), and the algorithm a PKCS#8 key names.

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

/**
 * The PKCS#8 DER of a key's DER by its PEM label: `PRIVATE KEY` as it is, `RSA PRIVATE KEY` and
 * `EC PRIVATE KEY` wrapped; or why not: a SEC1 key that does not name its curve, another label.
 */
export function asPkcs8(label: string, der: Uint8Array): Uint8Array | "no-curve" | "other-label" {
  if (label === "PRIVATE KEY") return der;
  if (label === "RSA PRIVATE KEY") return pkcs8(RSA_ALGORITHM, der);
  if (label === "EC PRIVATE KEY") {
    const curve = sec1Curve(der);
    return curve === null ? "no-curve" : pkcs8(tlv(0x30, EC_OID, curve), der);
  }
  return "other-label";
}

/** The algorithm of a PKCS#8 PrivateKeyInfo: its OID, and its parameters' OID (an EC key's curve); null when not PKCS#8. */
export function privateKeyAlgorithm(der: Uint8Array): { oid: string; parameterOid: string | null } | null {
  const outer = sequence(der, readTlv(der, 0, der.length) ?? undefined);
  const identifier = outer === null ? null : readAlgorithm(der, outer[1]);
  if (identifier === null) return null;
  return { oid: identifier.oid, parameterOid: readOid(der, identifier.params) };
}

// ---------------------------------------------------------------------------------------------
// Ed448 (RFC 8410): the secret of a PKCS#8 key and the SPKI of its public half.

const OID_ED448 = "1.3.101.113";
/** SPKI of an Ed448 public key (RFC 8410 §4): `30 43 30 05 06 03 2B 65 71 03 3A 00` + 57 octets. */
const ED448_SPKI_PREFIX = Uint8Array.of(
  0x30,
  0x43,
  0x30,
  0x05,
  0x06,
  0x03,
  0x2b,
  0x65,
  0x71,
  0x03,
  0x3a,
  0x00,
);

/** PrivateKeyInfo { version, AlgorithmIdentifier Ed448, OCTET STRING { OCTET STRING secret } … } → secret, or null. */
export function ed448Secret(der: Uint8Array): Uint8Array | null {
  const top = readTlv(der, 0, der.length);
  const parts = top === null || top.end !== der.length ? null : sequence(der, top);
  if (parts === null || parts.length < 3) return null;
  const algorithm = readAlgorithm(der, parts[1]);
  const outer = parts[2]!;
  if (algorithm?.oid !== OID_ED448 || !isUniversal(outer, TAG.OCTET_STRING, false)) return null;
  const inner = readTlv(der, outer.body, outer.end);
  if (inner === null || inner.end !== outer.end || !isUniversal(inner, TAG.OCTET_STRING, false)) return null;
  if (inner.end - inner.body !== 57) return null;
  return der.slice(inner.body, inner.end);
}

/** The SubjectPublicKeyInfo of an Ed448 public key (57 octets). */
export function ed448Spki(publicKey: Uint8Array): Uint8Array {
  const spki = new Uint8Array(ED448_SPKI_PREFIX.length + publicKey.length);
  spki.set(ED448_SPKI_PREFIX, 0);
  spki.set(publicKey, ED448_SPKI_PREFIX.length);
  return spki;
}
