/**
 * The decoder against OpenSSL's `d2i_X509` on seeded mutants of real certificates (issue 12,
 * docs/certificates-der.md): every certificate OpenSSL refuses must be refused, and every
 * certificate only the decoder refuses must fall in one of the deliberate classes.
 *
 * DER_FUZZ_COUNT (default 10000) and DER_FUZZ_SEED pick the run; `npm run fuzz:der -- --count
 * 25000` is the long version.
 */
import { describe, expect, test } from "bun:test";
import { DerCertificateDecoder } from "../../src/adapters/crypto/decoder.ts";
import { atv, CN, name, rdn, tlv, withSubject } from "../adapters/der-builder.ts";
import { certDer, strictDer, strictNames } from "../fixtures/fixtures.ts";
import {
  d2iX509,
  differenceClasses,
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

  test("constructed universal values in a Name: 8 tags × 24 contents, the same verdicts as d2i_X509", async () => {
    // What the attack found: OpenSSL gathers these with asn1_collect and refuses junk inside.
    const hex = (text: string) => Uint8Array.from(Buffer.from(text.replace(/ /g, ""), "hex"));
    const contents = [
      "",
      "ff",
      "ff ff",
      "00",
      "00 00",
      "00 01 41",
      "04 00",
      "04 01 41",
      "04 01 41 ff",
      "04 05 41",
      "0c 01 41",
      "0c 01 ff",
      "80 01 41",
      "a0 03 04 01 41",
      "30 00",
      "30 02 ff ff",
      "06 01 2a",
      "01 02 ff ff",
      "05 01 00",
      "03 02 08 00",
      "24 03 04 01 41",
      "24 05 24 03 04 01 41",
      "24 80 04 01 41 00 00",
      "04 01 41 00 00",
    ];
    const decoder = new DerCertificateDecoder();
    const disagreements: string[] = [];
    let refusedByOpenssl = 0;
    for (const tag of [7, 8, 9, 11, 13, 14, 15, 29]) {
      for (const content of contents) {
        const der = withSubject(certDer("leaf-rsa"), name(rdn(atv(CN, tlv(0x20 | tag, hex(content))))));
        const openssl = d2iX509(der);
        const ours = await decoder.decode(der);
        if (!openssl) refusedByOpenssl++;
        if (ours.ok === openssl) continue;
        // Only a deliberate class may explain a difference (here: the indefinite length inside).
        const classes = ours.ok ? new Set() : differenceClasses(der, ours.reason);
        if (ours.ok || classes.size === 0) disagreements.push(`[${tag}] ${content}: openssl ${openssl}`);
      }
    }
    expect(disagreements).toEqual([]);
    // Refused for every tag: ff; ff ff; 00; 00 00; 04 01 41 ff; 04 05 41; 30 02 ff ff (junk one level
    // down); 04 01 41 00 00 (end-of-contents in a definite length).
    expect(refusedByOpenssl).toBe(8 * 8);
  });
});
