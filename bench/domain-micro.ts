/**
 * In-process micro-benchmark of the CIDR domain's hot paths, JSON serialization included (what an
 * HTTP answer costs before the framework): `node_modules/.bin/bun bench/domain-micro.ts`.
 *
 * Each case is warmed up, then timed in rounds (bench/lib/micro.ts); the median round's
 * time per call is printed. Runs a few seconds in all (the machine is shared: keep it short).
 */
import { readFileSync } from "node:fs";
import { coverCidrs } from "../src/domain/cidr/cover.ts";
import { rangeToCidrs } from "../src/domain/cidr/range-to-cidrs.ts";
import { subtractCidrs } from "../src/domain/cidr/subtract.ts";
import { runMicro } from "./lib/micro.ts";

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

await runMicro(cases, { rounds: 7, roundMs: 150, warmupMs: 300, clock: "wall", unit: "call" });
