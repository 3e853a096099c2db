/**
 * The real outbound adapters of the certificate use case, built in one place for every inbound
 * adapter that runs it: the HTTP server (src/main.ts) and the command-line tool (src/cli/main.ts).
 */
import type { CertificateBundleDeps } from "../domain/certificates/inspect.ts";
import { DerCertificateDecoder } from "./crypto/decoder.ts";
import { WebCryptoSignatureVerifier } from "./crypto/verifier.ts";
import { systemClock } from "./system/clock.ts";

/** System clock, DER decoder and WebCrypto verifier. */
export function realCertificateDeps(): CertificateBundleDeps {
  return {
    clock: systemClock,
    decoder: new DerCertificateDecoder(),
    verifier: new WebCryptoSignatureVerifier(),
  };
}
