/**
 * The decoder against OpenSSL's `d2i_X509` on seeded mutants of real certificates (issue 12,
 * docs/certificates-der.md): every certificate OpenSSL refuses must be refused, and every
 * certificate only the decoder refuses must fall in one of the deliberate classes.
 *
 * DER_FUZZ_COUNT (default 10000) and DER_FUZZ_SEED pick the run; `npm run fuzz:der -- --count
 * 25000` is the long version.
 */
import { describe, expect, test } from "bun:test";
import { strictDer, strictNames } from "../fixtures/fixtures.ts";
import {
  d2iX509,
  makeMutants,
  opensslVerdicts,
  runDifferential,
  seedCertificates,
  summarise,
} from "./der-differential.ts";

const COUNT = Number(process.env.DER_FUZZ_COUNT ?? 10_000);
const SEED = Number(process.env.DER_FUZZ_SEED ?? 20261123);
const TIMEOUT = 60_000 + COUNT * 10;

describe("differential fuzzing against d2i_X509", () => {
  const seeds = seedCertificates();

  test(
    "d2i_X509 called in-process gives the verdicts of `openssl x509 -inform der -noout`",
    async () => {
      const sample = [...makeMutants(120, SEED + 1, seeds), ...strictNames().map((n) => strictDer(n))];
      const cli = await opensslVerdicts(sample);
      expect(sample.map((der) => d2iX509(der))).toEqual(cli);
      // The sample holds both kinds, or the comparison would prove little.
      expect(cli.filter(Boolean).length).toBeGreaterThan(10);
      expect(cli.filter((ok) => !ok).length).toBeGreaterThan(10);
    },
    TIMEOUT,
  );

  test(
    `${COUNT} mutants (seed ${SEED}): nothing OpenSSL refuses is accepted; every other difference is deliberate`,
    async () => {
      const report = await runDifferential(COUNT, SEED, seeds);
      const summary = summarise(report);
      expect({ acceptedButOpensslRejects: report.acceptedButOpensslRejects.length, summary }).toEqual({
        acceptedButOpensslRejects: 0,
        summary,
      });
      expect({ unexplained: report.unexplained.map((u) => u.reason), summary }).toEqual({
        unexplained: [],
        summary,
      });
      // The mutants are a real mix: OpenSSL refuses many and loads many.
      expect(report.opensslRejected).toBeGreaterThan(COUNT * 0.3);
      expect(report.opensslRejected).toBeLessThan(COUNT * 0.9);
      // Measured at 87–89 % (the rest is the deliberate classes): a floor, so a change that makes
      // the decoder much stricter than OpenSSL shows here even when it is "explained".
      expect(report.agree / COUNT).toBeGreaterThan(0.85);
    },
    TIMEOUT,
  );
});
