/**
 * Every Mozilla root under test decodes exactly as openssl prints it and its self-signature is
 * `verified` (CONTRACT §4.2). The roots under test are the machine's
 * (/usr/share/ca-certificates/mozilla, from Debian's ca-certificates; without it this test fails,
 * it does not skip) or each certificate of the bundle $NETTOOLS_TEST_CA_BUNDLE names (.ci/run sets
 * it to the committed base-version snapshot). Nothing here depends on which roots a version holds.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DerCertificateDecoder } from "../../src/adapters/crypto/decoder.ts";
import { NodeSignatureVerifier } from "../../src/adapters/crypto/verifier.ts";
import { mozillaRootsUnderTest } from "../fixtures/ca-bundles/ca-bundles.ts";
import { pemToDers } from "../fixtures/fixtures.ts";
import { limiter, ORACLE_TIMEOUT_MS, opensslFacts } from "./openssl-oracle.ts";

const decoder = new DerCertificateDecoder();
const verifier = new NodeSignatureVerifier();
const roots = mozillaRootsUnderTest();
// openssl reads each root from a file of its own, in a private folder removed at the end.
const scratch = mkdtempSync(join(tmpdir(), "mozilla-roots-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("Mozilla roots under test", () => {
  test("there are Mozilla roots to test", () => {
    expect(roots.length).toBeGreaterThan(100);
  });

  const schedule = limiter(4);
  for (const [k, { name: file, pem }] of roots.entries()) {
    const path = join(scratch, `${k}.pem`);
    writeFileSync(path, pem);
    const facts = schedule(() => opensslFacts(path, "PEM", true));
    facts.catch(() => {}); // reported by the test
    test(
      file,
      async () => {
        const ders = pemToDers(pem);
        expect(ders).toHaveLength(1);
        const result = await decoder.decode(ders[0]!);
        if (!result.ok) throw new Error(`${file}: ${result.reason}`);
        const cert = result.certificate;

        expect(cert.subjectNameKey).toBe(cert.issuerNameKey);
        expect(await verifier.verify(cert, cert)).toEqual({ outcome: "verified" });

        const o = await facts;
        expect(cert.subject).toBe(o.subject);
        expect(cert.issuer).toBe(o.issuer);
        expect(cert.serialNumber).toBe(o.serial);
        expect(cert.fingerprintSha256).toBe(o.fingerprint);
        expect(cert.notBefore.toISOString()).toBe(o.notBefore.toISOString());
        expect(cert.notAfter.toISOString()).toBe(o.notAfter.toISOString());
        expect(cert.publicKeyKey).toBe(o.publicKeyHex);
        const bc = o.extensions.get("X509v3 Basic Constraints");
        expect(cert.basicConstraintsPresent).toBe(bc !== undefined);
        expect(cert.ca).toBe(bc?.lines[0]?.startsWith("CA:TRUE") ?? false);
        const ku = o.extensions.get("X509v3 Key Usage");
        expect(cert.keyCertSign).toBe(
          ku === undefined ? null : ku.lines.join(" ").includes("Certificate Sign"),
        );
        expect(cert.subjectKeyIdentifier).toBe(
          o.extensions.get("X509v3 Subject Key Identifier")?.lines[0] ?? null,
        );
        const aki = o.extensions.get("X509v3 Authority Key Identifier");
        const akiKeyId = aki?.lines
          .map((l) => /^(?:keyid:)?([0-9A-F]{2}(?::[0-9A-F]{2})*)$/.exec(l)?.[1])
          .find(Boolean);
        expect(cert.authorityKeyIdentifier).toBe(akiKeyId ?? null);
      },
      ORACLE_TIMEOUT_MS,
    );
  }
});
