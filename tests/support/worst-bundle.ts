/**
 * The costliest valid certificate-bundle request: 16 self-issued P-521 CA certificates that
 * share one name, so every certificate is a candidate issuer of every other one — 16 self
 * checks and 240 candidate checks, 256 ECDSA P-521 verifications (~0.4 s of CPU). Made with
 * the openssl CLI, once per process.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

let cached: string | null = null;

/** PEM text of the 16 certificates, one after another. */
export function worstCaseBundlePem(): string {
  if (cached !== null) return cached;
  const dir = mkdtempSync(join(tmpdir(), "worst-bundle-"));
  try {
    let pem = "";
    for (let i = 0; i < 16; i++) {
      const result = Bun.spawnSync(
        [
          "openssl",
          "req",
          "-x509",
          "-newkey",
          "ec",
          "-pkeyopt",
          "ec_paramgen_curve:P-521",
          "-nodes",
          "-keyout",
          join(dir, `${i}.key`),
          "-out",
          join(dir, `${i}.pem`),
          "-days",
          "3650",
          "-subj",
          "/O=Worst Case/CN=Same Name CA",
          "-sha512",
        ],
        { stdout: "pipe", stderr: "pipe" },
      );
      if (result.exitCode !== 0) throw new Error(`openssl req failed: ${result.stderr.toString()}`);
      pem += readFileSync(join(dir, `${i}.pem`), "utf8");
    }
    cached = pem;
    return pem;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
