/**
 * The work meter's cost in process (issue 30): two applications in one process, one built from
 * HEAD as it is ("on") and one from HEAD with bench/admission-off.patch ("off"), each from its own
 * worktree (bench/admission-micro.sh makes them), driven alternately round by round (ABBA) with each
 * workload's exact request, as bench/handler-micro.ts does. One process, so both sides share the
 * machine's state at every moment and a round pair differs by the meter alone. The harness gives
 * the event loop a turn after every answer (both sides alike), so the meter closes each turn's
 * account with its own setImmediate, as the server does for a turn of one request.
 *   node_modules/.bin/bun bench/admission-micro.ts ON_ROOT OFF_ROOT [ROUNDS] [WORKLOAD...]
 * Prints, per workload, the median CPU µs per request of each side and the median of the paired
 * differences (on − off) with their min–max.
 */

import { workloadsNamed } from "./lib/workloads.ts";

const [onRoot, offRoot, roundsText = "15", ...only] = process.argv.slice(2);
if (onRoot === undefined || offRoot === undefined) {
  console.error("usage: bun bench/admission-micro.ts ON_ROOT OFF_ROOT [ROUNDS] [WORKLOAD...]");
  process.exit(2);
}
const rounds = Number(roundsText);

/** The workloads of bench/wrk/ that the meter weighs (same path and body). */
const cases = workloadsNamed([
  "range-ipv4-small",
  "range-ipv6-worst",
  "split-1024",
  "reverse-zones",
  "cover-1000",
  "merge-1000",
  "subtract-1000",
  "usage-1000",
]);

type Handle = (request: Request) => Promise<Response>;

/** The application of the checkout at `root`, as handler-micro builds it (access log into memory). */
async function appOf(root: string): Promise<Handle> {
  const { realCertificateDeps } = await import(`${root}/src/adapters/real-deps.ts`);
  const { ProxyAwareClientAddressSource } = await import(`${root}/src/adapters/system/client-address.ts`);
  const { parseCidrList } = await import(`${root}/src/adapters/system/trusted-proxies.ts`);
  const { buildApp } = await import(`${root}/src/app.ts`);
  const { createJsonLogger } = await import(`${root}/src/process/logger.ts`);
  const { handle } = buildApp({
    logger: createJsonLogger("info", () => {}),
    cors: { kind: "any" },
    clientAddress: new ProxyAwareClientAddressSource(() => "127.0.0.1", parseCidrList(""), "x-forwarded-for"),
    ...realCertificateDeps(),
  });
  return handle;
}

const sides = { on: await appOf(onRoot), off: await appOf(offRoot) };
const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** CPU µs per request over about `ms` of requests; each answer is read, then the loop turns. */
async function timeFor(handle: Handle, path: string, text: string, ms: number): Promise<number> {
  const url = `http://127.0.0.1${path}`;
  const headers = { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)) };
  let calls = 0;
  const start = cpuMicros();
  let now = start;
  while (now - start < ms * 1000) {
    for (let i = 0; i < 8; i++) {
      const response = await handle(new Request(url, { method: "POST", body: text, headers }));
      if (response.status !== 200) throw new Error(`${path}: status ${response.status}`);
      await response.arrayBuffer();
      await turn();
    }
    calls += 8;
    now = cpuMicros();
  }
  return (now - start) / calls;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};
const fmt = (us: number) => (Math.abs(us) >= 100 ? us.toFixed(0) : us.toFixed(2));

console.log(`${rounds} ABBA rounds of 150 ms per side; CPU µs per request`);
console.log(
  `${"workload".padEnd(18)} ${"on".padStart(8)} ${"off".padStart(8)}  on − off: median [min, max]   on ÷ off`,
);
for (const [name, { path, body: text }] of Object.entries(cases)) {
  if (only.length > 0 && !only.includes(name)) continue;
  if (text === undefined) throw new Error(`${name} has no body: the meter weighs only requests with one`);
  await timeFor(sides.on, path, text, 400);
  await timeFor(sides.off, path, text, 400);
  const on: number[] = [];
  const off: number[] = [];
  const differences: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (["on", "off"] as const) : (["off", "on"] as const);
    const result = { on: 0, off: 0 };
    for (const side of order) result[side] = await timeFor(sides[side], path, text, 150);
    on.push(result.on);
    off.push(result.off);
    differences.push(result.on - result.off);
  }
  const d = median(differences);
  console.log(
    `${name.padEnd(18)} ${fmt(median(on)).padStart(8)} ${fmt(median(off)).padStart(8)}  ${fmt(d).padStart(7)} [${fmt(Math.min(...differences))}, ${fmt(Math.max(...differences))}]`.padEnd(
      62,
    ) + `×${(median(on) / median(off)).toFixed(3)}`,
  );
}
