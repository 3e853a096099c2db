/**
 * Signature checks with node:crypto (CONTRACT §4.2): does the key in `issuer`'s
 * SubjectPublicKeyInfo verify `child`'s signature?
 *
 * What is `unsupported` is decided up front from OIDs (the child's signature algorithm, the
 * issuer's key type and curve), never by catching an exception. Verified: RSA PKCS#1 v1.5 with
 * SHA-1/224/256/384/512, RSA-PSS (MGF1 with the same hash, SHA-1/224/256/384/512), ECDSA on
 * P-256/P-384/P-521 with SHA-1/224/256/384/512, Ed25519. Unsupported: MD2/MD4/MD5, DSA, Ed448,
 * other curves (secp256k1, brainpool…), SHA-3 and anything unknown. `verify` never throws.
 *
 * The check itself is synchronous (`crypto.verify`), so a request's checks end in the turn of the
 * event loop its body arrived in: Bun 1.4.5 closes a keep-alive connection without a byte when a
 * request is pipelined behind a response that completes on a later turn, which every WebCrypto
 * call did (ADR 68). So that checks never hold the loop for long, they run in slices of its turns
 * ({@link TurnSlices}): once `sliceMs` of checks have run in one turn, the next ones wait in line.
 */
import {
  createPublicKey,
  type KeyObject,
  constants as nodeCrypto,
  verify as verifySignature,
} from "node:crypto";
import type { CertificateData, PublicKeyInfo } from "../../domain/certificates/model.ts";
import {
  children,
  isUniversal,
  readAlgorithm,
  readOid,
  readTlv,
  sequence,
  TAG,
  type Tlv,
} from "../../domain/der.ts";
import type { SignatureCheck, SignatureVerifier } from "../../domain/ports.ts";
import {
  type Digest,
  ECDSA,
  HASHES,
  OID_RSASSA_PSS,
  PSS_DEFAULT_HASH,
  RSA_PKCS1,
} from "./signature-digests.ts";
import { type TurnSliceOptions, TurnSlices } from "./turn-slices.ts";

type Hash = Digest;

const OID_RSA_ENCRYPTION = "1.2.840.113549.1.1.1";
const OID_MGF1 = "1.2.840.113549.1.1.8";
const OID_EC_PUBLIC_KEY = "1.2.840.10045.2.1";
const OID_ED25519 = "1.3.101.112";

/** Named curves this verifier implements, with their field size in octets. */
const CURVES: Record<string, { name: "P-256" | "P-384" | "P-521"; size: number }> = {
  "1.2.840.10045.3.1.7": { name: "P-256", size: 32 },
  "1.3.132.0.34": { name: "P-384", size: 48 },
  "1.3.132.0.35": { name: "P-521", size: 66 },
};

/** Known algorithms this verifier does not implement, with the reason it gives. */
const UNSUPPORTED: Record<string, string> = {
  "1.2.840.113549.1.1.2": "MD2 signatures are not supported",
  "1.2.840.113549.1.1.3": "MD4 signatures are not supported",
  "1.2.840.113549.1.1.4": "MD5 signatures are not supported",
  "1.3.14.3.2.3": "MD5 signatures are not supported",
  "1.3.14.3.2.25": "MD5 signatures are not supported",
  "1.3.101.113": "Ed448 signatures are not supported",
  "1.2.840.10040.4.3": "DSA signatures are not supported",
  "1.3.14.3.2.13": "DSA signatures are not supported",
  "1.3.14.3.2.27": "DSA signatures are not supported",
  "2.16.840.1.101.3.4.3.1": "DSA signatures are not supported",
  "2.16.840.1.101.3.4.3.2": "DSA signatures are not supported",
  "2.16.840.1.101.3.4.3.3": "DSA signatures are not supported",
  "2.16.840.1.101.3.4.3.4": "DSA signatures are not supported",
  "2.16.840.1.101.3.4.3.5": "DSA signatures are not supported",
  "2.16.840.1.101.3.4.3.6": "DSA signatures are not supported",
  "2.16.840.1.101.3.4.3.7": "DSA signatures are not supported",
  "2.16.840.1.101.3.4.3.8": "DSA signatures are not supported",
};

