/**
 * Test doubles for certificate data: a builder of plain CertificateData objects and a fake
 * CertificateDecoder that maps their (fake) DER back to them.
 *
 * The fake DER is the text `FAKE-X509 ` followed by the JSON of the certificate's fields and the id
 * of the key that signed it, so the scripted verifier (verifier.ts) can decide signatures from the
 * data alone, as a real verifier decides them from the bytes. The fingerprint is the real SHA-256 of
 * that DER, so two specs that differ in anything get different fingerprints.
 */
import { createHash } from "node:crypto";
import type {
  CertificateData,
  NameConstraints,
  SubjectAltName,
} from "../../src/domain/certificates/model.ts";
import { ipOctets } from "../../src/domain/certificates/name-constraints.ts";
import type { CertificationRequestData } from "../../src/domain/certificates/request-model.ts";
import { parseAddr } from "../../src/domain/ip/addr.ts";
import type { CertificateDecoder } from "../../src/domain/ports.ts";

const FAKE_DER_PREFIX = "FAKE-X509 ";

export interface CertSpec {
  /** RFC 4514 text, e.g. `CN=leaf.example.com`. */
  subject: string;
  /** Defaults to `subject` (self-issued). */
  issuer?: string;
  /** Id of this certificate's public key; defaults to `key:<subject>`. */
  key?: string;
  /** Id of the key that signed it; defaults to its own key when self-issued, else `key:<issuer>`. */
  signedBy?: string;
  ca?: boolean;
  /** Defaults to `ca`. */
  basicConstraintsPresent?: boolean;
  /** Defaults to true for a CA, null (no keyUsage) otherwise. */
  keyCertSign?: boolean | null;
  subjectKeyIdentifier?: string | null;
  authorityKeyIdentifier?: string | null;
  /** Plain strings are `dns` names. */
  sans?: (string | SubjectAltName)[];
  notBefore?: string;
  notAfter?: string;
  serialNumber?: string;
  signatureAlgorithm?: string;
  signatureAlgorithmOid?: string;
  /** Defaults to true; false stands for a certificate whose inner and outer algorithms differ. */
  signatureAlgorithmsMatch?: boolean;
  /** Defaults to the value of a leading `CN=` in the subject, else null. */
  commonName?: string | null;
  /** Authority Information Access URIs; default none. */
  caIssuersUrls?: string[];
  ocspUrls?: string[];
  /** Anything: changes the DER (and so the fingerprint) without changing any other field. */
  variant?: string;
  /** Key facts (CONTRACT §8.1); default an EC P-256 key. */
  keyType?: string;
  keyBits?: number | null;
  keyCurve?: string | null;
  /** Default `SHA-256`. */
  signatureDigest?: string | null;
  /** Default `["serverAuth"]` for a non-CA, null (no extension) for a CA. */
  extendedKeyUsage?: string[] | null;
  pathLenConstraint?: number | null;
  /** Subtrees by form (IP as CIDR text, directoryName as RFC 4514 text of a fake Name); default none. */
  nameConstraints?: {
    permitted?: SubtreeSpec;
    excluded?: SubtreeSpec;
  } | null;
  /** Default 2 (a publicly logged certificate). */
  sctCount?: number;
  /** The earliest embedded SCT's time; default none. */
  earliestSctAt?: string | null;
  /** Dotted OIDs of the extensions marked critical; default none. */
  criticalExtensions?: string[];
  crlUrls?: string[];
}

/** One side of a fake nameConstraints extension. */
export interface SubtreeSpec {
  dns?: string[];
  ip?: string[];
  email?: string[];
  uri?: string[];
  directoryName?: string[];
  unsupported?: string[];
}

/** Validity used when a spec gives none: 2025-01-01 to 2027-01-01. */
export const DEFAULT_NOT_BEFORE = "2025-01-01T00:00:00Z";
export const DEFAULT_NOT_AFTER = "2027-01-01T00:00:00Z";

