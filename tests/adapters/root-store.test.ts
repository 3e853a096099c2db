/**
 * The reference root store (CONTRACT §4.3 `issuerIsKnownRoot`): the runtime's Mozilla roots,
 * indexed by subject-name DER and subjectKeyIdentifier exactly as the decoder reads them, and the
 * hint it gives through the whole use case with the real decoder and verifier.
 */
import { describe, expect, test } from "bun:test";
import { rootCertificates } from "node:tls";
import { DerCertificateDecoder } from "../../src/adapters/crypto/decoder.ts";
import {
  mozillaRootStore,
  pemToDer,
  ReferenceRootStore,
  readRootKeys,
} from "../../src/adapters/crypto/root-store.ts";
import { WebCryptoSignatureVerifier } from "../../src/adapters/crypto/verifier.ts";
import { realCertificateDeps } from "../../src/adapters/real-deps.ts";
import { inspectCertificateBundle } from "../../src/domain/certificates/inspect.ts";
import { fixedClock } from "../fakes/clock.ts";
import { certDer, certPem, chainPem } from "../fixtures/fixtures.ts";

const decoder = new DerCertificateDecoder();

async function decodeOk(der: Uint8Array) {
  const result = await decoder.decode(der);
  if (!result.ok) throw new Error(result.reason);
  return result.certificate;
}

describe("the index", () => {
  test("reads every runtime root's subject name and key id exactly as the decoder does", async () => {
    expect(rootCertificates.length).toBeGreaterThan(100);
    for (const pem of rootCertificates) {
      const der = pemToDer(pem)!;
      const certificate = await decodeOk(der);
      const keys = readRootKeys(der)!;
      expect(keys.subjectNameKey).toBe(certificate.subjectNameKey);
      expect(keys.subjectKeyIdentifier).toBe(certificate.subjectKeyIdentifier?.replace(/:/g, "") ?? null);
    }
  });

  test("every runtime root is indexed, once per process", () => {
    const store = mozillaRootStore();
    expect(store.size).toBe(rootCertificates.length);
    expect(mozillaRootStore()).toBe(store);
    expect(realCertificateDeps().roots).toBe(store);
  });

  test("a name alone, or a name with the matching key id, is known; another key id is not", async () => {
    const root = await decodeOk(certDer("isrg-root-x1-resigned"));
    const store = mozillaRootStore();
    expect(store.isKnownRoot(root.subjectNameKey, null)).toBe(true);
    expect(store.isKnownRoot(root.subjectNameKey, root.subjectKeyIdentifier)).toBe(true);
    expect(store.isKnownRoot(root.subjectNameKey, root.subjectKeyIdentifier!.toLowerCase())).toBe(true);
    expect(store.isKnownRoot(root.subjectNameKey, "01:02:03")).toBe(false);
    const fixtureRoot = await decodeOk(certDer("root-rsa"));
    expect(store.isKnownRoot(fixtureRoot.subjectNameKey, null)).toBe(false);
  });

  test("unreadable input is left out; an empty store knows nothing", () => {
    const store = new ReferenceRootStore([new Uint8Array([0x30, 0x00]), new Uint8Array()]);
    expect(store.size).toBe(0);
    expect(store.isKnownRoot("30", null)).toBe(false);
    expect(pemToDer("no block")).toBeNull();
  });
});

describe("issuerIsKnownRoot through the use case", () => {
  const deps = () => ({
    clock: fixedClock("2026-06-01T00:00:00Z"),
    decoder,
    verifier: new WebCryptoSignatureVerifier(),
    roots: mozillaRootStore(),
  });

  test("a leaf issued under a real Mozilla root's name: true, nothing to add", async () => {
    const result = await inspectCertificateBundle({ pem: chainPem("under-known-root") }, deps());
    const finding = result.findings.find((f) => f.code === "ISSUER_NOT_IN_BUNDLE")!;
    expect(finding.evidence).toEqual({
      issuer: "CN=ISRG Root X1,O=Internet Security Research Group,C=US",
      issuerIsKnownRoot: true,
      caIssuersUrl: null,
    });
    expect(finding.nextAction).toStartWith("Nothing needs adding: clients that trust CN=ISRG Root X1");
  });

  test("a leaf and its root without the intermediate: false, and the intermediate is named", async () => {
    const result = await inspectCertificateBundle({ pem: chainPem("missing-intermediate") }, deps());
    const finding = result.findings.find((f) => f.code === "ISSUER_NOT_IN_BUNDLE")!;
    expect(finding.certificateIndexes).toEqual([0]);
    expect(finding.evidence.issuerIsKnownRoot).toBe(false);
    expect(finding.observed).toContain("an intermediate CA certificate is most likely missing");
    expect(finding.nextAction).toStartWith(
      "Add the certificate of CN=Fixture Intermediate RSA to the bundle",
    );
  });

  test("the same leaf alone: false as well", async () => {
    const result = await inspectCertificateBundle({ pem: certPem("leaf-rsa") }, deps());
    const finding = result.findings.find((f) => f.code === "ISSUER_NOT_IN_BUNDLE")!;
    expect(finding.evidence.issuerIsKnownRoot).toBe(false);
  });
});
