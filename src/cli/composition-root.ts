/**
 * The CLI's composition root (ADR 0050), as src/app.ts is the server's: it binds the ports of the
 * user's machine (src/local/ports.ts) to this runtime's adapters, once per process
 * (`runAsProcess` in main.ts calls it), and hands them to every command through its `Io`; and it
 * makes the certificate adapters of in-process runs, on first use. No other file of src/cli/
 * imports from src/adapters/ (tests/architecture.test.ts).
 */
import { DerRevocationListDecoder } from "../adapters/crypto/crl-decoder.ts";
import { DerCertificateDecoder } from "../adapters/crypto/decoder.ts";
import { publicKeyFacts } from "../adapters/crypto/public-key-facts.ts";
import {
  type ReferenceRootStore,
  ReferenceRootsFileError,
  rootStoreFromFile,
} from "../adapters/crypto/root-store.ts";
import { NODE_LOCAL_FILES } from "../adapters/files-node/local-files.ts";
import { NODE_PUBLIC_KEYS } from "../adapters/keys-node/node-public-keys.ts";
import { OPENSSL_LEGACY_PKCS12 } from "../adapters/openssl/legacy-pkcs12.ts";
import { PROCESS_RESIDENT_MEMORY } from "../adapters/process-node/resident-memory.ts";
import { realCertificateDeps } from "../adapters/real-deps.ts";
import { TLS_SERVER_CERTIFICATES } from "../adapters/tls/tls-certificates.ts";
import type { CertificateBundleDeps } from "../domain/certificates/inspect.ts";
import type { LocalPorts } from "../local/ports.ts";

/** The ports of a `nettools` process, bound to node:net, node:crypto, node:fs, openssl and the process. */
export function composeCli(): LocalPorts {
  return {
    serverCertificates: TLS_SERVER_CERTIFICATES,
    publicKeys: NODE_PUBLIC_KEYS,
    files: NODE_LOCAL_FILES,
    legacyPkcs12: OPENSSL_LEGACY_PKCS12,
    memory: PROCESS_RESIDENT_MEMORY,
  };
}

// ---------------------------------------------------------------------------------------------
// The certificate adapters of in-process runs (the server's own, src/adapters/real-deps.ts), which
// run-operation.ts hands to the operations' local runner (src/operations/local-runner.ts).

/** The real outbound adapters, made on first use: a CIDR command never builds the root index. */
let realDeps: CertificateBundleDeps | null = null;
/** The reference store `--reference-roots` loaded, if any (else the built-in one). */
let referenceRoots: ReferenceRootStore | undefined;
const deps = (): CertificateBundleDeps => {
  realDeps ??= realCertificateDeps(referenceRoots);
  return realDeps;
};

/** The real certificate adapters of this process (the reference roots are indexed on first use). */
export const localCertificateDeps = (): CertificateBundleDeps => deps();
/**
 * Replaces the built-in reference store for this process's runs (`--reference-roots`, CONTRACT
 * §9.2) with the trust-store file at `path`. Called before the first operation runs. Returns the
 * labels of the blocks skipped, or why the file cannot be used (one sentence).
 */
export function useReferenceRootsFile(
  path: string,
): { ok: true; skippedLabels: string[] } | { ok: false; message: string } {
  let read: { store: ReferenceRootStore; skippedLabels: string[] };
  try {
    read = rootStoreFromFile(path);
  } catch (error) {
    if (!(error instanceof ReferenceRootsFileError)) throw error;
    return { ok: false, message: error.message };
  }
  referenceRoots = read.store;
  realDeps = null;
  return { ok: true, skippedLabels: read.skippedLabels };
}

/** The strict certificate decoder alone, for reading a file's certificates without the root store. */
export const certificateDecoder = (): DerCertificateDecoder => new DerCertificateDecoder();

/**
 * The key type and size of a SubjectPublicKeyInfo, in openssl's words (`nettools key-match`): the
 * certificate decoder's own reading, so a key and a certificate are described alike.
 */
export const describePublicKey = publicKeyFacts;

/** The process's stdout (`runAsProcess`), and the chunks `match` and `expand` write their bytes in. */
export { ChunkedOutput } from "../adapters/process-node/chunked-output.ts";
export { processStdout } from "../adapters/process-node/process-stdout.ts";

/** The strict CRL reader of local runs (nettools crl, chain --crl). */
export const revocationListDecoder = new DerRevocationListDecoder();
