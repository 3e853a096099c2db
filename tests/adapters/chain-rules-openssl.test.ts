/**
 * The §9 rules that name openssl, against `openssl verify -purpose sslserver -attime` on
 * certificates the test makes with `openssl` (CONTRACT §9.4, §9.5; issue 29): for each chain, the
 * chain verdict (real decoder and verifier, the root supplied) names openssl in an error exactly
 * when openssl refuses the chain. `-auth_level 2` stands for OpenSSL 3.2's default security level
 * (the machine's OpenSSL may be 3.0, whose default is level 1); the instant is read back from the
 * certificates made, so nothing depends on the host's clock.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DerCertificateDecoder } from "../../src/adapters/crypto/decoder.ts";
import { NodeSignatureVerifier } from "../../src/adapters/crypto/verifier.ts";
import { buildCertificateChain } from "../../src/domain/certificates/chain.ts";
import { fixedClock } from "../fakes/clock.ts";
import { noKnownRoots } from "../fakes/roots.ts";
import { ORACLE_TIMEOUT_MS } from "./openssl-oracle.ts";

let dir = "";
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "chain-rules-openssl-"));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function openssl(args: string[]): { ok: boolean; output: string } {
  const run = Bun.spawnSync(["openssl", ...args], { stdout: "pipe", stderr: "pipe", cwd: dir });
  return { ok: run.exitCode === 0, output: run.stdout.toString() + run.stderr.toString() };
}

function must(args: string[]): void {
  const run = openssl(args);
  if (!run.ok) throw new Error(`openssl ${args[0]} failed: ${run.output}`);
}

/** A key: `ec:NAME` (a named curve) or `rsa:BITS`. */
function key(name: string, kind: string): string {
  const path = `${name}.key`;
  const [type, size] = kind.split(":") as [string, string];
  if (type === "ec")
    must(["genpkey", "-algorithm", "EC", "-pkeyopt", `ec_paramgen_curve:${size}`, "-out", path]);
  else must(["genpkey", "-algorithm", "RSA", "-pkeyopt", `rsa_keygen_bits:${size}`, "-out", path]);
  return path;
}

interface Made {
  name: string;
  pem: string;
}

/**
 * A certificate `name` with subject CN=`name`, the given extensions (openssl config lines), signed
 * by `issuer` (self-signed without one), valid `days` days from now, with a `kind` key.
 */
function make(name: string, extensions: string[], issuer: Made | null, days = 3650, kind = "ec:P-256"): Made {
  const keyPath = key(name, kind);
  writeFileSync(join(dir, `${name}.ext`), `[ext]\n${extensions.join("\n")}\n`);
  if (issuer === null) {
    must([
      "req",
      "-x509",
      "-new",
      "-key",
      keyPath,
      "-subj",
      `/CN=${name}`,
      "-days",
      String(days),
      "-sha256",
      "-config",
      `${name}.ext`,
      "-extensions",
      "ext",
      "-out",
      `${name}.pem`,
    ]);
  } else {
    must([
      "req",
      "-new",
      "-key",
      keyPath,
      "-subj",
      `/CN=${name}`,
      "-out",
      `${name}.csr`,
      "-config",
      `${name}.ext`,
    ]);
    must([
      "x509",
      "-req",
      "-in",
      `${name}.csr`,
      "-CA",
      `${issuer.name}.pem`,
      "-CAkey",
      `${issuer.name}.key`,
      "-set_serial",
      String(Math.floor(Math.random() * 1e9)),
      "-days",
      String(days),
      "-sha256",
      "-extfile",
      `${name}.ext`,
      "-extensions",
      "ext",
      "-out",
      `${name}.pem`,
    ]);
  }
  return { name, pem: readFileSync(join(dir, `${name}.pem`), "utf8") };
}

const CA = [
  "basicConstraints=critical,CA:TRUE",
  "keyUsage=critical,keyCertSign,cRLSign",
  "subjectKeyIdentifier=hash",
];
const LEAF = [
  "basicConstraints=critical,CA:FALSE",
  "keyUsage=critical,digitalSignature",
  "extendedKeyUsage=serverAuth",
  "subjectAltName=DNS:www.example.com",
];

