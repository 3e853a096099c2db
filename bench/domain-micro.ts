/**
 * In-process micro-benchmark of the CIDR domain's hot paths, JSON serialization included (what an
 * HTTP answer costs before the framework): `node_modules/.bin/bun bench/domain-micro.ts`.
 *
 * Each case is warmed up, then timed in ROUNDS rounds of about ROUND_MS each; the median round's
 * time per call is printed. Runs a few seconds in all (the machine is shared: keep it short).
 */
import { readFileSync } from "node:fs";
import { coverCidrs } from "../src/domain/cidr/cover.ts";
import { rangeToCidrs } from "../src/domain/cidr/range-to-cidrs.ts";
import { subtractCidrs } from "../src/domain/cidr/subtract.ts";

const ROUNDS = 7;
const ROUND_MS = 150;
const WARMUP_MS = 300;

const dataDir = new URL("./data/", import.meta.url);
const readBody = <T>(name: string): T => JSON.parse(readFileSync(new URL(name, dataDir), "utf8")) as T;
const subtractBody = readBody<{ include: string[]; exclude: string[] }>("subtract-1000.json");
const coverBody = readBody<{ inputs: string[] }>("cover-1000.json");

const cases: Record<string, () => string> = {
  "range-ipv6-worst": () => JSON.stringify(rangeToCidrs("::1", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe")),
  "range-ipv4-small": () => JSON.stringify(rangeToCidrs("10.0.0.1", "10.0.0.9")),
  "subtract-1000": () => JSON.stringify(subtractCidrs(subtractBody.include, subtractBody.exclude)),
  "cover-1000": () => JSON.stringify(coverCidrs(coverBody.inputs)),
};

/** Calls `fn` repeatedly for about `ms`; returns microseconds per call. */
function timeFor(fn: () => string, ms: number): number {
  let calls = 0;
  let sink = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 16; i++) sink += fn().length;
    calls += 16;
    now = performance.now();
  }
  if (sink < 0) console.log(sink); // keeps the results observable
  return ((now - start) * 1000) / calls;
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
