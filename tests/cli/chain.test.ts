/**
 * `nettools chain` and the certificate sources of `cert` and `chain`, spawned as a user runs them
 * (CONTRACT §7.1–7.3): `--fix` on every chain fixture against `openssl verify`, exit codes,
 * `--roots` and NETTOOLS_ROOTS, files people have (DER, PKCS#7, leaf+key, `-text` output), and
 * `--connect` against local `openssl s_server` processes (wire order, `--save` byte for byte).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningServer, startServer } from "../e2e/server.ts";
import {
  certPath,
  certPem,
  chainNames,
  chainPath,
  filePath,
  GENERATED_DIR,
  pemToDers,
} from "../fixtures/fixtures.ts";
import { startTlsServer, type TlsServer } from "../support/tls-server.ts";
import { type Ran, runNettools } from "./run.ts";

const scratch = mkdtempSync(join(tmpdir(), "nettools-chain-"));
const servers: TlsServer[] = [];
let api: RunningServer;
beforeAll(async () => {
  api = await startServer();
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await api.stop();
});

const nettools = (
  args: string[],
  options: { stdin?: string; env?: Record<string, string> } = {},
): Promise<Ran> => runNettools(args, { ...options, cwd: scratch });
const key = (name: string) => `${GENERATED_DIR}/keys/${name}.key`;
const KEY_MARKER = /PRIVATE KEY|MHcCAQEE|MIGHAgEA/;

function opensslVerify(fullchain: string, root: string): { ok: boolean; output: string } {
  const blocks = fullchain.match(/-----BEGIN CERTIFICATE-----\n[\s\S]*?-----END CERTIFICATE-----\n/g) ?? [];
  const leaf = join(scratch, "verify-leaf.pem");
  writeFileSync(leaf, blocks[0] ?? "");
  const args = ["openssl", "verify", "-CAfile", root];
  if (blocks.length > 1) {
    const rest = join(scratch, "verify-rest.pem");
    writeFileSync(rest, blocks.slice(1).join(""));
    args.push("-untrusted", rest);
  }
  const run = Bun.spawnSync([...args, leaf], { stdout: "pipe", stderr: "pipe" });
  return { ok: run.exitCode === 0, output: run.stdout.toString() + run.stderr.toString() };
}

describe("nettools chain --fix on each chain fixture, checked by openssl", () => {
  // complete: alone; withRoot: with --roots chain-root (the intermediates are all there);
  // asSent: the exit status of `chain` without --fix with --roots (the bundle as sent is judged).
  const expectations: Record<string, { complete: boolean; withRoot: boolean; asSent: number }> = {
    "chain-ordered": { complete: false, withRoot: true, asSent: 0 },
    "chain-with-root": { complete: true, withRoot: true, asSent: 0 },
    "chain-misordered": { complete: false, withRoot: true, asSent: 1 },
    "chain-leaf-only": { complete: false, withRoot: false, asSent: 1 },
    "chain-int-first": { complete: false, withRoot: false, asSent: 1 },
    "chain-unrelated-between": { complete: false, withRoot: true, asSent: 0 },
    "chain-everything": { complete: true, withRoot: true, asSent: 1 },
  };
  test("the fixtures are the ones listed", () => {
    expect(
      chainNames()
        .filter((name) => name.startsWith("chain-"))
        .sort(),
    ).toEqual(Object.keys(expectations).sort());
  });
  for (const [name, expected] of Object.entries(expectations)) {
    test(`${name}: the exit status judges the chain written; an incomplete chain is not written`, async () => {
      const alone = await nettools(["chain", "--fix", chainPath(name)]);
      expect(alone.code).toBe(expected.complete ? 0 : 1);
      if (expected.complete) {
        expect(alone.stdout).toMatch(/^(-----BEGIN CERTIFICATE-----\n[\s\S]*?-----END CERTIFICATE-----\n)+$/);
        expect(alone.stderr).toContain("Deployable: wrote the chain to stdout");
      } else {
        expect(alone.stdout).toBe("");
        expect(alone.stderr).toContain("Nothing written: ");
      }
      const roots = ["--roots", certPath("chain-root")];
      const asSent = await nettools(["chain", ...roots, chainPath(name)]);
      expect(asSent.code).toBe(expected.asSent);
      const withRoot = await nettools(["chain", "--fix", ...roots, chainPath(name)]);
      if (!expected.withRoot) {
        expect(withRoot.stderr).toContain("Chain incomplete");
        expect(withRoot.code).toBe(1);
        expect(withRoot.stdout).toBe("");
        // --partial writes it anyway, leaf first, and still exits 1.
        const partial = await nettools(["chain", "--fix", "--partial", ...roots, chainPath(name)]);
        expect(partial.code).toBe(1);
        expect(pemToDers(partial.stdout)[0]).toEqual(pemToDers(certPem("chain-leaf"))[0]!);
        expect(partial.stderr).toContain("not fit to deploy as is: the chain is incomplete");
        return;
      }
      // Every complete chain here has only problems that writing repairs: the file is deployable.
      expect(withRoot.code).toBe(0);
      const leafFirst = pemToDers(withRoot.stdout)[0]!;
      expect(Buffer.from(leafFirst).equals(Buffer.from(pemToDers(certPem("chain-leaf"))[0]!))).toBe(true);
      expect(withRoot.stderr).toContain("Chain complete");
      const verdict = opensslVerify(withRoot.stdout, certPath("chain-root"));
      expect(verdict.output).toContain("OK");
      expect(verdict.ok).toBe(true);
      // The fix leaves the root out and is itself a clean chain: a second pass finds nothing to fix.
      const again = join(scratch, `${name}-fixed.pem`);
      writeFileSync(again, withRoot.stdout);
      const second = await nettools(["chain", ...roots, again]);
      expect(second.code).toBe(0);
      expect(second.stdout).toContain("No problems.");
    }, 30_000);
  }

  test("-o writes the file, --include-root appends the root, NETTOOLS_ROOTS works like --roots", async () => {
    const out = join(scratch, "fullchain.pem");
    const ran = await nettools(
      ["chain", "--fix", "--include-root", "-o", out, chainPath("chain-misordered")],
      {
        env: { NETTOOLS_ROOTS: certPath("chain-root") },
      },
    );
    expect(ran.code).toBe(0); // misordered: WRONG_ORDER is an error of the bundle, repaired in the file
    expect(ran.stdout).toBe("");
    const written = readFileSync(out, "utf8");
    const names = ["chain-leaf", "chain-int2", "chain-int1", "chain-root"];
    expect(pemToDers(written).map((d) => Buffer.from(d).toString("hex"))).toEqual(
      names.map((n) => Buffer.from(pemToDers(certPem(n))[0]!).toString("hex")),
    );
  });

  test("--expires-within changes the exit code; EXPIRING alone never does", async () => {
    // The fixtures expire 2049-12-31: within 9000 days of today, not within 30.
    const plain = await nettools(["chain", "--roots", certPath("chain-root"), chainPath("chain-ordered")]);
    expect(plain.code).toBe(0);
    const within = await nettools([
      "chain",
      "--expires-within",
      "3650",
      "--roots",
      certPath("chain-root"),
      chainPath("chain-ordered"),
    ]);
    expect(within.code).toBe(0);
    const bad = await nettools(["chain", "--expires-within", "3651", chainPath("chain-ordered")]);
    expect(bad.code).toBe(2);
  });

  test("--expires-within N% judges each member against its own lifetime (CONTRACT §9.5)", async () => {
    const roots = ["--roots", certPath("chain-root")];
    // 100 %: every member still valid is within its whole lifetime of expiring; 0 %: none is.
    const all = await nettools([
      "chain",
      "--json",
      "--expires-within",
      "100%",
      ...roots,
      chainPath("chain-ordered"),
    ]);
    expect(all.code).toBe(1);
    const expiring = (
      JSON.parse(all.stdout) as { problems: { code: string; observed: string }[] }
    ).problems.filter((p) => p.code === "EXPIRING");
    expect(expiring.length).toBe(3);
    expect(expiring[0]!.observed).toContain("within 100 % of its");
    const none = await nettools(["chain", "--expires-within", "0%", ...roots, chainPath("chain-ordered")]);
    expect(none.code).toBe(0);
    expect((await nettools(["chain", "--expires-within", "101%", chainPath("chain-ordered")])).code).toBe(2);
  });

  test("--hostname takes an address; a mapped SAN does not match an IPv4 name", async () => {
    const roots = ["--roots", certPath("chain-root")];
    expect((await nettools(["chain", ...roots, "-H", "192.0.2.10", chainPath("chain-ordered")])).code).toBe(
      0,
    );
    const mapped = await nettools(["chain", ...roots, "-H", "192.0.2.20", chainPath("chain-ordered")]);
    expect(mapped.code).toBe(1);
    expect(mapped.stdout).toContain("HOSTNAME_MISMATCH");
    const bad = await nettools(["chain", "-H", "010.0.0.1", chainPath("chain-ordered")]);
    expect(bad.code).toBe(2);
  });

  test("with --server the same request goes through the API, roots included", async () => {
    const local = await nettools([
      "chain",
      "--json",
      "--roots",
      certPath("chain-root"),
      chainPath("chain-misordered"),
    ]);
    const remote = await nettools([
      "chain",
      "--json",
      "--server",
      api.url,
      "--roots",
      certPath("chain-root"),
      chainPath("chain-misordered"),
    ]);
    const strip = (text: string) =>
      text.replace(/"evaluatedAt":"[^"]+"/, "").replace(/"expiresInDays":\d+/g, "");
    expect(strip(remote.stdout)).toBe(strip(local.stdout));
    expect(remote.code).toBe(local.code);
  });
});

describe("files people have", () => {
  test("a leaf+key file is inspected; the key is set aside by position, never shown", async () => {
    for (const command of ["cert", "chain"]) {
      const ran = await nettools([command, filePath("leaf-and-key.pem")]);
      expect(ran.stderr).toContain("a private key (block 2, line 20) was set aside");
      expect(ran.stdout + ran.stderr).not.toMatch(KEY_MARKER);
      expect(ran.code).toBe(1); // the root is missing: a private hierarchy without --roots
    }
    const withRoots = await nettools([
      "chain",
      "--roots",
      certPath("chain-root"),
      filePath("leaf-and-key.pem"),
    ]);
    expect(withRoots.code).toBe(0);
  });

  test("DER certificate and DER/PEM PKCS#7 files are read directly", async () => {
    const der = await nettools(["cert", "--json", filePath("chain-leaf.der")]);
    expect(der.stderr).toContain("a DER file, read as one certificate");
    expect(JSON.parse(der.stdout).certificates[0].subject).toBe(
      "CN=chain.example.com,O=Network Tools Fixtures,C=US",
    );
    for (const file of ["chain.p7b", "chain.p7b.pem"]) {
      const ran = await nettools(["chain", "--json", filePath(file)]);
      expect(ran.stderr).toMatch(
        /PKCS#7 bundle( \(block 1, line 1\))?; its 3 certificates were read in stored order/,
      );
      expect(JSON.parse(ran.stdout).path.length).toBe(3);
    }
  });

  test("advice for -text output keeps every certificate, and following it works", async () => {
    const ran = await nettools(["cert", filePath("chain-text.pem")]);
    expect(ran.code).toBe(2);
    const advice = /sed -n '\/BEGIN CERTIFICATE\/,\/END CERTIFICATE\/p' cert\.pem > clean\.pem/;
    expect(ran.stderr).toMatch(advice);
    // The advice, followed to the letter.
    const clean = Bun.spawnSync([
      "sed",
      "-n",
      "/BEGIN CERTIFICATE/,/END CERTIFICATE/p",
      filePath("chain-text.pem"),
    ]);
    const cleanPath = join(scratch, "clean.pem");
    writeFileSync(cleanPath, clean.stdout);
    const after = await nettools(["cert", "--json", cleanPath]);
    expect(JSON.parse(after.stdout).certificates.length).toBe(2);
  });
});

describe("--connect (CONTRACT §7.3)", () => {
  const lists: [string, string, string, string[]][] = [
    ["[leaf]", "chain-leaf", "leaf-ec", []],
    ["[intermediate, leaf]", "chain-int2", "chain-int2", ["chain-leaf"]],
    ["[leaf, intermediate, root]", "chain-leaf", "leaf-ec", ["chain-int2", "chain-int1", "chain-root"]],
    ["[leaf, unrelated, intermediate]", "chain-leaf", "leaf-ec", ["chain-unrelated", "chain-int2"]],
  ];
  for (const [label, presented, keyName, rest] of lists) {
    test(`${label}: reported in the order sent, --save writes it byte for byte`, async () => {
      const server = await startTlsServer({
        certPem: certPem(presented),
        keyPath: key(keyName),
        ...(rest.length ? { extraPem: rest.map(certPem).join("") } : {}),
      });
      servers.push(server);
      const saved = join(scratch, `saved-${presented}-${rest.length}.pem`);
      const ran = await nettools([
        "cert",
        "--json",
        "--connect",
        `127.0.0.1:${server.port}`,
        "--servername",
        "chain.example.com",
        "--save",
        saved,
      ]);
      const sent = [presented, ...rest].map((name) =>
        Buffer.from(pemToDers(certPem(name))[0]!).toString("hex"),
      );
      expect(pemToDers(readFileSync(saved, "utf8")).map((d) => Buffer.from(d).toString("hex"))).toEqual(sent);
      const result = JSON.parse(ran.stdout);
      expect(result.certificates.map((c: { fingerprintSha256: string }) => c.fingerprintSha256)).toEqual(
        sent.map((hex) =>
          new Bun.CryptoHasher("sha256")
            .update(Buffer.from(hex, "hex"))
            .digest("hex")
            .toUpperCase()
            .match(/../g)!
            .join(":"),
        ),
      );
      expect(result.hostname).toEqual({ expected: "chain.example.com", status: "matched" });
      const fixed = await nettools([
        "chain",
        "--fix",
        "--connect",
        `127.0.0.1:${server.port}`,
        "--servername",
        "chain.example.com",
        "--roots",
        certPath("chain-root"),
      ]);
      // Only [leaf, int2, int1, root] holds every intermediate; the others stay incomplete (exit 1,
      // nothing written).
      if (rest.includes("chain-int1")) {
        expect(fixed.code).toBe(0);
        expect(opensslVerify(fixed.stdout, certPath("chain-root")).ok).toBe(true);
        expect(pemToDers(fixed.stdout)[0]).toEqual(pemToDers(certPem("chain-leaf"))[0]!);
      } else {
        expect(fixed.code).toBe(1);
        expect(fixed.stdout).toBe("");
      }
    }, 60_000);
  }

  test("SNI with two certificates: --servername picks the certificate", async () => {
    const server = await startTlsServer({
      certPem: certPem("chain-leaf"),
      keyPath: key("leaf-ec"),
      sni: {
        name: "other.chain.example.com",
        certPem: certPem("chain-leaf-other"),
        keyPath: key("leaf-other"),
      },
    });
    servers.push(server);
    const one = await nettools([
      "cert",
      "--json",
      "--connect",
      `127.0.0.1:${server.port}`,
      "--servername",
      "chain.example.com",
    ]);
    const two = await nettools([
      "cert",
      "--json",
      "--connect",
      `127.0.0.1:${server.port}`,
      "--servername",
      "other.chain.example.com",
    ]);
    expect(JSON.parse(one.stdout).certificates[0].commonName).toBe("chain.example.com");
    expect(JSON.parse(two.stdout).certificates[0].commonName).toBe("other.chain.example.com");
    expect(JSON.parse(two.stdout).hostname).toEqual({
      expected: "other.chain.example.com",
      status: "matched",
    });
  }, 60_000);

  test("an address HOST: chain checks IP SANs, cert skips the hostname", async () => {
    const server = await startTlsServer({ certPem: certPem("chain-leaf"), keyPath: key("leaf-ec") });
    servers.push(server);
    const certRun = await nettools(["cert", "--json", "--connect", `127.0.0.1:${server.port}`]);
    expect(JSON.parse(certRun.stdout).hostname).toBeNull();
    const chainRun = await nettools(["chain", "--connect", `127.0.0.1:${server.port}`]);
    expect(chainRun.stdout).toContain("does not cover 127.0.0.1");
  }, 60_000);

  test("failures are one line and exit 3", async () => {
    const refused = await nettools(["chain", "--connect", "127.0.0.1:1"]);
    expect(refused.code).toBe(3);
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    expect(refused.stderr).toContain("connection refused");
  });
});
