/**
 * What a SubjectPublicKeyInfo (RFC 5280 §4.1.2.7) says about its key, as OpenSSL 3 reports it:
 * the key type, `EVP_PKEY_get_bits` (the size `openssl pkey -text` prints as `Public-Key: (N bit)`)
 * and the curve name (`ASN1 OID:`, with `NIST CURVE:`'s `P-256`/`P-384`/`P-521` for those three).
 * Used for certificates (CONTRACT §8.1 `keyType`, `keyBits`, `keyCurve`) and for CSRs and keys.
 *
 * Read with the strict DER reader (`der.ts`, ADR 0007): bounded work, no exceptions. A key that
 * OpenSSL could not load (a malformed RSAPublicKey, an Ed25519 key of the wrong length, an unknown
 * curve) still has its type; its size is null.
 */
import {
  isBitString,
  isUniversal,
  readAlgorithm,
  readOid,
  readTlv,
  sequence,
  TAG,
  type Tlv,
} from "../../domain/der.ts";
import { opensslShortName } from "./openssl-names.ts";

export interface PublicKeyFacts {
  /** `RSA`, `EC`, `Ed25519`, `Ed448`, `DSA`, else the dotted OID of the key's algorithm. */
  keyType: string;
  /**
   * OpenSSL's `EVP_PKEY_get_bits`: RSA (and RSASSA-PSS) modulus bits; EC the curve order's bits
   * (256, 384, 521 for the NIST curves); Ed25519 256; Ed448 456; DSA the bits of p. Null for other
   * types and for a key OpenSSL would not load.
   */
  keyBits: number | null;
  /**
   * EC only: `P-256`, `P-384`, `P-521`, else OpenSSL's short curve name (`secp256k1`,
   * `brainpoolP256r1` …) or the dotted OID of an unknown named curve; null for explicit curve
   * parameters (they have no name) and for every other key type.
   */
  keyCurve: string | null;
}

/** The SubjectPublicKeyInfo algorithm OIDs read here (RFC 3279, RFC 4055, RFC 5480, RFC 8410). */
const KEY_OID = {
  rsa: "1.2.840.113549.1.1.1",
  rsassaPss: "1.2.840.113549.1.1.10",
  ec: "1.2.840.10045.2.1",
  ed25519: "1.3.101.112",
  ed448: "1.3.101.113",
  dsa: "1.2.840.10040.4.1",
} as const;

/** Key types named in words; any other algorithm is named by its dotted OID. */
const KEY_TYPE_NAMES: ReadonlyMap<string, string> = new Map([
  [KEY_OID.rsa, "RSA"],
  [KEY_OID.ec, "EC"],
  [KEY_OID.ed25519, "Ed25519"],
  [KEY_OID.ed448, "Ed448"],
  [KEY_OID.dsa, "DSA"],
]);

/** The NIST names OpenSSL prints as `NIST CURVE:` beside these three named curves. */
const NIST_CURVE_NAMES: ReadonlyMap<string, string> = new Map([
  ["1.2.840.10045.3.1.7", "P-256"],
  ["1.3.132.0.34", "P-384"],
  ["1.3.132.0.35", "P-521"],
]);

/**
 * Bits of the group order of every named curve OpenSSL 3 lists (`openssl ecparam -list_curves`),
 * by OID: what `EVP_PKEY_get_bits` answers for an EC key (EC_GROUP_order_bits). Taken from
 * `openssl pkey -text` of a key on each curve; tests/adapters/public-key-facts.test.ts compares
 * every entry with the installed openssl.
 */
