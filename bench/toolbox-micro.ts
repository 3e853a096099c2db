/**
 * In-process micro-benchmark of the CIDR toolbox use cases (cidr-merge, cidr-contains,
 * cidr-allocate, reverse-zones) on the exact request bodies of the HTTP workloads in bench/data/
 * and bench/wrk/reverse-zones.lua, JSON serialization of the result included (what the server does before the framework):
 * `node_modules/.bin/bun bench/toolbox-micro.ts [name-filter]`. subtract-1000 is the yardstick.
 *
 * Each case is warmed up, then timed in rounds (bench/lib/micro.ts); the median round's
 * CPU time per call is printed. Runs a few seconds in all (the machine is shared: keep it short).
 */
import { readFileSync } from "node:fs";
import { allocateCidrs, type CidrAllocateRequest } from "../src/domain/cidr/allocate.ts";
import { cidrsContain } from "../src/domain/cidr/contains.ts";
import { mergeMixedCidrs } from "../src/domain/cidr/merge-mixed.ts";
import { reverseZones } from "../src/domain/cidr/reverse-zones.ts";
import { subtractCidrs } from "../src/domain/cidr/subtract.ts";
import { runMicro } from "./lib/micro.ts";

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
  "reverse-zones": () => JSON.stringify(reverseZones("192.168.0.0/17")),
};

await runMicro(cases, { rounds: 15, roundMs: 150, warmupMs: 300, clock: "cpu", unit: "call" });
