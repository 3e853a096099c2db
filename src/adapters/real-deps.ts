/**
 * The real outbound adapters of the certificate use case, built in one place for every inbound
 * adapter that runs it: the HTTP server (src/main.ts) and the command-line tool (src/cli/main.ts).
 */
import type { CertificateBundleDeps } from "../domain/certificates/inspect.ts";
import { DerCertificateDecoder } from "./crypto/decoder.ts";
import { mozillaRootStore } from "./crypto/root-store.ts";
import { WebCryptoSignatureVerifier } from "./crypto/verifier.ts";
import { systemClock } from "./system/clock.ts";

/**
 * System clock, DER decoder, WebCrypto verifier and the runtime's Mozilla roots. The root index is
 * built here, once per process (the first call): at start for the server, so no request pays for
 * it, and only when a certificate command runs for the CLI.
 */
export function realCertificateDeps(): CertificateBundleDeps {
  return {
    clock: systemClock,
    decoder: new DerCertificateDecoder(),
    verifier: new WebCryptoSignatureVerifier(),
    roots: mozillaRootStore(),
  };
}
