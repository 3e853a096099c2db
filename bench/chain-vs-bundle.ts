/**
 * In-process comparison of the two certificate use cases on the 16-certificate bundle
 * (bench/data/cert-bundle-16.json): `POST /v1/certificate-bundle`'s inspection against
 * `POST /v1/certificate-chain`'s build, with the real decoder, verifier and Mozilla roots and the
 * JSON answer included. The calls alternate (bundle, chain, bundle, …) so both see the same machine
 * load; p50 and p99 of each are printed, and the ratio chain/bundle.
 *   node_modules/.bin/bun bench/chain-vs-bundle.ts [CALLS]
 */
import { readFileSync } from "node:fs";
import { realCertificateDeps } from "../src/adapters/real-deps.ts";
import { buildCertificateChain } from "../src/domain/certificates/chain.ts";
import { inspectCertificateBundle } from "../src/domain/certificates/inspect.ts";

const CALLS = Number(process.argv[2] ?? 300);
const body = JSON.parse(readFileSync(new URL("./data/cert-bundle-16.json", import.meta.url), "utf8")) as {
  pem: string;
  hostname?: string;
  leafIndex?: number;
};
const deps = realCertificateDeps();

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  JSON.stringify(await work());
  return performance.now() - start;
}

const bundle: number[] = [];
const chain: number[] = [];
for (let k = 0; k < 20; k++) {
  await inspectCertificateBundle(body, deps);
  await buildCertificateChain(body, deps);
}
for (let k = 0; k < CALLS; k++) {
  bundle.push(await timed(() => inspectCertificateBundle(body, deps)));
  chain.push(await timed(() => buildCertificateChain(body, deps)));
}
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
for (const [name, values] of [
  ["cert-bundle-16", bundle],
  ["chain-16", chain],
] as const) {
  console.log(
    `${name.padEnd(15)} p50 ${quantile(values, 0.5).toFixed(2)} ms  p99 ${quantile(values, 0.99).toFixed(2)} ms`,
  );
}
console.log(
  `chain/bundle    p50 ${(quantile(chain, 0.5) / quantile(bundle, 0.5)).toFixed(3)}  p99 ${(quantile(chain, 0.99) / quantile(bundle, 0.99)).toFixed(3)}  (${CALLS} calls each, alternating)`,
);
