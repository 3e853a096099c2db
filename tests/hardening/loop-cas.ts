/**
 * Sixteen CA certificates that all carry the same name, so each names every other one as a
 * possible issuer (16 × 15 = 240 candidate links, the spec's maximum). Even positions are
 * self-signed; odd positions are signed by the key of the position before them, so some
 * self-signatures fail and some candidate links verify. Made with the openssl CLI, once per
 * process, in a temporary directory.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const SUBJECT = "/O=Hardening Corpus/CN=Loop CA";
let cached: string[] | null = null;

function openssl(args: string[], cwd: string): void {
  const result = Bun.spawnSync(["openssl", ...args], { cwd, stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`openssl ${args[0]} failed: ${result.stderr.toString()}`);
}

/** PEM text of each of the 16 certificates, in position order. */
export function loopCaPems(): string[] {
  if (cached) return cached;
  const dir = mkdtempSync(join(tmpdir(), "loop-cas-"));
  try {
    writeFileSync(
      join(dir, "ext.cnf"),
      "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\nsubjectKeyIdentifier=hash\n",
    );
    const pems: string[] = [];
    for (let i = 0; i < 16; i++) {
      const key = `k${i}.pem`;
      openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key], dir);
      if (i % 2 === 0) {
        openssl(
          [
            "req",
            "-x509",
            "-new",
            "-key",
            key,
            "-subj",
            SUBJECT,
            "-days",
            "3650",
            "-sha256",
            "-set_serial",
            String(i + 1),
          ]
            .concat([
              "-addext",
              "basicConstraints=critical,CA:TRUE",
              "-addext",
              "keyUsage=critical,keyCertSign,cRLSign",
            ])
            .concat(["-out", `c${i}.pem`]),
          dir,
        );
      } else {
        openssl(["req", "-new", "-key", key, "-subj", SUBJECT, "-out", `r${i}.csr`], dir);
        openssl(
          ["x509", "-req", "-in", `r${i}.csr`, "-CA", `c${i - 1}.pem`, "-CAkey", `k${i - 1}.pem`]
            .concat(["-set_serial", String(i + 1), "-days", "3650", "-sha256", "-extfile", "ext.cnf"])
            .concat(["-out", `c${i}.pem`]),
          dir,
        );
      }
      pems.push(readFileSync(join(dir, `c${i}.pem`), "utf8"));
    }
    cached = pems;
    return pems;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
