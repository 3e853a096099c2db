/**
 * In-process micro-benchmark of cidr-usage (issue 34 item 5) on the exact request body of the HTTP
 * workload `usage-1000` (bench/data/usage-1000.json: 20 IPv4 /16s, 980 used /20–/28 blocks), JSON
 * serialization of the result included (what the server does before the framework), beside an
 * IPv6 pool of the same shape (every entry moved into 2001:db8::/32) and the biggest pools (`0.0.0.0/0`;
 * `::/0`, whose counts pass 2^53, with used blocks close together and spread over the whole space):
 * `node_modules/.bin/bun bench/usage-micro.ts [name-filter]`.
 *
 * Each case is warmed up, then timed in rounds (bench/lib/micro.ts); the median round's CPU time
 * per call is printed. Runs a few seconds in all (the machine is shared: keep it short).
 */
import { readFileSync } from "node:fs";
import { cidrUsage } from "../src/domain/cidr/usage.ts";
import { runMicro } from "./lib/micro.ts";

const body = JSON.parse(readFileSync(new URL("./data/usage-1000.json", import.meta.url), "utf8")) as {
  pool: string[];
  used: string[];
};
/** `a.b.c.d/n` as `2001:db8::a.b.c.d/(n + 96)` in canonical text: the same layout in IPv6 space. */
const toV6 = (text: string): string => {
  const [addr, length] = text.split("/") as [string, string];
  const [a, b, c, d] = addr.split(".").map(Number) as [number, number, number, number];
  return `2001:db8::${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}/${Number(length) + 96}`;
};
const v6Pool = body.pool.map(toV6);
const v6Used = body.used.map(toV6);
const wholeV4Used = body.used.slice(0, 100);
/** 1,000 /32s spread over the whole IPv6 space (a fixed linear congruential sequence): free intervals past 2^64. */
let seed = 12345;
const nextWord = () => {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return (seed >>> 16).toString(16);
};
const scatteredV6 = Array.from({ length: 1000 }, () => `${nextWord()}:${nextWord()}::/32`);

const cases: Record<string, () => string> = {
  "usage-1000": () => JSON.stringify(cidrUsage(body.pool, body.used)),
  "usage-1000 ipv6": () => JSON.stringify(cidrUsage(v6Pool, v6Used)),
  "usage 0.0.0.0/0": () => JSON.stringify(cidrUsage(["0.0.0.0/0"], wholeV4Used)),
  "usage ::/0": () => JSON.stringify(cidrUsage(["::/0"], v6Used.slice(0, 100))),
  "usage ::/0 spread": () => JSON.stringify(cidrUsage(["::/0"], scatteredV6)),
};

await runMicro(cases, { rounds: 7, roundMs: 150, warmupMs: 300, clock: "cpu", unit: "call" });
