/**
 * A scripted SignatureVerifier, typed against the port. By default a fake certificate's signature
 * is `verified` with the key that signed it (see certificates.ts) and `failed` with any other key
 * or when its inner and outer algorithms differ (as the real adapter decides); a script may answer
 * any check differently. Every call is recorded.
 */
import type { CertificateData } from "../../src/domain/certificates/model.ts";
import type { SignatureCheck, SignatureVerifier } from "../../src/domain/ports.ts";
import { signerOf } from "./certificates.ts";

export interface VerifyCall {
  /** Fingerprint of the certificate whose signature was checked. */
  child: string;
  /** `publicKeyKey` of the key it was checked against. */
  issuerKey: string;
}

/** Answers a check, or returns undefined to fall back to the default. */
export type VerifierScript = (child: CertificateData, issuer: CertificateData) => SignatureCheck | undefined;

export function scriptedVerifier(script: VerifierScript = () => undefined) {
  const calls: VerifyCall[] = [];
  return {
    calls,
    async verify(child: CertificateData, issuer: CertificateData): Promise<SignatureCheck> {
      calls.push({ child: child.fingerprintSha256, issuerKey: issuer.publicKeyKey });
      const scripted = script(child, issuer);
      if (scripted) return scripted;
      const verified = child.signatureAlgorithmsMatch && signerOf(child) === issuer.publicKeyKey;
      return { outcome: verified ? "verified" : "failed" };
    },
  } satisfies SignatureVerifier & { calls: VerifyCall[] };
}
