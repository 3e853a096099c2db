/**
 * PKCS#12 files (`.p12`, `.pfx`; RFC 7292) as Windows and Java shops hand them out (CONTRACT
 * §10.3), read on the user's machine: the certificates in file order, and the private keys as
 * PKCS#8 DER for `key-match` only (never printed, never sent). Read with the strict DER reader and
 * WebCrypto alone, so the same code runs in the CLI (Bun, Node) and in the page's file picker.
 *
 * What is read here: the MAC (HMAC with the PKCS#12 key derivation of RFC 7292 Appendix B, SHA-1
 * or SHA-2), plain and PBES2-encrypted contents (PBKDF2 with HMAC-SHA-1/2 and AES-CBC, what
 * OpenSSL 3 writes by default), shrouded key bags, certificate bags and nested safe contents.
 * The legacy PKCS#12 PBE schemes (RC2, 3DES: `openssl pkcs12 -legacy`, older Windows) are
 * reported as `legacy` for the caller to hand to openssl. Every iteration count is checked against
 * {@link MAX_PKCS12_ITERATIONS} before any key derivation, so a file cannot pin a CPU.
 */
import {
  children,
  isContext,
  isUniversal,
  readAlgorithm,
  readOid,
  readTlv,
  sequence,
  TAG,
  type Tlv,
} from "../domain/der.ts";
import { KDF_CAPS, OID_PBES2, OID_PBKDF2, PBES2_CIPHERS, PBKDF2_HASHES } from "./pbes2.ts";

/** Most iterations of any key derivation in a file (CONTRACT §10.3): more is refused unread; the cap of an encrypted key's PBKDF2 too. */
export const MAX_PKCS12_ITERATIONS = KDF_CAPS.maxPbkdf2Iterations;
/** Most bags read from one file, and how deep safe contents may nest. */
const MAX_BAGS = 10_000;
const MAX_NESTING = 4;

const OID_DATA = "1.2.840.113549.1.7.1";
const OID_ENCRYPTED_DATA = "1.2.840.113549.1.7.6";
const OID_KEY_BAG = "1.2.840.113549.1.12.10.1.1";
const OID_SHROUDED_KEY_BAG = "1.2.840.113549.1.12.10.1.2";
const OID_CERT_BAG = "1.2.840.113549.1.12.10.1.3";
const OID_SAFE_CONTENTS_BAG = "1.2.840.113549.1.12.10.1.6";
const OID_X509_CERTIFICATE = "1.2.840.113549.1.9.22.1";
/** pkcs-12PbeIds (RFC 7292 Appendix C): the legacy schemes, RC4, RC2 and 3DES. */
const LEGACY_PBE_PREFIX = "1.2.840.113549.1.12.1.";

/** WebCrypto's hash names, with their output and block sizes (octets). */
interface Hash {
  name: "SHA-1" | "SHA-256" | "SHA-384" | "SHA-512";
  size: number;
  block: number;
}
const SHA1: Hash = { name: "SHA-1", size: 20, block: 64 };
const SHA256: Hash = { name: "SHA-256", size: 32, block: 64 };
const SHA384: Hash = { name: "SHA-384", size: 48, block: 128 };
const SHA512: Hash = { name: "SHA-512", size: 64, block: 128 };
/** MAC digests (SHA-224 is not in WebCrypto: such a file is `unsupported`). */
const HASHES: Readonly<Record<string, Hash>> = {
  "1.3.14.3.2.26": SHA1,
  "2.16.840.1.101.3.4.2.1": SHA256,
  "2.16.840.1.101.3.4.2.2": SHA384,
  "2.16.840.1.101.3.4.2.3": SHA512,
};
/** PBKDF2 pseudo-random functions (HMAC with …) that WebCrypto has (src/local/pbes2.ts). */
const PRFS: Readonly<Record<string, Hash>> = Object.fromEntries(
  Object.entries(PBKDF2_HASHES).flatMap(([oid, hash]) => {
    const named = [SHA1, SHA256, SHA384, SHA512].find((known) => known.name === hash.webCrypto);
    return named === undefined ? [] : [[oid, named]];
  }),
);
/** PBES2 ciphers WebCrypto decrypts here: AES-CBC (3DES is the legacy way, for openssl). */
const CIPHERS: Readonly<Record<string, { keyLength: number }>> = Object.fromEntries(
  Object.entries(PBES2_CIPHERS).flatMap(([oid, cipher]) => (cipher.aes ? [[oid, cipher]] : [])),
);

