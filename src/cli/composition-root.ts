/**
 * The CLI's composition root (ADR 0050), as src/app.ts is the server's: it binds the ports of the
 * user's machine (src/local/ports.ts) to this runtime's adapters, once per process
 * (`runAsProcess` in main.ts calls it), and hands them to every command through its `Io`. No other
 * file of src/cli/ names src/adapters/tls/, keys-node/ or files-node/ (tests/architecture.test.ts).
 */
import { NODE_LOCAL_FILES } from "../adapters/files-node/local-files.ts";
import { NODE_PUBLIC_KEYS } from "../adapters/keys-node/node-public-keys.ts";
import { TLS_SERVER_CERTIFICATES } from "../adapters/tls/tls-certificates.ts";
import type { LocalPorts } from "../local/ports.ts";

/** The ports of a `nettools` process, bound to node:net, node:crypto, node:fs and openssl. */
export function composeCli(): LocalPorts {
  return {
    serverCertificates: TLS_SERVER_CERTIFICATES,
    publicKeys: NODE_PUBLIC_KEYS,
    files: NODE_LOCAL_FILES,
  };
}