const CURVE_ORDER_BITS: ReadonlyMap<string, number> = new Map(
  `1.3.132.0.6 112|1.3.132.0.7 110|1.3.132.0.28 128|1.3.132.0.29 126|1.3.132.0.9 161|1.3.132.0.8 161|
1.3.132.0.30 161|1.3.132.0.31 192|1.3.132.0.32 225|1.3.132.0.33 224|1.3.132.0.10 256|1.3.132.0.34 384|
1.3.132.0.35 521|1.2.840.10045.3.1.1 192|1.2.840.10045.3.1.2 192|1.2.840.10045.3.1.3 192|
1.2.840.10045.3.1.4 239|1.2.840.10045.3.1.5 239|1.2.840.10045.3.1.6 239|1.2.840.10045.3.1.7 256|
1.3.132.0.4 113|1.3.132.0.5 113|1.3.132.0.22 131|1.3.132.0.23 131|1.3.132.0.1 163|1.3.132.0.2 162|
1.3.132.0.15 163|1.3.132.0.24 193|1.3.132.0.25 193|1.3.132.0.26 232|1.3.132.0.27 233|1.3.132.0.3 238|
1.3.132.0.16 281|1.3.132.0.17 282|1.3.132.0.36 407|1.3.132.0.37 409|1.3.132.0.38 570|1.3.132.0.39 570|
1.2.840.10045.3.0.1 163|1.2.840.10045.3.0.2 162|1.2.840.10045.3.0.3 162|1.2.840.10045.3.0.4 161|
1.2.840.10045.3.0.5 191|1.2.840.10045.3.0.6 190|1.2.840.10045.3.0.7 189|1.2.840.10045.3.0.10 193|
1.2.840.10045.3.0.11 238|1.2.840.10045.3.0.12 237|1.2.840.10045.3.0.13 236|1.2.840.10045.3.0.16 257|
1.2.840.10045.3.0.17 289|1.2.840.10045.3.0.18 353|1.2.840.10045.3.0.19 353|1.2.840.10045.3.0.20 418|
2.23.43.1.4.1 112|2.23.43.1.4.3 163|2.23.43.1.4.4 113|2.23.43.1.4.5 163|2.23.43.1.4.6 112|
2.23.43.1.4.7 161|2.23.43.1.4.8 113|2.23.43.1.4.9 161|2.23.43.1.4.10 232|2.23.43.1.4.11 233|
2.23.43.1.4.12 224|1.3.36.3.3.2.8.1.1.1 160|1.3.36.3.3.2.8.1.1.2 160|1.3.36.3.3.2.8.1.1.3 192|
1.3.36.3.3.2.8.1.1.4 192|1.3.36.3.3.2.8.1.1.5 224|1.3.36.3.3.2.8.1.1.6 224|1.3.36.3.3.2.8.1.1.7 256|
1.3.36.3.3.2.8.1.1.8 256|1.3.36.3.3.2.8.1.1.9 320|1.3.36.3.3.2.8.1.1.10 320|1.3.36.3.3.2.8.1.1.11 384|
1.3.36.3.3.2.8.1.1.12 384|1.3.36.3.3.2.8.1.1.13 512|1.3.36.3.3.2.8.1.1.14 512|1.2.156.10197.1.301 256`
    .split(/[|\n]/)
    .map((entry) => {
      const [oid, bits] = entry.split(" ") as [string, string];
      return [oid, Number(bits)] as const;
    }),
);

/** Octets of a whole Ed25519 and Ed448 public key (RFC 8410 §3). */
const ED25519_KEY_OCTETS = 32;
const ED448_KEY_OCTETS = 57;

const UNREADABLE: PublicKeyFacts = { keyType: "", keyBits: null, keyCurve: null };

/**
 * The key facts of one DER SubjectPublicKeyInfo. Never throws: DER that is not a
 * SubjectPublicKeyInfo gives keyType `""` (the certificate decoder refuses such a certificate
 * before asking).
 */
