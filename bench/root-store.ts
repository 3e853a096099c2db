/**
 * Start-up cost of the reference root store: decoding the runtime's Mozilla roots
 * (`tls.rootCertificates`) into the subject-name index, as `mozillaRootStore()` does once per
 * process. Run: `bun bench/root-store.ts`. The first build is the one a process pays; the later
 * builds show the warmed-up cost.
 */
import { rootCertificates } from "node:tls";
import { mozillaRootStore, pemToDer, ReferenceRootStore } from "../src/adapters/crypto/root-store.ts";

const first = performance.now();
const store = mozillaRootStore();
const firstMs = performance.now() - first;

const runs: number[] = [];
for (let i = 0; i < 20; i++) {
  const start = performance.now();
  new ReferenceRootStore(rootCertificates.map(pemToDer).filter((der) => der !== null));
  runs.push(performance.now() - start);
}
runs.sort((a, b) => a - b);
console.log(
  JSON.stringify({
    roots: store.size,
    firstBuildMs: Number(firstMs.toFixed(2)),
    warmMedianMs: Number(runs[runs.length >> 1]!.toFixed(2)),
  }),
);
