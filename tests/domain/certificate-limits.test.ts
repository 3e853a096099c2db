/**
 * Limits as parameters (issue 13): the HTTP API's defaults (16 blocks, 49152 characters), larger
 * limits for a local caller, and candidate issuers found through a subject-name index, so a whole
 * system CA bundle is inspected in one go.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { DerCertificateDecoder } from "../../src/adapters/crypto/decoder.ts";
import { mozillaRootStore } from "../../src/adapters/crypto/root-store.ts";
import { WebCryptoSignatureVerifier } from "../../src/adapters/crypto/verifier.ts";
import {
  DEFAULT_CERTIFICATE_LIMITS,
  inspectCertificateBundle,
} from "../../src/domain/certificates/inspect.ts";
import { analyseRelationships, candidatePairs } from "../../src/domain/certificates/relationships.ts";
import { DomainError } from "../../src/domain/errors.ts";
import { MAX_CERTIFICATES, MAX_PEM_LENGTH } from "../../src/domain/limits.ts";
import { bundleOf, fakeDecoder, makeCertificate } from "../fakes/certificates.ts";
import { fixedClock } from "../fakes/clock.ts";
import { noKnownRoots } from "../fakes/roots.ts";
import { scriptedVerifier } from "../fakes/verifier.ts";
import { NOW } from "./certificate-helpers.ts";

const DEBIAN_BUNDLE = "/etc/ssl/certs/ca-certificates.crt";
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

describe("Debian's system CA bundle through the domain, with local limits", () => {
  test("the bundle is installed (ca-certificates)", () => {
    if (!existsSync(DEBIAN_BUNDLE)) {
      throw new Error(`${DEBIAN_BUNDLE} is missing: install the Debian package ca-certificates`);
    }
  });

  test("every root verifies its own signature and there is no error finding", async () => {
    const pem = readFileSync(DEBIAN_BUNDLE, "utf8");
    expect(pem.length).toBeGreaterThan(MAX_PEM_LENGTH);
    const deps = {
      // An instant inside every root's validity in Debian 12's package (Baltimore expired 2025-05-12).
      clock: fixedClock("2025-01-01T00:00:00Z"),
      decoder: new DerCertificateDecoder(),
      verifier: new WebCryptoSignatureVerifier(),
      roots: mozillaRootStore(),
    };
    const result = await inspectCertificateBundle({ pem }, deps, LOCAL);
    expect(result.certificates.length).toBeGreaterThan(100);
    expect(result.certificates.filter((c) => c.selfSignature !== "verified").map((c) => c.subject)).toEqual(
      [],
    );
    expect(result.findings.filter((f) => f.severity === "error")).toEqual([]);
    expect(result.findings.map((f) => f.code)).toContain("NO_LEAF_CERTIFICATE");
    expect(result.findings.filter((f) => f.code === "SELF_SIGNED_CERTIFICATE")).toHaveLength(
      result.certificates.length,
    );
  });
});