/** What a file holds: certificates (DER) in file order, and keys (PKCS#8 DER) when asked for. */
export interface Pkcs12Contents {
  certificates: Uint8Array[];
  keys: Uint8Array[];
}

/** Why a file could not be read; `message` never holds a byte of the file or the password. */
export type Pkcs12Failure = {
  kind: "legacy" | "password" | "iterations" | "malformed" | "unsupported";
  message: string;
};

export type Pkcs12Read = ({ ok: true } & Pkcs12Contents) | ({ ok: false } & Pkcs12Failure);

class Refusal extends Error {
  constructor(readonly failure: Pkcs12Failure) {
    super(failure.message);
  }
}
function refuse(kind: Pkcs12Failure["kind"], message: string): never {
  throw new Refusal({ kind, message });
}
function malformed(): never {
  throw new Refusal({ kind: "malformed", message: "not a well-formed PKCS#12 file" });
}

/** True when `bytes` start like a PFX: SEQUENCE { INTEGER 3, ContentInfo … } (by content, not by name). */
export function looksLikePkcs12(bytes: Uint8Array): boolean {
  const top = readTlv(bytes, 0, bytes.length);
  if (top === null || !isUniversal(top, TAG.SEQUENCE, true) || top.end !== bytes.length) return false;
  const version = readTlv(bytes, top.body, top.end);
  if (!isUniversal(version ?? undefined, TAG.INTEGER, false) || version!.end - version!.body !== 1)
    return false;
  if (bytes[version!.body] !== 3) return false;
  const content = readTlv(bytes, version!.end, top.end);
  return content !== null && isUniversal(content, TAG.SEQUENCE, true);
}

/**
 * The contents of a PKCS#12 file. `password` undefined tries the empty password (both of its
 * encodings, as OpenSSL does). Keys are decrypted only when `wantKeys` is set (`key-match`); for
 * `cert` and `chain` a shrouded key bag is skipped unread.
 */
export async function readPkcs12(
  bytes: Uint8Array,
  password: string | undefined,
  wantKeys: boolean,
): Promise<Pkcs12Read> {
  try {
    return { ok: true, ...(await read(bytes, password ?? "", wantKeys)) };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, ...error.failure };
    return { ok: false, kind: "malformed", message: "not a well-formed PKCS#12 file" };
  }
}

async function read(buf: Uint8Array, password: string, wantKeys: boolean): Promise<Pkcs12Contents> {
  const top = readTlv(buf, 0, buf.length);
  const pfx = top !== null && top.end === buf.length ? sequence(buf, top) : null;
  if (pfx === null || pfx.length < 2 || pfx.length > 3) return malformed();
  const authSafe = dataContent(buf, pfx[1]);
  const macData = pfx[2];
  // Every visible iteration count first: the MAC's and each encrypted content's.
  const contents = sequence(buf, authSafe) ?? malformed();
  const mac = macData === undefined ? null : readMacData(buf, macData);
  for (const info of contents) {
    const parts = sequence(buf, info) ?? malformed();
    if (readOid(buf, parts[0]) === OID_ENCRYPTED_DATA) encryptionOf(buf, encryptedContentInfo(buf, parts));
  }
  const passwords = password === "" ? [bmp(""), new Uint8Array()] : [bmp(password)];
  if (mac !== null) {
    const macBytes = buf.subarray(authSafe.start, authSafe.end);
    let verified = false;
    for (const candidate of passwords) verified ||= await macVerifies(mac, candidate, macBytes);
    if (!verified) {
      refuse(
        "password",
        password === ""
          ? "the file is protected by a password, and none was given"
          : "the password is wrong: the file's integrity check (MAC) does not verify with it",
      );
    }
  }
  const out: Pkcs12Contents = { certificates: [], keys: [] };
  const budget = { bags: 0 };
  for (const info of contents) {
    const parts = sequence(buf, info) ?? malformed();
    const type = readOid(buf, parts[0]);
    if (type === OID_DATA)
      await readSafeContents(buf, dataContent(buf, info), password, wantKeys, out, 0, budget);
    else if (type === OID_ENCRYPTED_DATA) {
      const plain = await decrypt(buf, encryptedContentInfo(buf, parts), password);
      const inner = readTlv(plain, 0, plain.length);
      if (inner === null || inner.end !== plain.length) return malformed();
      await readSafeContents(plain, inner, password, wantKeys, out, 0, budget);
    } else
      refuse(
        "unsupported",
        "the file holds public-key-encrypted contents, which only its recipient can read",
      );
  }
  return out;
}

