/**
 * A real client on a private PKI (issue 29): Debian's Chromium with our test roots in an NSS
 * database (`certutil`, in a temporary HOME's `.pki/nssdb`, where Chromium on Linux reads locally
 * trusted roots), loading pages served over HTTPS on 127.0.0.1 by Bun. For each leaf, Chromium
 * refuses the page exactly when our chain verdict (`POST /v1/certificate-chain` through
 * `buildApp`, the real decoder and verifier, the root given in `roots`) holds an error that names
 * chrome:
 * - under a root whose nameConstraints permit `allowed.test` only: a leaf for `www.allowed.test`
 *   (loads: the NSS trust works) and one for `outside.test` (refused);
 * - under a plain root: a SHA-256 leaf (loads) and a SHA-1 leaf (refused).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { realCertificateDeps } from "../../src/adapters/real-deps.ts";
import { call, jsonOf, testApp } from "../http/helpers.ts";
import { launchChromium } from "./chromium.ts";

const TIME_LIMIT_MS = 90_000;
let home = "";
let browser: Browser | undefined;
const servers: { stop(force?: boolean): unknown }[] = [];

function run(command: string[], cwd = home): string {
  const done = Bun.spawnSync(command, {
    cwd,
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, HOME: home },
  });
  if (done.exitCode !== 0) throw new Error(`${command[0]} ${command[1]} failed: ${done.stderr.toString()}`);
  return done.stdout.toString();
}

function write(name: string, text: string): string {
  writeFileSync(join(home, name), text);
  return name;
}

/** A root (self-signed CA, P-256) named `name`, with extra extension lines. */
function root(name: string, extensions: string[] = []): { pem: string; key: string; file: string } {
  const key = `${name}.key`;
  run(["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key]);
  const config = write(
    `${name}.cnf`,
    [
      "[req]",
      "distinguished_name=dn",
      "[dn]",
      "[ext]",
      "basicConstraints=critical,CA:TRUE",
      "keyUsage=critical,keyCertSign,cRLSign",
      "subjectKeyIdentifier=hash",
      ...extensions,
      "",
    ].join("\n"),
  );
  const file = `${name}.pem`;
  run([
    "openssl",
    "req",
    "-x509",
    "-new",
    "-key",
    key,
    "-subj",
    `/CN=${name}`,
    "-days",
    "30",
    "-sha256",
    "-config",
    config,
    "-extensions",
    "ext",
    "-out",
    file,
  ]);
  return { pem: readFileSync(join(home, file), "utf8"), key, file };
}

let serial = 1000;

/** A leaf for `host` issued by `issuer`, signed with `digest`; its key and PEM. */
function leaf(issuer: { key: string; file: string }, host: string, digest: string) {
  const name = `${host}-${digest}`;
  const key = `${name}.key`;
  run(["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key]);
  const config = write(
    `${name}.cnf`,
    [
      "[req]",
      "distinguished_name=dn",
      "[dn]",
      "[ext]",
      "basicConstraints=critical,CA:FALSE",
      "keyUsage=critical,digitalSignature",
      "extendedKeyUsage=serverAuth",
      "authorityKeyIdentifier=keyid",
      `subjectAltName=DNS:${host}`,
      "",
    ].join("\n"),
  );
  run([
    "openssl",
    "req",
    "-new",
    "-key",
    key,
    "-subj",
    `/CN=${host}`,
    "-config",
    config,
    "-out",
    `${name}.csr`,
  ]);
  run([
    "openssl",
    "x509",
    "-req",
    "-in",
    `${name}.csr`,
    "-CA",
    issuer.file,
    "-CAkey",
    issuer.key,
    "-set_serial",
    String(serial++),
    "-days",
    "20",
    `-${digest}`,
    "-extfile",
    config,
    "-extensions",
    "ext",
    "-out",
    `${name}.pem`,
  ]);
  return { pem: readFileSync(join(home, `${name}.pem`), "utf8"), key: readFileSync(join(home, key), "utf8") };
}

/** Serves one page over HTTPS on 127.0.0.1 with `cert`; its port. */
function serve(cert: string, key: string): number {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    tls: { cert, key },
    fetch: () =>
      new Response("<!doctype html><title>private</title><p id=ok>served</p>", {
        headers: { "content-type": "text/html" },
      }),
  });
  servers.push(server);
  return server.port as number;
}

/** What Chromium does with the page: `loaded`, or the net error it refused it with. */
async function chromiumOutcome(host: string, port: number): Promise<string> {
  const context = await browser!.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`https://${host}:${port}/`, { timeout: 15_000 });
    return (await page.textContent("#ok")) === "served" ? "loaded" : "other page";
  } catch (error) {
    return /net::ERR_[A-Z_]+/.exec(String(error))?.[0] ?? String(error).slice(0, 200);
  } finally {
    await context.close();
  }
}

