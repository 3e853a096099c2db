/**
 * Limits as parameters (issue 13): the HTTP API's defaults (16 blocks, 49152 characters), larger
 * limits for a local caller, and candidate issuers found through a subject-name index, so a whole
 * system CA bundle is inspected in one go.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import fc from "fast-check";
import { DerCertificateDecoder } from "../../src/adapters/crypto/decoder.ts";
import { mozillaRootStore } from "../../src/adapters/crypto/root-store.ts";
import { NodeSignatureVerifier } from "../../src/adapters/crypto/verifier.ts";
import {
  DEFAULT_CERTIFICATE_LIMITS,
  type FindingCode,
  inspectCertificateBundle,
} from "../../src/domain/certificates/inspect.ts";
import { analyseRelationships, candidatePairs } from "../../src/domain/certificates/relationships.ts";
import { DomainError } from "../../src/domain/errors.ts";
import { MAX_CERTIFICATES, MAX_PEM_LENGTH } from "../../src/domain/limits.ts";
import { bundleOf, fakeDecoder, makeCertificate } from "../fakes/certificates.ts";
import { fixedClock } from "../fakes/clock.ts";
import { noKnownRoots } from "../fakes/roots.ts";
import { scriptedVerifier } from "../fakes/verifier.ts";
import {
  bundleUnderTest,
  type OpensslValidity,
  opensslValidities,
  pemBlocks,
  SNAPSHOTS,
} from "../fixtures/ca-bundles/ca-bundles.ts";
import { NOW } from "./certificate-helpers.ts";

const LOCAL = { maxBlocks: 1000, maxPemLength: 2_000_000 };

function fakeDeps(certificates: Parameters<typeof fakeDecoder>[0]) {
  return {
    clock: fixedClock(NOW),
    decoder: fakeDecoder(certificates),
    verifier: scriptedVerifier(),
    roots: noKnownRoots,
  };
}

async function rejection(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe("defaults are the API's limits", () => {
  test("16 blocks and 49152 characters", () => {
    expect(DEFAULT_CERTIFICATE_LIMITS).toEqual({ maxBlocks: MAX_CERTIFICATES, maxPemLength: MAX_PEM_LENGTH });
  });

  test("without limits, block 17 is refused; with a larger limit, 40 certificates are inspected", async () => {
    const certificates = Array.from({ length: 40 }, (_, n) =>
      makeCertificate({ subject: `CN=leaf ${n}`, issuer: "CN=CA", sans: [`n${n}.example`] }),
    );
    const pem = bundleOf(certificates);
    const refused = await rejection(inspectCertificateBundle({ pem }, fakeDeps(certificates)));
    expect(refused.issues.map((issue) => issue.message)).toEqual([
      "a bundle holds at most 16 PEM blocks; this is block 17",
    ]);
    const result = await inspectCertificateBundle(
      { pem, leafIndex: 39, hostname: "n39.example" },
      fakeDeps(certificates),
      {
        maxBlocks: 50,
        maxPemLength: MAX_PEM_LENGTH,
      },
    );
    expect(result.certificates).toHaveLength(40);
    expect(result.selectedLeafIndex).toBe(39);
    expect(result.hostname).toEqual({ expected: "n39.example", status: "matched" });
  });

  test("a raised block limit moves the limit issue and the leafIndex bound with it", async () => {
    const one = makeCertificate({ subject: "CN=leaf", issuer: "CN=CA" });
    const pem = bundleOf(Array.from({ length: 6 }, () => one));
    const limits = { maxBlocks: 5, maxPemLength: MAX_PEM_LENGTH };
    const error = await rejection(inspectCertificateBundle({ pem, leafIndex: 7 }, fakeDeps([one]), limits));
    expect(error.issues.map((issue) => issue.message)).toEqual([
      "a bundle holds at most 5 PEM blocks; this is block 6",
      "leafIndex must be an integer from 0 to 4",
    ]);
  });

  test("a raised size limit reads a text over 49152 characters", async () => {
    const one = makeCertificate({ subject: "CN=leaf", issuer: "CN=CA" });
    const pem = `${bundleOf([one])}${" ".repeat(60_000)}`;
    const refused = await rejection(inspectCertificateBundle({ pem }, fakeDeps([one])));
    expect(refused.issues[0]!.message).toBe("pem is longer than 49152 characters");
    const result = await inspectCertificateBundle({ pem }, fakeDeps([one]), {
      maxBlocks: 16,
      maxPemLength: 100_000,
    });
    expect(result.certificates).toHaveLength(1);
  });

  test("the relationship analysis refuses more certificates than its limit", async () => {
    const many = Array.from({ length: 17 }, (_, n) => makeCertificate({ subject: `CN=${n}` }));
    await expect(analyseRelationships(many, scriptedVerifier())).rejects.toThrow("more than 16 certificates");
    const analysis = await analyseRelationships(many, scriptedVerifier(), 17);
    expect(analysis.selfChecks).toHaveLength(17);
  });
});

describe("candidate issuers from a subject-name index", () => {
  test("the same pairs, in the same order, as comparing every pair", () => {
    const names = ["CN=A", "CN=B", "CN=C"];
    const spec = fc.record({
      subject: fc.constantFrom(...names),
      issuer: fc.constantFrom(...names),
      variant: fc.constantFrom("x", "y"),
    });
    fc.assert(
      fc.property(fc.array(spec, { maxLength: 24 }), (specs) => {
        const certificates = specs.map((s) => makeCertificate(s));
        const brute: { childIndex: number; issuerIndex: number }[] = [];
        for (const [childIndex, child] of certificates.entries()) {
          for (const [issuerIndex, issuer] of certificates.entries()) {
            if (issuerIndex === childIndex) continue;
            if (issuer.subjectNameKey !== child.issuerNameKey) continue;
            if (issuer.fingerprintSha256 === child.fingerprintSha256) continue;
            brute.push({ childIndex, issuerIndex });
          }
        }
        expect(candidatePairs(certificates)).toEqual(brute);
      }),
      { numRuns: 300 },
    );
  });
});

/** The findings openssl's dates call for at `at`: CERTIFICATE_EXPIRED and CERTIFICATE_NOT_YET_VALID, by index. */
function expectedDateFindings(validities: OpensslValidity[], at: Date) {
  const iso = (d: Date) => d.toISOString().replace(/\.000Z$/, "Z");
  const evaluatedAt = iso(at);
  const out: { code: FindingCode; certificateIndexes: number[]; evidence: Record<string, string> }[] = [];
  for (const [index, { notBefore, notAfter }] of validities.entries()) {
    if (notAfter.getTime() < at.getTime()) {
      out.push({
        code: "CERTIFICATE_EXPIRED",
        certificateIndexes: [index],
        evidence: { notAfter: iso(notAfter), evaluatedAt },
      });
    }
    if (notBefore.getTime() > at.getTime()) {
      out.push({
        code: "CERTIFICATE_NOT_YET_VALID",
        certificateIndexes: [index],
        evidence: { notBefore: iso(notBefore), evaluatedAt },
      });
    }
  }
  return out;
}

