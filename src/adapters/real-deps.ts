/**
 * The real outbound adapters of the certificate use cases (bundle, chain, CSR), built in one place
 * for both inbound adapters that run them: the HTTP server's composition (src/server.ts) and the
 * command-line tool's local runs (src/cli/run-operation.ts).
 */
import type { CertificateBundleDeps } from "../domain/certificates/inspect.ts";
import type { RevocationListDecoder } from "../domain/ports.ts";
import { DerRevocationListDecoder } from "./crypto/crl-decoder.ts";
import { DerCertificateDecoder } from "./crypto/decoder.ts";
import { mozillaRootStore, type ReferenceRootStore } from "./crypto/root-store.ts";
import { NodeSignatureVerifier } from "./crypto/verifier.ts";
import { systemClock } from "./system/clock.ts";

/** The certificate adapters, and the CRL reader the revocation use case and rule read lists with. */
export type RealCertificateDeps = CertificateBundleDeps & { revocationLists: RevocationListDecoder };

/**
 * System clock, DER decoder, node:crypto verifier, CRL reader and the reference roots:
 * `referenceRoots` when the operator replaced them (REFERENCE_ROOTS_FILE, `--reference-roots`), else
 * the built-in snapshot of Mozilla's roots. The built-in index is built here, once per process (the
 * first call): at start for the server, so no request pays for it, and only when a certificate
 * command runs for the CLI.
 */
export function realCertificateDeps(referenceRoots?: ReferenceRootStore): RealCertificateDeps {
  return {
    clock: systemClock,
    decoder: new DerCertificateDecoder(),
    revocationLists: new DerRevocationListDecoder(),
    verifier: new NodeSignatureVerifier(),
    roots: referenceRoots ?? mozillaRootStore(),
  };
}