/** Builds the plain data of one certificate. */
export function makeCertificate(spec: CertSpec): CertificateData {
  const issuer = spec.issuer ?? spec.subject;
  const key = spec.key ?? `key:${spec.subject}`;
  const signedBy = spec.signedBy ?? (issuer === spec.subject ? key : `key:${issuer}`);
  const ca = spec.ca ?? false;
  const sans = (spec.sans ?? []).map((san) => (typeof san === "string" ? { type: "dns", value: san } : san));
  const fields = {
    subject: spec.subject,
    issuer,
    key,
    signedBy,
    ca,
    basicConstraintsPresent: spec.basicConstraintsPresent ?? ca,
    keyCertSign: spec.keyCertSign === undefined ? (ca ? true : null) : spec.keyCertSign,
    subjectKeyIdentifier: spec.subjectKeyIdentifier ?? null,
    authorityKeyIdentifier: spec.authorityKeyIdentifier ?? null,
    sans,
    notBefore: spec.notBefore ?? DEFAULT_NOT_BEFORE,
    notAfter: spec.notAfter ?? DEFAULT_NOT_AFTER,
    serialNumber: spec.serialNumber ?? "01",
    signatureAlgorithm: spec.signatureAlgorithm ?? "sha256WithRSAEncryption",
    signatureAlgorithmOid: spec.signatureAlgorithmOid ?? "1.2.840.113549.1.1.11",
    signatureAlgorithmsMatch: spec.signatureAlgorithmsMatch ?? true,
    commonName:
      spec.commonName === undefined ? (/^CN=([^,]*)/.exec(spec.subject)?.[1] ?? null) : spec.commonName,
    caIssuersUrls: spec.caIssuersUrls ?? [],
    ocspUrls: spec.ocspUrls ?? [],
    variant: spec.variant ?? null,
    keyType: spec.keyType ?? "EC",
    keyBits: spec.keyBits === undefined ? 256 : spec.keyBits,
    keyCurve: spec.keyCurve === undefined ? "P-256" : spec.keyCurve,
    signatureDigest: spec.signatureDigest === undefined ? "SHA-256" : spec.signatureDigest,
    extendedKeyUsage:
      spec.extendedKeyUsage === undefined ? (ca ? null : ["serverAuth"]) : spec.extendedKeyUsage,
    pathLenConstraint: spec.pathLenConstraint ?? null,
    nameConstraints: spec.nameConstraints ?? null,
    sctCount: spec.sctCount ?? 2,
    crlUrls: spec.crlUrls ?? [],
    earliestSctAt: spec.earliestSctAt ?? null,
    criticalExtensions: spec.criticalExtensions ?? [],
  };
  const der = new TextEncoder().encode(FAKE_DER_PREFIX + JSON.stringify(fields));
  const keyBytes = new TextEncoder().encode(fields.key);
  return {
    der,
    // Fakes never reach a real verifier: the spans hold the fake's own bytes, the key its id.
    tbs: der,
    signatureParameters: null,
    signatureValue: new Uint8Array(),
    publicKey: { spki: keyBytes, algorithmOid: "fake", parameters: null, subjectPublicKey: keyBytes },
    fingerprintSha256: fingerprint(der),
    subject: fields.subject,
    issuer: fields.issuer,
    subjectNameKey: nameKey(fields.subject),
    issuerNameKey: nameKey(fields.issuer),
    commonName: fields.commonName,
    serialNumber: fields.serialNumber,
    sans: fields.sans,
    notBefore: new Date(fields.notBefore),
    notAfter: new Date(fields.notAfter),
    basicConstraintsPresent: fields.basicConstraintsPresent,
    ca: fields.ca,
    keyCertSign: fields.keyCertSign,
    subjectKeyIdentifier: fields.subjectKeyIdentifier,
    authorityKeyIdentifier: fields.authorityKeyIdentifier,
    signatureAlgorithm: fields.signatureAlgorithm,
    signatureAlgorithmOid: fields.signatureAlgorithmOid,
    signatureAlgorithmsMatch: fields.signatureAlgorithmsMatch,
    publicKeyKey: Buffer.from(fields.key).toString("hex"),
    caIssuersUrls: fields.caIssuersUrls,
    ocspUrls: fields.ocspUrls,
    keyType: fields.keyType,
    keyBits: fields.keyBits,
    keyCurve: fields.keyCurve,
    publicKeySha256: createHash("sha256").update(keyBytes).digest("hex"),
    signatureDigest: fields.signatureDigest,
    extendedKeyUsage: fields.extendedKeyUsage,
    pathLenConstraint: fields.pathLenConstraint,
    nameConstraints: fields.nameConstraints === null ? null : nameConstraintsOf(fields.nameConstraints),
    sctCount: fields.sctCount,
    earliestSctAt: fields.earliestSctAt === null ? null : new Date(fields.earliestSctAt),
    criticalExtensions: fields.criticalExtensions,
    crlUrls: fields.crlUrls,
  };
}