async function inspectBundle(path: string, at: string) {
  const pem = readFileSync(path, "utf8");
  const deps = {
    clock: fixedClock(at),
    decoder: new DerCertificateDecoder(),
    verifier: new NodeSignatureVerifier(),
    roots: mozillaRootStore(),
  };
  return { path, pem, result: await inspectCertificateBundle({ pem }, deps, LOCAL) };
}

const errorFindings = (result: Awaited<ReturnType<typeof inspectBundle>>["result"]) =>
  result.findings
    .filter((f) => f.severity === "error")
    .map(({ code, certificateIndexes, evidence }) => ({ code, certificateIndexes, evidence }));

// The bundle under test is the machine's (or $NETTOOLS_TEST_CA_BUNDLE's): which roots it holds, and
// which of them have expired, depends on the installed ca-certificates version and on CAs added
// locally. Only what holds for any bundle is asserted here; exact expectations use the snapshots.
describe(`the CA bundle under test (${bundleUnderTest()}) through the domain, with local limits`, () => {
  test("the bundle is there (ca-certificates is installed)", () => {
    if (!existsSync(bundleUnderTest())) {
      throw new Error(`${bundleUnderTest()} is missing: install the Debian package ca-certificates`);
    }
  });

  test("every root verifies its own signature; the only errors are the dates openssl reads", async () => {
    const at = "2025-01-01T00:00:00Z";
    const { path, pem, result } = await inspectBundle(bundleUnderTest(), at);
    expect(pem.length).toBeGreaterThan(MAX_PEM_LENGTH);
    expect(result.certificates.length).toBe(pemBlocks(pem).length);
    const roots = result.certificates.filter((c) => c.subject === c.issuer);
    expect(roots.length).toBeGreaterThan(100);
    expect(roots.filter((c) => c.selfSignature !== "verified").map((c) => c.subject)).toEqual([]);
    expect(errorFindings(result)).toEqual(expectedDateFindings(await opensslValidities(path), new Date(at)));
    expect(result.findings.map((f) => f.code)).toContain("NO_LEAF_CERTIFICATE");
  }, 60_000);
});

