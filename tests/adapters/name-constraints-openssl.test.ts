/**
 * Name constraints over every name form (CONTRACT §9.4) against `openssl verify -purpose sslserver
 * -attime` on chains the test makes with `openssl`: for each chain (root → constrained CA → leaf,
 * or root with constraints → CA → leaf), our verdict raises NAME_CONSTRAINTS_VIOLATED exactly when
 * openssl refuses the chain, and no other error that names openssl. Covered: the subject against
 * directoryName subtrees (in OpenSSL's canonical form), a SAN directoryName, the subject's
 * emailAddress attributes (with and without an rfc822Name SAN), rfc822Name, URI, iPAddress and
 * dNSName SANs, and otherName; the leaf's host-like commonName is the one deliberate difference
 * (openssl reads it, we do not: ADR 0046). The instant
 * is read back from the certificates made, so nothing depends on the host's clock.
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
  dir = mkdtempSync(join(tmpdir(), "nc-openssl-"));
  for (const name of ["root", "ca", "leaf"]) {
    must(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", `${name}.key`]);
  }
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

let serial = 1;

/**
 * A certificate `file` with `subject` (openssl's `/A=b/…` form) and the given extension lines
 * (plus any extra config sections, e.g. a dirName's), signed by `issuer` (self-signed when null).
 */
function make(
  file: string,
  key: string,
  subject: string,
  extensions: string[],
  issuer: { file: string; key: string } | null,
  sections = "",
): string {
  writeFileSync(
    join(dir, `${file}.cnf`),
    `[req]\ndistinguished_name=dn\n[dn]\n[ext]\n${extensions.join("\n")}\n${sections}`,
  );
  const common = ["-days", "3650", "-sha256", "-extensions", "ext", "-out", `${file}.pem`];
  if (issuer === null) {
    must(["req", "-x509", "-new", "-key", key, "-subj", subject, "-config", `${file}.cnf`, ...common]);
  } else {
    must(["req", "-new", "-key", key, "-subj", subject, "-config", `${file}.cnf`, "-out", `${file}.csr`]);
    must([
      "x509",
      "-req",
      "-in",
      `${file}.csr`,
      "-CA",
      `${issuer.file}.pem`,
      "-CAkey",
      issuer.key,
      "-set_serial",
      String(serial++),
      "-extfile",
      `${file}.cnf`,
      ...common,
    ]);
  }
  return readFileSync(join(dir, `${file}.pem`), "utf8");
}

const CA = ["basicConstraints=critical,CA:TRUE", "keyUsage=critical,keyCertSign,cRLSign"];
const LEAF = [
  "basicConstraints=critical,CA:FALSE",
  "keyUsage=critical,digitalSignature",
  "extendedKeyUsage=serverAuth",
];

interface Case {
  /** nameConstraints of the root (the anchor, supplied) and of the CA below it: openssl's value text. */
  root?: string;
  ca?: string;
  /** The CA's subject; default `/CN=Constrained CA`. */
  caSubject?: string;
  /** The leaf's subject and subjectAltName value (none when absent). */
  subject: string;
  san?: string;
  /** Extra config sections of every certificate's config, e.g. `[dir]` for `dirName:dir`. */
  sections?: string;
}

async function verdicts(label: string, spec: Case) {
  const root = make(
    `${label}-root`,
    "root.key",
    "/CN=Test Root",
    [...CA, ...(spec.root === undefined ? [] : [`nameConstraints=critical,${spec.root}`])],
    null,
    spec.sections ?? "",
  );
  const ca = make(
    `${label}-ca`,
    "ca.key",
    spec.caSubject ?? "/CN=Constrained CA",
    [...CA, ...(spec.ca === undefined ? [] : [`nameConstraints=critical,${spec.ca}`])],
    { file: `${label}-root`, key: "root.key" },
    spec.sections ?? "",
  );
  const leaf = make(
    `${label}-leaf`,
    "leaf.key",
    spec.subject,
    [...LEAF, ...(spec.san === undefined ? [] : [`subjectAltName=${spec.san}`])],
    { file: `${label}-ca`, key: "ca.key" },
    spec.sections ?? "",
  );
  const decoder = new DerCertificateDecoder();
  const leafDer = new Uint8Array(Buffer.from(leaf.replace(/-----[^-]+-----|\s/g, ""), "base64"));
  const decoded = await decoder.decode(leafDer);
  if (!decoded.ok) throw new Error(`${label}: the leaf made by openssl does not decode`);
  const at = Math.floor(decoded.certificate.notBefore.getTime() / 1000) + 86_400;
  const result = await buildCertificateChain(
    { pem: leaf + ca, roots: root },
    {
      clock: fixedClock(new Date(at * 1000).toISOString()),
      decoder,
      verifier: new NodeSignatureVerifier(),
      roots: noKnownRoots,
    },
  );
  const ours = result.problems
    .filter((p) => p.severity === "error" && p.clients.includes("openssl"))
    .map((p) => p.code);
  const theirs = openssl([
    "verify",
    "-purpose",
    "sslserver",
    "-attime",
    String(at),
    "-CAfile",
    `${label}-root.pem`,
    "-untrusted",
    `${label}-ca.pem`,
    `${label}-leaf.pem`,
  ]);
  return { ours, opensslRefuses: !theirs.ok, output: theirs.output };
}

