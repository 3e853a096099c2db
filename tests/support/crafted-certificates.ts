/**
 * Hostile certificate bundles made in the test with WebCrypto (no openssl, nothing on disk to
 * keep in step): the inputs of CONTRACT §7.3 "Local work is bounded too".
 *
 * - {@link crossSigningRing}: a leaf and a ring of CAs named X and Y issuing each other with two
 *   keys, key identifiers making every certificate distinct, so the path search cannot group
 *   them (the bundle of issue 24's attack: 22 certificates ran 18–45 s at about 1 GB).
 * - {@link sameNameP521Cas}: self-issued P-521 CAs sharing one name, each with its own key, so
 *   every certificate is a candidate issuer of every other (n² ECDSA P-521 checks).
 * - {@link rootAndLeaf}: a root and a leaf with the validity and SANs a test needs (expiry against
 *   the real clock, which fixed fixtures cannot give).
 *
 * Certificates are real and correctly signed (ECDSA with SHA-512), so the CLI's real verifier
 * checks them. The DER is written with tests/adapters/der-builder.ts.
 */
import { atv, CN, concat, extension, name, oid, rdn, seq, tlv, utf8 } from "../adapters/der-builder.ts";

const ECDSA_WITH_SHA512 = "1.2.840.10045.4.3.4";
const BASIC_CONSTRAINTS = "2.5.29.19";
const SUBJECT_KEY_IDENTIFIER = "2.5.29.14";
const AUTHORITY_KEY_IDENTIFIER = "2.5.29.35";
const SUBJECT_ALT_NAME = "2.5.29.17";
const EXTENDED_KEY_USAGE = "2.5.29.37";
const SERVER_AUTH = "1.3.6.1.5.5.7.3.1";

type Curve = "P-256" | "P-521";

interface KeyPair {
  privateKey: CryptoKey;
  spki: Uint8Array<ArrayBuffer>;
}

async function newKey(curve: Curve): Promise<KeyPair> {
  const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: curve }, true, [
    "sign",
    "verify",
  ])) as CryptoKeyPair;
  return {
    privateKey: pair.privateKey,
    spki: new Uint8Array(await crypto.subtle.exportKey("spki", pair.publicKey)),
  };
}

/** A positive DER INTEGER from big-endian magnitude bytes. */
function integer(magnitude: Uint8Array): Uint8Array<ArrayBuffer> {
  let start = 0;
  while (start < magnitude.length - 1 && magnitude[start] === 0) start++;
  const trimmed = magnitude.slice(start);
  return tlv(0x02, (trimmed[0]! & 0x80) !== 0 ? concat(Uint8Array.of(0), trimmed) : trimmed);
}

/** WebCrypto's r‖s signature as an ECDSA-Sig-Value. */
function ecdsaSigValue(raw: Uint8Array): Uint8Array<ArrayBuffer> {
  const half = raw.length / 2;
  return seq(integer(raw.slice(0, half)), integer(raw.slice(half)));
}

const utcTime = (text: string) => tlv(0x17, new TextEncoder().encode(text));
const cn = (commonName: string) => name(rdn(atv(CN, utf8(commonName))));

function keyId(text: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(text.padEnd(20, "."));
}

interface CertificateSpec {
  serial: number;
  subject: string;
  issuer: string;
  key: KeyPair;
  signer: KeyPair;
  ca: boolean;
  subjectKeyId?: string;
  authorityKeyId?: string;
  /** Default 2020-01-01 to 2049-12-31. */
  validity?: { notBefore: Date; notAfter: Date };
  /** subjectAltName entries: DNS names, or IPv4 addresses as `ip:192.0.2.1`. */
  sans?: string[];
}

/** UTCTime (years 1950–2049, RFC 5280 §4.1.2.5.1) of an instant, to the second. */
function utcTimeOf(date: Date): Uint8Array<ArrayBuffer> {
  const iso = date.toISOString();
  return utcTime(
    `${iso.slice(2, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`,
  );
}

function generalName(entry: string): Uint8Array<ArrayBuffer> {
  if (entry.startsWith("ip:")) return tlv(0x87, Uint8Array.from(entry.slice(3).split(".").map(Number)));
  return tlv(0x82, new TextEncoder().encode(entry));
}

