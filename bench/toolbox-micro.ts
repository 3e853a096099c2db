/**
 * In-process micro-benchmark of the CIDR toolbox use cases (cidr-merge, cidr-contains,
 * cidr-allocate) on the exact request bodies of the HTTP workloads in bench/data/, JSON
 * serialization of the result included (what the server does before the framework):
 * `node_modules/.bin/bun bench/toolbox-micro.ts [name-filter]`. subtract-1000 is the yardstick.
 *
 * Each case is warmed up, then timed in ROUNDS rounds of about ROUND_MS each; the median round's
 * CPU time per call is printed. Runs a few seconds in all (the machine is shared: keep it short).
 */
import { readFileSync } from "node:fs";
import { allocateCidrs, type CidrAllocateRequest } from "../src/domain/cidr/allocate.ts";
import { cidrsContain } from "../src/domain/cidr/contains.ts";
import { mergeMixedCidrs } from "../src/domain/cidr/merge-mixed.ts";
import { subtractCidrs } from "../src/domain/cidr/subtract.ts";

const ROUNDS = 15;
const ROUND_MS = 150;
const WARMUP_MS = 300;

const dataDir = new URL("./data/", import.meta.url);
const readBody = <T>(name: string): T => JSON.parse(readFileSync(new URL(name, dataDir), "utf8")) as T;
const mergeBody = readBody<{ inputs: string[] }>("merge-1000.json");
const containsBody = readBody<{ cidrs: string[]; entries: string[] }>("contains-1000.json");
const allocateBody = readBody<CidrAllocateRequest>("allocate-1000.json");
const subtractBody = readBody<{ include: string[]; exclude: string[] }>("subtract-1000.json");

const cases: Record<string, () => string> = {
  "merge-1000": () => JSON.stringify(mergeMixedCidrs(mergeBody.inputs)),
  "contains-1000": () => JSON.stringify(cidrsContain(containsBody.cidrs, containsBody.entries)),
  "allocate-1000": () => JSON.stringify(allocateCidrs(allocateBody)),
  "subtract-1000": () => JSON.stringify(subtractCidrs(subtractBody.include, subtractBody.exclude)),
};

/** CPU time used by this process so far, in microseconds (user + system). */
function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/**
 * Calls `fn` repeatedly for about `ms` of CPU time; returns CPU microseconds per call. CPU time, not
 * wall-clock time: the machine is shared, and time spent descheduled is not the use case's cost.
 */
function timeFor(fn: () => string, ms: number): number {
  let calls = 0;
  let sink = 0;
  const start = cpuMicros();
  let now = start;
  while (now - start < ms * 1000) {
    for (let i = 0; i < 16; i++) sink += fn().length;
    calls += 16;
    now = cpuMicros();
  }
  if (sink < 0) console.log(sink); // keeps the results observable
  return (now - start) / calls;
}

const only = process.argv[2];
for (const [name, fn] of Object.entries(cases)) {
  if (only !== undefined && !name.includes(only)) continue;
  timeFor(fn, WARMUP_MS);
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) rounds.push(timeFor(fn, ROUND_MS));
  rounds.sort((x, y) => x - y);
  const median = rounds[Math.floor(ROUNDS / 2)]!;
  const fmt = (us: number) => (us >= 100 ? us.toFixed(0) : us.toFixed(2));
  console.log(
    `${name.padEnd(18)} median ${fmt(median).padStart(8)} µs/call  (min ${fmt(rounds[0]!)}, max ${fmt(rounds[ROUNDS - 1]!)})`,
  );
}
