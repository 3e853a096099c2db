/**
 * The long differential fuzz run of the DER decoder against OpenSSL's d2i_X509 (issue 12):
 *
 *   npm run fuzz:der -- --count 25000 [--seed 42]
 *
 * Prints the agreement, the deliberate classes (docs/certificates-der.md) and what nothing
 * explains; writes any offending mutant to a temporary folder (never to the terminal). Exits 1
 * when the decoder accepted something OpenSSL refuses or refused something for no listed reason.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runDifferential, seedCertificates, summarise } from "../tests/hardening/der-differential.ts";

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at < 0 ? fallback : Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} needs a non-negative integer`);
  return value;
}

const count = option("count", 25_000);
const seed = option("seed", Math.floor(Math.random() * 2 ** 31));
const started = performance.now();
const report = await runDifferential(count, seed, seedCertificates());
console.log(`seed ${seed}`);
console.log(summarise(report));
console.log(`took ${((performance.now() - started) / 1000).toFixed(1)} s`);

const bad = [
  ...report.acceptedButOpensslRejects.map((der) => ({ der, what: "accepted" })),
  ...report.unexplained.map((u) => ({ der: u.der, what: "unexplained" })),
];
if (bad.length > 0) {
  const dir = mkdtempSync(join(tmpdir(), "fuzz-der-"));
  for (const [k, b] of bad.entries()) writeFileSync(join(dir, `${b.what}-${k}.der`), b.der);
  console.log(`${bad.length} offending mutants written to ${dir}`);
  process.exit(1);
}
