/**
 * The ports: the only ways the domain reaches time, cryptography and the network.
 * Adapters implement them; tests implement them with fakes (typed with `satisfies`).
 */
import type { CertificateData } from "./certificates/model.ts";
import type { CertificationRequestData } from "./certificates/request-model.ts";
import type { RevocationListData } from "./certificates/revocation-list-model.ts";
import type { IpAddr } from "./ip/addr.ts";

/** The current instant. Injected so tests can evaluate a bundle at any time. */
export interface Clock {
  now(): Date;
}

/** Outcome of one signature check (spec §2.10, §2.11; CONTRACT §4.2). */
export type SignatureOutcome = "verified" | "failed" | "unsupported" | "unavailable";

export interface SignatureCheck {
  outcome: SignatureOutcome;
  /** Why a check was `unavailable` or `unsupported`: a short phrase, never certificate content. */
  reason?: string;
}

/**
 * Checks that `child`'s signature was made by the key in `issuer`'s SubjectPublicKeyInfo.
 * Never throws: `unsupported` for algorithms it does not implement (decided by OID),
 * `unavailable` when the check could not run (unusable key, verifier error).
 */
export interface SignatureVerifier {
  verify(child: CertificateData, issuer: CertificateData): Promise<SignatureCheck>;
}

/** Decodes DER bytes into plain certificate data, or reports why they are not one X.509 certificate. */
export interface CertificateDecoder {
  decode(der: Uint8Array): Promise<CertificateDecodeResult>;
  /**
   * Decodes DER bytes into one PKCS#10 certification request (RFC 2986; CONTRACT §8.2), as strict
   * as `decode`, or reports why they are not one. Never throws.
   */
  decodeRequest(der: Uint8Array): Promise<CertificationRequestDecodeResult>;
}

export type CertificateDecodeResult =
  | { ok: true; certificate: CertificateData }
  | { ok: false; reason: string };

export type CertificationRequestDecodeResult =
  | { ok: true; request: CertificationRequestData }
  | { ok: false; reason: string };

/**
 * A reference store of root CA certificates (CONTRACT §4.3 `issuerIsKnownRoot`, §7.1 anchors):
 * Mozilla's roots as bundled with the runtime in production, a fake in tests. For the bundle, a
 * hint for the wording of `ISSUER_NOT_IN_BUNDLE` ("the root was left out, which is normal" versus
 * "an intermediate is most likely missing"); for the chain, the candidates that may end a path once
 * their key verifies the member (CONTRACT §7.2). Synchronous and cheap: the store is indexed once.
 */
export interface RootStore {
  /**
   * True when a root's subject name has the DER `issuerNameKey` (lowercase hex, as
   * `CertificateData.issuerNameKey`) and, when both are known, the root's subjectKeyIdentifier
   * equals `authorityKeyIdentifier` (hex bytes, colons and case ignored).
   */
  isKnownRoot(issuerNameKey: string, authorityKeyIdentifier: string | null): boolean;
  /**
   * The DER of every root that `isKnownRoot` counts for the same question, in store order (empty
   * when none): the certificates whose key may verify a chain's last member, and that a chain's
   * `includeRoot` appends (CONTRACT §7.1, §7.2).
   */
  findRoots(issuerNameKey: string, authorityKeyIdentifier: string | null): readonly Uint8Array[];
  /**
   * The distrust dates the store's curators attach to the root with exactly this DER (CONTRACT
   * §9.2, §9.5 `ROOT_DISTRUSTED_FOR_NEW_CERTS`), or null when the root carries none or is not in
   * the store. Optional: a store read from a plain PEM file has no dates.
   */
  distrustOf?(rootDer: Uint8Array): RootDistrust | null;
  /** Where the store came from and what it holds (CONTRACT §9.2 `GET /v1/reference-roots`). */
  describe(): ReferenceRootsInfo;
}

