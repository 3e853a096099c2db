/**
 * CERT_WATCH (CONTRACT §10.1) as an operator runs it: the real server with WORKERS=2 watches three
 * Secret-like mounts (`..data` link, tls.crt, tls.key, ca.crt), and a real Prometheus (Debian's
 * package, started here on loopback with a temporary configuration) scrapes its metrics listener
 * every second and evaluates the example alert rules of
 * deploy/kubernetes/examples/cert-watch-alerts.yaml (their `for` set to 0 s, so that firing needs
 * no waiting). An incomplete chain and an expiring leaf fire; the healthy Secret fires nothing;
 * every series appears once although two workers serve; rotating a Secret's `..data` link is seen
 * within one interval; no byte of the keys in the watched folders reaches a metric or a log line.
 * Run under `heavy` (a server with two workers and a Prometheus, about twenty seconds).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { spawn } from "bun";
import { pickFreePort } from "../../src/process/supervisor.ts";
import { type KeyMaterial, leafAndRoot, privateKey, writeSecretMount } from "../support/secret-mount.ts";
import { type RunningServer, startServer } from "./server.ts";

const ROOT = resolve(import.meta.dir, "../..");
const INTERVAL_SECONDS = 5;
const work = mkdtempSync(join(tmpdir(), "cert-watch-prometheus-"));
const mounts = {
  healthy: join(work, "secrets/healthy"),
  incomplete: join(work, "secrets/incomplete"),
  expiring: join(work, "secrets/expiring"),
};

let server: RunningServer;
let prometheus: ReturnType<typeof spawn>;
let prometheusUrl: string;
let metricsPort: number;
let keys: KeyMaterial[] = [];
let complete: { leaf: string; root: string };

interface Alert {
  labels: Record<string, string>;
  state: string;
}

async function metricsPortOf(running: RunningServer): Promise<number> {
  for (let attempt = 0; attempt < 300; attempt++) {
    for (const line of running.lines) {
      const record = JSON.parse(line) as { msg?: string; port?: number };
      if (record.msg === "metrics listening" && typeof record.port === "number") return record.port;
    }
    await Bun.sleep(10);
  }
  throw new Error("no metrics listening line");
}

async function scrape(): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
  expect(response.status).toBe(200);
  return response.text();
}

async function alerts(): Promise<Alert[]> {
  const response = await fetch(`${prometheusUrl}/api/v1/alerts`);
  const body = (await response.json()) as { data: { alerts: Alert[] } };
  return body.data.alerts;
}

async function query(
  expression: string,
): Promise<{ metric: Record<string, string>; value: [number, string] }[]> {
  const response = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(expression)}`);
  const body = (await response.json()) as {
    status: string;
    data: { result: { metric: Record<string, string>; value: [number, string] }[] };
  };
  expect(body.status).toBe("success");
  return body.data.result;
}

/** Polls `check` every 200 ms until it returns a value, or fails after `limitMs` with `what`. */
async function until<T>(what: string, limitMs: number, check: () => Promise<T | null>): Promise<T> {
  const end = performance.now() + limitMs;
  for (;;) {
    const value = await check();
    if (value !== null) return value;
    if (performance.now() > end) throw new Error(`not within ${limitMs} ms: ${what}`);
    await Bun.sleep(200);
  }
}

const firing = (list: Alert[], name: string, file: string) =>
  list.some(
    (alert) => alert.labels.alertname === name && alert.labels.filepath === file && alert.state === "firing",
  );