/** The model's name constraints from CIDR text: `10.0.0.0/8` → address and mask octets. */
function nameConstraintsOf(spec: NonNullable<CertSpec["nameConstraints"]>): NameConstraints {
  const side = (subtrees: SubtreeSpec | undefined) => ({
    dns: subtrees?.dns ?? [],
    email: subtrees?.email ?? [],
    uri: subtrees?.uri ?? [],
    directoryName: (subtrees?.directoryName ?? []).map((name) => rdnsKey(name)),
    unsupported: subtrees?.unsupported ?? [],
    ip: (subtrees?.ip ?? []).map((cidr) => {
      const [text, bits] = cidr.split("/") as [string, string];
      const parsed = parseAddr(text);
      if (!parsed.ok) throw new Error(`bad CIDR ${cidr} in a fake certificate`);
      const address = ipOctets(parsed.value);
      const mask = new Uint8Array(address.length);
      for (let k = 0; k < Number(bits); k++) mask[k >> 3]! |= 0x80 >> (k & 7);
      return { address, mask };
    }),
  });
  return { permitted: side(spec.permitted), excluded: side(spec.excluded) };
}

/** The public-key identity (`publicKeyKey`) the builder gives a key id. */
export function publicKeyKeyOf(keyId: string): string {
  return Buffer.from(keyId).toString("hex");
}

/** The `publicKeyKey` of the key that signed a fake certificate, or null for anything else. */
export function signerOf(certificate: CertificateData): string | null {
  const text = new TextDecoder().decode(certificate.der);
  if (!text.startsWith(FAKE_DER_PREFIX)) return null;
  const fields = JSON.parse(text.slice(FAKE_DER_PREFIX.length)) as { signedBy: string };
  return publicKeyKeyOf(fields.signedBy);
}

/** PEM text of one certificate: base64 in lines of `lineLength`, joined with `eol`. */
export function toPem(certificate: CertificateData | Uint8Array, eol = "\n", lineLength = 64): string {
  const der = certificate instanceof Uint8Array ? certificate : certificate.der;
  const base64 = Buffer.from(der).toString("base64");
  const lines = base64.match(new RegExp(`.{1,${lineLength}}`, "g")) ?? [];
  return ["-----BEGIN CERTIFICATE-----", ...lines, "-----END CERTIFICATE-----"].join(eol) + eol;
}

/** The PEM bundle of several certificates, one after the other. */
export function bundleOf(certificates: readonly CertificateData[], eol = "\n"): string {
  return certificates.map((certificate) => toPem(certificate, eol)).join("");
}

/** What a fake certification request is made of; every field has a default. */
export interface RequestSpec {
  /** RFC 4514 text; defaults to `CN=www.example.com`. */
  subject?: string;
  /** Plain strings are `dns` names; defaults to `["www.example.com"]`. */
  sans?: (string | SubjectAltName)[];
  /** Id of the request's key; defaults to `key:<subject>`. */
  key?: string;
  /** Id of the key that signed it; defaults to its own key (a good self-signature). */
  signedBy?: string;
  keyType?: string;
  keyBits?: number | null;
  keyCurve?: string | null;
  signatureAlgorithm?: string;
  signatureUsesSha1?: boolean;
}

/**
 * Builds the plain data of one certification request. Its fake DER has the certificates' prefix,
 * so the scripted verifier decides its self-signature the same way: verified when `signedBy` is
 * its own key.
 */
export function makeRequest(spec: RequestSpec = {}): CertificationRequestData {
  const subject = spec.subject ?? "CN=www.example.com";
  const key = spec.key ?? `key:${subject}`;
  const fields = {
    request: true,
    subject,
    key,
    signedBy: spec.signedBy ?? key,
    sans: (spec.sans ?? ["www.example.com"]).map((san) =>
      typeof san === "string" ? { type: "dns", value: san } : san,
    ),
    keyType: spec.keyType ?? "EC",
    keyBits: spec.keyBits === undefined ? 256 : spec.keyBits,
    keyCurve: spec.keyCurve === undefined ? "P-256" : spec.keyCurve,
    signatureAlgorithm: spec.signatureAlgorithm ?? "ecdsa-with-SHA256",
    signatureUsesSha1: spec.signatureUsesSha1 ?? false,
  };
  const der = new TextEncoder().encode(FAKE_DER_PREFIX + JSON.stringify(fields));
  const keyBytes = new TextEncoder().encode(key);
  return {
    der,
    tbs: der,
    signatureParameters: null,
    signatureValue: new Uint8Array(),
    signatureAlgorithm: fields.signatureAlgorithm,
    signatureAlgorithmOid: "fake",
    signatureUsesSha1: fields.signatureUsesSha1,
    publicKey: { spki: keyBytes, algorithmOid: "fake", parameters: null, subjectPublicKey: keyBytes },
    publicKeyKey: publicKeyKeyOf(key),
    publicKeySha256: createHash("sha256").update(keyBytes).digest("hex"),
    keyType: fields.keyType,
    keyBits: fields.keyBits,
    keyCurve: fields.keyCurve,
    subject,
    commonName: /^CN=([^,]*)/.exec(subject)?.[1] ?? null,
    sans: fields.sans,
  };
}

