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
 * Bounds are generous on purpose (this machine is shared), except the CIDR floods' health p99,
 * which is the issue's target (60 ms), scaled only by the runner's own floor.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { crossSigningRing } from "../support/crafted-certificates.ts";
import {
  costliestCidrBodies,
  emptyObjectsCoverBody,
  largestValidCoverBody,
} from "../support/flood-bodies.ts";
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

  test("64 KiB bodies of wrong types: each parsed one is refused with 100 issues, and health keeps answering", async () => {
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
      const envelope = (await response.json()) as { error: { code: string; issues?: unknown[] } };
      // Refused for what it is, or (its parse not fitting the loop's turn; ADR 48) shed unparsed.
      if (response.status === 400) expect(envelope.error.issues).toHaveLength(100);
      else expect(envelope.error.code).toBe("OVERLOADED");
      return response.status;
    });
    await probe.stop();
    expect(statuses.length).toBeGreaterThan(4);
    expect(statuses).toContain(400);
    expect(statuses.every((status) => status === 400 || status === 503)).toBe(true);
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
          if (kind === "invalid" && response.status === 400) expect(answer.error?.issues).toHaveLength(100);
          return response.status;
        });
        for (const probe of probes) {
          await probe.stop();
          expect(probe.samples.every((sample) => sample.status === 200)).toBe(true);
          latencies[kind].push(...probe.samples.map((sample) => sample.ms));
        }
        cpu[kind].ms += (await serverCpuMs()) - cpuBefore;
        // Answers whose body was read whole: a valid flood's 503s (ADR 37) are refused cheaply, often
        // unread, so the valid side's CPU is counted per 200 (its refusals' CPU included, a bound).
        cpu[kind].answers += statuses.filter((status) => status !== 503).length;
        // Every body is weighed before it is parsed (ADRs 37, 48): the surplus of a flood is 503,
        // valid or not; what is parsed is answered for what it is.
        if (kind === "invalid") {
          expect(statuses).toContain(400);
          expect(statuses.every((status) => status === 400 || status === 503)).toBe(true);
        } else {
          expect(statuses).toContain(200);
          expect(statuses.every((status) => status === 200 || status === 503)).toBe(true);
        }
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
    const healthMs = probe.samples.map((sample) => sample.ms).sort((a, b) => a - b);
    console.log(
      `worst-bundle flood: ordinary ${ordinary.map((answer) => Math.round(answer.ms)).join("/")} ms; health p50 ${Math.round(healthMs[Math.floor(healthMs.length / 2)] ?? Number.NaN)} max ${Math.round(healthMs.at(-1) ?? Number.NaN)} ms; flood 200s ${statuses.filter((status) => status === 200).length}, 503s ${statuses.filter((status) => status === 503).length}`,
    );
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

/** The operations whose costliest body is costly: a flood of them is shed with OVERLOADED. */
const COSTLY = new Set([
  "/v1/cidr-merge",
  "/v1/cidr-compare",
  "/v1/cidr-split",
  "/v1/cidr-contains",
  "/v1/cidr-subtract",
  "/v1/cidr-cover",
  "/v1/cidr-allocate",
  "/v1/cidr-subnets",
  "/v1/cidr-usage",
]);

/** Health's p99 under a flood of any valid request (issue 30, CONTRACT §1.7). */
const TARGET_P99_MS = 60;
/**
 * What a runner may itself add to health's p99 under a flood of health (its floor) before the
 * target is scaled: a third of the target. A runner busier than that (a shared CI machine) adds
 * its excess to the target, and nothing more (docs/performance.md has the floors measured).
 */
const QUIET_FLOOR_MS = 20;

/** Runs tests/support/flood-process.ts in a process of its own and reads its JSON answer. */
async function floodProcess<T>(mode: "flood" | "probe", options: object): Promise<T> {
  const child = Bun.spawn(
    [
      process.execPath,
      new URL("../support/flood-process.ts", import.meta.url).pathname,
      mode,
      JSON.stringify(options),
    ],
    { stdout: "pipe", stderr: "inherit" },
  );
  return JSON.parse(await new Response(child.stdout).text()) as T;
}

