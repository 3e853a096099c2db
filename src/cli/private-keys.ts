/**
 * Private keys for `nettools key-match` (CONTRACT §8.2), read in this process only and reduced at
 * once to their public half, the DER SubjectPublicKeyInfo. PEM only: PKCS#8 `PRIVATE KEY` (RSA,
 * EC, Ed25519, Ed448), PKCS#1 `RSA PRIVATE KEY`, SEC1 `EC PRIVATE KEY` (an `EC PARAMETERS` block
 * beside it is skipped), and `ENCRYPTED PRIVATE KEY` with a passphrase (`--passin env:VAR` or
 * `--passin file:PATH`, as openssl spells them). The legacy `Proc-Type: 4,ENCRYPTED` PEM and DER
 * key files are refused with the openssl command that converts them.
 *
 * Privacy: no message here holds any byte of a key (PEM, base64, DER or hex), whatever the input;
 * the runtime's own error text is never passed on (it could quote what it read). Messages name the
 * file and the block's line, nothing else.
 *
 * Keys are read with `node:crypto` (`createPrivateKey`, then `createPublicKey(…).export` as SPKI),
 * which works under Bun and Node. Bun's BoringSSL has no Ed448: there, an Ed448 PKCS#8 key is read
 * here and its public half computed by ed448.ts. An encrypted key is decrypted first, within the
 * command's budget, by key-decryption.ts (its cost checked before anything is derived).
 */
import { createPrivateKey, createPublicKey } from "node:crypto";
import { isUniversal, readAlgorithm, readTlv, sequence, TAG, type Tlv } from "../adapters/crypto/der.ts";
import { looksLikeDerKey } from "../local/key-material.ts";
import { ed448PublicKey } from "./ed448.ts";

export { looksLikeDerKey };

/** The command that turns a legacy encrypted PEM into encrypted PKCS#8 (CONTRACT §8.2). */
export const LEGACY_CONVERSION = "openssl pkey -in old.key -aes256 -out new.key";

/** One PEM block of a text: its label, where it starts, and its whole text. */
export interface PemBlockText {
  label: string;
  /** 1-based line of the BEGIN boundary. */
  line: number;
  /** UTF-16 offsets of the block, `end` exclusive. */
  offset: number;
  end: number;
  text: string;
}

const BLOCK = /-----BEGIN ([^-\r\n]{1,64})-----[\s\S]*?-----END \1-----/g;

/** Every complete PEM block of `text`, in order. */
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
export function isPrivateKeyBlock(block: PemBlockText): boolean {
  return /PRIVATE KEY/i.test(block.label);
}

/** The public half of a key, or why it could not be read (a sentence naming the place only). */
export type PublicHalf = { ok: true; spki: Uint8Array } | { ok: false; message: string };

/**
 * The SubjectPublicKeyInfo DER of the private key in `block` (from file `origin`). `passphrase`
 * (from --passin) is needed for, and only used with, `ENCRYPTED PRIVATE KEY`.
 */
export function publicHalfOf(
  block: PemBlockText,
  origin: string,
  passphrase: string | undefined,
): PublicHalf {
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

function describeLabel(label: string): string {
  return /^[A-Z0-9 ]{1,40}$/.test(label) ? `${label} block` : "key block";
}

// ---------------------------------------------------------------------------------------------
// Ed448 under Bun: PKCS#8 (RFC 8410 §7) and PBES2 (RFC 8018 §6.2) read here.

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

/**
 * The Ed448 public half of an unencrypted PKCS#8 block that `node:crypto` could not load, or null
 * when it is not an Ed448 key (then the caller's own message stands). An encrypted key reaches
 * here decrypted (src/cli/key-decryption.ts).
 */
function ed448Fallback(block: PemBlockText): PublicHalf | null {
  const der = base64Body(block.text);
  if (der === null) return null;
  const secret = ed448Secret(der);
  if (secret === null) return null;
  const spki = new Uint8Array(ED448_SPKI_PREFIX.length + secret.length);
  spki.set(ED448_SPKI_PREFIX, 0);
  spki.set(ed448PublicKey(secret), ED448_SPKI_PREFIX.length);
  return { ok: true, spki };
}

function base64Body(pem: string): Uint8Array | null {
  const body = pem.replace(/^-----[^\n]*\n|-----END[^\n]*$/g, "").replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body)) return null;
  return new Uint8Array(Buffer.from(body, "base64"));
}

/** The whole DER value filling `der`, or null. */
function whole(der: Uint8Array): Tlv | null {
  const top = readTlv(der, 0, der.length);
  return top !== null && top.end === der.length ? top : null;
}

/** PrivateKeyInfo { version, AlgorithmIdentifier Ed448, OCTET STRING { OCTET STRING secret } … } → secret. */
function ed448Secret(der: Uint8Array): Uint8Array | null {
  const top = whole(der);
  const parts = top === null ? null : sequence(der, top);
  if (parts === null || parts.length < 3) return null;
  const algorithm = readAlgorithm(der, parts[1]);
  const outer = parts[2]!;
  if (algorithm?.oid !== OID_ED448 || !isUniversal(outer, TAG.OCTET_STRING, false)) return null;
  const inner = readTlv(der, outer.body, outer.end);
  if (inner === null || inner.end !== outer.end || !isUniversal(inner, TAG.OCTET_STRING, false)) return null;
  if (inner.end - inner.body !== 57) return null;
  return der.slice(inner.body, inner.end);
}
