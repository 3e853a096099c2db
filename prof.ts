import { readFileSync } from "node:fs";
import { mergeMixedCidrs } from "./src/domain/cidr/merge-mixed.ts";
const body = JSON.parse(readFileSync("bench/data/merge-1000.json", "utf8"));
const pub = body.inputs.map((t: string) => t.replace(/^10\./, "11.").replace(/^2001:db8:/, "2a01:db8:"));
const x = { excludeSpecial: true };
const t0 = performance.now();
for (let i = 0; i < 20000; i++) JSON.stringify(mergeMixedCidrs(pub, undefined, x));
console.log((performance.now() - t0) / 20000 * 1000);