const SECP256K1 = "1.3.132.0.10";

/** How to check one signature, once every OID has been judged. */
type Plan =
  | { kind: "rsa"; hash: Hash }
  | { kind: "pss"; hash: Hash; saltLength: number }
  | { kind: "ecdsa"; hash: Hash; curve: "P-256" | "P-384" | "P-521"; size: number }
  | { kind: "ed25519" };

/** One DER value held alone in its own bytes (an algorithm's parameters), read as a TLV. */
interface Value {
  buf: Uint8Array;
  tlv: Tlv;
}

/** The single TLV that exactly fills `bytes`, or undefined (for null or anything else). */
function parameterValue(bytes: Uint8Array | null): Value | undefined {
  if (bytes === null) return undefined;
  const tlv = readTlv(bytes, 0, bytes.length);
  return tlv !== null && tlv.end === bytes.length ? { buf: bytes, tlv } : undefined;
}

const unavailable = (reason: string): SignatureCheck => ({ outcome: "unavailable", reason });
const unsupported = (reason: string): SignatureCheck => ({ outcome: "unsupported", reason });
// Fresh objects each time: callers may keep or extend what they get.
const failed = (): SignatureCheck => ({ outcome: "failed" });

/**
 * Milliseconds of signature checks one turn of the event loop runs at most (the last check may
 * end past it): the same 10 ms a turn of CIDR work may take (ADR 48), so that health answers
 * within tens of milliseconds under a flood of certificate work (CONTRACT §1.7).
 */
export const DEFAULT_SLICE_MS = 10;

/** How {@link NodeSignatureVerifier} shares the event loop: {@link TurnSliceOptions} with a default slice. */
export type VerifierTurnOptions = Partial<TurnSliceOptions>;

/** Checks every signature with node:crypto; one instance serves every request of a process. */
export class NodeSignatureVerifier implements SignatureVerifier {
  private readonly turns: TurnSlices;

  constructor(options: VerifierTurnOptions = {}) {
    this.turns = new TurnSlices({ ...options, sliceMs: options.sliceMs ?? DEFAULT_SLICE_MS });
  }

  verify(child: CertificateData, issuer: CertificateData): Promise<SignatureCheck> {
    return this.turns.run(() => {
      try {
        return this.check(child, issuer);
      } catch {
        return unavailable("the signature check could not run");
      }
    });
  }

  private check(child: CertificateData, issuer: CertificateData): SignatureCheck {
    // RFC 5280 §4.1.1.2: the algorithm inside the signed part must be the one outside it. OpenSSL's
    // X509_verify refuses such a certificate before any crypto, whatever the key: so does this.
    if (!child.signatureAlgorithmsMatch) return failed();
    // Everything below comes from what the decoder read once (CertificateData's spans): no DER of
    // the certificate or of the key is read again here.
    const key = issuer.publicKey;
    const plan = planFor(child.signatureAlgorithmOid, child.signatureParameters, key);
    if ("outcome" in plan) return plan;
    if (child.signatureValue === null) return failed();

    let signature: Uint8Array = child.signatureValue;
    if (plan.kind === "ecdsa") {
      const raw = ecdsaRaw(signature, plan.size);
      if (raw === null) return failed();
      signature = raw;
    } else if (plan.kind === "ed25519" && signature.length !== 64) {
      return failed();
    }

    // Reading a key is cheap next to the check (a few microseconds), so keys are not cached.
    const spki = key.algorithmOid === OID_RSASSA_PSS ? asRsaEncryption(key) : key.spki;
    let publicKey: KeyObject;
    try {
      publicKey = createPublicKey({
        key: Buffer.from(spki.buffer, spki.byteOffset, spki.byteLength),
        format: "der",
        type: "spki",
      });
    } catch {
      return unavailable("the issuer public key could not be imported");
    }
    if (publicKey.asymmetricKeyType !== expectedKeyType(plan)) {
      return unavailable("the issuer public key could not be imported");
    }
    const ok = verifySignature(digestName(plan), child.tbs, keyInput(plan, publicKey), signature);
    return ok ? { outcome: "verified" } : failed();
  }
}

