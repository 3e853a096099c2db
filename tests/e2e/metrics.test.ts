/**
 * Metrics (CONTRACT §6) against the real process: scrape METRICS_PORT before and after known
 * traffic; the request counts and the histogram totals move by exactly that traffic, in one
 * process and summed over WORKERS=2. Labels hold only closed sets; the API port has no /metrics;
 * a busy metrics port stops the start like a busy API port. With WORKERS=2, kill -9 of a worker
 * under load never makes a counter step down, and no scrape waits on a dead or hung worker.
 */
import { describe, expect, test } from "bun:test";
import { OPERATION_LIST } from "../../src/contract/operations.ts";
import { LATENCY_BUCKETS_SECONDS } from "../../src/process/metrics.ts";
import { POLL_TIMEOUT_MS } from "../../src/process/supervisor.ts";
import { type RunningServer, runServerCommand, startServer } from "./server.ts";

const OPERATION_IDS = new Set([...OPERATION_LIST.map((operation) => operation.id), "unmatched"]);

/** Every sample of an exposition: `name{labels}` → value. */
type Samples = Map<string, number>;

function parseExposition(text: string): Samples {
  const samples: Samples = new Map();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([a-z_]+(?:\{[^}]*\})?) (\S+)$/.exec(line);
    if (match === null) throw new Error(`not an exposition line: ${JSON.stringify(line)}`);
    samples.set(match[1] as string, Number(match[2]));
  }
  return samples;
}

/** The metrics port from the `metrics listening` line. */
async function metricsPortOf(server: RunningServer): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    for (const line of server.lines) {
      const record = JSON.parse(line) as { msg?: string; port?: number };
      if (record.msg === "metrics listening" && typeof record.port === "number") return record.port;
    }
    await Bun.sleep(10);
  }
  throw new Error("no metrics listening line");
}

async function scrape(port: number): Promise<{ samples: Samples; text: string }> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  const text = await response.text();
  return { samples: parseExposition(text), text };
}

const requests = (operation: string, method: string, status: number) =>
  `network_tools_requests_total{operation="${operation}",method="${method}",status="${status}"}`;
const durationCount = (operation: string) =>
  `network_tools_request_duration_seconds_count{operation="${operation}"}`;
const durationBucket = (operation: string, le: string) =>
  `network_tools_request_duration_seconds_bucket{operation="${operation}",le="${le}"}`;