describe("Debian 12's ca-certificates snapshots (tests/fixtures/ca-bundles) through the domain", () => {
  const cases = [
    {
      bundle: "base",
      count: 142,
      at: "2025-01-01T00:00:00Z",
      // In bundle order (the package's file names sorted): E-Tugra, Hongkong Post, SECOM.
      expired: [
        [
          "CN=E-Tugra Certification Authority,OU=E-Tugra Sertifikasyon Merkezi,O=E-Tuğra EBG Bilişim Teknolojileri ve Hizmetleri A.Ş.,L=Ankara,C=TR",
          "2023-03-03T12:09:48Z",
        ],
        ["CN=Hongkong Post Root CA 1,O=Hongkong Post,C=HK", "2023-05-15T04:52:29Z"],
        ["OU=Security Communication RootCA1,O=SECOM Trust.net,C=JP", "2023-09-30T04:20:49Z"],
      ],
    },
    { bundle: "update", count: 148, at: "2025-01-01T00:00:00Z", expired: [] },
    {
      bundle: "update",
      count: 148,
      at: "2025-06-01T00:00:00Z",
      expired: [["CN=Baltimore CyberTrust Root,OU=CyberTrust,O=Baltimore,C=IE", "2025-05-12T23:59:00Z"]],
    },
  ] as const;

  for (const { bundle, count, at, expired } of cases) {
    test(`${bundle} at ${at}: ${count} roots, all self-signed and verified, ${expired.length} expired`, async () => {
      const { path, result } = await inspectBundle(SNAPSHOTS[bundle], at);
      expect(result.certificates).toHaveLength(count);
      expect(result.certificates.every((c) => c.subject === c.issuer && c.selfSignature === "verified")).toBe(
        true,
      );
      expect(result.findings.filter((f) => f.code === "SELF_SIGNED_CERTIFICATE")).toHaveLength(count);
      const errors = errorFindings(result);
      expect(errors).toEqual(expectedDateFindings(await opensslValidities(path), new Date(at)));
      expect(
        errors.map((f) => [result.certificates[f.certificateIndexes[0]!]!.subject, f.evidence.notAfter]),
      ).toEqual(expired.map(([subject, notAfter]) => [subject, notAfter]));
    }, 60_000);
  }
});

describe("the snapshots stay what their README says, and CI tests against each", () => {
  test("each snapshot has its recorded SHA-256; .ci/run runs the bundle tests once per snapshot", () => {
    const readme = readFileSync(join(dirname(SNAPSHOTS.base), "README.md"), "utf8");
    for (const path of Object.values(SNAPSHOTS)) {
      const digest = new Bun.CryptoHasher("sha256").update(readFileSync(path)).digest("hex");
      expect(readme).toContain(`| \`${basename(path)}\` |`);
      expect(readme).toContain(`\`${digest}\``);
    }
    const ci = readFileSync(join(import.meta.dir, "../../.ci/run"), "utf8");
    expect(ci).toContain("for snapshot in tests/fixtures/ca-bundles/debian-ca-certificates-*.pem; do");
    expect(ci).toContain('NETTOOLS_TEST_CA_BUNDLE="$PWD/$snapshot"');
    for (const file of ["certificate-limits.test.ts", "mozilla-roots.test.ts", "ca-bundle.test.ts"]) {
      expect(ci).toContain(file);
    }
  });
});
