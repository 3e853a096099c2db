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
 * which works under Bun and Node. Bun's BoringSSL has no Ed448: there, an Ed448 PKCS#8 key (and
 * its PBES2-encrypted form) is read here and its public half computed by ed448.ts.
 */
import { createDecipheriv, createPrivateKey, createPublicKey, pbkdf2Sync } from "node:crypto";
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
    if (code === "ERR_OSSL_EVP_UNSUPPORTED_ALGORITHM") {
      const ed448 = ed448Fallback(block, encrypted ? (passphrase ?? "") : null);
      if (ed448 !== null) return ed448.ok ? ed448 : { ok: false, message: `${where}: ${ed448.message}` };
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
const OID_PBES2 = "1.2.840.113549.1.5.13";
const OID_PBKDF2 = "1.2.840.113549.1.5.12";
const PRFS: Record<string, string> = {
  "1.2.840.113549.2.7": "sha1",
  "1.2.840.113549.2.8": "sha224",
  "1.2.840.113549.2.9": "sha256",
  "1.2.840.113549.2.10": "sha384",
  "1.2.840.113549.2.11": "sha512",
};
const CIPHERS: Record<string, { name: string; keyLength: number }> = {
  "2.16.840.1.101.3.4.1.2": { name: "aes-128-cbc", keyLength: 16 },
  "2.16.840.1.101.3.4.1.22": { name: "aes-192-cbc", keyLength: 24 },
  "2.16.840.1.101.3.4.1.42": { name: "aes-256-cbc", keyLength: 32 },
};
/** Most PBKDF2 iterations read (openssl writes 2048): a damaged count never hangs the command. */
const MAX_ITERATIONS = 10_000_000;

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
 * The Ed448 public half of a PKCS#8 block that `node:crypto` could not load, or null when it is
 * not an Ed448 key (then the caller's own message stands). `passphrase` null: not encrypted.
 */
function ed448Fallback(block: PemBlockText, passphrase: string | null): PublicHalf | null {
  const der = base64Body(block.text);
  if (der === null) return null;
  const plain = passphrase === null ? der : decryptPbes2(der, passphrase);
  if (plain === null) return null;
  if (plain === "wrong") {
    return {
      ok: false,
      message: "the key could not be decrypted: the passphrase is wrong, or the key is damaged",
    };
  }
  const secret = ed448Secret(plain);
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

/**
 * The PrivateKeyInfo inside an EncryptedPrivateKeyInfo under PBES2 with PBKDF2 and AES-CBC (what
 * `openssl pkey -aes256` writes); "wrong" when the padding does not check out (a wrong
 * passphrase); null for any other scheme or structure.
 */
function decryptPbes2(der: Uint8Array, passphrase: string): Uint8Array | "wrong" | null {
  const top = whole(der);
  const parts = top === null ? null : sequence(der, top);
  const scheme = parts?.length === 2 ? readAlgorithm(der, parts[0]) : null;
  const data = parts?.[1];
  if (scheme?.oid !== OID_PBES2 || !isUniversal(data, TAG.OCTET_STRING, false)) return null;
  const params = sequence(der, scheme.params);
  const kdf = params?.length === 2 ? readAlgorithm(der, params[0]) : null;
  const cipher = params?.length === 2 ? readAlgorithm(der, params[1]) : null;
  const cipherInfo = cipher === null ? undefined : CIPHERS[cipher.oid];
  const iv = cipher?.params;
  if (kdf?.oid !== OID_PBKDF2 || cipherInfo === undefined || !isUniversal(iv, TAG.OCTET_STRING, false))
    return null;
  const kdfParams = sequence(der, kdf.params);
  const salt = kdfParams?.[0];
  const count = kdfParams?.[1];
  if (!isUniversal(salt, TAG.OCTET_STRING, false) || !isUniversal(count, TAG.INTEGER, false)) return null;
  const iterations = unsigned(der, count);
  if (iterations === null || iterations < 1 || iterations > MAX_ITERATIONS) return null;
  let prf = "sha1";
  for (const extra of kdfParams!.slice(2)) {
    if (isUniversal(extra, TAG.SEQUENCE, true)) {
      const named = PRFS[readOid(der, children(der, extra)?.[0]) ?? ""];
      if (named === undefined) return null;
      prf = named;
    }
  }
  const key = pbkdf2Sync(
    passphrase,
    der.subarray(salt.body, salt.end),
    iterations,
    cipherInfo.keyLength,
    prf,
  );
  try {
    const decipher = createDecipheriv(cipherInfo.name, key, der.subarray(iv.body, iv.end));
    const plain = Buffer.concat([decipher.update(der.subarray(data.body, data.end)), decipher.final()]);
    return new Uint8Array(plain);
  } catch {
    return "wrong";
  }
}

function unsigned(der: Uint8Array, t: Tlv): number | null {
  if (t.end - t.body < 1 || t.end - t.body > 4 || der[t.body]! & 0x80) return null;
  let n = 0;
  for (let k = t.body; k < t.end; k++) n = n * 256 + der[k]!;
  return n;
}