const WWW = "DNS:www.example.com";

/**
 * label, chain, whether openssl (and so our verdict) refuses it for its names; `openssl-only` for
 * the one deliberate difference: openssl refuses, we do not (the leaf's CN, ADR 0046).
 */
const CASES: [string, Case, boolean | "openssl-only"][] = [
  // directoryName: the subject, compared canonically (case and inner spaces do not count).
  [
    "dn-subject-in",
    {
      ca: "permitted;dirName:dn_ok",
      subject: "/O=Example/CN=leaf",
      san: WWW,
      sections: "[dn_ok]\nO=Example\n",
    },
    false,
  ],
  [
    "dn-subject-out",
    {
      ca: "permitted;dirName:dn_ok",
      subject: "/O=Other/CN=leaf",
      san: WWW,
      sections: "[dn_ok]\nO=Example\n",
    },
    true,
  ],
  [
    "dn-subject-canonical",
    {
      ca: "permitted;dirName:dn_ok",
      subject: "/O=example   corp/CN=leaf",
      san: WWW,
      sections: "[dn_ok]\nO= EXAMPLE Corp\n",
    },
    false,
  ],
  [
    "dn-subject-excluded",
    { ca: "excluded;dirName:dn_bad", subject: "/O=Bad/CN=leaf", san: WWW, sections: "[dn_bad]\nO=Bad\n" },
    true,
  ],
  // directoryName: a SAN of that form.
  [
    "dn-san-excluded",
    {
      ca: "excluded;dirName:dn_bad",
      subject: "/O=Good/CN=leaf",
      san: `${WWW},dirName:san_dir`,
      sections: "[dn_bad]\nO=Bad\n[san_dir]\nO=Bad\nCN=other\n",
    },
    true,
  ],
  [
    "dn-san-permitted-in",
    {
      ca: "permitted;dirName:dn_ok",
      subject: "/O=Good/CN=leaf",
      san: `${WWW},dirName:san_dir`,
      sections: "[dn_ok]\nO=Good\n[san_dir]\nO=Good\nCN=other\n",
    },
    false,
  ],
  [
    "dn-san-permitted-out",
    {
      ca: "permitted;dirName:dn_ok",
      subject: "/O=Good/CN=leaf",
      san: `${WWW},dirName:san_dir`,
      sections: "[dn_ok]\nO=Good\n[san_dir]\nO=Other\nCN=other\n",
    },
    true,
  ],
  // The subject's emailAddress attributes, checked whether or not an rfc822Name SAN exists.
  [
    "subject-email-in",
    { ca: "permitted;email:example.com", subject: "/CN=leaf/emailAddress=a@example.com", san: WWW },
    false,
  ],
  [
    "subject-email-out",
    { ca: "permitted;email:example.com", subject: "/CN=leaf/emailAddress=a@other.test", san: WWW },
    true,
  ],
  [
    "subject-email-beside-san",
    {
      ca: "excluded;email:other.test",
      subject: "/CN=leaf/emailAddress=a@other.test",
      san: `${WWW},email:a@example.com`,
    },
    true,
  ],
  [
    "subject-email-no-email-subtree",
    { ca: "permitted;DNS:example.com", subject: "/CN=leaf/emailAddress=a@other.test", san: WWW },
    false,
  ],
  // rfc822Name SANs: a host, a domain, a mailbox, and one without @.
  [
    "email-san-in",
    { ca: "permitted;email:.example.com", subject: "/CN=leaf", san: `${WWW},email:a@mail.example.com` },
    false,
  ],
  [
    "email-san-out",
    { ca: "permitted;email:.example.com", subject: "/CN=leaf", san: `${WWW},email:a@example.com` },
    true,
  ],
  [
    "email-san-mailbox",
    { ca: "permitted;email:a@example.com", subject: "/CN=leaf", san: `${WWW},email:b@example.com` },
    true,
  ],
  [
    "email-san-without-at",
    { ca: "excluded;email:other.test", subject: "/CN=leaf", san: `${WWW},email:nobody` },
    true,
  ],
  // URIs by host; a URI without a host.
  [
    "uri-in",
    { ca: "permitted;URI:.example.com", subject: "/CN=leaf", san: `${WWW},URI:https://www.example.com/x` },
    false,
  ],
  [
    "uri-out",
    { ca: "permitted;URI:.example.com", subject: "/CN=leaf", san: `${WWW},URI:https://www.other.test/` },
    true,
  ],
  ["uri-no-host", { ca: "excluded;URI:other.test", subject: "/CN=leaf", san: `${WWW},URI:urn:isbn:1` }, true],
  // iPAddress, both families.
  ["ip-in", { ca: "permitted;IP:192.0.2.0/255.255.255.0", subject: "/CN=leaf", san: "IP:192.0.2.5" }, false],
  [
    "ip-out",
    { ca: "permitted;IP:192.0.2.0/255.255.255.0", subject: "/CN=leaf", san: "IP:198.51.100.1" },
    true,
  ],
  [
    "ip-v6-under-v4",
    { ca: "permitted;IP:192.0.2.0/255.255.255.0", subject: "/CN=leaf", san: "IP:2001:db8::1" },
    true,
  ],
  [
    "ip-v6-excluded",
    { ca: "excluded;IP:2001:db8::/ffff:ffff::", subject: "/CN=leaf", san: "IP:2001:db8::1" },
    true,
  ],
  // dNSName.
  ["dns-in", { ca: "permitted;DNS:example.com", subject: "/CN=leaf", san: WWW }, false],
  ["dns-excluded", { ca: "excluded;DNS:.example.com", subject: "/CN=leaf", san: WWW }, true],
  // The leaf's commonName: OpenSSL reads a host-like CN when there is no dNSName SAN; we do not (ADR 0046).
  ["cn-host-out", { ca: "permitted;DNS:example.com", subject: "/CN=www.other.test" }, "openssl-only"],
  ["cn-host-in", { ca: "permitted;DNS:example.com", subject: "/CN=www.example.com" }, false],
  ["cn-beside-dns-san", { ca: "permitted;DNS:example.com", subject: "/CN=www.other.test", san: WWW }, false],
  // otherName: a constraint of a form that cannot be evaluated, met by a name of that form.
  [
    "othername",
    {
      ca: "permitted;otherName:1.3.6.1.4.1.311.20.2.3;UTF8:a@example.com",
      subject: "/CN=leaf",
      san: `${WWW},otherName:1.3.6.1.4.1.311.20.2.3;UTF8:b@example.com`,
    },
    true,
  ],
  // The root's constraints reach the CA's own subject, not only the leaf's.
  [
    "root-dn-reaches-ca",
    {
      root: "permitted;dirName:dn_ok",
      caSubject: "/O=Other/CN=Constrained CA",
      subject: "/O=Example/CN=leaf",
      san: WWW,
      sections: "[dn_ok]\nO=Example\n",
    },
    true,
  ],
];

describe("name constraints over every name form against openssl verify -purpose sslserver", () => {
  test(
    "we refuse exactly where openssl refuses",
    async () => {
      const seen: [string, string[], boolean][] = [];
      const wanted: [string, string[], boolean][] = [];
      for (const [label, spec, refused] of CASES) {
        const { ours, opensslRefuses, output } = await verdicts(label, spec);
        seen.push([label, ours, opensslRefuses]);
        wanted.push([label, refused === true ? ["NAME_CONSTRAINTS_VIOLATED"] : [], refused !== false]);
        if (opensslRefuses !== (refused !== false)) throw new Error(`${label}: openssl says ${output}`);
      }
      expect(seen).toEqual(wanted);
    },
    ORACLE_TIMEOUT_MS * 2,
  );
});
