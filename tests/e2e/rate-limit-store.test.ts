/**
 * RATE_LIMIT_STORE (CONTRACT §11) against a real `redis-server` and real server processes: two
 * servers (one with WORKERS=2) behind no balancer count one client in one Redis; a store that
 * stops is fail-open (no request refused or slowed past the 50 ms timeout; one warning line and
 * the error counter), and limiting resumes when it is back. Health is never limited.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Subprocess, spawn } from "bun";
import { type RunningServer, runServerCommand, startServer } from "./server.ts";

const LIMIT = 12;

/** A free TCP port on 127.0.0.1, as the kernel hands one out. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject()));
    });
  });
}

/** A redis-server of the test's own: loopback, a temp dir, no persistence. */
async function startRedis(port: number, dir: string): Promise<Subprocess> {
  const redis = spawn(
    [
      "redis-server",
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--dir",
      dir,
      "--save",
      "",
      "--appendonly",
      "no",
    ],
    { stdout: "pipe", stderr: "pipe" },
  );
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const up = await new Promise<boolean>((resolve) => {
      void Bun.connect({
        hostname: "127.0.0.1",
        port,
        socket: {
          open(socket) {
            socket.write("PING\r\n");
          },
          data(socket, chunk) {
            resolve(chunk.toString().startsWith("+PONG"));
            socket.end();
          },
          error: () => resolve(false),
          connectError: () => resolve(false),
        },
      }).catch(() => resolve(false));
    });
    if (up) return redis;
    await Bun.sleep(50);
  }
  redis.kill();
  throw new Error("redis-server did not start");
}

/** The port of the `metrics listening` line. */
function metricsPortOf(server: RunningServer): number {
  for (const line of server.lines) {
    const record = JSON.parse(line) as { msg?: string; port?: number };
    if (record.msg === "metrics listening" && typeof record.port === "number") return record.port;
  }
  throw new Error("no metrics listening line");
}

/** One GET on a fresh connection (so WORKERS=2 spreads them); status and time. */
async function get(
  url: string,
  path = "/v1/ip",
): Promise<{ status: number; ms: number; retryAfter: string | null }> {
  const start = performance.now();
  const response = await fetch(`${url}${path}`, { keepalive: false });
  await response.arrayBuffer();
  return {
    status: response.status,
    ms: performance.now() - start,
    retryAfter: response.headers.get("retry-after"),
  };
}

describe("RATE_LIMIT_STORE: one count for a fleet (CONTRACT §11)", () => {
  const dir = mkdtempSync(join(tmpdir(), "rate-store-"));
  let redisPort = 0;
  let redis: Subprocess | undefined;
  let single: RunningServer;
  let workers: RunningServer;

  beforeAll(async () => {
    redisPort = await freePort();
    redis = await startRedis(redisPort, dir);
    const env = {
      RATE_LIMIT_PER_MINUTE: String(LIMIT),
      RATE_LIMIT_STORE: `redis://127.0.0.1:${redisPort}`,
      METRICS_PORT: "0",
    };
    [single, workers] = await Promise.all([startServer(env), startServer({ ...env, WORKERS: "2" })]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([single?.stop(), workers?.stop()]);
    redis?.kill();
    await redis?.exited;
    rmSync(dir, { recursive: true, force: true });
  });

  test("one client's requests across both servers and all workers: exactly the limit allowed per window", async () => {
    const answers = [];
    for (let i = 0; i < 3 * LIMIT; i++) answers.push(await get(i % 2 === 0 ? single.url : workers.url));
    const allowed = answers.filter((answer) => answer.status === 200).length;
    expect(allowed).toBe(LIMIT);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused.length).toBe(2 * LIMIT);
    for (const answer of refused) {
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(answer.retryAfter)).toBeLessThanOrEqual(60);
    }
    // Health is never limited, whatever the count.
    for (let i = 0; i < 5; i++) expect((await get(workers.url, "/v1/health")).status).toBe(200);
  }, 30_000);

  test("the store stopped: nothing refused or slowed past the timeout, one warning, the error counter; started again: limiting resumes", async () => {
    redis?.kill("SIGKILL");
    await redis?.exited;
    const answers = [];
    for (let i = 0; i < 20; i++) answers.push(await get(i % 2 === 0 ? single.url : workers.url));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    // The 50 ms timeout, plus what a loaded machine adds to one local request.
    const sorted = answers.map((answer) => answer.ms).sort((a, b) => a - b);
    console.log(`store down: median ${sorted[10]?.toFixed(1)} ms, slowest ${sorted[19]?.toFixed(1)} ms`);
    expect(sorted[10] ?? Number.POSITIVE_INFINITY).toBeLessThan(50);
    expect(sorted[19] ?? Number.POSITIVE_INFINITY).toBeLessThan(250);
    await Bun.sleep(100);
    const warnings = single.lines.filter(
      (line) => line.includes('"level":"warn"') && line.includes("rate-limit store"),
    );
    expect(warnings.length).toBe(1);
    const scrape = await (await fetch(`http://127.0.0.1:${metricsPortOf(single)}/metrics`)).text();
    const errors = Number(/^network_tools_rate_limit_store_errors_total (\d+)$/m.exec(scrape)?.[1]);
    expect(errors).toBeGreaterThanOrEqual(10);
    expect(scrape).toMatch(/^network_tools_rate_limit_store_seconds_count \d+$/m);

    redis = await startRedis(redisPort, dir);
    // Reconnection is tried at most once a second: within a few seconds the count is shared again.
    const deadline = performance.now() + 15_000;
    let refused = 0;
    while (performance.now() < deadline && refused === 0) {
      if ((await get(single.url)).status === 429) refused++;
      if ((await get(workers.url)).status === 429) refused++;
      await Bun.sleep(20);
    }
    expect(refused).toBeGreaterThan(0);
  }, 60_000);
});

describe("RATE_LIMIT_STORE at start", () => {
  test("an unparsable URL stops the start with exit 2 and one line that does not repeat it", async () => {
    const result = await runServerCommand([], {
      PORT: "0",
      HOST: "127.0.0.1",
      RATE_LIMIT_PER_MINUTE: "10",
      RATE_LIMIT_STORE: "http://user:secret@x",
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("RATE_LIMIT_STORE");
    expect(result.stderr).not.toContain("secret");
  });

  test("an unreachable store is a warning, not a failure: the server serves, fail-open", async () => {
    const port = await freePort();
    const server = await startServer({
      RATE_LIMIT_PER_MINUTE: "1",
      RATE_LIMIT_STORE: `redis://127.0.0.1:${port}`,
    });
    try {
      for (let i = 0; i < 3; i++) expect((await get(server.url)).status).toBe(200);
      expect(
        server.lines.some((line) => line.includes('"level":"warn"') && line.includes("rate-limit store")),
      ).toBe(true);
    } finally {
      await server.stop();
    }
  }, 30_000);
});
