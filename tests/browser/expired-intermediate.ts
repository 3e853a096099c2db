/**
 * A bundle whose intermediate has expired, made with the openssl CLI from the fixture keys:
 * leaf-rsa (signed with int-rsa's key), an expired re-issue of "Fixture Intermediate RSA" (same
 * name and key, valid 2015–2020, signed by root-rsa), and root-rsa. Only the intermediate is
 * out of date, so the leaf still verifies under it.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { certPath, certPem, ensureFixtures } from "../fixtures/fixtures.ts";

const CONFIG = `[ ca ]
default_ca = fx
[ fx ]
database = db/index.txt
serial = db/serial
new_certs_dir = .
policy = fx_policy
unique_subject = no
default_md = sha256
[ fx_policy ]
countryName = optional
organizationName = optional
commonName = supplied
[ req ]
distinguished_name = dn
[ dn ]
[ ext_int ]
basicConstraints = critical, CA:true
keyUsage = critical, digitalSignature, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
`;

function openssl(cwd: string, args: string[]): void {
  const run = Bun.spawnSync(["openssl", ...args], { cwd, stdout: "pipe", stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`openssl ${args[0]} failed: ${run.stderr.toString()}`);
}

/** PEM text: leaf, expired intermediate, root (the intermediate is certificate 1). */
export function expiredIntermediateBundle(): string {
  const keys = join(ensureFixtures(), "keys");
  const dir = mkdtempSync(join(tmpdir(), "expired-int-"));
  try {
    mkdirSync(join(dir, "db"));
    writeFileSync(join(dir, "db/index.txt"), "");
    writeFileSync(join(dir, "db/serial"), "7000\n");
    writeFileSync(join(dir, "ca.cnf"), CONFIG);
    openssl(
      dir,
      ["req", "-new", "-config", "ca.cnf", "-key", join(keys, "int-rsa.key"), "-subj", "/CN=request"].concat([
        "-out",
        "int.csr",
      ]),
    );
    openssl(dir, [
      "ca",
      "-batch",
      "-notext",
      "-config",
      "ca.cnf",
      "-preserveDN",
      "-subj",
      "/C=US/O=Network Tools Fixtures/CN=Fixture Intermediate RSA",
      "-cert",
      certPath("root-rsa"),
      "-keyfile",
      join(keys, "root-rsa.key"),
      "-in",
      "int.csr",
      "-out",
      "int-expired.pem",
      "-startdate",
      "20150101000000Z",
      "-enddate",
      "20200101000000Z",
      "-extensions",
      "ext_int",
    ]);
    return certPem("leaf-rsa") + readFileSync(join(dir, "int-expired.pem"), "utf8") + certPem("root-rsa");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
