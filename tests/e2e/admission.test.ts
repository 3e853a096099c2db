/**
 * Work bounds and admission on the real server (CONTRACT §1.7), the way production traffic meets
 * them:
 * - floods of the costliest invalid and valid requests do not stall the health probe, and
 *   certificate work beyond the queue is refused quickly with 503 OVERLOADED;
 * - under a flood of the worst bundle no answer comes later than the deadline;
 * - on an otherwise idle server, a request whose work fits its deadline is never refused. The cost
 *   estimate learns from signature checks only, so a search-heavy bundle answered once is answered
 *   again (issue 24: a 16-certificate cross-signing ring sent one request after another got one 200
 *   and then eleven 503s).
 * Bounds are generous on purpose (this machine is shared): the figures belong to the benchmark.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { crossSigningRing } from "../support/crafted-certificates.ts";
import { emptyObjectsCoverBody, largestValidCoverBody } from "../support/flood-bodies.ts";
import { worstCaseBundlePem } from "../support/worst-bundle.ts";
import { type RunningServer, startServer } from "./server.ts";

/** Sends `GET /v1/health` every `everyMs` until `stop()`, recording status and latency. */
function probeHealth(url: string, everyMs = 50) {
  const samples: { status: number; ms: number }[] = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const start = performance.now();
      let status = 0;
      try {
        status = (await fetch(`${url}/v1/health`, { signal: AbortSignal.timeout(10_000) })).status;
      } catch {
        status = -1;
      }
      samples.push({ status, ms: performance.now() - start });
      await Bun.sleep(everyMs);
    }
  })();
  return {
    samples,
    async stop() {
      running = false;
      await done;
    },
  };
}

/** `clients` loops sending `send()` until `untilMs` passes; returns every status seen. */
async function flood(clients: number, untilMs: number, send: () => Promise<number>): Promise<number[]> {
  const statuses: number[] = [];
  const end = performance.now() + untilMs;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) statuses.push(await send());
    }),
  );
  return statuses;
}

describe("work bounds under floods (CONTRACT §1.7)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  test("64 KiB bodies of wrong types: each is refused with 100 issues, and health keeps answering", async () => {
    // {"include":[0,0,…],"exclude":[0,0,…]}: some 32,000 wrong values in 64 KiB.
    const zeros = Array(16_000).fill("0").join(",");
    const body = `{"include":[${zeros}],"exclude":[${zeros}]}`;
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(65_536);
    const probe = probeHealth(server.url);
    const statuses = await flood(4, 3_000, async () => {
      const response = await fetch(`${server.url}/v1/cidr-subtract`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      const envelope = (await response.json()) as { error: { issues: unknown[] } };
      expect(envelope.error.issues).toHaveLength(100);
      return response.status;
    });
    await probe.stop();
    expect(statuses.length).toBeGreaterThan(4);
    expect(new Set(statuses)).toEqual(new Set([400]));
    expect(probe.samples.length).toBeGreaterThan(5);
    expect(probe.samples.every((sample) => sample.status === 200)).toBe(true);
    // The readiness probe's timeout is 2 s; typical figures are a few ms (docs/performance.md).
    expect(Math.max(...probe.samples.map((sample) => sample.ms))).toBeLessThan(1_500);
  }, 30_000);

  test("50 clients: health p99 under a flood of 64 KiB invalid bodies is no worse than under valid ones of the same size", async () => {
    // The attack's body, {"inputs":[{},{},…]}, once cost 4× the CPU of the largest valid one and
    // pushed health's p50 to 189 ms; figures in docs/reliability.md (bench/flood.ts).
    const bodies = { valid: largestValidCoverBody(), invalid: emptyObjectsCoverBody() };
    const latencies: Record<keyof typeof bodies, number[]> = { valid: [], invalid: [] };
    // The server's CPU per answer (Linux /proc): a steadier witness than latency on a busy machine.
    const cpu: Record<keyof typeof bodies, { ms: number; answers: number }> = {
      valid: { ms: 0, answers: 0 },
      invalid: { ms: 0, answers: 0 },
    };
    const serverCpuMs = async (): Promise<number> => {
      const fields =
        (await Bun.file(`/proc/${server.process.pid}/stat`).text()).split(") ")[1]?.split(" ") ?? [];
      return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, in ticks of 10 ms
    };
    for (let round = 0; round < 2; round++) {
      for (const kind of ["valid", "invalid"] as const) {
        const cpuBefore = await serverCpuMs();
        const probes = [probeHealth(server.url, 10), probeHealth(server.url, 10)];
        const statuses = await flood(50, 2_000, async () => {
          const response = await fetch(`${server.url}/v1/cidr-cover`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: bodies[kind],
          });
          const answer = (await response.json()) as { error?: { issues: unknown[] } };
          if (kind === "invalid") expect(answer.error?.issues).toHaveLength(100);
          return response.status;
        });
        for (const probe of probes) {
          await probe.stop();
          expect(probe.samples.every((sample) => sample.status === 200)).toBe(true);
          latencies[kind].push(...probe.samples.map((sample) => sample.ms));
        }
        cpu[kind].ms += (await serverCpuMs()) - cpuBefore;
        cpu[kind].answers += statuses.length;
        expect(new Set(statuses)).toEqual(new Set([kind === "valid" ? 200 : 400]));
      }
    }
    // Before the one-pass reader: 3–4 ms against 0.8–1 ms.
    expect(cpu.invalid.ms / cpu.invalid.answers).toBeLessThanOrEqual((2 * cpu.valid.ms) / cpu.valid.answers);
    const p99 = (values: number[]) =>
      [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.99)] ?? 0;
    // Generous: a shared machine swings health latency by hundreds of ms between rounds (the old
    // reader: 1219 ms against 293); the CPU bound above is the sharp one.
    expect(p99(latencies.invalid)).toBeLessThanOrEqual(2 * p99(latencies.valid) + 250);
  }, 60_000);

  test("the costliest valid bundle from 20 clients: the flood gets 200 or OVERLOADED, an ordinary request is answered, health keeps answering", async () => {
    const worst = JSON.stringify({ pem: worstCaseBundlePem() });
    const probe = probeHealth(server.url);
    const ordinary: { status: number; ms: number }[] = [];
    const floodDone = flood(20, 4_000, async () => {
      const response = await fetch(`${server.url}/v1/certificate-bundle`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: worst,
      });
      const body = await response.text();
      if (response.status === 503) {
        expect(JSON.parse(body).error.code).toBe("OVERLOADED");
        expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      }
      return response.status;
    });
    await Bun.sleep(500);
    const firstCa = `${worstCaseBundlePem().split("-----END CERTIFICATE-----")[0]}-----END CERTIFICATE-----\n`;
    for (let i = 0; i < 6; i++) {
      const start = performance.now();
      const response = await fetch(`${server.url}/v1/certificate-bundle`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ pem: firstCa }),
      });
      await response.arrayBuffer();
      ordinary.push({ status: response.status, ms: performance.now() - start });
      await Bun.sleep(200);
    }
    const statuses = await floodDone;
    await probe.stop();
    for (const answer of ordinary) {
      // A one-certificate bundle has its own admission lane (ADR 14): answered, not queued
      // behind the costly bundles, and never the 6–11 s seen before.
      expect(answer.status).toBe(200);
      expect(answer.ms).toBeLessThan(4_000);
    }
    // The costly bundles beyond the queue are refused quickly, with Retry-After.
    expect(statuses.every((status) => status === 200 || status === 503)).toBe(true);
    expect(statuses).toContain(503);
    expect(probe.samples.every((sample) => sample.status === 200)).toBe(true);
    expect(Math.max(...probe.samples.map((sample) => sample.ms))).toBeLessThan(1_500);
  }, 40_000);
});