/** A ContentInfo of type data: its OCTET STRING's content as one TLV. */
function dataContent(buf: Uint8Array, info: Tlv | undefined): Tlv {
  const parts = sequence(buf, info) ?? malformed();
  if (parts.length !== 2 || readOid(buf, parts[0]) !== OID_DATA || !isContext(parts[1], 0, true))
    return malformed();
  const wrapped = children(buf, parts[1]!) ?? malformed();
  const octets = wrapped[0];
  if (wrapped.length !== 1 || !isUniversal(octets, TAG.OCTET_STRING, false)) return malformed();
  const inner = readTlv(buf, octets.body, octets.end);
  if (inner === null || inner.end !== octets.end) return malformed();
  return inner;
}

interface Encrypted {
  algorithm: Tlv;
  data: Uint8Array;
}

/** EncryptedData's encryptedContentInfo: its algorithm and its ciphertext. */
function encryptedContentInfo(buf: Uint8Array, parts: Tlv[]): Encrypted {
  if (parts.length !== 2 || !isContext(parts[1], 0, true)) return malformed();
  const wrapped = children(buf, parts[1]!) ?? malformed();
  const encryptedData = sequence(buf, wrapped[0]) ?? malformed();
  const info = sequence(buf, encryptedData[1]) ?? malformed();
  if (wrapped.length !== 1 || encryptedData.length !== 2 || info.length !== 3) return malformed();
  const content = info[2]!;
  if (content.cls !== 2 || content.tag !== 0 || content.constructed) return malformed();
  return { algorithm: info[1]!, data: buf.subarray(content.body, content.end) };
}

interface Pbes2 {
  salt: Uint8Array;
  iterations: number;
  prf: Hash;
  cipher: { keyLength: number };
  iv: Uint8Array;
}

/** The PBES2 parameters of an encryption algorithm, checked (iterations included); legacy is refused. */
function encryptionOf(buf: Uint8Array, encrypted: Encrypted): Pbes2 {
  const algorithm = readAlgorithm(buf, encrypted.algorithm) ?? malformed();
  if (algorithm.oid.startsWith(LEGACY_PBE_PREFIX)) {
    refuse("legacy", "the file is encrypted the legacy way (RC2 or 3DES, openssl pkcs12 -legacy)");
  }
  if (algorithm.oid !== OID_PBES2) refuse("unsupported", "the file's encryption scheme is not supported");
  const params = sequence(buf, algorithm.params) ?? malformed();
  const kdf = readAlgorithm(buf, params[0]) ?? malformed();
  const cipher = readAlgorithm(buf, params[1]) ?? malformed();
  if (params.length !== 2 || kdf.oid !== OID_PBKDF2)
    refuse("unsupported", "the file's key derivation is not supported");
  const cipherInfo = CIPHERS[cipher.oid];
  if (cipherInfo === undefined) refuse("legacy", "the file is encrypted with a cipher other than AES");
  const iv = cipher.params;
  if (!isUniversal(iv, TAG.OCTET_STRING, false) || iv.end - iv.body !== 16) return malformed();
  const kdfParams = sequence(buf, kdf.params) ?? malformed();
  const salt = kdfParams[0];
  if (!isUniversal(salt, TAG.OCTET_STRING, false)) return malformed();
  const iterations = checkedIterations(buf, kdfParams[1]);
  let prf = SHA1;
  for (const extra of kdfParams.slice(2)) {
    if (isUniversal(extra, TAG.INTEGER, false)) continue; // keyLength: the cipher's own
    const named = PRFS[readAlgorithm(buf, extra)?.oid ?? ""];
    if (named === undefined) refuse("unsupported", "the file's PBKDF2 hash is not supported");
    prf = named!;
  }
  return {
    salt: buf.subarray(salt.body, salt.end),
    iterations,
    prf,
    cipher: cipherInfo!,
    iv: buf.subarray(iv.body, iv.end),
  };
}

