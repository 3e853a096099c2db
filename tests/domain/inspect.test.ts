import { describe, expect, test } from "bun:test";
import {
  type CertificateBundleResult,
  inspectCertificateBundle,
  NOT_A_CERTIFICATE_MESSAGE,
  possibleLeaves,
} from "../../src/domain/certificates/inspect.ts";
import type { CertificateData } from "../../src/domain/certificates/model.ts";
import { PRIVATE_KEY_MESSAGE } from "../../src/domain/certificates/pem.ts";
import {
  analyseRelationships,
  candidatePairs,
  MAX_SIGNATURE_CHECKS,
} from "../../src/domain/certificates/relationships.ts";
import { DomainError, type Issue } from "../../src/domain/errors.ts";
import { MAX_CERTIFICATES, MAX_RELATIONSHIPS } from "../../src/domain/limits.ts";
import type { CertificateDecoder, SignatureVerifier } from "../../src/domain/ports.ts";
import { bundleOf, fakeDecoder, makeCertificate, toPem } from "../fakes/certificates.ts";
import { fixedClock } from "../fakes/clock.ts";
import { noKnownRoots } from "../fakes/roots.ts";
import { scriptedVerifier } from "../fakes/verifier.ts";
import { chain, codes, NOW, run } from "./certificate-helpers.ts";