describe("the certificate deadline is kept (CONTRACT §1.7)", () => {
  test("IDLE_TIMEOUT_SECONDS=1, 40 clients sending the worst bundle: no answer later than the deadline + 100 ms", async () => {
    const server = await startServer({ IDLE_TIMEOUT_SECONDS: "1" });
    try {
      const worst = JSON.stringify({ pem: worstCaseBundlePem() });
      // How late the machine itself runs a 10 ms timer in an idle process: on a quiet machine a
      // few ms; on an overloaded one (a shared CI runner) it is what no server can make up for.
      const lagProbe = Bun.spawn(
        [
          process.execPath,
          "-e",
          "let max=0,last=performance.now();const t=setInterval(()=>{const n=performance.now();max=Math.max(max,n-last-10);last=n},10);setTimeout(()=>{clearInterval(t);console.log(Math.round(max))},5500)",
        ],
        { stdout: "pipe" },
      );
      const clientMs: number[] = [];
      const statuses = await flood(40, 5_000, async () => {
        const start = performance.now();
        const response = await fetch(`${server.url}/v1/certificate-bundle`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: worst,
        });
        const body = await response.text();
        clientMs.push(performance.now() - start);
        if (response.status === 503) {
          expect(JSON.parse(body).error.code).toBe("OVERLOADED");
          expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
        } else expect(response.status).toBe(200);
        return response.status;
      });
      await Bun.sleep(100); // the access log is written once per event-loop turn
      // The server's own account: from the request's arrival to its answer.
      const serverMs = server.lines
        .map((line) => JSON.parse(line) as { route?: string; durationMs?: number })
        .filter((record) => record.route === "/v1/certificate-bundle")
        .map((record) => record.durationMs ?? Number.NaN);
      expect(serverMs.length).toBe(statuses.length);
      const machineLagMs = Number((await new Response(lagProbe.stdout).text()).trim());
      console.log(
        `deadline flood: ${statuses.length} answers, slowest ${Math.max(...serverMs)} ms (server) / ${Math.round(Math.max(...clientMs))} ms (client), machine timer lag ${machineLagMs} ms`,
      );
      expect(Math.max(...serverMs)).toBeLessThanOrEqual(1_100 + machineLagMs);
      // Seen from the client, whose own event loop runs the 40 connections and their 48 KiB
      // uploads (its lag is not the idle probe's): a loose check; the server's account is the sharp one.
      expect(Math.max(...clientMs)).toBeLessThanOrEqual(1_100 + 1_000 + machineLagMs);
      expect(statuses).toContain(503);
    } finally {
      await server.stop();
    }
  }, 40_000);
});

describe("an idle server refuses no request that fits its deadline", () => {
  let server: RunningServer;
  let ring: string;

  beforeAll(async () => {
    ring = await crossSigningRing(15);
    server = await startServer({ IDLE_TIMEOUT_SECONDS: "1" });
  });

  afterAll(async () => {
    await server.stop();
  });

  test("twelve 16-certificate cross-signing rings, one after another, are all answered", async () => {
    const statuses: number[] = [];
    for (let round = 0; round < 12; round++) {
      const response = await fetch(`${server.url}/v1/certificate-chain`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ pem: ring }),
      });
      statuses.push(response.status);
      await response.arrayBuffer();
    }
    expect(statuses).toEqual(Array(12).fill(200));
  }, 60_000);
});
