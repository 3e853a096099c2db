/**
 * The ports: the only ways the domain reaches time, cryptography and the network.
 * Adapters implement them; tests implement them with fakes (typed with `satisfies`).
 */
import type { CertificateData } from "./certificates/model.ts";
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
}

export type CertificateDecodeResult =
  | { ok: true; certificate: CertificateData }
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