/** Runs the use case and returns the DomainError it must throw. */
async function rejection(
  request: { pem: string; hostname?: string; leafIndex?: number },
  certificates: CertificateData[] = [],
): Promise<DomainError> {
  try {
    await inspectCertificateBundle(request, {
      clock: fixedClock(NOW),
      decoder: fakeDecoder(certificates),
      verifier: scriptedVerifier(),
      roots: noKnownRoots,
    });
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error("expected the inspection to be rejected");
}

const summary = (issues: Issue[]) =>
  issues.map((issue) => [issue.path, issue.message, issue.location ?? null]);

describe("result shape (spec §2.9–2.11)", () => {
  test("fields in the specified order, with the decoded values", async () => {
    const { root, intermediate, leaf } = chain();
    const pem = `\n\n${bundleOf([leaf, intermediate])}\r\n${toPem(root, "\r\n")}`;
    const { result } = await run([leaf, intermediate, root], { pem, hostname: "www.example.com" });
    expect(Object.keys(result)).toEqual([
      "evaluatedAt",
      "certificates",
      "relationships",
      "leafIndexes",
      "selectedLeafIndex",
      "hostname",
      "findings",
    ]);
    expect(result.evaluatedAt).toBe(NOW);
    const leafLines = toPem(leaf).split("\n").length - 1;
    const intermediateLines = toPem(intermediate).split("\n").length - 1;
    expect(result.certificates.map((c) => c.line)).toEqual([
      3,
      3 + leafLines,
      3 + leafLines + intermediateLines + 1,
    ]);
    expect(result.certificates[0]).toEqual({
      index: 0,
      line: 3,
      subject: "CN=www.example.com",
      issuer: "CN=Example Intermediate,O=Example",
      commonName: "www.example.com",
      serialNumber: "01",
      sans: [
        { type: "dns", value: "www.example.com" },
        { type: "dns", value: "*.api.example.com" },
        { type: "ip", value: "192.0.2.1" },
      ],
      notBefore: "2025-01-01T00:00:00Z",
      notAfter: "2027-01-01T00:00:00Z",
      ca: false,
      basicConstraintsPresent: false,
      keyCertSign: null,
      fingerprintSha256: leaf.fingerprintSha256,
      signatureAlgorithm: "sha256WithRSAEncryption",
      selfSignature: null,
    });
    expect(Object.keys(result.certificates[0]!)).toEqual([
      "index",
      "line",
      "subject",
      "issuer",
      "commonName",
      "serialNumber",
      "sans",
      "notBefore",
      "notAfter",
      "ca",
      "basicConstraintsPresent",
      "keyCertSign",
      "fingerprintSha256",
      "signatureAlgorithm",
      "selfSignature",
    ]);
    expect(result.certificates[0]!.fingerprintSha256).toMatch(/^(?:[0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(result.certificates[2]!.selfSignature).toBe("verified");
    expect(result.relationships).toEqual([
      {
        childIndex: 0,
        issuerIndex: 1,
        signature: "verified",
        issuerEligible: true,
        keyIdentifierMatch: true,
      },
      {
        childIndex: 1,
        issuerIndex: 2,
        signature: "verified",
        issuerEligible: true,
        keyIdentifierMatch: true,
      },
    ]);
    expect(Object.keys(result.relationships[0]!)).toEqual([
      "childIndex",
      "issuerIndex",
      "signature",
      "issuerEligible",
      "keyIdentifierMatch",
    ]);
    expect(result.leafIndexes).toEqual([0]);
    expect(result.selectedLeafIndex).toBe(0);
    expect(result.hostname).toEqual({ expected: "www.example.com", status: "matched" });
    expect(Object.keys(result.hostname!)).toEqual(["expected", "status"]);
    expect(codes(result)).toEqual(["HOSTNAME_MATCH", "SELF_SIGNED_CERTIFICATE"]);
  });

  test("BEGIN lines are reported per position, CRLF and lone CR counted as one line break", async () => {
    const { intermediate, leaf } = chain();
    const pem = `${toPem(leaf, "\r")}\r\n\r\n${toPem(intermediate, "\r\n")}`;
    const { result } = await run([leaf, intermediate], { pem });
    const leafLines = toPem(leaf, "\r").split("\r").length - 1;
    expect(result.certificates.map((c) => [c.index, c.line])).toEqual([
      [0, 1],
      // The leaf's last CR ends its END line; each CRLF after it is an empty line.
      [1, leafLines + 3],
    ]);
  });

  test("the result is plain JSON data (no Dates, no class instances)", async () => {
    const { root, intermediate, leaf } = chain();
    const { result } = await run([leaf, intermediate, root], { hostname: "www.example.com" });
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });
});

describe("the clock", () => {
  const dated = makeCertificate({
    subject: "CN=dated.example",
    issuer: "CN=CA",
    sans: ["dated.example"],
    notBefore: "2025-01-01T00:00:00Z",
    notAfter: "2026-01-01T00:00:00Z",
  });

  test.each([
    ["2024-06-01T12:00:00Z", ["CERTIFICATE_NOT_YET_VALID"]],
    ["2025-06-01T12:00:00Z", []],
    ["2026-06-01T12:00:00Z", ["CERTIFICATE_EXPIRED"]],
  ])("the same bundle at %s", async (now, validity) => {
    const { result, clock } = await run([dated], { now });
    expect(result.evaluatedAt).toBe(now);
    expect(clock.reads).toBe(1);
    expect(codes(result).filter((c) => c.startsWith("CERTIFICATE_")) as string[]).toEqual(validity);
    for (const finding of result.findings) {
      if ("evaluatedAt" in finding.evidence) expect(finding.evidence.evaluatedAt).toBe(now);
    }
  });

  test("the clock is not read for a rejected request", async () => {
    const clock = fixedClock(NOW);
    await expect(
      inspectCertificateBundle(
        { pem: "nothing" },
        { clock, decoder: fakeDecoder([]), verifier: scriptedVerifier(), roots: noKnownRoots },
      ),
    ).rejects.toBeInstanceOf(DomainError);
    expect(clock.reads).toBe(0);
  });
});

describe("leaves", () => {
  const ca = makeCertificate({ subject: "CN=CA", issuer: "CN=Root", ca: true });
  const a = makeCertificate({ subject: "CN=a", issuer: "CN=CA", sans: ["a.example"] });
  const b = makeCertificate({ subject: "CN=b", issuer: "CN=CA", sans: ["b.example"] });

  test("possible leaves are first occurrences of distinct non-CA certificates", () => {
    expect(possibleLeaves([ca, a, b, a, ca])).toEqual([1, 2]);
    expect(possibleLeaves([a, a])).toEqual([0]);
    expect(possibleLeaves([ca])).toEqual([]);
  });

  test("a repeated single leaf is the only possible leaf and is selected", async () => {
    const { result } = await run([a, ca, a], { hostname: "a.example" });
    expect(result.leafIndexes).toEqual([0]);
    expect(result.selectedLeafIndex).toBe(0);
    expect(result.hostname).toEqual({ expected: "a.example", status: "matched" });
  });

  test("several leaves: selectedLeafIndex null without leafIndex, hostname ambiguous", async () => {
    const { result } = await run([a, b, ca], { hostname: "b.example" });
    expect(result.leafIndexes).toEqual([0, 1]);
    expect(result.selectedLeafIndex).toBeNull();
    expect(result.hostname!.status).toBe("ambiguous");
    const chosen = await run([a, b, ca], { hostname: "b.example", leafIndex: 1 });
    expect(chosen.result.selectedLeafIndex).toBe(1);
    expect(chosen.result.hostname!.status).toBe("matched");
  });

  test("leafIndex without hostname still selects", async () => {
    const { result } = await run([a, b, ca], { leafIndex: 0 });
    expect(result.selectedLeafIndex).toBe(0);
    expect(result.hostname).toBeNull();
  });

  test("a leafIndex naming a repeat is accepted as given", async () => {
    const { result } = await run([a, ca, a, b], { hostname: "a.example", leafIndex: 2 });
    expect(result.leafIndexes).toEqual([0, 3]);
    expect(result.selectedLeafIndex).toBe(2);
    expect(result.findings.find((f) => f.code === "HOSTNAME_MATCH")!.certificateIndexes).toEqual([2]);
  });

  test("no leaf: selectedLeafIndex null, hostname no-leaf", async () => {
    const { result } = await run([ca], { hostname: "a.example" });
    expect(result.leafIndexes).toEqual([]);
    expect(result.selectedLeafIndex).toBeNull();
    expect(result.hostname).toEqual({ expected: "a.example", status: "no-leaf" });
  });
});

describe("validation (INVALID_INPUT)", () => {
  const ca = makeCertificate({ subject: "CN=CA", ca: true });
  const leaf = makeCertificate({ subject: "CN=leaf", issuer: "CN=CA" });

  test.each([-1, 16, 1.5, Number.NaN])("leafIndex %p is out of range", async (leafIndex) => {
    const error = await rejection({ pem: bundleOf([leaf]), leafIndex }, [leaf]);
    expect(error.code).toBe("INVALID_INPUT");
    expect(summary(error.issues)).toEqual([
      [["leafIndex"], "leafIndex must be an integer from 0 to 15", null],
    ]);
  });

  test("leafIndex naming no position", async () => {
    const error = await rejection({ pem: bundleOf([leaf, ca]), leafIndex: 2 }, [leaf, ca]);
    expect(summary(error.issues)).toEqual([
      [["leafIndex"], "leafIndex 2 names no certificate: the bundle has 2 blocks", null],
    ]);
  });

  test("leafIndex naming a CA certificate", async () => {
    const error = await rejection({ pem: bundleOf([leaf, ca]), leafIndex: 1 }, [leaf, ca]);
    expect(summary(error.issues)).toEqual([
      [["leafIndex"], "leafIndex 1 names a CA certificate: choose a non-CA certificate", null],
    ]);
    expect(error.message).toBe("leafIndex 1 names a CA certificate: choose a non-CA certificate");
  });

  test("a block the decoder rejects is located at the block, without PEM text", async () => {
    const garbage = new TextEncoder().encode("not a certificate at all");
    const pem = `${toPem(leaf)}\n${toPem(garbage)}`;
    const error = await rejection({ pem }, [leaf]);
    const offset = toPem(leaf).length + 1;
    expect(error.issues).toEqual([
      {
        message: NOT_A_CERTIFICATE_MESSAGE,
        path: ["pem"],
        location: { line: toPem(leaf).split("\n").length + 1, offset, end: pem.length - 1 },
      },
    ]);
    expect(pem.slice(offset, pem.length - 1)).toBe(toPem(garbage).trimEnd());
    expect(error.message).not.toContain(Buffer.from(garbage).toString("base64").slice(0, 12));
  });

  test("PEM, DER, hostname and leafIndex problems are reported together, PEM in text order", async () => {
    const garbage = new TextEncoder().encode("garbage bytes");
    const pem = [
      toPem(garbage),
      "stray text",
      toPem(leaf),
      "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----",
    ].join("\n");
    const error = await rejection({ pem, hostname: "https://example.com", leafIndex: 0 }, [leaf]);
    expect(error.code).toBe("INVALID_INPUT");
    expect(
      summary(error.issues).map(([path, message, location]) => [
        path,
        message,
        location && (location as { line: number }).line,
      ]),
    ).toEqual([
      [["pem"], NOT_A_CERTIFICATE_MESSAGE, 1],
      [["pem"], expect.stringContaining("outside a PEM block"), 5],
      [["pem"], PRIVATE_KEY_MESSAGE, pem.split("\n").indexOf("-----BEGIN PRIVATE KEY-----") + 1],
      [["hostname"], "hostname must be a bare DNS name, not a URL", null],
    ]);
    // leafIndex 0 names the rejected block: its PEM issue covers it.
    expect(error.message).toBe("The request has 4 invalid values.");
  });

  test("with PEM problems, leafIndex is still checked where the text allows", async () => {
    const pem = `${bundleOf([leaf, ca])}stray\n`;
    const beyond = await rejection({ pem, leafIndex: 5 }, [leaf, ca]);
    expect(beyond.issues.map((i) => i.path)).toEqual([["pem"], ["leafIndex"]]);
    const onCa = await rejection({ pem, leafIndex: 1 }, [leaf, ca]);
    expect(onCa.issues.map((i) => i.path)).toEqual([["pem"], ["leafIndex"]]);
    const fine = await rejection({ pem, leafIndex: 0 }, [leaf, ca]);
    expect(fine.issues.map((i) => i.path)).toEqual([["pem"]]);
  });

  test("an oversized pem: one issue without location, plus the other fields' issues", async () => {
    const error = await rejection({ pem: " ".repeat(49_153), hostname: "*.example.com", leafIndex: 3 });
    expect(summary(error.issues)).toEqual([
      [["pem"], "pem is longer than 49152 characters", null],
      [["hostname"], "hostname must not be a wildcard: give the exact name to check", null],
    ]);
  });

  test(`${MAX_CERTIFICATES + 1} certificates: the extra block is located`, async () => {
    const certificates = Array.from({ length: MAX_CERTIFICATES + 1 }, (_, n) =>
      makeCertificate({ subject: `CN=c${n}`, issuer: "CN=CA" }),
    );
    const error = await rejection({ pem: bundleOf(certificates) }, certificates);
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]!.location!.line).toBe(
      bundleOf(certificates.slice(0, MAX_CERTIFICATES)).split("\n").length,
    );
  });

  test("a private key is never echoed in the error", async () => {
    const key =
      "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIFakeKeyMaterialThatMustNeverBeEchoedAnywhere0000\n-----END EC PRIVATE KEY-----\n";
    const error = await rejection({ pem: `${toPem(leaf)}${key}` }, [leaf]);
    expect(error.issues.map((i) => i.message)).toEqual([PRIVATE_KEY_MESSAGE]);
    expect(JSON.stringify({ message: error.message, issues: error.issues })).not.toContain("FakeKeyMaterial");
  });

  test("every problem is kept (the HTTP layer caps the list)", async () => {
    const pem = `${toPem(leaf)}${"x\n\n".repeat(150)}`;
    const error = await rejection({ pem }, [leaf]);
    expect(error.issues).toHaveLength(150);
  });
});

describe("signature checks: cached, bounded", () => {
  test(`${MAX_CERTIFICATES} same-name CAs with distinct keys: ${MAX_RELATIONSHIPS} relationships, one check per (child, key)`, async () => {
    const cas = Array.from({ length: MAX_CERTIFICATES }, (_, n) =>
      makeCertificate({ subject: "CN=Same", ca: true, key: `key-${n}` }),
    );
    const { result, verifier } = await run(cas);
    expect(result.relationships).toHaveLength(MAX_RELATIONSHIPS);
    expect(result.relationships.map((r) => [r.childIndex, r.issuerIndex])).toEqual(
      cas.flatMap((_, child) => cas.flatMap((__, issuer) => (issuer === child ? [] : [[child, issuer]]))),
    );
    const pairs = verifier.calls.map((call) => `${call.child}/${call.issuerKey}`);
    expect(new Set(pairs).size).toBe(pairs.length);
    expect(pairs).toHaveLength(MAX_SIGNATURE_CHECKS);
    expect(result.certificates.every((c) => c.selfSignature === "verified")).toBe(true);
    expect(codes(result).filter((c) => c === "CANDIDATE_SIGNATURE_FAILED")).toHaveLength(MAX_RELATIONSHIPS);
  });

  test(`${MAX_CERTIFICATES} same-name CAs sharing one key: one check per certificate`, async () => {
    const cas = Array.from({ length: MAX_CERTIFICATES }, (_, n) =>
      makeCertificate({ subject: "CN=Same", ca: true, key: "shared", serialNumber: String(n + 1) }),
    );
    const { result, verifier } = await run(cas);
    expect(result.relationships).toHaveLength(MAX_RELATIONSHIPS);
    expect(verifier.calls).toHaveLength(MAX_CERTIFICATES);
    expect(result.relationships.every((r) => r.signature === "verified")).toBe(true);
    const multiple = result.findings.filter((f) => f.code === "MULTIPLE_ISSUERS");
    expect(multiple).toHaveLength(MAX_CERTIFICATES);
    expect(multiple[0]!.evidence).toEqual({ childIndex: 0, issuerCount: MAX_CERTIFICATES - 1 });
  });

  test("16 copies of one self-signed certificate: no links, one check", async () => {
    const root = makeCertificate({ subject: "CN=Root", ca: true });
    const copies = Array.from({ length: MAX_CERTIFICATES }, () => root);
    const { result, verifier } = await run(copies);
    expect(result.relationships).toEqual([]);
    expect(verifier.calls).toHaveLength(1);
    expect(result.certificates.map((c) => c.selfSignature)).toEqual(copies.map(() => "verified"));
    expect(codes(result).filter((c) => c === "DUPLICATE_CERTIFICATE")).toHaveLength(MAX_CERTIFICATES - 1);
    expect(codes(result).filter((c) => c === "SELF_SIGNED_CERTIFICATE")).toHaveLength(MAX_CERTIFICATES);
  });

  test("duplicates keep their own relationships but are not re-verified", async () => {
    const { intermediate, leaf } = chain();
    const { result, verifier } = await run([leaf, intermediate, leaf, intermediate]);
    expect(result.relationships.map((r) => [r.childIndex, r.issuerIndex])).toEqual([
      [0, 1],
      [0, 3],
      [2, 1],
      [2, 3],
    ]);
    expect(verifier.calls).toEqual([{ child: leaf.fingerprintSha256, issuerKey: intermediate.publicKeyKey }]);
  });

  test("a self-check and a candidate check with the same key are one check", async () => {
    const root = makeCertificate({ subject: "CN=Root", ca: true });
    const reissued = makeCertificate({ subject: "CN=Root", ca: true, serialNumber: "02" });
    const { result, verifier } = await run([root, reissued]);
    expect(result.relationships.map((r) => r.signature)).toEqual(["verified", "verified"]);
    expect(verifier.calls).toHaveLength(2);
  });

  test("candidatePairs excludes the child itself and its duplicates", () => {
    const root = makeCertificate({ subject: "CN=Root", ca: true });
    const other = makeCertificate({ subject: "CN=Root", ca: true, key: "k2" });
    expect(candidatePairs([root, root, other])).toEqual([
      { childIndex: 0, issuerIndex: 2 },
      { childIndex: 1, issuerIndex: 2 },
      { childIndex: 2, issuerIndex: 0 },
      { childIndex: 2, issuerIndex: 1 },
    ]);
  });

  test(`more than ${MAX_CERTIFICATES} certificates never reach the analysis`, async () => {
    const many = Array.from({ length: MAX_CERTIFICATES + 1 }, (_, n) =>
      makeCertificate({ subject: `CN=${n}` }),
    );
    await expect(analyseRelationships(many, scriptedVerifier())).rejects.toThrow();
  });
});

describe("determinism", () => {
  function mixedBundle() {
    const { root, intermediate, leaf } = chain();
    const expired = makeCertificate({
      subject: "CN=old",
      issuer: "CN=gone",
      notAfter: "2025-02-01T00:00:00Z",
    });
    const cross = makeCertificate({
      subject: "CN=Example Intermediate,O=Example",
      issuer: "CN=Other Root",
      ca: true,
      key: "key:CN=Example Intermediate,O=Example",
    });
    return [leaf, intermediate, cross, expired, root, leaf];
  }

  test("identical input and clock give byte-identical output", async () => {
    const certificates = mixedBundle();
    const first = await run(certificates, { hostname: "www.example.com", leafIndex: 0 });
    const second = await run(certificates, { hostname: "www.example.com", leafIndex: 0 });
    expect(JSON.stringify(second.result)).toBe(JSON.stringify(first.result));
  });

  test("the verifier's timing does not change the output", async () => {
    const certificates = mixedBundle();
    const pem = bundleOf(certificates);
    const base = scriptedVerifier();
    let n = 0;
    const slow = {
      async verify(child, issuer) {
        const delay = (n++ * 7) % 5;
        await new Promise((resolve) => setTimeout(resolve, delay));
        return base.verify(child, issuer);
      },
    } satisfies SignatureVerifier;
    const outputs: string[] = [];
    for (const verifier of [scriptedVerifier(), slow]) {
      const decoder: CertificateDecoder = fakeDecoder(certificates);
      const result: CertificateBundleResult = await inspectCertificateBundle(
        { pem, hostname: "www.example.com" },
        { clock: fixedClock(NOW), decoder, verifier, roots: noKnownRoots },
      );
      outputs.push(JSON.stringify(result));
    }
    expect(outputs[1]).toBe(outputs[0]!);
  });
});
