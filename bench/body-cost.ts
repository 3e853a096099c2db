/**
 * In-process: what reading and checking a 64 KiB POST body costs, valid against invalid, in CPU
 * µs per body (process.cpuUsage, so a busy machine inflates the figures less than wall time):
 * - parse + nesting: the old reader's steps (`JSON.parse`, then a walk for the nesting depth);
 * - model: the old reader with validation (tests/support/json-body-model.ts), for comparison;
 * - app.handle: the whole request through the app (body reader, validation, use case, answer).
 *
 *   node_modules/.bin/bun bench/body-cost.ts
 */

import { buildApp } from "../src/app.ts";
import { OPERATION_LIST } from "../src/contract/operations.ts";
import { createMemoryLogger } from "../src/process/logger.ts";
import { modelOutcome, nestingExceeds } from "../tests/support/json-body-model.ts";

function fill(prefix: string, item: string, suffix: string, bytes = 65_536): string {
  const count = Math.floor((bytes - prefix.length - suffix.length + 1) / (item.length + 1));
  return `${prefix}${Array(count).fill(item).join(",")}${suffix}`;
}

const ipv6 = "2001:0db8:85a3:0000:0000:8a2e:0370:7334";
const bodies: Record<string, { path: string; body: string }> = {
  "valid cover, 1000 IPv6 entries": {
    path: "/v1/cidr-cover",
    body: JSON.stringify({
      inputs: Array.from({ length: 1000 }, (_, i) =>
        `${ipv6.slice(0, -4)}${(i + 0x1000).toString(16)}`.padEnd(39, "0").slice(0, 39).padStart(60, " "),
      ),
    }),
  },
  "valid subtract, 500 + 500 IPv6 entries": {
    path: "/v1/cidr-subtract",
    body: JSON.stringify({
      include: Array.from({ length: 500 }, (_, i) => `2001:db8:${i.toString(16)}::/48`.padStart(60, " ")),
      exclude: Array.from({ length: 500 }, (_, i) => `2001:db8:${i.toString(16)}:1::/64`.padStart(60, " ")),
    }),
  },
  'invalid cover {"inputs":[{},{},…]}': { path: "/v1/cidr-cover", body: fill('{"inputs":[', "{}", "]}") },
  'invalid cover {"inputs":[[],[],…]}': { path: "/v1/cidr-cover", body: fill('{"inputs":[', "[]", "]}") },
  "invalid subtract 32,000 zeros": {
    path: "/v1/cidr-subtract",
    body: fill('{"include":[', "0", '],"exclude":[0]}'),
  },
  "invalid cover 21,000 empty strings": { path: "/v1/cidr-cover", body: fill('{"inputs":[', '""', "]}") },
  "deep [[[…]]] 32768 levels": { path: "/v1/cidr-cover", body: `${"[".repeat(32768)}${"]".repeat(32768)}` },
};

const app = buildApp({
  logger: createMemoryLogger(),
  cors: { kind: "any" },
  clientAddress: { clientAddress: () => "127.0.0.1" },
  clock: { now: () => new Date("2026-06-01T00:00:00Z") },
  decoder: {
    decode: () => {
      throw new Error("unused");
    },
  },
  verifier: { verify: async () => ({ outcome: "unavailable", reason: "unused" }) },
  roots: { find: () => [], size: 0 },
} as never);

/** CPU time of this process (all threads, so garbage collection counts), in µs. */
const cpu = (): number => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

function timeIt(run: () => unknown, minMs = 400): number {
  for (let i = 0; i < 20; i++) run();
  Bun.gc(true); // the garbage of an earlier step is not charged to this one
  let n = 0;
  const start = performance.now();
  const startCpu = cpu();
  while (performance.now() - start < minMs) {
    run();
    n++;
  }
  return (cpu() - startCpu) / n;
}

async function timeAsync(run: () => Promise<unknown>, minMs = 800): Promise<number> {
  for (let i = 0; i < 20; i++) await run();
  Bun.gc(true);
  let n = 0;
  const start = performance.now();
  const startCpu = cpu();
  while (performance.now() - start < minMs) {
    await run();
    n++;
  }
  return (cpu() - startCpu) / n;
}

const pad = (s: string, n: number) => s.padEnd(n);
console.log(
  `${pad("body", 42)} ${pad("bytes", 6)} ${pad("status", 6)} parse µs  nesting µs  model µs  app.handle µs`,
);
for (const [name, { path, body }] of Object.entries(bodies)) {
  const bytes = new TextEncoder().encode(body);
  let parsed: unknown = null;
  const parse = timeIt(() => {
    try {
      parsed = JSON.parse(body);
    } catch {}
  });
  const nesting = parsed === null ? Number.NaN : timeIt(() => nestingExceeds(parsed, 32));
  const request = () =>
    app.handle(
      new Request(`http://localhost${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: bytes,
      }),
    );
  const schema = OPERATION_LIST.find((operation) => operation.path === path)?.request;
  if (schema == null) throw new Error(`no request schema for ${path}`);
  const model = timeIt(() => modelOutcome(bytes, schema));
  const status = (await request()).status;
  const total = await timeAsync(async () => (await request()).arrayBuffer());
  console.log(
    `${pad(name, 42)} ${pad(String(bytes.length), 6)} ${pad(String(status), 6)} ${parse.toFixed(0).padStart(8)}  ${nesting.toFixed(0).padStart(10)}  ${model.toFixed(0).padStart(8)}  ${total.toFixed(0).padStart(13)}`,
  );
}
