/**
 * PKCS#12 files given to `cert`, `chain` and `key-match` (CONTRACT §10.3), recognised by content:
 * read in this process (src/local/pkcs12.ts), or, for the legacy RC2/3DES encryption, through
 * the LegacyPkcs12Reader port (`openssl pkcs12 -legacy` when openssl is on PATH:
 * src/adapters/openssl/legacy-pkcs12.ts). Certificates come out as PEM in file order; keys
 * only when asked for (`key-match`), as PKCS#8 PEM that stays in this process.
 */
import { pemBlock } from "../domain/certificates/pem.ts";
import type { LocalInputs } from "./local-inputs.ts";
import { readPassphrase } from "./passin.ts";
import { readPkcs12 } from "./pkcs12.ts";
import type { Pkcs12Input } from "./ports.ts";

export { looksLikePkcs12 } from "./pkcs12.ts";

/** Reads one PKCS#12 file's certificates (and keys with `wantKeys`); `source` names it in messages. */
export async function readPkcs12Input(
  bytes: Uint8Array,
  source: string,
  passin: string | undefined,
  wantKeys: boolean,
  io: LocalInputs,
): Promise<Pkcs12Input> {
  const password = passin === undefined ? undefined : await readPassphrase(passin, io);
  const read = await readPkcs12(bytes, password, wantKeys);
  if (read.ok) {
    return {
      ok: true,
      certificatesPem: read.certificates.map(pemBlock).join(""),
      keysPem: read.keys.map((der) => keyPem(der)),
    };
  }
  if (read.kind !== "legacy") {
    const how =
      read.kind === "password" && password === undefined
        ? ": give it with --passin env:VAR or --passin file:PATH"
        : "";
    return { ok: false, message: `${source} (PKCS#12): ${read.message}${how}` };
  }
  return io.ports.legacyPkcs12.read(bytes, source, password ?? "", wantKeys);
}

/** PKCS#8 DER as a `PRIVATE KEY` block, for the key reader of key-match (never printed). */
function keyPem(der: Uint8Array): string {
  return pemBlock(der).replaceAll("CERTIFICATE", "PRIVATE KEY");
}