beforeAll(async () => {
  const healthy = await leafAndRoot(30, 60);
  const incomplete = await leafAndRoot(30, 60);
  const expiring = await leafAndRoot(80, 5);
  complete = incomplete;
  keys = [await privateKey(), await privateKey(), await privateKey(), await privateKey()];
  const [k1, k2, k3, k4] = keys as [KeyMaterial, KeyMaterial, KeyMaterial, KeyMaterial];
  writeSecretMount(mounts.healthy, {
    "tls.crt": healthy.leaf + healthy.root,
    "tls.key": k1.pem,
    "ca.crt": healthy.root,
    // A leaf+key file (HAProxy's) and a DER key, named like certificates: read, the keys set aside.
    "combined.pem": healthy.leaf + k2.pem + healthy.root,
    "key.der": k3.der,
  });
  writeSecretMount(mounts.incomplete, {
    "tls.crt": incomplete.leaf,
    "tls.key": k4.pem,
    "ca.crt": incomplete.root,
  });
  writeSecretMount(mounts.expiring, {
    "tls.crt": expiring.leaf + expiring.root,
    "tls.key": k1.pem,
    "ca.crt": expiring.root,
  });

  server = await startServer({
    WORKERS: "2",
    METRICS_PORT: "0",
    LOG_LEVEL: "debug",
    CERT_WATCH: `${mounts.healthy},${mounts.incomplete}, ${mounts.expiring}`,
    CERT_WATCH_INTERVAL_SECONDS: String(INTERVAL_SECONDS),
  });
  metricsPort = await metricsPortOf(server);

  // The example rules, as a plain rule file: the PrometheusRule's spec (JSON is YAML), `for` 0 s.
  const rule = Bun.YAML.parse(
    readFileSync(join(ROOT, "deploy/kubernetes/examples/cert-watch-alerts.yaml"), "utf8"),
  ) as { spec: { groups: { rules: { for?: string }[] }[] } };
  for (const group of rule.spec.groups) for (const entry of group.rules) entry.for = "0s";
  writeFileSync(join(work, "rules.yml"), JSON.stringify(rule.spec));
  writeFileSync(
    join(work, "prometheus.yml"),
    JSON.stringify({
      global: { scrape_interval: "1s", evaluation_interval: "1s" },
      rule_files: [join(work, "rules.yml")],
      scrape_configs: [
        { job_name: "cert-watch", static_configs: [{ targets: [`127.0.0.1:${metricsPort}`] }] },
      ],
    }),
  );
  const port = pickFreePort("127.0.0.1");
  prometheusUrl = `http://127.0.0.1:${port}`;
  prometheus = spawn(
    [
      "prometheus",
      `--config.file=${join(work, "prometheus.yml")}`,
      `--storage.tsdb.path=${join(work, "tsdb")}`,
      `--web.listen-address=127.0.0.1:${port}`,
      "--log.level=warn",
    ],
    { stdout: "ignore", stderr: "pipe" },
  );
  await until("Prometheus ready", 20_000, async () => {
    const ready = await fetch(`${prometheusUrl}/-/ready`).catch(() => null);
    return ready?.ok ? true : null;
  });
}, 60_000);

afterAll(async () => {
  prometheus?.kill("SIGTERM");
  await prometheus?.exited;
  if (server !== undefined) expect(await server.stop()).toBe(0);
  rmSync(work, { recursive: true, force: true });
}, 30_000);

