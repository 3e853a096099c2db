/**
 * A throwaway CA run by `openssl ca` in a temporary directory: it issues certificates, revokes
 * them with reasons, and writes CRLs with `openssl ca -gencrl`, the way an operator's private CA
 * does. The oracle for the CRL reader (CONTRACT §10.2): what `openssl crl -text` prints is parsed
 * by {@link opensslCrlText}.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Runs openssl; throws with its stderr when it fails. */
export function openssl(args: string[], cwd?: string, stdin?: string): string {
  const proc = Bun.spawnSync(["openssl", ...args], {
    ...(cwd === undefined ? {} : { cwd }),
    stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  if (proc.exitCode !== 0) throw new Error(`openssl ${args[0]} failed: ${proc.stderr.toString()}`);
  return proc.stdout.toString();
}

/** Whether openssl exits 0 for these arguments. */
export function opensslAccepts(args: string[]): boolean {
  return Bun.spawnSync(["openssl", ...args], { stdout: "ignore", stderr: "ignore" }).exitCode === 0;
}

const CONFIG = `
[ ca ]
default_ca = local
[ local ]
dir = .
database = index.txt
new_certs_dir = issued
serial = serial
crlnumber = crlnumber
default_md = sha256
default_days = 90
default_crl_days = 7
policy = anything
unique_subject = no
copy_extensions = none
[ anything ]
commonName = supplied
[ leaf ]
basicConstraints = CA:FALSE
[ req ]
distinguished_name = dn
[ dn ]
`;

export interface TestCa {
  dir: string;
  /** The CA's certificate, PEM. */
  caPem: string;
  caPath: string;
  /** Issues a leaf for `name` with the given hex serial; returns its PEM path. */
  issue(name: string, serialHex: string): string;
  /** Revokes an issued certificate (`openssl ca -revoke`), with a reason keyword or none. */
  revoke(certPath: string, reason?: string): void;
  /** Writes a CRL (`openssl ca -gencrl`), PEM, next update in a week or `seconds`; returns its path. */
  gencrl(name?: string, seconds?: number): string;
}

/** A new CA (EC P-256 by default) named `CN=<cn>` in a fresh temporary directory. */
export function makeCa(
  cn = "Test CRL CA",
  keyArgs: string[] = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"],
): TestCa {
  const dir = mkdtempSync(join(tmpdir(), "nettools-ca-"));
  writeFileSync(join(dir, "ca.cnf"), CONFIG);
  writeFileSync(join(dir, "index.txt"), "");
  writeFileSync(join(dir, "crlnumber"), "1000\n");
  Bun.spawnSync(["mkdir", "-p", join(dir, "issued")]);
  openssl(
    [
      "req",
      "-x509",
      ...keyArgs,
      "-nodes",
      "-keyout",
      "ca.key",
      "-out",
      "ca.pem",
      "-subj",
      `/CN=${cn}/O=Network Tools Tests`,
      "-days",
      "30",
      "-config",
      "ca.cnf",
      "-addext",
      "basicConstraints=critical,CA:TRUE",
      "-addext",
      "keyUsage=critical,keyCertSign,cRLSign",
    ],
    dir,
  );
  const caPath = join(dir, "ca.pem");
  const env = { ...process.env };
  const ca: TestCa = {
    dir,
    caPath,
    caPem: readFileSync(caPath, "utf8"),
    issue(name, serialHex) {
      writeFileSync(join(dir, "serial"), `${serialHex}\n`);
      openssl(
        [
          "req",
          "-new",
          "-newkey",
          "ec",
          "-pkeyopt",
          "ec_paramgen_curve:P-256",
          "-nodes",
          "-keyout",
          `${name}.key`,
          "-out",
          `${name}.csr`,
          "-subj",
          `/CN=${name}`,
          "-config",
          "ca.cnf",
        ],
        dir,
      );
      const proc = Bun.spawnSync(
        [
          "openssl",
          "ca",
          "-batch",
          "-config",
          "ca.cnf",
          "-cert",
          "ca.pem",
          "-keyfile",
          "ca.key",
          "-extensions",
          "leaf",
          "-in",
          `${name}.csr`,
          "-out",
          `${name}.pem`,
          "-notext",
        ],
        { cwd: dir, env: { ...env, LEAF_NAME: name }, stdout: "pipe", stderr: "pipe" },
      );
      if (proc.exitCode !== 0) throw new Error(`openssl ca failed: ${proc.stderr.toString()}`);
      return join(dir, `${name}.pem`);
    },
    revoke(certPath, reason) {
      openssl(
        [
          "ca",
          "-config",
          "ca.cnf",
          "-cert",
          "ca.pem",
          "-keyfile",
          "ca.key",
          "-revoke",
          certPath,
          ...(reason === undefined ? [] : ["-crl_reason", reason]),
        ],
        dir,
      );
    },
    gencrl(name = "crl.pem", seconds) {
      openssl(
        [
          "ca",
          "-config",
          "ca.cnf",
          "-cert",
          "ca.pem",
          "-keyfile",
          "ca.key",
          "-gencrl",
          "-out",
          name,
          ...(seconds === undefined ? [] : ["-crlsec", String(seconds)]),
        ],
        dir,
      );
      return join(dir, name);
    },
  };
  return ca;
}

/** One entry as `openssl crl -text` prints it. */
export interface OpensslRevoked {
  serialNumber: string;
  revocationDate: string;
  reason: string | null;
  invalidityDate: string | null;
}

/** What `openssl crl -text` prints of a CRL, dates turned into RFC 3339 UTC. */
export interface OpensslCrl {
  version: number;
  issuer: string;
  thisUpdate: string;
  nextUpdate: string | null;
  crlNumber: string | null;
  signatureAlgorithm: string;
  revoked: OpensslRevoked[];
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** `Nov 28 20:31:02 2026 GMT` → `2026-11-28T20:31:02Z`. */
export function opensslDate(text: string): string {
  const m = /^(\w{3}) +(\d+) (\d\d:\d\d:\d\d) (\d{4}) GMT$/.exec(text.trim());
  if (!m) throw new Error(`unexpected openssl date ${text}`);
  const month = String(MONTHS.indexOf(m[1]!) + 1).padStart(2, "0");
  return `${m[4]}-${month}-${m[2]!.padStart(2, "0")}T${m[3]}Z`;
}

/** Parses `openssl crl -text -noout -nameopt RFC2253,-esc_msb` output for a CRL file (PEM or DER). */
export function opensslCrlText(path: string, inform: "PEM" | "DER" = "PEM"): OpensslCrl {
  const text = openssl([
    "crl",
    "-in",
    path,
    "-inform",
    inform,
    "-noout",
    "-text",
    "-nameopt",
    "RFC2253,-esc_msb",
  ]);
  const line = (re: RegExp) => re.exec(text)?.[1]?.trim() ?? null;
  const revoked: OpensslRevoked[] = [];
  const section = text.split(/Revoked Certificates:|No Revoked Certificates\./)[1] ?? "";
  for (const block of section.split(/\n\s*Serial Number: /).slice(1)) {
    const lines = block.split("\n");
    const date = /Revocation Date: (.*)/.exec(block)?.[1];
    const reasonAt = lines.findIndex((l) => l.includes("X509v3 CRL Reason Code:"));
    const invalidAt = lines.findIndex((l) => l.includes("Invalidity Date:"));
    revoked.push({
      serialNumber: lines[0]!.trim(),
      revocationDate: opensslDate(date!),
      reason: reasonAt < 0 ? null : lines[reasonAt + 1]!.trim(),
      invalidityDate: invalidAt < 0 ? null : opensslDate(lines[invalidAt + 1]!),
    });
  }
  const next = line(/Next Update: (.*)/);
  return {
    version: Number(line(/Version (\d)/)),
    issuer: line(/Issuer: (.*)/) ?? "",
    thisUpdate: opensslDate(line(/Last Update: (.*)/)!),
    nextUpdate: next === null || next === "NONE" ? null : opensslDate(next),
    crlNumber: /X509v3 CRL Number: *\n\s*(\d+)/.exec(text)?.[1] ?? null,
    signatureAlgorithm: line(/Signature Algorithm: (.*)/) ?? "",
    revoked,
  };
}
