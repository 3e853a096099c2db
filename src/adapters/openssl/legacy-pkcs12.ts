/**
 * The LegacyPkcs12Reader port (src/local/ports.ts; CONTRACT §10.3, ADR 43): a PKCS#12 file
 * encrypted the legacy way (RC2 or 3DES) read by `openssl pkcs12 -legacy` when openssl is on PATH:
 * the password passed in its environment, the file on its stdin, neither on a command line.
 * Spawned with node:child_process, so it runs under Bun and under the Node package alike.
 */
import { spawnSync } from "node:child_process";
import type { LegacyPkcs12Reader, Pkcs12Input } from "../../local/ports.ts";

/** The environment variable that carries the password to openssl (its `-passin env:` form). */
const PASSWORD_VARIABLE = "NETTOOLS_PKCS12_PASSWORD";

/** openssl's reading of legacy PKCS#12 files. */
export const OPENSSL_LEGACY_PKCS12: LegacyPkcs12Reader = { read: throughOpenssl };

function throughOpenssl(bytes: Uint8Array, source: string, password: string, wantKeys: boolean): Pkcs12Input {
  const file = source === "stdin" ? "old.p12" : source;
  const ran = spawnSync(
    "openssl",
    ["pkcs12", "-legacy", "-passin", `env:${PASSWORD_VARIABLE}`, wantKeys ? "-nodes" : "-nokeys"],
    {
      input: bytes,
      env: { ...process.env, [PASSWORD_VARIABLE]: password },
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  if (ran.error !== undefined) {
    return {
      ok: false,
      message: `${source} (PKCS#12) is encrypted the legacy way (RC2 or 3DES) and openssl is not on PATH to read it; convert it where openssl is: openssl pkcs12 -legacy -in ${file} -nokeys -out certificates.pem`,
    };
  }
  if (ran.status !== 0) {
    return {
      ok: false,
      message: `${source} (PKCS#12, legacy encryption): openssl could not read it: the password is wrong (give it with --passin env:VAR or --passin file:PATH), or the file is damaged`,
    };
  }
  const text = ran.stdout.toString("latin1");
  const blocks = [...text.matchAll(/-----BEGIN ([A-Z ]+)-----[\s\S]*?-----END \1-----/g)];
  return {
    ok: true,
    certificatesPem: blocks
      .filter((m) => m[1] === "CERTIFICATE")
      .map((m) => `${m[0]}\n`)
      .join(""),
    keysPem: wantKeys ? blocks.filter((m) => m[1]!.endsWith("PRIVATE KEY")).map((m) => `${m[0]}\n`) : [],
  };
}