/**
 * A decoder that knows the given certificates (and requests) by their DER and rejects any other
 * bytes, as a real decoder rejects bytes that are not one X.509 certificate (or PKCS#10 request).
 * Counts its calls.
 */
export function fakeDecoder(
  certificates: readonly CertificateData[],
  requests: readonly CertificationRequestData[] = [],
) {
  const known = new Map(certificates.map((certificate) => [hex(certificate.der), certificate]));
  const knownRequests = new Map(requests.map((request) => [hex(request.der), request]));
  let calls = 0;
  return {
    async decode(der: Uint8Array) {
      calls++;
      const certificate = known.get(hex(der));
      return certificate
        ? ({ ok: true, certificate } as const)
        : ({ ok: false, reason: "not an X.509 certificate" } as const);
    },
    async decodeRequest(der: Uint8Array) {
      calls++;
      const request = knownRequests.get(hex(der));
      return request
        ? ({ ok: true, request } as const)
        : ({ ok: false, reason: "not a PKCS#10 certification request" } as const);
    },
    get calls(): number {
      return calls;
    },
  } satisfies CertificateDecoder & { readonly calls: number };
}

function fingerprint(der: Uint8Array): string {
  const digest = createHash("sha256").update(der).digest("hex").toUpperCase();
  return digest.match(/../g)!.join(":");
}

/** A DER Name: a SEQUENCE of one SET per RDN, most general first (RFC 4514 reversed). */
function nameKey(name: string): string {
  return `30${derLength(rdnsKey(name).length / 2)}${rdnsKey(name)}`;
}

/** A `directoryName` SAN with its DER, as the decoder reads one (CONTRACT §9.4 compares it). */
export function directoryNameSan(name: string): SubjectAltName {
  return { type: "directoryName", value: name, nameKey: nameKey(name) };
}

/** DER content of the attribute types the fakes' names use; `emailAddress` is an IA5String, `C` a PrintableString. */
const ATTRIBUTE_OIDS: Record<string, string> = {
  CN: "550403",
  C: "550406",
  L: "550407",
  ST: "550408",
  O: "55040a",
  OU: "55040b",
  DC: "0992268993f22c640119",
  emailAddress: "2a864886f70d010901",
};

/**
 * The content of the Name: its RDNs as DER SETs of one `SEQUENCE { OID, value }` each, hex (what a
 * directoryName subtree holds). Values are UTF8Strings unless `ATTRIBUTE_OIDS` says otherwise; an
 * RDN of an unknown type is kept as its text inside the SET (such names compare by octets).
 */
export function rdnsKey(name: string): string {
  const rdns = name === "" ? [] : name.split(",").reverse();
  return rdns
    .map((rdn) => {
      const text = rdn.trim();
      const equals = text.indexOf("=");
      const type = equals < 0 ? "" : text.slice(0, equals);
      const oid = ATTRIBUTE_OIDS[type];
      let body: string;
      if (oid === undefined) body = Buffer.from(text).toString("hex");
      else {
        const value = Buffer.from(text.slice(equals + 1)).toString("hex");
        const tag = type === "emailAddress" ? "16" : type === "C" ? "13" : "0c";
        const pair = `06${derLength(oid.length / 2)}${oid}${tag}${derLength(value.length / 2)}${value}`;
        body = `30${derLength(pair.length / 2)}${pair}`;
      }
      return `31${derLength(body.length / 2)}${body}`;
    })
    .join("");
}

function derLength(length: number): string {
  if (length < 0x80) return length.toString(16).padStart(2, "0");
  const bytes = length.toString(16).padStart(length > 0xff ? 4 : 2, "0");
  return `${(0x80 + bytes.length / 2).toString(16)}${bytes}`;
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex");
}