/** The known traffic: each request on its own connection, so WORKERS=2 spreads it over both. */
async function sendKnownTraffic(url: string): Promise<void> {
  const send = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${url}${path}`, {
      ...init,
      headers: { connection: "close", ...(init.headers as Record<string, string> | undefined) },
    });
    await response.arrayBuffer();
  };
  const json = (body: unknown): RequestInit => ({
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  for (let i = 0; i < 12; i++) await send("/v1/health");
  for (let i = 0; i < 5; i++)
    await send("/v1/cidr-cover", json({ inputs: ["10.0.0.0/25", "10.0.0.128/25"] }));
  for (let i = 0; i < 3; i++) await send("/v1/cidr-cover", json({ inputs: ["10.0.0.300"] }));
  for (let i = 0; i < 4; i++) await send("/v1/range-to-cidrs", json({ start: "10.0.0.0", end: "10.0.0.99" }));
  for (let i = 0; i < 2; i++) await send("/v1/range-to-cidrs", { method: "OPTIONS" });
  await send("/v1/range-to-cidrs", { method: "DELETE" });
  for (let i = 0; i < 6; i++) await send(`/scan/${i}/wp-login.php?x=${i}`);
  await send("/v1/health", { method: "PUT" });
}

/** What sendKnownTraffic adds, series by series. */
const EXPECTED: [string, number][] = [
  [requests("health", "GET", 200), 12],
  [requests("cidrCover", "POST", 200), 5],
  [requests("cidrCover", "POST", 400), 3],
  [requests("rangeToCidrs", "POST", 200), 4],
  [requests("rangeToCidrs", "OPTIONS", 204), 2],
  [requests("rangeToCidrs", "DELETE", 405), 1],
  [requests("unmatched", "GET", 404), 6],
  [requests("health", "PUT", 405), 1],
  [durationCount("health"), 13],
  [durationCount("cidrCover"), 8],
  [durationCount("rangeToCidrs"), 7],
  [durationCount("unmatched"), 6],
];

function checkLabels(text: string): void {
  for (const line of text.split("\n")) {
    if (line.startsWith("#") || line === "") continue;
    for (const [, name, value] of line.matchAll(/([a-z]+)="([^"]*)"/g)) {
      if (name === "operation") expect(OPERATION_IDS.has(value as string)).toBe(true);
      else if (name === "method") expect(value).toMatch(/^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS|other)$/);
      else if (name === "status") expect(value).toMatch(/^[1-5][0-9]{2}$/);
      else if (name === "le") expect(value).toMatch(/^(\+Inf|[0-9.]+)$/);
      else throw new Error(`unexpected label ${name}`);
      expect(value).not.toContain("/");
    }
  }
}

async function checkExactDifference(server: RunningServer): Promise<Samples> {
  const port = await metricsPortOf(server);
  expect(port).not.toBe(server.port);
  const before = await scrape(port);
  await sendKnownTraffic(server.url);
  const after = await scrape(port);
  for (const [series, added] of EXPECTED)
    expect(`${series} ${(after.samples.get(series) ?? 0) - (before.samples.get(series) ?? 0)}`).toBe(
      `${series} ${added}`,
    );
  // Nothing else moved: the sum of every request counter grew by exactly the traffic sent.
  const total = (samples: Samples) =>
    [...samples].reduce(
      (sum, [key, value]) => (key.startsWith("network_tools_requests_total{") ? sum + value : sum),
      0,
    );
  expect(total(after.samples) - total(before.samples)).toBe(34);
  // Each histogram: +Inf bucket = count, buckets never decrease, and the sub-millisecond buckets exist.
  for (const operation of ["health", "cidrCover", "rangeToCidrs", "unmatched"]) {
    expect(after.samples.get(durationBucket(operation, "+Inf"))).toBe(
      after.samples.get(durationCount(operation)),
    );
    let previous = 0;
    for (const bound of LATENCY_BUCKETS_SECONDS) {
      const value = after.samples.get(durationBucket(operation, String(bound)));
      expect(value).toBeGreaterThanOrEqual(previous);
      previous = value as number;
    }
  }
  expect(LATENCY_BUCKETS_SECONDS.filter((bound) => bound < 0.001).length).toBeGreaterThanOrEqual(4);
  checkLabels(after.text);
  // The scrape itself is not an API request, and the API port has no /metrics.
  const onApi = await fetch(`${server.url}/metrics`);
  expect(onApi.status).toBe(404);
  await onApi.arrayBuffer();
  return after.samples;
}

describe("metrics on METRICS_PORT", () => {
  test("one process: counts and histogram totals move by exactly the traffic sent", async () => {
    const server = await startServer({ METRICS_PORT: "0" });
    try {
      const samples = await checkExactDifference(server);
      expect(samples.get("network_tools_processes")).toBe(1);
      expect(samples.get("network_tools_draining")).toBe(0);
      expect(samples.get("network_tools_admission_queue_waiting")).toBe(0);
      expect(samples.get("network_tools_overloaded_total")).toBe(0);
      expect(samples.get("process_cpu_seconds_total")).toBeGreaterThan(0);
      expect(samples.get("process_resident_memory_bytes")).toBeGreaterThan(1_000_000);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  test("WORKERS=2: one scrape is the sum over both workers (and the supervisor's own CPU and memory)", async () => {
    const server = await startServer({ METRICS_PORT: "0", WORKERS: "2" });
    try {
      const samples = await checkExactDifference(server);
      expect(samples.get("network_tools_processes")).toBe(3);
      // Both workers and the supervisor answered the scrape. The 34 requests each came on a new
      // connection, which the kernel spreads over the two reusePort listeners: all of them on one
      // worker has a chance of 2^-33, so the exact totals above are totals over both.
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  test("WORKERS=2: after kill -9 of a worker under load, no counter steps down and no scrape waits on the dead worker", async () => {
    const server = await startServer({ METRICS_PORT: "0", WORKERS: "2" });
    const readyPids = (): number[] =>
      server.lines.flatMap((line) => {
        const record = JSON.parse(line) as { msg?: string; pid?: number };
        return record.msg === "worker ready" && typeof record.pid === "number" ? [record.pid] : [];
      });
    let loading = true;
    const load = Promise.all(
      Array.from({ length: 4 }, async (_, client) => {
        for (let i = 0; loading; i++) {
          const path = i % 3 === 0 ? "/v1/health" : `/scan/${client}`;
          // Requests on the killed worker's connections fail: only the counts matter here.
          await fetch(`${server.url}${path}`, { headers: { connection: "close" } })
            .then((response) => response.arrayBuffer())
            .catch(() => undefined);
        }
      }),
    );
    const scrapes: { samples: Samples; ms: number; afterKill: boolean }[] = [];
    let killed = false;
    const scrapeTimed = async (): Promise<void> => {
      const started = performance.now();
      const response = await fetch(`http://127.0.0.1:${port}/metrics`, {
        signal: AbortSignal.timeout(10_000),
      });
      const samples = parseExposition(await response.text());
      scrapes.push({ samples, ms: performance.now() - started, afterKill: killed });
    };
    const port = await metricsPortOf(server);
    try {
      const [victim, survivor] = readyPids();
      expect(victim).toBeNumber();
      for (let i = 0; i < 8; i++) {
        await scrapeTimed();
        await Bun.sleep(40);
      }
      process.kill(victim as number, "SIGKILL");
      killed = true;
      // Scrape while the worker is dead, being reaped and replaced, until its replacement is ready.
      const until = performance.now() + 15_000;
      while (readyPids().length < 3 && performance.now() < until) {
        await scrapeTimed();
        await Bun.sleep(20);
      }
      for (let i = 0; i < 5; i++) await scrapeTimed();
      loading = false;
      await load;
      await scrapeTimed(); // with no request left in flight
      const replacement = readyPids()[2];
      expect(replacement).toBeNumber();
      expect([victim, survivor]).not.toContain(replacement);

      // The load really was counted before the kill, and kept being counted after it.
      const requestTotal = (samples: Samples): number =>
        [...samples].reduce(
          (sum, [key, value]) => (key.startsWith("network_tools_requests_total{") ? sum + value : sum),
          0,
        );
      const lastBeforeKill = scrapes.filter((scrape) => !scrape.afterKill).at(-1) as (typeof scrapes)[number];
      expect(requestTotal(lastBeforeKill.samples)).toBeGreaterThan(20);
      expect(requestTotal((scrapes.at(-1) as (typeof scrapes)[number]).samples)).toBeGreaterThan(
        requestTotal(lastBeforeKill.samples),
      );
      expect(scrapes.filter((scrape) => scrape.afterKill).length).toBeGreaterThanOrEqual(3);
      // Every counter sample is non-decreasing from one scrape to the next.
      const isCounter = (key: string): boolean =>
        /^(network_tools_requests_total|network_tools_request_duration_seconds_(bucket|sum|count)|network_tools_overloaded_total|network_tools_rate_limited_total|process_cpu_seconds_total)\b/.test(
          key,
        );
      const steps: string[] = [];
      scrapes.slice(1).forEach((scrape, index) => {
        const previous = (scrapes[index] as (typeof scrapes)[number]).samples;
        for (const [key, value] of previous)
          if (isCounter(key) && (scrape.samples.get(key) ?? 0) < value)
            steps.push(`${key}: ${value} → ${scrape.samples.get(key) ?? "absent"}`);
      });
      expect(steps).toEqual([]);
      // A scrape never waits on the dead worker longer than one bounded poll, with slack for a busy machine.
      expect(Math.max(...scrapes.map((scrape) => scrape.ms))).toBeLessThan(POLL_TIMEOUT_MS + 1_500);

      // A hung worker (SIGSTOP): the scrape still answers within the bound, from its last answer.
      const before = scrapes.at(-1) as (typeof scrapes)[number];
      process.kill(survivor as number, "SIGSTOP");
      try {
        await scrapeTimed();
      } finally {
        process.kill(survivor as number, "SIGCONT");
      }
      const hung = scrapes.at(-1) as (typeof scrapes)[number];
      expect(hung.ms).toBeGreaterThanOrEqual(POLL_TIMEOUT_MS - 50);
      expect(hung.ms).toBeLessThan(POLL_TIMEOUT_MS + 1_500);
      expect(requestTotal(hung.samples)).toBe(requestTotal(before.samples));
      expect(hung.samples.get("network_tools_processes")).toBe(3);
    } finally {
      loading = false;
      await load;
      expect(await server.stop()).toBe(0);
    }
  });

  test("rate-limited refusals are counted; the drain shows while the process stops", async () => {
    const server = await startServer({
      METRICS_PORT: "0",
      RATE_LIMIT_PER_MINUTE: "2",
      SHUTDOWN_DELAY_MS: "3000",
    });
    let stopped: Promise<number> | null = null;
    try {
      const port = await metricsPortOf(server);
      for (let i = 0; i < 5; i++) await (await fetch(`${server.url}/v1/public-ip`)).arrayBuffer();
      const { samples } = await scrape(port);
      expect(samples.get("network_tools_rate_limited_total")).toBe(3);
      expect(samples.get(requests("publicIp", "GET", 429))).toBe(3);
      stopped = server.stop();
      let draining = 0;
      for (let attempt = 0; attempt < 100 && draining === 0; attempt++) {
        await Bun.sleep(20);
        draining = (await scrape(port)).samples.get("network_tools_draining") ?? 0;
      }
      expect(draining).toBe(1);
    } finally {
      expect(await (stopped ?? server.stop())).toBe(0);
    }
  });

  test("a busy METRICS_PORT stops the start: one line naming METRICS_PORT, exit code 2", async () => {
    const holder = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    try {
      const ran = await runServerCommand([], {
        HOST: "127.0.0.1",
        PORT: "0",
        METRICS_PORT: String(holder.port),
      });
      expect(ran.code).toBe(2);
      const stderr = ran.stderr.trim().split("\n");
      expect(stderr).toHaveLength(1);
      expect(stderr[0]).toContain(`127.0.0.1:${holder.port}`);
      expect(stderr[0]).toContain("METRICS_PORT");
    } finally {
      holder.stop(true);
    }
  });

  test("off when METRICS_PORT is unset: no metrics listener is started", async () => {
    const server = await startServer();
    try {
      await (await fetch(`${server.url}/v1/health`)).arrayBuffer();
      await Bun.sleep(50);
      expect(server.lines.some((line) => line.includes('"metrics listening"'))).toBe(false);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
