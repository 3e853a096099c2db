/**
 * In-process micro-benchmark of the CIDR list use cases (cidr-merge, cidr-contains,
 * cidr-allocate, cidr-compare, reverse-zones) on the exact request bodies of the HTTP workloads in
 * bench/data/ and bench/wrk/reverse-zones.lua, JSON serialization of the result included (what the
 * server does before the framework):
 * `node_modules/.bin/bun bench/cidr-lists-micro.ts [name-filter]`. subtract-1000 is the yardstick.
 *
 * Merge with `excludeSpecial` (CONTRACT §8.5) is timed on the merge-1000 body, whose entries all
 * lie in special-purpose space (10.0.0.0/12, 2001:db8::/32: everything moves to `excluded`), and on
 * the same body moved to public space (11.0.0.0/12, 2a01:db8::/32: nothing is removed), each beside
 * the plain merge of the same body.
 *
 * Each case is warmed up, then timed in rounds (bench/lib/micro.ts); the median round's
 * CPU time per call is printed. Runs a few seconds in all (the machine is shared: keep it short).
 */
import { readFileSync } from "node:fs";
import { allocateCidrs, type CidrAllocateRequest } from "../src/domain/cidr/allocate.ts";
import { compareCidrs } from "../src/domain/cidr/compare.ts";
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
const compareBody = readBody<{ a: string[]; b: string[] }>("compare-1000.json");
const publicInputs = mergeBody.inputs.map((text) =>
  text.replace(/^10\./, "11.").replace(/^2001:db8:/, "2a01:db8:"),
);
const excluding = { excludeSpecial: true };

const cases: Record<string, () => string> = {
  "merge-1000": () => JSON.stringify(mergeMixedCidrs(mergeBody.inputs)),
  "merge-1000 -x": () => JSON.stringify(mergeMixedCidrs(mergeBody.inputs, undefined, excluding)),
  "merge-public": () => JSON.stringify(mergeMixedCidrs(publicInputs)),
  "merge-public -x": () => JSON.stringify(mergeMixedCidrs(publicInputs, undefined, excluding)),
  "compare-1000": () => JSON.stringify(compareCidrs(compareBody.a, compareBody.b)),
  "contains-1000": () => JSON.stringify(cidrsContain(containsBody.cidrs, containsBody.entries)),
  "allocate-1000": () => JSON.stringify(allocateCidrs(allocateBody)),
  "subtract-1000": () => JSON.stringify(subtractCidrs(subtractBody.include, subtractBody.exclude)),
  "reverse-zones": () => JSON.stringify(reverseZones("192.168.0.0/17")),
};

await runMicro(cases, { rounds: 15, roundMs: 150, warmupMs: 300, clock: "cpu", unit: "call" });