/** The p99 lateness of a 10 ms timer in an idle process meanwhile: what the machine itself adds. */
async function machineLagP99(seconds: number): Promise<number> {
  const child = Bun.spawn(
    [
      process.execPath,
      "-e",
      `const l=[];let last=performance.now();const t=setInterval(()=>{const n=performance.now();l.push(n-last-10);last=n},10);setTimeout(()=>{clearInterval(t);l.sort((a,b)=>a-b);console.log(Math.round(l[Math.floor(l.length*0.99)]??0))},${seconds * 1000})`,
    ],
    { stdout: "pipe" },
  );
  return Number((await new Response(child.stdout).text()).trim());
}

describe("admission for all work: floods of each CIDR operation (CONTRACT §1.7, issue 30)", () => {
  let server: RunningServer;
  const bodies = costliestCidrBodies();
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  test("an idle server answers each operation's costliest valid body, one after another, with 200", async () => {
    for (const [path, body] of Object.entries(bodies)) {
      for (let i = 0; i < 3; i++) {
        const response = await fetch(`${server.url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        await response.arrayBuffer();
        expect({ path, status: response.status }).toEqual({ path, status: 200 });
      }
    }
  }, 60_000);

  /**
   * 150 connections repeating `body` to `path` (health itself without a body) for 10 s, from a
   * process of their own, while another asks for health on a fresh connection every 10 ms: the
   * issue's measurement (issue 30), in CI form.
   */
  async function floodAndProbe(path: string, body: unknown) {
    const seconds = 10;
    const lag = machineLagP99(seconds);
    const probe = floodProcess<{ ms: number[]; failures: number }>("probe", {
      port: server.port,
      seconds,
      everyMs: 10,
    });
    const flood = await floodProcess<{ statuses: Record<string, number>; badRefusals: number }>("flood", {
      url: server.url,
      path,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      connections: 150,
      seconds,
    });
    const { ms, failures } = await probe;
    const sorted = [...ms].sort((a, b) => a - b);
    const p99 = sorted[Math.floor(sorted.length * 0.99)] ?? Number.POSITIVE_INFINITY;
    const machineLag = await lag;
    console.log(
      `${path}: ${JSON.stringify(flood.statuses)}; health p50 ${sorted[Math.floor(sorted.length / 2)]?.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms over ${ms.length} probes; machine timer lag p99 ${machineLag} ms`,
    );
    expect(failures).toBe(0);
    expect(ms.length).toBeGreaterThan(50);
    return { flood, p99, machineLag };
  }

  // The floor: health's p99 while 150 connections flood health itself, the cheapest request there
  // is, on this machine now. On a quiet runner it is well under QUIET_FLOOR_MS; a shared or
  // overloaded runner's own delay shows here, and only that much is added to the target.
  let floorP99 = 0;
  test("the floor: health under a flood of health", async () => {
    const { flood, p99 } = await floodAndProbe("/v1/health", undefined);
    expect(Object.keys(flood.statuses)).toEqual(["200"]);
    floorP99 = p99;
  }, 30_000);

  for (const path of Object.keys(bodies)) {
    test(`${path}: 150 connections repeating its costliest body for 10 s get 200 or OVERLOADED, and health's p99 stays within 60 ms`, async () => {
      const { flood, p99 } = await floodAndProbe(path, bodies[path]);
      expect(Object.keys(flood.statuses).every((status) => status === "200" || status === "503")).toBe(true);
      expect(flood.statuses["200"] ?? 0).toBeGreaterThan(0);
      expect(flood.badRefusals).toBe(0);
      // Shed: the flood's surplus is refused (a cheap fixed-size operation may be answered whole).
      if (COSTLY.has(path)) expect(flood.statuses["503"] ?? 0).toBeGreaterThan(0);
      // CONTRACT §1.7's "tens of milliseconds", as issue 30 measures it: health p99 ≤ 60 ms. The
      // only allowance is what this runner itself adds to a flood of the cheapest request beyond
      // a quiet runner's floor (ADR 48; docs/performance.md has the figures).
      expect(p99).toBeLessThanOrEqual(TARGET_P99_MS + Math.max(0, floorP99 - QUIET_FLOOR_MS));
    }, 30_000);
  }
});