describe("CERT_WATCH scraped by Prometheus, with the example alert rules", () => {
  test("an incomplete chain and an expiring leaf fire, the healthy Secret does not, no series twice", async () => {
    const healthyTls = join(mounts.healthy, "tls.crt");
    const incompleteTls = join(mounts.incomplete, "tls.crt");
    const expiringTls = join(mounts.expiring, "tls.crt");
    const list = await until("the incomplete and expiring chains' alerts firing", 30_000, async () => {
      const current = await alerts();
      const all =
        firing(current, "CertificateChainNotComplete", incompleteTls) &&
        firing(current, "CertificateChainError", incompleteTls) &&
        firing(current, "CertificateExpiring", expiringTls);
      return all ? current : null;
    });
    // The healthy Secret was scraped and evaluated too: its series are in Prometheus, and nothing fires.
    const healthySeries = await query(
      `network_tools_chain_status{filepath="${healthyTls}",status="complete"}`,
    );
    expect(healthySeries.map((sample) => sample.value[1])).toEqual(["1"]);
    const healthyAlerts = list.filter((alert) => alert.labels.filepath?.startsWith(mounts.healthy));
    expect(healthyAlerts).toEqual([]);
    // Not the CA files (no-leaf), not the key files, nothing that failed to read.
    expect(list.map((alert) => `${alert.labels.alertname} ${alert.labels.filepath}`).sort()).toEqual(
      [
        `CertificateChainError ${incompleteTls}`,
        `CertificateChainNotComplete ${incompleteTls}`,
        `CertificateExpiring ${expiringTls}`,
      ].sort(),
    );
    expect(list.find((alert) => alert.labels.alertname === "CertificateChainError")?.labels.code).toBe(
      "INCOMPLETE_CHAIN",
    );

    // WORKERS=2: every series once, in the scrape text and in Prometheus.
    const text = await scrape();
    const samples = text.split("\n").filter((line) => line !== "" && !line.startsWith("#"));
    const keysOf = samples.map((line) => line.slice(0, line.lastIndexOf(" ")));
    expect(new Set(keysOf).size).toBe(keysOf.length);
    expect(
      keysOf.filter((key) => key.startsWith(`x509_cert_not_after{filepath="${healthyTls}"`)),
    ).toHaveLength(2);
    expect(
      keysOf.filter((key) => key.startsWith(`network_tools_chain_status{filepath="${healthyTls}"`)),
    ).toHaveLength(4);
    const twice = await query(
      'count by (__name__, filepath, subject_CN, issuer_CN, serial_number, status, code, severity) ({__name__=~"x509_.+|network_tools_chain_.+"}) > 1',
    );
    expect(twice).toEqual([]);
    // Files: tls.crt and ca.crt of each Secret, combined.pem; key.der holds only a key (skipped).
    const files = (await query("x509_read_errors")).map((sample) => sample.metric.filepath).sort();
    expect(files).toEqual(
      [
        join(mounts.expiring, "ca.crt"),
        expiringTls,
        join(mounts.healthy, "ca.crt"),
        join(mounts.healthy, "combined.pem"),
        healthyTls,
        join(mounts.incomplete, "ca.crt"),
        incompleteTls,
      ].sort(),
    );
  }, 60_000);

  test("rotating a Secret's ..data link is seen within one interval, and its alert resolves", async () => {
    const incompleteTls = join(mounts.incomplete, "tls.crt");
    const [, , , k4] = keys as [KeyMaterial, KeyMaterial, KeyMaterial, KeyMaterial];
    const completeLine = `network_tools_chain_status{filepath="${incompleteTls}",status="complete"} 1`;
    expect(await scrape()).not.toContain(completeLine);
    const rotated = performance.now();
    writeSecretMount(mounts.incomplete, {
      "tls.crt": complete.leaf + complete.root,
      "tls.key": k4.pem,
      "ca.crt": complete.root,
    });
    await until("the renewed chain in the scrape", (INTERVAL_SECONDS + 5) * 1000, async () =>
      (await scrape()).includes(completeLine) ? true : null,
    );
    const seenAfterMs = performance.now() - rotated;
    // One interval, plus the pass itself and the 200 ms polling of this test.
    expect(seenAfterMs).toBeLessThan(INTERVAL_SECONDS * 1000 + 1_500);
    await until("the incomplete chain's alert resolved", 15_000, async () => {
      const current = await alerts();
      return current.some((alert) => alert.labels.filepath === incompleteTls) ? null : true;
    });
  }, 60_000);

  test("no byte of a watched folder's keys in a metric, a log line or an error", async () => {
    const text = await scrape();
    await Bun.sleep(100);
    const stdout = server.lines.join("\n");
    // The watcher did log (debug level): its passes, so the check below reads real lines.
    expect(stdout).toContain('"msg":"certificate watch pass"');
    for (const key of keys)
      for (const leak of key.leaks) {
        expect(text.includes(leak)).toBe(false);
        expect(stdout.includes(leak)).toBe(false);
      }
    expect(text).not.toContain("PRIVATE KEY");
    expect(stdout).not.toContain("PRIVATE KEY");
  });
});