export function publicKeyFacts(spki: Uint8Array): PublicKeyFacts {
  const outer = readTlv(spki, 0, spki.length);
  const parts = outer !== null && outer.end === spki.length ? sequence(spki, outer) : null;
  const algorithm = parts?.length === 2 ? readAlgorithm(spki, parts[0]) : null;
  const key = parts?.[1];
  if (algorithm === null || !isBitString(spki, key)) return UNREADABLE;
  // The key's octets: a public key is a whole number of octets (no unused bits).
  const keyOctets = spki[key.body] === 0 ? { start: key.body + 1, end: key.end } : null;
  const keyType = KEY_TYPE_NAMES.get(algorithm.oid) ?? algorithm.oid;
  switch (algorithm.oid) {
    case KEY_OID.rsa:
    case KEY_OID.rsassaPss:
      return { keyType, keyBits: keyOctets && rsaModulusBits(spki, keyOctets), keyCurve: null };
    case KEY_OID.ec:
      return { keyType, ...ecCurve(spki, algorithm.params) };
    case KEY_OID.ed25519:
      return { keyType, keyBits: octetCount(keyOctets) === ED25519_KEY_OCTETS ? 256 : null, keyCurve: null };
    case KEY_OID.ed448:
      return { keyType, keyBits: octetCount(keyOctets) === ED448_KEY_OCTETS ? 456 : null, keyCurve: null };
    case KEY_OID.dsa:
      return { keyType, keyBits: dsaPrimeBits(spki, algorithm.params), keyCurve: null };
    default:
      return { keyType, keyBits: null, keyCurve: null };
  }
}

function octetCount(span: { start: number; end: number } | null): number {
  return span === null ? -1 : span.end - span.start;
}

/** Bits of a positive, minimally encoded INTEGER's value, or null. */
function positiveIntegerBits(buf: Uint8Array, t: Tlv | undefined): number | null {
  if (!isUniversal(t, TAG.INTEGER, false) || t.end === t.body) return null;
  let at = t.body;
  if (buf[at]! >= 0x80) return null; // negative
  if (buf[at] === 0 && t.end - at > 1) {
    if (buf[at + 1]! < 0x80) return null; // not minimal
    at++;
  }
  const first = buf[at]!;
  if (first === 0) return null; // zero
  return (t.end - at - 1) * 8 + (32 - Math.clz32(first));
}

/** RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER } (RFC 8017 §A.1.1): the modulus bits. */
function rsaModulusBits(buf: Uint8Array, octets: { start: number; end: number }): number | null {
  const body = readTlv(buf, octets.start, octets.end);
  if (body === null || body.end !== octets.end) return null;
  const fields = sequence(buf, body);
  if (fields?.length !== 2 || positiveIntegerBits(buf, fields[1]) === null) return null;
  return positiveIntegerBits(buf, fields[0]);
}

/**
 * ECParameters (RFC 5480 §2.1.1): a named curve's OID gives its name and order bits; explicit
 * SpecifiedECDomain parameters (RFC 3279 §2.3.5) give the bits of their `order` and no name;
 * anything else (implicitlyCA) neither.
 */
function ecCurve(buf: Uint8Array, params: Tlv | undefined): Pick<PublicKeyFacts, "keyBits" | "keyCurve"> {
  const named = readOid(buf, params);
  if (named !== null) {
    return {
      keyBits: CURVE_ORDER_BITS.get(named) ?? null,
      keyCurve: NIST_CURVE_NAMES.get(named) ?? opensslShortName(named) ?? named,
    };
  }
  // SpecifiedECDomain ::= SEQUENCE { version, fieldID, curve, base, order, cofactor OPTIONAL, … }
  const explicit = sequence(buf, params);
  return { keyBits: explicit === null ? null : positiveIntegerBits(buf, explicit[4]), keyCurve: null };
}

/** Dss-Parms ::= SEQUENCE { p INTEGER, q INTEGER, g INTEGER } (RFC 3279 §2.3.2): the bits of p. */
function dsaPrimeBits(buf: Uint8Array, params: Tlv | undefined): number | null {
  const fields = params === undefined ? null : sequence(buf, params);
  if (fields?.length !== 3) return null;
  return positiveIntegerBits(buf, fields[0]);
}
