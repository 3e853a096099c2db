/**
 * A whole system CA bundle through the domain with local limits (issue 13): Debian's
 * /etc/ssl/certs/ca-certificates.crt (or the file given), real decoder, verifier and root store.
 * Also times the candidate-issuer search alone, index versus all pairs, on the decoded roots.
 * Run: `bun bench/system-bundle.ts [FILE]`.
 */
import { readFileSync } from "node:fs";
import { realCertificateDeps } from "../src/adapters/real-deps.ts";
import { inspectCertificateBundle } from "../src/domain/certificates/inspect.ts";
import type { CertificateData } from "../src/domain/certificates/model.ts";
import { scanPem } from "../src/domain/certificates/pem.ts";
import { candidatePairs } from "../src/domain/certificates/relationships.ts";

const LIMITS = { maxBlocks: 1000, maxPemLength: 2_000_000 };
const pem = readFileSync(process.argv[2] ?? "/etc/ssl/certs/ca-certificates.crt", "utf8");
const deps = realCertificateDeps();

const times: number[] = [];
let certificates = 0;
for (let i = 0; i < 5; i++) {
  const start = performance.now();
  const result = await inspectCertificateBundle({ pem }, deps, LIMITS);
  times.push(performance.now() - start);
  certificates = result.certificates.length;
}

const decoded: CertificateData[] = [];
for (const block of scanPem(pem, LIMITS).blocks) {
  const result = await deps.decoder.decode(block.der);
  if (result.ok) decoded.push(result.certificate);
}
function allPairs(list: readonly CertificateData[]): number {
  let n = 0;
  for (const [i, child] of list.entries())
    for (const [j, issuer] of list.entries())
      if (
        i !== j &&
        issuer.subjectNameKey === child.issuerNameKey &&
        issuer.fingerprintSha256 !== child.fingerprintSha256
      )
        n++;
  return n;
}
const time = (work: () => unknown) => {
  const start = performance.now();
  for (let i = 0; i < 50; i++) work();
  return (performance.now() - start) / 50;
};
const indexMs = time(() => candidatePairs(decoded));
const pairsMs = time(() => allPairs(decoded));
times.sort((a, b) => a - b);
console.log(
  JSON.stringify({
    certificates,
    bytes: pem.length,
    inspectMedianMs: Number(times[2]!.toFixed(1)),
    inspectMinMs: Number(times[0]!.toFixed(1)),
    candidateIndexMs: Number(indexMs.toFixed(3)),
    candidateAllPairsMs: Number(pairsMs.toFixed(3)),
  }),
);