/** Decides, from OIDs and parameters only, how to check the signature — or why it cannot be. */
function planFor(
  oid: string,
  signatureParameters: Uint8Array | null,
  key: PublicKeyInfo,
): Plan | SignatureCheck {
  const mismatch = unavailable("the issuer key type does not match the signature algorithm");
  const rsaHash = RSA_PKCS1[oid];
  if (rsaHash !== undefined) {
    return key.algorithmOid === OID_RSA_ENCRYPTION ? { kind: "rsa", hash: rsaHash } : mismatch;
  }
  const ecHash = ECDSA[oid];
  if (ecHash !== undefined) {
    if (key.algorithmOid !== OID_EC_PUBLIC_KEY) return mismatch;
    const curveParameter = parameterValue(key.parameters);
    const curveOid = curveParameter === undefined ? null : readOid(curveParameter.buf, curveParameter.tlv);
    if (curveOid === SECP256K1) return unsupported("the secp256k1 curve is not supported");
    const curve = curveOid === null ? undefined : CURVES[curveOid];
    if (curve === undefined) return unsupported("this elliptic curve is not supported");
    return { kind: "ecdsa", hash: ecHash, curve: curve.name, size: curve.size };
  }
  if (oid === OID_RSASSA_PSS) {
    if (key.algorithmOid !== OID_RSA_ENCRYPTION && key.algorithmOid !== OID_RSASSA_PSS) return mismatch;
    const pss = pssParams(parameterValue(signatureParameters));
    if (pss === null) return failed();
    if ("outcome" in pss) return pss;
    if (key.algorithmOid === OID_RSASSA_PSS && key.parameters !== null) {
      // A key restricted to RSA-PSS may restrict the hash and the minimum salt length (RFC 4055 §1.2).
      const limits = pssParams(parameterValue(key.parameters));
      if (limits === null) return unavailable("the issuer public key could not be read");
      if ("outcome" in limits) return limits;
      if (limits.hash !== pss.hash || pss.saltLength < limits.saltLength) return failed();
    }
    return { kind: "pss", hash: pss.hash, saltLength: pss.saltLength };
  }
  if (oid === OID_ED25519) {
    return key.algorithmOid === OID_ED25519 && key.parameters === null ? { kind: "ed25519" } : mismatch;
  }
  return unsupported(UNSUPPORTED[oid] ?? "this signature algorithm is not supported");
}

/** RSASSA-PSS-params (RFC 4055 §3.1) as the check uses them, `unsupported`, or null when malformed. */
function pssParams(params: Value | undefined): { hash: Hash; saltLength: number } | SignatureCheck | null {
  if (params === undefined) return null;
  const buf = params.buf;
  const fields = sequence(buf, params.tlv);
  if (fields === null) return null;
  let hashOid = PSS_DEFAULT_HASH;
  let mgfHashOid = PSS_DEFAULT_HASH;
  let saltLength = 20;
  let last = -1;
  for (const field of fields) {
    if (field.cls !== 2 || !field.constructed || field.tag > 3 || field.tag <= last) return null;
    last = field.tag;
    const inner = children(buf, field);
    if (inner === null || inner.length !== 1) return null;
    const value = inner[0]!;
    if (field.tag === 0) {
      const alg = readAlgorithm(buf, value);
      if (alg === null) return null;
      hashOid = alg.oid;
    } else if (field.tag === 1) {
      const mgf = readAlgorithm(buf, value);
      if (mgf === null) return null;
      if (mgf.oid !== OID_MGF1) return unsupported("this RSA-PSS mask generation function is not supported");
      const mgfHash = readAlgorithm(buf, mgf.params);
      if (mgfHash === null) return null;
      mgfHashOid = mgfHash.oid;
    } else {
      const n = smallInteger(buf, value);
      if (n === null) return null;
      if (field.tag === 2) saltLength = n;
      else if (n !== 1) return null;
    }
  }
  const hash = HASHES[hashOid];
  if (hash === undefined) return unsupported("this RSA-PSS hash is not supported");
  if (HASHES[mgfHashOid] !== hash) return unsupported("RSA-PSS with a different MGF1 hash is not supported");
  return { hash, saltLength };
}