/** Our verdict for leaf + root: the codes of the errors that name chrome. */
async function ourVerdict(leafPem: string, rootPem: string, host: string): Promise<string[]> {
  const { app } = testApp(realCertificateDeps());
  const at = `${new Date().toISOString().slice(0, 19)}Z`;
  const response = await call(app, "POST", "/v1/certificate-chain", {
    json: { pem: leafPem, roots: rootPem, hostname: host, at },
  });
  expect(response.status).toBe(200);
  const body = (await jsonOf(response)) as {
    status: string;
    problems: { code: string; severity: string; clients: string[] }[];
  };
  expect(body.status).toBe("complete");
  return body.problems
    .filter((p) => p.severity === "error" && p.clients.includes("chrome"))
    .map((p) => p.code);
}

const constrained = { host: "www.allowed.test" };
const outside = { host: "outside.test" };

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), "private-pki-"));
  mkdirSync(join(home, ".pki", "nssdb"), { recursive: true });
  run(["certutil", "-N", "-d", "sql:.pki/nssdb", "--empty-password"]);
}, TIME_LIMIT_MS);

afterAll(async () => {
  await browser?.close();
  for (const server of servers) server.stop(true);
  rmSync(home, { recursive: true, force: true });
});

describe("Chromium with a private root in an NSS database", () => {
  test(
    "refuses the page exactly when our verdict holds an error naming chrome",
    async () => {
      const limited = root("Limited Test Root", ["nameConstraints=critical,permitted;DNS:allowed.test"]);
      const plain = root("Plain Test Root");
      for (const made of [limited, plain]) {
        run(["certutil", "-A", "-d", "sql:.pki/nssdb", "-n", made.file, "-t", "C,,", "-i", made.file]);
      }
      const cases = [
        { label: "inside the constraints", issuer: limited, host: constrained.host, digest: "sha256" },
        { label: "outside the constraints", issuer: limited, host: outside.host, digest: "sha256" },
        { label: "sha256 under a plain root", issuer: plain, host: "sha256.test", digest: "sha256" },
        { label: "sha1 under a plain root", issuer: plain, host: "sha1.test", digest: "sha1" },
      ];
      const made = cases.map((c) => ({ ...c, ...leaf(c.issuer, c.host, c.digest) }));
      const ports = made.map((c) => serve(c.pem, c.key));
      const previousHome = process.env.HOME;
      process.env.HOME = home;
      try {
        browser = await launchChromium(
          ["--host-resolver-rules=MAP *.test 127.0.0.1, MAP *.allowed.test 127.0.0.1"],
          {
            HOME: home,
          },
        );
      } finally {
        process.env.HOME = previousHome;
      }
      const seen: [string, string, string[]][] = [];
      for (const [k, c] of made.entries()) {
        seen.push([
          c.label,
          await chromiumOutcome(c.host, ports[k]!),
          await ourVerdict(c.pem, c.issuer.pem, c.host),
        ]);
      }
      // Chromium refuses exactly where our verdict names it, and the controls load (NSS trust works).
      for (const [label, outcome, ours] of seen) {
        expect([label, outcome, outcome === "loaded"]).toEqual([label, outcome, ours.length === 0]);
      }
      expect(
        seen.map(([label, outcome, ours]) => [label, outcome === "loaded" ? "loaded" : "refused", ours]),
      ).toEqual([
        ["inside the constraints", "loaded", []],
        ["outside the constraints", "refused", ["NAME_CONSTRAINTS_VIOLATED"]],
        ["sha256 under a plain root", "loaded", []],
        ["sha1 under a plain root", "refused", ["SHA1_SIGNATURE"]],
      ]);
    },
    TIME_LIMIT_MS,
  );
});