interface Case {
  root?: string[];
  rootDays?: number;
  int?: string[];
  leaf?: string[];
  leafKey?: string;
}

/** Our verdict and openssl's on root → int → leaf, the root supplied, one day after they were made. */
async function verdicts(label: string, spec: Case) {
  const root = make(`${label}-root`, [...CA, ...(spec.root ?? [])], null, spec.rootDays ?? 3650);
  const int = make(`${label}-int`, [...CA, ...(spec.int ?? [])], root);
  const leaf = make(`${label}-leaf`, spec.leaf ?? LEAF, int, 90, spec.leafKey ?? "ec:P-256");
  const decoder = new DerCertificateDecoder();
  const leafDer = new Uint8Array(Buffer.from(leaf.pem.replace(/-----[^-]+-----|\s/g, ""), "base64"));
  const decoded = await decoder.decode(leafDer);
  if (!decoded.ok) throw new Error("the leaf made by openssl does not decode");
  const at = Math.floor(decoded.certificate.notBefore.getTime() / 1000) + 2 * 86_400;
  const result = await buildCertificateChain(
    { pem: leaf.pem + int.pem, roots: root.pem },
    {
      clock: fixedClock(new Date(at * 1000).toISOString()),
      decoder,
      verifier: new NodeSignatureVerifier(),
      roots: noKnownRoots,
    },
  );
  const ours = result.problems
    .filter((p) => p.severity === "error" && p.clients.includes("openssl"))
    .map((p): string => p.code);
  const theirs = openssl([
    "verify",
    "-purpose",
    "sslserver",
    "-attime",
    String(at),
    "-auth_level",
    "2",
    "-CAfile",
    `${root.name}.pem`,
    "-untrusted",
    `${int.name}.pem`,
    `${leaf.name}.pem`,
  ]);
  return { ours, opensslRefuses: !theirs.ok, output: theirs.output };
}

describe("§9 rules naming openssl against openssl verify -purpose sslserver", () => {
  test(
    "openssl refuses exactly where a rule names it",
    async () => {
      const cases: [string, Case, string[]][] = [
        ["clean", {}, []],
        ["int-eku", { int: ["extendedKeyUsage=emailProtection"] }, ["CA_EKU_LACKS_SERVER_AUTH"]],
        ["leaf-critical", { leaf: [...LEAF, "1.2.3.4=critical,ASN1:NULL"] }, ["UNKNOWN_CRITICAL_EXTENSION"]],
        [
          "int-nc",
          { int: ["nameConstraints=critical,permitted;DNS:other.test"] },
          ["NAME_CONSTRAINTS_VIOLATED"],
        ],
        [
          "root-nc",
          { root: ["nameConstraints=critical,excluded;DNS:example.com"] },
          ["NAME_CONSTRAINTS_VIOLATED"],
        ],
        [
          "int-nc-email",
          {
            int: ["nameConstraints=critical,permitted;email:other.test"],
            leaf: [...LEAF.slice(0, 3), "subjectAltName=DNS:www.example.com,email:a@example.com"],
          },
          ["NAME_CONSTRAINTS_VIOLATED"],
        ],
        ["rsa-1024", { leafKey: "rsa:1024" }, ["RSA_KEY_UNDER_2048"]],
        ["p192", { leafKey: "ec:prime192v1" }, ["EC_CURVE_NOT_ACCEPTED"]],
        ["root-expired", { rootDays: 1 }, ["EXPIRED"]],
        ["root-eku", { root: ["extendedKeyUsage=emailProtection"] }, ["CA_EKU_LACKS_SERVER_AUTH"]],
        ["root-critical", { root: ["1.2.3.4=critical,ASN1:NULL"] }, ["UNKNOWN_CRITICAL_EXTENSION"]],
      ];
      for (const [label, spec, expected] of cases) {
        const { ours, opensslRefuses, output } = await verdicts(label, spec);
        expect([label, ours]).toEqual([label, expected]);
        expect([label, opensslRefuses, expected.length > 0 ? "" : output]).toEqual([
          label,
          expected.length > 0,
          expected.length > 0 ? "" : output,
        ]);
      }
    },
    ORACLE_TIMEOUT_MS,
  );
});