/** A reference store's description: the answer of `GET /v1/reference-roots` and `nettools roots`. */
export interface ReferenceRootsInfo {
  /** `built-in`: the committed snapshot; `file`: REFERENCE_ROOTS_FILE or `--reference-roots`. */
  source: "built-in" | "file";
  /** The snapshot's version text, or the file's base name. */
  version: string;
  /** How many roots the store holds (those that read). */
  certificates: number;
  /** How many of them carry a distrust date (Firefox's or Chrome's). */
  distrustDates: number;
  /** SHA-256 (lowercase hex) over the roots' DER, concatenated in store order. */
  sha256: string;
}

/**
 * A reference root's distrust dates, each in milliseconds since the epoch (UTC) or null when unset:
 * Firefox compares a leaf's notBefore with `serverDistrustAfter` (NSS `certdata.txt`
 * `CKA_NSS_SERVER_DISTRUST_AFTER`); Chrome compares the earliest embedded SCT's timestamp (the
 * leaf's notBefore without SCTs) with `sctNotAfter` (Chrome Root Store `root_store.textproto`).
 */
export interface RootDistrust {
  serverDistrustAfter: number | null;
  sctNotAfter: number | null;
}

/** The address the client's connection is observed from (spec §4.5, CONTRACT §5). */
export type ClientAddressResult = { ok: true; address: IpAddr } | { ok: false; reason: string };

/** Reads the client's address for one request: socket peer, and trusted-proxy headers when configured. */
export interface ClientAddressSource {
  /** Synchronous on purpose: the socket peer and the headers are already in hand. */
  clientAddress(request: Request): ClientAddressResult;
}

/**
 * Whether the work of the current request may go on: `exhausted()` turns true once its answer could
 * no longer be used (the HTTP edge's request deadline has passed and the client has had its
 * refusal). Long searches ask it where they pause, and stop.
 */
export interface WorkBudget {
  exhausted(): boolean;
}

/**
 * The environment variable that names a MaxMind-format database (CONTRACT §8.10): the ASN
 * database and the country database, in the order they are listed.
 */
export type AddressDatabaseVariable = "GEOIP_ASN_DB" | "GEOIP_COUNTRY_DB";

/** One loaded MaxMind-format database, from its metadata section (CONTRACT §8.10). */
export interface AddressDatabase {
  variable: AddressDatabaseVariable;
  /** The metadata's `database_type`, as stored (e.g. `DBIP-ASN-Lite (compat=GeoLite2-ASN)`). */
  databaseType: string;
  /** The metadata's `build_epoch`, to the second. */
  builtAt: Date;
  /** The metadata's `ip_version`: an IPv4-only database (4) holds no IPv6 address. */
  ipVersion: 4 | 6;
}

/** What the ASN database holds for an address; a field the record lacks is absent. */
export interface AsnFacts {
  asn?: number;
  asnOrg?: string;
  /** The `database_type` of the database the record came from (for its attribution). */
  databaseType: string;
}

/** What the country database holds for an address; a field the record lacks is absent. */
export interface CountryFacts {
  /** ISO 3166-1 alpha-2, as stored. */
  country?: string;
  databaseType: string;
}

/**
 * Facts about public addresses from the databases the operator supplies (GEOIP_ASN_DB,
 * GEOIP_COUNTRY_DB; CONTRACT §8.10). Synchronous and cheap: one tree walk per question, on
 * databases already in memory. The ASN and the country records are looked up separately, because
 * the two variables may name different files (or the same one).
 */
export interface NetworkFacts {
  /** The ASN database's record for `address`; null without that database or when it holds none. */
  asnOf(address: IpAddr): AsnFacts | null;
  /** The country database's record for `address`; null without that database or when it holds none. */
  countryOf(address: IpAddr): CountryFacts | null;
  /** The databases in use, in the order GEOIP_ASN_DB, GEOIP_COUNTRY_DB (one entry per variable). */
  databases(): readonly AddressDatabase[];
}

/**
 * Decodes DER bytes into one certificate revocation list (RFC 5280 §5; CONTRACT §10.2), as strict
 * as the certificate reader, or reports why they are not one. Never throws; work is linear in the
 * size of the input.
 */
export interface RevocationListDecoder {
  decodeRevocationList(der: Uint8Array): RevocationListDecodeResult;
}

export type RevocationListDecodeResult =
  | { ok: true; list: RevocationListData }
  | { ok: false; reason: string };
