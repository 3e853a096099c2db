/**
 * `nettools chain --format prom FILE…` (CONTRACT §10.1): the same series the certificate watch
 * exports for the same files (compared with the watcher's own exposition), accepted by
 * Prometheus's parser, and chain's exit status over the files. Key files are skipped without a
 * byte of them printed.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { realCertificateDeps } from "../../src/adapters/real-deps.ts";
import { localChainJudge } from "../../src/certificate-watch/local-chain-judge.ts";
import { CertificateWatcher } from "../../src/certificate-watch/watcher.ts";
import { type KeyMaterial, leafAndRoot, privateKey } from "../support/secret-mount.ts";
import { runNettools } from "./run.ts";

const dir = mkdtempSync(join(tmpdir(), "chain-prom-"));
const file = (name: string) => join(dir, name);
let key: KeyMaterial;

beforeAll(async () => {
  const healthy = await leafAndRoot(30, 60);
  const expiring = await leafAndRoot(80, 5);
  key = await privateKey();
  writeFileSync(file("healthy.pem"), healthy.leaf + healthy.root);
  writeFileSync(file("leaf-only.pem"), healthy.leaf);
  writeFileSync(file("expiring.pem"), expiring.leaf + expiring.root);
  writeFileSync(file("with-key.pem"), healthy.leaf + key.pem + healthy.root);
  writeFileSync(file("privkey.pem"), key.pem);
  writeFileSync(file("key.der"), key.der);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("nettools chain --format prom", () => {
  test("prints the series the watcher exports for the same files", async () => {
    const files = ["healthy.pem", "leaf-only.pem", "expiring.pem", "with-key.pem"].map(file);
    const ran = await runNettools(["chain", "--format", "prom", ...files]);
    expect(ran.stderr).toBe("");
    const deps = realCertificateDeps();
    const watcher = new CertificateWatcher({
      paths: files,
      intervalSeconds: 60,
      judge: localChainJudge(deps),
      decoder: deps.decoder,
      log: () => {},
    });
    await watcher.runPass();
    expect(ran.stdout).toBe(watcher.exposition());
    expect(ran.stdout).toContain(
      `network_tools_chain_status{filepath="${file("leaf-only.pem")}",status="incomplete"} 1`,
    );
    expect(ran.stdout).toContain(
      `network_tools_chain_problems{filepath="${file("expiring.pem")}",code="EXPIRING",severity="warning"} 1`,
    );
    // leaf-only.pem is incomplete: chain's exit status 1.
    expect(ran.code).toBe(1);
    const check = Bun.spawnSync(["promtool", "check", "metrics"], {
      stdin: new TextEncoder().encode(ran.stdout),
    });
    expect([0, 3]).toContain(check.exitCode ?? -1); // 3: only the lint of enix's unsuffixed counter name
  });

  test("exit status as chain's: 0 complete with no error; --expires-within and --strict count EXPIRING", async () => {
    expect(
      (await runNettools(["chain", "--format", "prom", file("healthy.pem"), file("expiring.pem")])).code,
    ).toBe(0);
    expect(
      (await runNettools(["chain", "--format", "prom", "--expires-within", "30", file("expiring.pem")])).code,
    ).toBe(1);
    expect((await runNettools(["chain", "--format", "prom", "--strict", file("expiring.pem")])).code).toBe(1);
    expect(
      (await runNettools(["chain", "--format", "prom", "--expires-within", "3", file("expiring.pem")])).code,
    ).toBe(0);
  });

  test("a key-only file is skipped with a notice; an unreadable one is a read error (exit 2); no key byte anywhere", async () => {
    const ran = await runNettools([
      "chain",
      "--format",
      "prom",
      file("privkey.pem"),
      file("key.der"),
      file("with-key.pem"),
      file("absent.pem"),
    ]);
    expect(ran.code).toBe(2);
    expect(ran.stderr.split("\n").filter(Boolean)).toEqual([
      `notice: ${file("privkey.pem")} holds only a private key: skipped (no certificate)`,
      `notice: ${file("key.der")} holds only a private key: skipped (no certificate)`,
      `error: ${file("absent.pem")}: cannot read: ENOENT`,
    ]);
    expect(ran.stdout).toContain(`x509_read_errors{filepath="${file("absent.pem")}"} 1`);
    expect(ran.stdout).toContain(
      `network_tools_chain_status{filepath="${file("with-key.pem")}",status="complete"} 1`,
    );
    expect(ran.stdout).not.toContain("privkey.pem");
    for (const leak of key.leaks) expect(`${ran.stdout}${ran.stderr}`.includes(leak)).toBe(false);
  });

  test("options that choose one bundle's leaf, output or repair are usage errors", async () => {
    for (const extra of [["--fix"], ["--json"], ["-H", "a.test"], ["--leaf-index", "0"], ["-"]]) {
      const ran = await runNettools(["chain", "--format", "prom", ...extra, file("healthy.pem")]);
      expect(`${extra.join(" ")}: ${ran.code}`).toBe(`${extra.join(" ")}: 2`);
    }
    const other = await runNettools(["chain", "--format", "json", file("healthy.pem")]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('--format must be prom, not "json"');
  });
});
