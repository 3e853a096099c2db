/**
 * The reference root store (CONTRACT §4.3 `issuerIsKnownRoot`, §9.2): the built-in snapshot of
 * Mozilla's roots, indexed by subject-name DER and subjectKeyIdentifier exactly as the decoder
 * reads them; its description (`GET /v1/reference-roots`); a trust-store file replacing it; and
 * the hint it gives through the whole use case with the real decoder and verifier.
 */
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DerCertificateDecoder } from "../../src/adapters/crypto/decoder.ts";
import {
  mozillaRootStore,
  pemToDer,
  ReferenceRootStore,
  ReferenceRootsFileError,
  readRootKeys,
  rootStoreFromFile,
} from "../../src/adapters/crypto/root-store.ts";
import { NodeSignatureVerifier } from "../../src/adapters/crypto/verifier.ts";
import { realCertificateDeps } from "../../src/adapters/real-deps.ts";
import snapshot from "../../src/adapters/reference-roots.json";
import { inspectCertificateBundle } from "../../src/domain/certificates/inspect.ts";
import { RequestRootStore } from "../../src/domain/certificates/trust-anchors.ts";
import { fixedClock } from "../fakes/clock.ts";
import { certDer, certPem, chainPem } from "../fixtures/fixtures.ts";

const decoder = new DerCertificateDecoder();

async function decodeOk(der: Uint8Array) {
  const result = await decoder.decode(der);
  if (!result.ok) throw new Error(result.reason);
  return result.certificate;
}

describe("the index", () => {
  test("reads every snapshot root's subject name and key id exactly as the decoder does", async () => {
    expect(snapshot.roots.length).toBeGreaterThan(100);
    for (const root of snapshot.roots) {
      const der = Buffer.from(root.der, "base64");
      const certificate = await decodeOk(der);
      const keys = readRootKeys(der)!;
      expect(keys.subjectNameKey).toBe(certificate.subjectNameKey);
      expect(keys.subjectKeyIdentifier).toBe(certificate.subjectKeyIdentifier?.replace(/:/g, "") ?? null);
    }
  });

  test("every snapshot root is indexed, once per process", () => {
    const store = mozillaRootStore();
    expect(store.size).toBe(snapshot.roots.length);
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

describe("the store's description and its replacement by a file (CONTRACT §9.2)", () => {
  const scratch = mkdtempSync(join(tmpdir(), "reference-roots-"));
  const digest = (ders: readonly Uint8Array[]) => {
    const hash = createHash("sha256");
    for (const der of ders) hash.update(der);
    return hash.digest("hex");
  };

  test("built-in: the snapshot's version, its roots, its dated roots, the digest over their DER in order", () => {
    const ders = snapshot.roots.map((root) => Buffer.from(root.der, "base64"));
    expect(mozillaRootStore().describe()).toEqual({
      source: "built-in",
      version: snapshot.version,
      certificates: snapshot.roots.length,
      distrustDates: snapshot.roots.filter((root) => "serverDistrustAfter" in root || "sctNotAfter" in root)
        .length,
      sha256: digest(ders),
    });
  });

  test("a file: its base name, its certificates in file order, no distrust dates", () => {
    const path = join(scratch, "my-roots.pem");
    writeFileSync(path, `# two roots\n${certPem("root-rsa")}some words\n${certPem("isrg-root-x1-resigned")}`);
    const { store, skippedLabels } = rootStoreFromFile(path);
    expect(skippedLabels).toEqual([]);
    expect(store.describe()).toEqual({
      source: "file",
      version: "my-roots.pem",
      certificates: 2,
      distrustDates: 0,
      sha256: digest([certDer("root-rsa"), certDer("isrg-root-x1-resigned")]),
    });
    expect(store.distrustOf(certDer("root-rsa"))).toBeNull();
  });

  test("a missing file, or one without a certificate, is refused with its path and nothing of its text", () => {
    const empty = join(scratch, "empty.pem");
    writeFileSync(empty, "# secret words\n-----BEGIN X509 CRL-----\nAAAA\n-----END X509 CRL-----\n");
    expect(() => rootStoreFromFile(join(scratch, "missing.pem"))).toThrow(
      new ReferenceRootsFileError(`cannot read ${join(scratch, "missing.pem")} (ENOENT)`),
    );
    expect(() => rootStoreFromFile(empty)).toThrow(
      new ReferenceRootsFileError(`${empty} holds no certificate`),
    );
  });

  test("a request's store gives the reference store's distrust dates, none for a supplied root", async () => {
    const entrust = snapshot.roots.find((root) => root.label === "Entrust Root Certification Authority")!;
    const der = Buffer.from(entrust.der, "base64");
    const request = new RequestRootStore(mozillaRootStore(), [await decodeOk(certDer("root-rsa"))]);
    expect(request.distrustOf(der)).toEqual({
      serverDistrustAfter: Date.parse("2024-11-30T23:59:59Z"),
      sctNotAfter: null,
    });
    expect(request.distrustOf(certDer("root-rsa"))).toBeNull();
  });
});

describe("issuerIsKnownRoot through the use case", () => {
  const deps = () => ({
    clock: fixedClock("2026-06-01T00:00:00Z"),
    decoder,
    verifier: new NodeSignatureVerifier(),
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
