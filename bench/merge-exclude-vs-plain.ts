/**
 * cidr-merge with `excludeSpecial` against plain cidr-merge (CONTRACT §8.5; the target: within
 * 10 %), in process, the two timed in alternating rounds so that a busy machine slows both alike:
 *   node_modules/.bin/bun bench/merge-exclude-vs-plain.ts
 * Each round times plain then excludeSpecial on the same inputs for about 100 ms each (CPU time),
 * the result encoded as the server does it (the `deferredLists` encoder); the line gives the median µs per call of
 * each and the median of the per-round ratios. Three inputs:
 * - `public`: the merge-1000 body moved to public space (11.0.0.0/12, 2a01:db8::/32): nothing is
 *   removed, so this is the price of looking;
 * - `mixed`: that list with every tenth entry back in private space (10.0.0.0/12, 2001:db8::/32);
 * - `special`: the merge-1000 body itself, all of it special-purpose space: everything moves to
 *   `excluded`, whose entries are objects serialized field by field (the answer is 4.7 times longer).
 */
import { readFileSync } from "node:fs";
import { encodeDeferredLists as jsonOf } from "../src/adapters/http/encoders/deferred-lists.ts";
import { mergeMixedCidrs } from "../src/domain/cidr/merge-mixed.ts";

const special = (
  JSON.parse(readFileSync(new URL("./data/merge-1000.json", import.meta.url), "utf8")) as { inputs: string[] }
).inputs;
const toPublic = (text: string) => text.replace(/^10\./, "11.").replace(/^2001:db8:/, "2a01:db8:");
const inputs: Record<string, string[]> = {
  public: special.map(toPublic),
  mixed: special.map((text, i) => (i % 10 === 0 ? text : toPublic(text))),
  special,
};

const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

function perCall(call: () => unknown, ms: number): number {
  let calls = 0;
  const start = cpuMicros();
  let now = start;
  while (now - start < ms * 1000) {
    for (let i = 0; i < 8; i++) call();
    calls += 8;
    now = cpuMicros();
  }
  return (now - start) / calls;
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
const excluding = { excludeSpecial: true };

for (const [name, list] of Object.entries(inputs)) {
  const plain = () => jsonOf(mergeMixedCidrs(list));
  const withExclusion = () => jsonOf(mergeMixedCidrs(list, undefined, excluding));
  perCall(plain, 300);
  perCall(withExclusion, 300);
  const plainRuns: number[] = [];
  const excludeRuns: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < 15; round++) {
    const p = perCall(plain, 100);
    const x = perCall(withExclusion, 100);
    plainRuns.push(p);
    excludeRuns.push(x);
    ratios.push(x / p);
  }
  console.log(
    `${name.padEnd(8)} plain ${median(plainRuns).toFixed(0).padStart(4)} µs, excludeSpecial ${median(
      excludeRuns,
    )
      .toFixed(0)
      .padStart(
        4,
      )} µs: ×${median(ratios).toFixed(3)} (rounds ×${Math.min(...ratios).toFixed(2)}–×${Math.max(...ratios).toFixed(2)})`,
  );
}