/** An iteration count: a positive INTEGER of at most MAX_PKCS12_ITERATIONS, read before any work. */
function checkedIterations(buf: Uint8Array, t: Tlv | undefined): number {
  if (!isUniversal(t, TAG.INTEGER, false) || t.end === t.body || buf[t.body]! & 0x80) return malformed();
  if (t.end - t.body > 5) return tooMany();
  let value = 0;
  for (let k = t.body; k < t.end; k++) value = value * 256 + buf[k]!;
  if (value < 1) return malformed();
  return value > MAX_PKCS12_ITERATIONS ? tooMany() : value;
}
const tooMany = (): never =>
  refuse(
    "iterations",
    `the file asks for more than ${MAX_PKCS12_ITERATIONS.toLocaleString("en")} key-derivation iterations; it is refused unread`,
  );

/** A copy WebCrypto takes (`BufferSource` over an ArrayBuffer). */
const own = (bytes: Uint8Array): Uint8Array<ArrayBuffer> => bytes.slice();

async function decrypt(buf: Uint8Array, encrypted: Encrypted, password: string): Promise<Uint8Array> {
  const scheme = encryptionOf(buf, encrypted);
  // PBES2 takes the password as its UTF-8 bytes (RFC 8018; OpenSSL does the same in PKCS#12).
  const secret = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, [
    "deriveBits",
  ]);
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: scheme.prf.name, salt: own(scheme.salt), iterations: scheme.iterations },
    secret,
    scheme.cipher.keyLength * 8,
  );
  try {
    const key = await crypto.subtle.importKey("raw", bits, "AES-CBC", false, ["decrypt"]);
    const plain = await crypto.subtle.decrypt(
      { name: "AES-CBC", iv: own(scheme.iv) },
      key,
      own(encrypted.data),
    );
    return new Uint8Array(plain);
  } catch {
    return refuse(
      "password",
      "the contents could not be decrypted: the password is wrong, or the file is damaged",
    );
  }
}

async function readSafeContents(
  buf: Uint8Array,
  safeContents: Tlv,
  password: string,
  wantKeys: boolean,
  out: Pkcs12Contents,
  depth: number,
  budget: { bags: number },
): Promise<void> {
  const bags = sequence(buf, safeContents) ?? malformed();
  for (const bag of bags) {
    if (++budget.bags > MAX_BAGS) refuse("unsupported", `the file holds more than ${MAX_BAGS} bags`);
    const parts = sequence(buf, bag) ?? malformed();
    const type = readOid(buf, parts[0]);
    if (parts.length < 2 || parts.length > 3 || !isContext(parts[1], 0, true)) malformed();
    const values = children(buf, parts[1]!) ?? malformed();
    const value = values[0];
    if (values.length !== 1 || value === undefined) malformed();
    if (type === OID_CERT_BAG) {
      const cert = sequence(buf, value) ?? malformed();
      if (readOid(buf, cert[0]) !== OID_X509_CERTIFICATE) continue; // an SDSI certificate: not X.509
      const wrapped = isContext(cert[1], 0, true) ? children(buf, cert[1]) : null;
      const octets = wrapped?.[0];
      if (wrapped?.length !== 1 || !isUniversal(octets, TAG.OCTET_STRING, false)) malformed();
      out.certificates.push(buf.slice(octets.body, octets.end));
    } else if (type === OID_SHROUDED_KEY_BAG) {
      if (!wantKeys) continue;
      const shrouded = sequence(buf, value) ?? malformed();
      const data = shrouded[1];
      if (shrouded.length !== 2 || !isUniversal(data, TAG.OCTET_STRING, false)) malformed();
      out.keys.push(
        await decrypt(buf, { algorithm: shrouded[0]!, data: buf.subarray(data.body, data.end) }, password),
      );
    } else if (type === OID_KEY_BAG) {
      if (wantKeys) out.keys.push(buf.slice(value.start, value.end));
    } else if (type === OID_SAFE_CONTENTS_BAG) {
      if (depth >= MAX_NESTING) malformed();
      await readSafeContents(buf, value, password, wantKeys, out, depth + 1, budget);
    }
    // CRL and secret bags: not certificates, skipped.
  }
}

