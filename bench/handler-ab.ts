/**
 * Paired in-process A/B of whole API requests (ADR 64): the applications of two checkouts (say a
 * copy of `main` made with `git archive` and the working tree) built side by side in one process,
 * each workload's request sent through each app's `handle` as bench/handler-micro.ts does, in
 * rounds of 150 ms alternated A B, B A, … On a shared machine the load moves between two
 * separate runs by more than a small change saves; rounds taken back to back see the same load,
 * so the median of the pairs' ratios B/A is steadier than two runs' medians. It also checks that
 * both answer each request with the same bytes.
 *   node_modules/.bin/bun bench/handler-ab.ts /tmp/main-copy . 21 health range-ipv4-small
 * A workload named `NAME:pending` sends its body as a stream that yields it a turn later (still on
 * its way when the route reads it, as in the server).
 * (the copy needs `node_modules`: a symbolic link to this checkout's will do). An A/A run (one
 * checkout against a copy of itself) gave B/A 0.99–1.03 on the shared machine.
 */
import { resolve } from "node:path";
import { workloadsNamed } from "./lib/workloads.ts";

const [rootA, rootB, roundsText = "21", ...names] = process.argv.slice(2);
if (rootA === undefined || rootB === undefined || names.length === 0) {
  console.error("usage: bun bench/handler-ab.ts ROOT_A ROOT_B ROUNDS WORKLOAD...");
  process.exit(2);
}
const rounds = Number(roundsText);

/** The issue-32 workloads of bench/wrk/ (same paths and bodies as bench/handler-micro.ts). */
const cases = workloadsNamed([
  "health",
  "range-ipv4-small",
  "range-ipv6-worst",
  "split-1024",
  "reverse-zones",
]);

type Handle = (request: Request) => Response | Promise<Response>;

/** The application of the checkout at `root`, built as bench/handler-micro.ts builds it. */
async function appOf(root: string): Promise<Handle> {
  const at = (path: string) => resolve(root, path);
  const { realCertificateDeps } = await import(at("src/adapters/real-deps.ts"));
  const { ProxyAwareClientAddressSource } = await import(at("src/adapters/system/client-address.ts"));
  const { parseCidrList } = await import(at("src/adapters/system/trusted-proxies.ts"));
  const { buildApp } = await import(at("src/app.ts"));
  const { createJsonLogger } = await import(at("src/process/logger.ts"));
  const { handle } = buildApp({
    logger: createJsonLogger("info", () => {}),
    cors: { kind: "any" },
    clientAddress: new ProxyAwareClientAddressSource(() => "127.0.0.1", parseCidrList(""), "x-forwarded-for"),
    ...realCertificateDeps(),
    loopBudget: { afterTurn: queueMicrotask },
  });
  return handle as Handle;
}

const apps = [await appOf(rootA), await appOf(rootB)] as const;

const cpuMicros = (): number => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

/** CPU µs per call of `call`, over about `ms` of CPU time. */
async function timeFor(call: () => Promise<unknown>, ms: number): Promise<number> {
  let calls = 0;
  const start = cpuMicros();
  let now = start;
  while (now - start < ms * 1000) {
    for (let i = 0; i < 16; i++) await call();
    calls += 16;
    now = cpuMicros();
  }
  return (now - start) / calls;
}

const median = (values: readonly number[]): number =>
  [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;

for (const given of names) {
  // `NAME:pending`: the body comes as a stream that yields it a turn later, so that it is still on
  // its way when the route reads it, as every body is in Bun's server (docs/performance.md).
  const [name = given, mode] = given.split(":");
  const pending = mode === "pending";
  const workload = cases[name];
  if (workload === undefined) throw new Error(`no workload ${name}: one of ${Object.keys(cases).join(", ")}`);
  const url = `http://127.0.0.1${workload.path}`;
  const init: RequestInit =
    workload.body === undefined
      ? { method: "GET" }
      : {
          method: "POST",
          body: workload.body,
          headers: {
            "content-type": "application/json",
            "content-length": String(Buffer.byteLength(workload.body)),
          },
        };
  const bodyBytes = new TextEncoder().encode(workload.body ?? "");
  const requestOf = (): Request =>
    pending
      ? new Request(url, {
          ...init,
          body: new ReadableStream({
            async pull(controller) {
              await null;
              controller.enqueue(bodyBytes);
              controller.close();
            },
          }),
          duplex: "half",
        } as RequestInit)
      : new Request(url, init);
  const calls = apps.map((handle) => async () => {
    const response = await handle(requestOf());
    if (response.status !== 200) throw new Error(`${name}: status ${response.status}`);
    return (await response.arrayBuffer()).byteLength;
  });
  const answers = await Promise.all(
    apps.map(async (handle) => (await handle(new Request(url, init))).text()),
  );
  if (answers[0] !== answers[1]) console.log(`${name}: THE ANSWERS DIFFER`);
  for (const call of calls) await timeFor(call, 500);
  const a: number[] = [];
  const b: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const first = round % 2;
    const times = [0, 0];
    times[first] = await timeFor(calls[first]!, 150);
    times[1 - first] = await timeFor(calls[1 - first]!, 150);
    a.push(times[0]!);
    b.push(times[1]!);
    ratios.push(times[1]! / times[0]!);
  }
  const faster = ratios.filter((ratio) => ratio < 1).length;
  console.log(
    `${given.padEnd(18)} A ${median(a).toFixed(2)} µs  B ${median(b).toFixed(2)} µs  B/A median ${median(ratios).toFixed(3)}` +
      ` (B faster in ${faster} of ${rounds} pairs; ratios ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`,
  );
}
