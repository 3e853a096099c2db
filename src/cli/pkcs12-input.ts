/**
 * PKCS#12 files given to `cert`, `chain` and `key-match` (CONTRACT §10.3), recognised by content:
 * read in this process (src/local/pkcs12.ts), or, for the legacy RC2/3DES encryption, through
 * `openssl pkcs12 -legacy` when openssl is on PATH (the password passed in its environment, the
 * file on its stdin: neither on a command line). Certificates come out as PEM in file order; keys
 * only when asked for (`key-match`), as PKCS#8 PEM that stays in this process.
 */
import { spawnSync } from "node:child_process";
import { pemBlock } from "../domain/certificates/pem.ts";
import { readPkcs12 } from "../local/pkcs12.ts";
import type { Io } from "./io.ts";
import { readPassphrase } from "./passin.ts";

export { looksLikePkcs12 } from "../local/pkcs12.ts";

export type Pkcs12Input =
  | { ok: true; certificatesPem: string; keysPem: string[] }
  | { ok: false; message: string };

/** The environment variable that carries the password to openssl (its `-passin env:` form). */
const PASSWORD_VARIABLE = "NETTOOLS_PKCS12_PASSWORD";

/** Reads one PKCS#12 file's certificates (and keys with `wantKeys`); `source` names it in messages. */
export async function readPkcs12Input(
  bytes: Uint8Array,
  source: string,
  passin: string | undefined,
  wantKeys: boolean,
  io: Io,
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
  return throughOpenssl(bytes, source, password ?? "", wantKeys);
}

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

/** PKCS#8 DER as a `PRIVATE KEY` block, for the key reader of key-match (never printed). */
function keyPem(der: Uint8Array): string {
  return pemBlock(der).replaceAll("CERTIFICATE", "PRIVATE KEY");
}
