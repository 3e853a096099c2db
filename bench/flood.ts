/**
 * Work bounds under floods (CONTRACT §1.7), measured: starts the service on 127.0.0.1, then for
 * each scenario runs N clients repeating the costliest request for a few seconds while a prober
 * asks GET /v1/health every 20 ms, and prints the health latencies and what the flood got.
 *
 *   node_modules/.bin/bun bench/flood.ts [--seconds 5] [--clients 4,20,50]
 *
 * Scenarios:
 * - invalid: 64 KiB cidr-subtract bodies of 32,000 wrong-typed values (each answered 400 with 100 issues);
 * - valid against invalid, same size (issue 16), interleaved twice: the largest valid cidr-cover
 *   body (1000 IPv6 entries, 200) and `{"inputs":[{},{},…]}` (21,844 empty objects, 400), each
 *   from the third number of clients; health p99 under the invalid flood should be no worse;
 * - certificates: 16 self-issued P-521 CAs sharing one name (256 ECDSA verifications), while an
 *   ordinary one-certificate request is sent every 200 ms (200 or 503 OVERLOADED, and how fast).
 * Loopback only; bounded in time; stops the server it started.
 */
import { spawn } from "bun";
import { emptyObjectsCoverBody, largestValidCoverBody } from "../tests/support/flood-bodies.ts";
import { worstCaseBundlePem } from "../tests/support/worst-bundle.ts";

const args = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const at = args.indexOf(`--${name}`);
  return at === -1 ? fallback : (args[at + 1] ?? fallback);
};
const SECONDS = Math.min(30, Math.max(1, Number(option("seconds", "5"))));
const [INVALID_CLIENTS = 4, CERT_CLIENTS = 20, PAIRED_CLIENTS = 50] = option("clients", "4,20,50")
  .split(",")
  .map(Number);

const root = new URL("..", import.meta.url).pathname;
const server = spawn([process.execPath, `${root}src/main.ts`], {
  cwd: root,
  env: { ...process.env, HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "info" },
  stdout: "pipe",
  stderr: "inherit",
});
const reader = server.stdout.getReader();
let startup = "";
while (!/"msg":"listening".*"port":(\d+)/.test(startup)) {
  const { done, value } = await reader.read();
  if (done) throw new Error("the server exited before listening");
  startup += new TextDecoder().decode(value);
}
void (async () => {
  for (;;) if ((await reader.read()).done) break; // drain the access log
})();
const port = Number(/"port":(\d+)/.exec(startup)?.[1]);
const url = `http://127.0.0.1:${port}`;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function prober(stop: () => boolean, path = "/v1/health", init?: RequestInit, everyMs = 20) {
  const samples: { status: number; ms: number }[] = [];
  while (!stop()) {
    const start = performance.now();
    let status = -1;
    try {
      const response = await fetch(`${url}${path}`, { ...init, signal: AbortSignal.timeout(15_000) });
      await response.arrayBuffer();
      status = response.status;
    } catch {}
    samples.push({ status, ms: performance.now() - start });
    await Bun.sleep(everyMs);
  }
  return samples;
}

function describe(name: string, samples: { status: number; ms: number }[]): string {
  const ms = samples.map((sample) => sample.ms);
  const statuses = new Map<number, number>();
  for (const sample of samples) statuses.set(sample.status, (statuses.get(sample.status) ?? 0) + 1);
  return `${name}: n=${samples.length} p50 ${percentile(ms, 50).toFixed(1)} ms, p99 ${percentile(ms, 99).toFixed(1)} ms, max ${Math.max(...ms).toFixed(1)} ms, statuses ${JSON.stringify(Object.fromEntries(statuses))}`;
}

/** The server process's CPU time so far (user + system, all threads), in ms; Linux /proc only. */
async function serverCpuMs(): Promise<number> {
  try {
    const fields = (await Bun.file(`/proc/${server.pid}/stat`).text()).split(") ")[1]?.split(" ") ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks of 1/100 s
  } catch {
    return Number.NaN;
  }
}

async function scenario(name: string, clients: number, body: string, path: string, ordinary?: string) {
  const cpuBefore = await serverCpuMs();
  const end = performance.now() + SECONDS * 1000;
  const stop = () => performance.now() > end;
  const floodStatuses = new Map<number, number>();
  const flood = Promise.all(
    Array.from({ length: clients }, async () => {
      while (!stop()) {
        const response = await fetch(`${url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        });
        await response.arrayBuffer();
        floodStatuses.set(response.status, (floodStatuses.get(response.status) ?? 0) + 1);
      }
    }),
  );
  const health = prober(stop);
  const other =
    ordinary === undefined
      ? Promise.resolve(null)
      : prober(
          stop,
          path,
          { method: "POST", headers: { "content-type": "application/json" }, body: ordinary },
          200,
        );
  const [, healthSamples, otherSamples] = await Promise.all([flood, health, other]);
  console.log(`\n== ${name}: ${clients} clients for ${SECONDS} s`);
  const answers = [...floodStatuses.values()].reduce((sum, count) => sum + count, 0);
  const cpuPerAnswer = ((await serverCpuMs()) - cpuBefore) / answers;
  console.log(
    `   flood answers: ${JSON.stringify(Object.fromEntries(floodStatuses))}; server CPU per answer ${cpuPerAnswer.toFixed(2)} ms`,
  );
  console.log(`   ${describe("GET /v1/health", healthSamples)}`);
  if (otherSamples !== null) console.log(`   ${describe("an ordinary 1-certificate request", otherSamples)}`);
  return healthSamples;
}

try {
  const valid = largestValidCoverBody();
  const invalid = emptyObjectsCoverBody();
  const paired: Record<"valid" | "invalid", { status: number; ms: number }[]> = { valid: [], invalid: [] };
  for (let round = 1; round <= 2; round++) {
    paired.valid.push(
      ...(await scenario(
        `round ${round}: valid 64 KiB cover bodies (1000 IPv6)`,
        PAIRED_CLIENTS,
        valid,
        "/v1/cidr-cover",
      )),
    );
    paired.invalid.push(
      ...(await scenario(
        `round ${round}: invalid 64 KiB cover bodies ({} × 21,844)`,
        PAIRED_CLIENTS,
        invalid,
        "/v1/cidr-cover",
      )),
    );
  }
  console.log(`\n== valid against invalid, ${PAIRED_CLIENTS} clients, both rounds`);
  console.log(`   ${describe("health under the valid flood", paired.valid)}`);
  console.log(`   ${describe("health under the invalid flood", paired.invalid)}`);
  const zeros = Array(16_000).fill("0").join(",");
  await scenario(
    "invalid 64 KiB subtract bodies",
    INVALID_CLIENTS,
    `{"include":[${zeros}],"exclude":[${zeros}]}`,
    "/v1/cidr-subtract",
  );
  const worst = worstCaseBundlePem();
  const one = `${worst.split("-----END CERTIFICATE-----")[0]}-----END CERTIFICATE-----\n`;
  await scenario(
    "worst certificate bundle",
    CERT_CLIENTS,
    JSON.stringify({ pem: worst }),
    "/v1/certificate-bundle",
    JSON.stringify({ pem: one }),
  );
} finally {
  server.kill("SIGTERM");
  await server.exited;
}
