/**
 * Per-certificate decode time, in-process: asn1js + pkijs against our DER reader (ADR 0007),
 * each warmed up first, then timed in steady state; plus our reader on the OID bomb fixture.
 *
 *   node_modules/.bin/bun bench/der-vs-pkijs.ts
 *
 * Uses the generated fixtures (tests/fixtures/generate.sh). Prints medians and 90th percentiles
 * in milliseconds; also the first calls of a fresh process, which is where the old "3–19 ms"
 * per certificate came from. A few seconds in all.
 */
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { DerCertificateDecoder } from "../src/adapters/crypto/decoder.ts";
import { certDer, certNames, strictDer } from "../tests/fixtures/fixtures.ts";

const certs = certNames().map((name) => certDer(name));
const decoder = new DerCertificateDecoder();

async function viaPkijs(der: Uint8Array): Promise<void> {
  const asn1 = asn1js.fromBER(der);
  if (asn1.offset === -1) throw new Error("asn1js refused a fixture");
  new pkijs.Certificate({ schema: asn1.result });
}

async function viaOurs(der: Uint8Array): Promise<void> {
  if (!(await decoder.decode(der)).ok) throw new Error("the decoder refused a fixture");
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Times `run` on each certificate in turn until `budgetMs` has passed; ms per call. */
async function timeCalls(run: (der: Uint8Array) => Promise<void>, budgetMs: number, maxCalls = Infinity) {
  const samples: number[] = [];
  const stop = performance.now() + budgetMs;
  for (let k = 0; performance.now() < stop && samples.length < maxCalls; k++) {
    const der = certs[k % certs.length]!;
    const t = performance.now();
    await run(der);
    samples.push(performance.now() - t);
  }
  return samples;
}

const fmt = (ms: number) => ms.toFixed(3);
function report(label: string, samples: number[]): void {
  const sorted = [...samples].sort((a, b) => a - b);
  console.log(
    `${label.padEnd(34)} n=${String(samples.length).padStart(6)}  median ${fmt(quantile(sorted, 0.5))} ms  p90 ${fmt(quantile(sorted, 0.9))} ms`,
  );
}

console.log(`${certs.length} fixture certificates, Bun ${Bun.version}`);
for (const [label, run] of [
  ["asn1js + pkijs", viaPkijs],
  ["our DER reader", viaOurs],
] as const) {
  report(`${label}: first 16 calls (cold)`, await timeCalls(run, 60_000, 16));
  await timeCalls(run, 1500); // warm-up
  report(`${label}: steady state`, await timeCalls(run, 1500));
}

const bomb = strictDer("oid-bomb");
for (let k = 0; k < 200; k++) await decoder.decode(bomb);
const bombSamples: number[] = [];
for (let k = 0; k < 2000; k++) {
  const t = performance.now();
  await decoder.decode(bomb);
  bombSamples.push(performance.now() - t);
}
report(`our DER reader: OID bomb (${bomb.length} B)`, bombSamples);