interface MacData {
  hash: Hash;
  digest: Uint8Array;
  salt: Uint8Array;
  iterations: number;
}

function readMacData(buf: Uint8Array, t: Tlv): MacData {
  const parts = sequence(buf, t) ?? malformed();
  const digestInfo = sequence(buf, parts[0]) ?? malformed();
  const algorithm = readAlgorithm(buf, digestInfo[0]) ?? malformed();
  const digest = digestInfo[1];
  const salt = parts[1];
  if (
    digestInfo.length !== 2 ||
    !isUniversal(digest, TAG.OCTET_STRING, false) ||
    !isUniversal(salt, TAG.OCTET_STRING, false)
  ) {
    return malformed();
  }
  if (algorithm.oid === "1.2.840.113549.1.5.14")
    refuse("unsupported", "the file's PBMAC1 integrity check is not supported");
  const hash = HASHES[algorithm.oid] ?? refuse("unsupported", "the file's MAC hash is not supported");
  const iterations = parts[2] === undefined ? 1 : checkedIterations(buf, parts[2]);
  return {
    hash,
    digest: buf.subarray(digest.body, digest.end),
    salt: buf.subarray(salt.body, salt.end),
    iterations,
  };
}

async function macVerifies(mac: MacData, password: Uint8Array, data: Uint8Array): Promise<boolean> {
  if (mac.digest.length !== mac.hash.size) return false;
  const keyBytes = await pkcs12Kdf(mac.hash, password, mac.salt, 3, mac.iterations, mac.hash.size);
  const key = await crypto.subtle.importKey(
    "raw",
    own(keyBytes),
    { name: "HMAC", hash: mac.hash.name },
    false,
    ["verify"],
  );
  return crypto.subtle.verify("HMAC", key, own(mac.digest), own(data));
}

/** The password as a BMPString with its two-octet terminator (RFC 7292 Appendix B.1). */
function bmp(password: string): Uint8Array {
  const out = new Uint8Array(password.length * 2 + 2);
  for (let k = 0; k < password.length; k++) {
    const unit = password.charCodeAt(k);
    out[k * 2] = unit >> 8;
    out[k * 2 + 1] = unit & 0xff;
  }
  return out;
}

/** RFC 7292 Appendix B.2: `n` octets of key material for purpose `id` (3: MAC key). */
async function pkcs12Kdf(
  hash: Hash,
  password: Uint8Array,
  salt: Uint8Array,
  id: number,
  iterations: number,
  n: number,
): Promise<Uint8Array> {
  const v = hash.block;
  const fill = (source: Uint8Array): Uint8Array => {
    const length = source.length === 0 ? 0 : v * Math.ceil(source.length / v);
    const out = new Uint8Array(length);
    for (let k = 0; k < length; k++) out[k] = source[k % source.length]!;
    return out;
  };
  const d = new Uint8Array(v).fill(id);
  const i = new Uint8Array([...fill(salt), ...fill(password)]);
  const result: number[] = [];
  while (result.length < n) {
    let a = new Uint8Array(await crypto.subtle.digest(hash.name, own(new Uint8Array([...d, ...i]))));
    for (let r = 1; r < iterations; r++) a = new Uint8Array(await crypto.subtle.digest(hash.name, a));
    result.push(...a);
    if (result.length >= n) break;
    const b = new Uint8Array(v);
    for (let k = 0; k < v; k++) b[k] = a[k % a.length]!;
    for (let block = 0; block < i.length; block += v) {
      let carry = 1;
      for (let k = v - 1; k >= 0; k--) {
        const sum = i[block + k]! + b[k]! + carry;
        i[block + k] = sum & 0xff;
        carry = sum >> 8;
      }
    }
  }
  return new Uint8Array(result.slice(0, n));
}