function smallInteger(buf: Uint8Array, t: Tlv): number | null {
  if (!isUniversal(t, TAG.INTEGER, false)) return null;
  const len = t.end - t.body;
  if (len < 1 || len > 4 || buf[t.body]! & 0x80) return null;
  let n = 0;
  for (let k = t.body; k < t.end; k++) n = n * 256 + buf[k]!;
  return n;
}

/**
 * The same RSA key as an rsaEncryption SPKI: node:crypto reads RSA keys only under that OID,
 * while an RSASSA-PSS key (RFC 4055) carries the same RSAPublicKey under id-RSASSA-PSS.
 */
function asRsaEncryption(key: PublicKeyInfo): Uint8Array<ArrayBuffer> {
  const algId = Uint8Array.of(
    0x30,
    0x0d,
    0x06,
    0x09,
    0x2a,
    0x86,
    0x48,
    0x86,
    0xf7,
    0x0d,
    0x01,
    0x01,
    0x01,
    0x05,
    0x00,
  );
  return derSequence([algId, key.subjectPublicKey]);
}

function derSequence(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const len = parts.reduce((n, p) => n + p.length, 0);
  const header =
    len < 0x80
      ? [0x30, len]
      : len < 0x100
        ? [0x30, 0x81, len]
        : len < 0x10000
          ? [0x30, 0x82, len >> 8, len & 0xff]
          : [0x30, 0x83, len >> 16, (len >> 8) & 0xff, len & 0xff];
  const out = new Uint8Array(header.length + len);
  out.set(header, 0);
  let at = header.length;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** ECDSA-Sig-Value (SEQUENCE { r, s }) → the fixed-size r‖s (IEEE P1363) the check is given, or null. */
function ecdsaRaw(der: Uint8Array, size: number): Uint8Array<ArrayBuffer> | null {
  const seq = readTlv(der, 0, der.length);
  const parts = seq === null || seq.end !== der.length ? null : sequence(der, seq);
  if (parts === null || parts.length !== 2) return null;
  const out = new Uint8Array(size * 2);
  for (let k = 0; k < 2; k++) {
    const n = parts[k]!;
    if (!isUniversal(n, TAG.INTEGER, false) || n.end === n.body || der[n.body]! & 0x80) return null;
    let start = n.body;
    while (start < n.end - 1 && der[start] === 0) start++;
    const len = n.end - start;
    if (len > size) return null;
    out.set(der.subarray(start, n.end), size * (k + 1) - len);
  }
  return out;
}

/** The key type node:crypto must have read for `plan`. */
function expectedKeyType(plan: Plan): string {
  return plan.kind === "pss" ? "rsa" : plan.kind === "ecdsa" ? "ec" : plan.kind;
}

/** node:crypto's name of the plan's digest; Ed25519 hashes inside the algorithm. */
function digestName(plan: Plan): string | null {
  return plan.kind === "ed25519" ? null : NODE_DIGESTS[plan.hash];
}

const NODE_DIGESTS: Readonly<Record<Hash, string>> = {
  "SHA-1": "sha1",
  "SHA-224": "sha224",
  "SHA-256": "sha256",
  "SHA-384": "sha384",
  "SHA-512": "sha512",
};

/** The key with the padding (RSA-PSS and its exact salt length) or signature form (ECDSA's r‖s) of `plan`. */
function keyInput(plan: Plan, key: KeyObject) {
  switch (plan.kind) {
    case "pss":
      return { key, padding: nodeCrypto.RSA_PKCS1_PSS_PADDING, saltLength: plan.saltLength };
    case "ecdsa":
      return { key, dsaEncoding: "ieee-p1363" as const };
    default:
      return key;
  }
}