/** One certificate as DER, signed with ECDSA and SHA-512 by `signer`. */
async function certificate(spec: CertificateSpec): Promise<Uint8Array<ArrayBuffer>> {
  const algorithm = seq(oid(ECDSA_WITH_SHA512));
  const extensions: Uint8Array[] = [
    extension(BASIC_CONSTRAINTS, spec.ca ? seq(Uint8Array.of(0x01, 0x01, 0xff)) : seq(), true),
  ];
  if (spec.subjectKeyId !== undefined) {
    extensions.push(extension(SUBJECT_KEY_IDENTIFIER, tlv(0x04, keyId(spec.subjectKeyId))));
  }
  // A server's leaf as clients want it (CONTRACT §8.1): extendedKeyUsage serverAuth.
  if (!spec.ca) extensions.push(extension(EXTENDED_KEY_USAGE, seq(oid(SERVER_AUTH))));
  if (spec.sans !== undefined)
    extensions.push(extension(SUBJECT_ALT_NAME, seq(...spec.sans.map(generalName))));
  if (spec.authorityKeyId !== undefined) {
    extensions.push(extension(AUTHORITY_KEY_IDENTIFIER, seq(tlv(0x80, keyId(spec.authorityKeyId)))));
  }
  const serial = new Uint8Array(4);
  new DataView(serial.buffer).setUint32(0, spec.serial);
  const tbs = seq(
    tlv(0xa0, tlv(0x02, Uint8Array.of(2))),
    integer(serial),
    algorithm,
    cn(spec.issuer),
    spec.validity === undefined
      ? seq(utcTime("200101000000Z"), utcTime("491231235959Z"))
      : seq(utcTimeOf(spec.validity.notBefore), utcTimeOf(spec.validity.notAfter)),
    cn(spec.subject),
    spec.key.spki,
    tlv(0xa3, seq(...extensions)),
  );
  const raw = new Uint8Array(
    await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-512" }, spec.signer.privateKey, tbs),
  );
  return seq(tbs, algorithm, tlv(0x03, concat(Uint8Array.of(0), ecdsaSigValue(raw))));
}

/** PEM text of DER certificates, one block each. */
export function pemOf(ders: readonly Uint8Array[]): string {
  return ders
    .map((der) => {
      const base64 = Buffer.from(der).toString("base64");
      return `-----BEGIN CERTIFICATE-----\n${base64.match(/.{1,64}/g)!.join("\n")}\n-----END CERTIFICATE-----\n`;
    })
    .join("");
}

/**
 * A leaf issued by X and `caCount` CAs: X_i (key kx, signed by ky) and Y_i (key ky, signed by kx).
 * X_i's authority key id names Y_i, Y_i's names X_(i+1), and every subject key id is its own, so
 * no two certificates can swap places on a path: the search must look at used sets one by one.
 * No path is complete (nothing is self-signed, no root matches).
 */
export async function crossSigningRing(caCount: number): Promise<string> {
  const kx = await newKey("P-256");
  const ky = await newKey("P-256");
  const leafKey = await newKey("P-256");
  const ders = [
    await certificate({
      serial: 1,
      subject: "leaf.ring.test",
      issuer: "X",
      key: leafKey,
      signer: kx,
      ca: false,
    }),
  ];
  for (let k = 0; k < caCount; k++) {
    const x = k % 2 === 0;
    const i = Math.floor(k / 2);
    ders.push(
      await certificate({
        serial: k + 2,
        subject: x ? "X" : "Y",
        issuer: x ? "Y" : "X",
        key: x ? kx : ky,
        signer: x ? ky : kx,
        ca: true,
        subjectKeyId: x ? `A${i}` : `B${i}`,
        authorityKeyId: x ? `B${i}` : `A${i + 1}`,
      }),
    );
  }
  return pemOf(ders);
}

/** `count` self-issued P-521 CAs named "Same Name CA", each with its own key (and self-signed). */
export async function sameNameP521Cas(count: number): Promise<string> {
  const ders: Uint8Array[] = [];
  for (let k = 0; k < count; k++) {
    const key = await newKey("P-521");
    ders.push(
      await certificate({
        serial: k + 1,
        subject: "Same Name CA",
        issuer: "Same Name CA",
        key,
        signer: key,
        ca: true,
      }),
    );
  }
  return pemOf(ders);
}

/**
 * A root and a leaf it issued, as two PEM texts: the leaf valid from `notBefore` to `notAfter`
 * with the given SANs (for expiry and hostname rules against the real clock).
 */
export async function rootAndLeaf(options: {
  notBefore: Date;
  notAfter: Date;
  sans: string[];
}): Promise<{ rootPem: string; leafPem: string }> {
  const rootKey = await newKey("P-256");
  const leafKey = await newKey("P-256");
  const root = await certificate({
    serial: 1,
    subject: "Crafted Root",
    issuer: "Crafted Root",
    key: rootKey,
    signer: rootKey,
    ca: true,
    subjectKeyId: "root",
  });
  const leaf = await certificate({
    serial: 2,
    subject: "crafted.example",
    issuer: "Crafted Root",
    key: leafKey,
    signer: rootKey,
    ca: false,
    authorityKeyId: "root",
    validity: { notBefore: options.notBefore, notAfter: options.notAfter },
    sans: options.sans,
  });
  return { rootPem: pemOf([root]), leafPem: pemOf([leaf]) };
}
