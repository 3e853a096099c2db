/**
 * CERT_WATCH (CONTRACT §10.1) against the real server process: what stops the start (a missing
 * path, more than 1,000 files, no METRICS_PORT, a bad interval: one line, exit 2); with one process
 * and with a supervisor of two workers, a pass on SIGHUP without waiting for the interval (the
 * process keeps serving: SIGHUP no longer ends it), a clean stop, and no byte of a watched
 * folder's keys on stdout or stderr. The Prometheus side, WORKERS=2 and
 * the rotation within one interval are in cert-watch-prometheus.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type KeyMaterial, leafAndRoot, privateKey, writeSecretMount } from "../support/secret-mount.ts";
import { runServerCommand, startServer } from "./server.ts";

const work = mkdtempSync(join(tmpdir(), "cert-watch-e2e-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function expectStartRefused(env: Record<string, string>, line: RegExp): Promise<void> {
  const ran = await runServerCommand([], { HOST: "127.0.0.1", PORT: "0", ...env });
  expect(ran.code).toBe(2);
  const lines = ran.stderr.split("\n").filter(Boolean);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(line);
}

describe("what stops the start", () => {
  test("a CERT_WATCH entry that does not exist", async () => {
    const absent = join(work, "no-such-secret");
    await expectStartRefused(
      { CERT_WATCH: `${work},${absent}`, METRICS_PORT: "0" },
      new RegExp(
        `^network-tools-api: configuration error: CERT_WATCH names "${absent}", which does not exist`,
      ),
    );
  });

  test("more than 1,000 certificate files", async () => {
    const many = join(work, "many");
    mkdirSync(many);
    for (let index = 0; index <= 1000; index++) writeFileSync(join(many, `c${index}.pem`), "");
    await expectStartRefused(
      { CERT_WATCH: many, METRICS_PORT: "0" },
      /CERT_WATCH finds 1001 certificate files; at most 1000 can be watched$/,
    );
  });

  test("no METRICS_PORT, or an interval outside 5–86400", async () => {
    await expectStartRefused({ CERT_WATCH: work }, /CERT_WATCH needs METRICS_PORT/);
    await expectStartRefused(
      { CERT_WATCH: work, METRICS_PORT: "0", CERT_WATCH_INTERVAL_SECONDS: "4" },
      /CERT_WATCH_INTERVAL_SECONDS must be a whole number from 5 to 86400/,
    );
  });
});

describe.each(["1", "2"])("a running watch (WORKERS=%s)", (workers) => {
  let key: KeyMaterial;
  let renewed: { leaf: string; root: string };

  const mount = join(work, `secret-${workers}`);
  beforeAll(async () => {
    const first = await leafAndRoot(30, 60);
    renewed = await leafAndRoot(1, 90);
    key = await privateKey();
    writeSecretMount(mount, {
      "tls.crt": first.leaf,
      "tls.key": key.pem,
      "ca.crt": first.root,
      "key.pem": key.pem,
    });
  });

  test("SIGHUP reads the files at once; the process serves on and stops cleanly; no key byte out", async () => {
    const server = await startServer({
      WORKERS: workers,
      CERT_WATCH: mount,
      CERT_WATCH_INTERVAL_SECONDS: "86400",
      METRICS_PORT: "0",
      LOG_LEVEL: "debug",
    });
    let metricsPort = 0;
    for (let attempt = 0; attempt < 300 && metricsPort === 0; attempt++) {
      for (const line of server.lines) {
        const record = JSON.parse(line) as { msg?: string; port?: number };
        if (record.msg === "metrics listening" && typeof record.port === "number") metricsPort = record.port;
      }
      await Bun.sleep(10);
    }
    const scrape = async () => (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const tls = join(mount, "tls.crt");
    const status = (value: string) => `network_tools_chain_status{filepath="${tls}",status="${value}"} 1`;
    const waitFor = async (line: string, limitMs: number) => {
      const end = performance.now() + limitMs;
      while (!(await scrape()).includes(line)) {
        if (performance.now() > end) throw new Error(`not within ${limitMs} ms: ${line}`);
        await Bun.sleep(50);
      }
    };
    await waitFor(status("incomplete"), 5_000);
    writeSecretMount(mount, {
      "tls.crt": renewed.leaf + renewed.root,
      "tls.key": key.pem,
      "ca.crt": renewed.root,
    });
    await Bun.sleep(200);
    expect(await scrape()).toContain(status("incomplete")); // the interval is a day: nothing yet
    server.process.kill("SIGHUP");
    await waitFor(status("complete"), 3_000);
    expect((await fetch(`${server.url}/v1/health`)).status).toBe(200);
    const text = await scrape();
    expect(await server.stop()).toBe(0);
    await server.outputEnded;
    const stderr = await new Response(server.process.stderr).text();
    const stdout = server.lines.join("\n");
    expect(stdout).toContain('"msg":"SIGHUP received: certificate files read again"');
    for (const leak of key.leaks)
      for (const [where, output] of [
        ["metrics", text],
        ["stdout", stdout],
        ["stderr", stderr],
      ] as const)
        expect(`${where}: ${output.includes(leak)}`).toBe(`${where}: false`);
  }, 30_000);
});
