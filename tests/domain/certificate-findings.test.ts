import { describe, expect, test } from "bun:test";
import {
  compareFindings,
  FINDING_CODES,
  type Finding,
  rfc3339,
  SEVERITY_OF,
} from "../../src/domain/certificates/findings.ts";
import { makeCertificate } from "../fakes/certificates.ts";
import { chain, codes, EVIDENCE_KEYS, findingsOf, run } from "./certificate-helpers.ts";

describe("severities and codes", () => {
  test("the seventeen codes of CONTRACT §4.3 with their severities, in the table's order", () => {
    expect(Object.entries(SEVERITY_OF)).toEqual([
      ["DUPLICATE_CERTIFICATE", "warning"],
      ["CERTIFICATE_EXPIRED", "error"],
      ["CERTIFICATE_NOT_YET_VALID", "error"],
      ["SELF_SIGNED_CERTIFICATE", "info"],
      ["SELF_SIGNATURE_FAILED", "error"],
      ["SIGNATURE_UNSUPPORTED", "warning"],
      ["SIGNATURE_CHECK_UNAVAILABLE", "warning"],
      ["ISSUER_NOT_IN_BUNDLE", "info"],
      ["CANDIDATE_SIGNATURE_FAILED", "warning"],
      ["ISSUER_NOT_CA", "error"],
      ["ISSUER_KEY_USAGE_REJECTED", "error"],
      ["ISSUER_KEY_ID_MISMATCH", "warning"],
      ["MULTIPLE_ISSUERS", "info"],
      ["LEAF_SELECTION_REQUIRED", "warning"],
      ["NO_LEAF_CERTIFICATE", "warning"],
      ["HOSTNAME_MATCH", "info"],
      ["HOSTNAME_MISMATCH", "error"],
    ]);
    expect([...FINDING_CODES]).toEqual(Object.keys(SEVERITY_OF) as (typeof FINDING_CODES)[number][]);
    expect(Object.keys(EVIDENCE_KEYS)).toEqual([...FINDING_CODES]);
  });

  test("rfc3339 formats UTC to the second, dropping fractions", () => {
    expect(rfc3339(new Date("2026-01-01T00:00:00Z"))).toBe("2026-01-01T00:00:00Z");
    expect(rfc3339(new Date("2026-03-04T05:06:07.999Z"))).toBe("2026-03-04T05:06:07Z");
    expect(rfc3339(new Date("1950-01-01T00:00:00Z"))).toBe("1950-01-01T00:00:00Z");
    expect(rfc3339(new Date("9999-12-31T23:59:59Z"))).toBe("9999-12-31T23:59:59Z");
  });
});

describe("a clean chain", () => {
  test("leaf, intermediate, root: only the root's self-signature is noted", async () => {
    const { root, intermediate, leaf } = chain();
    const { result } = await run([leaf, intermediate, root]);
    expect(result.findings).toEqual([
      {
        code: "SELF_SIGNED_CERTIFICATE",
        severity: "info",
        certificateIndexes: [2],
        observed: expect.any(String) as unknown as string,
        evidence: { ca: true },
        nextAction: expect.any(String) as unknown as string,
      },
    ]);
  });
});

describe("DUPLICATE_CERTIFICATE", () => {
  test("once per repeat, with the first position", async () => {
    const { intermediate, leaf } = chain();
    const { result } = await run([leaf, intermediate, leaf, leaf]);
    const duplicates = findingsOf(result, "DUPLICATE_CERTIFICATE");
    expect(duplicates.map((f) => [f.severity, f.certificateIndexes, f.evidence])).toEqual([
      ["warning", [0, 2], { firstIndex: 0, fingerprintSha256: leaf.fingerprintSha256 }],
      ["warning", [0, 3], { firstIndex: 0, fingerprintSha256: leaf.fingerprintSha256 }],
    ]);
  });

  test("not raised for distinct certificates with the same name", async () => {
    const a = makeCertificate({ subject: "CN=a", issuer: "CN=ca" });
    const b = makeCertificate({ subject: "CN=a", issuer: "CN=ca", variant: "b" });
    const { result } = await run([a, b]);
    expect(codes(result)).not.toContain("DUPLICATE_CERTIFICATE");
  });

  test("each repeat gets its own per-certificate findings", async () => {
    const expired = makeCertificate({
      subject: "CN=old",
      issuer: "CN=gone",
      notAfter: "2025-06-01T00:00:00Z",
    });
    const { result } = await run([expired, expired]);
    expect(findingsOf(result, "CERTIFICATE_EXPIRED").map((f) => f.certificateIndexes)).toEqual([[0], [1]]);
    expect(findingsOf(result, "ISSUER_NOT_IN_BUNDLE").map((f) => f.certificateIndexes)).toEqual([[0], [1]]);
  });
});

describe("validity at three instants", () => {
  const certificate = makeCertificate({
    subject: "CN=dated",
    issuer: "CN=elsewhere",
    notBefore: "2025-01-01T00:00:00Z",
    notAfter: "2026-01-01T00:00:00Z",
  });

  test("before notBefore: CERTIFICATE_NOT_YET_VALID", async () => {
    const { result } = await run([certificate], { now: "2024-12-31T23:59:59Z" });
    expect(findingsOf(result, "CERTIFICATE_NOT_YET_VALID")).toEqual([
      {
        code: "CERTIFICATE_NOT_YET_VALID",
        severity: "error",
        certificateIndexes: [0],
        observed:
          "Certificate 0 (CN=dated) is not valid before 2025-01-01T00:00:00Z; the evaluation time is 2024-12-31T23:59:59Z.",
        evidence: { notBefore: "2025-01-01T00:00:00Z", evaluatedAt: "2024-12-31T23:59:59Z" },
        nextAction: expect.any(String) as unknown as string,
      },
    ]);
    expect(codes(result)).not.toContain("CERTIFICATE_EXPIRED");
  });

  test.each(["2025-01-01T00:00:00Z", "2025-06-15T12:00:00Z", "2026-01-01T00:00:00Z"])(
    "inside the validity (bounds inclusive) at %s: neither",
    async (now) => {
      const { result } = await run([certificate], { now });
      expect(codes(result)).not.toContain("CERTIFICATE_NOT_YET_VALID");
      expect(codes(result)).not.toContain("CERTIFICATE_EXPIRED");
      expect(result.evaluatedAt).toBe(now);
    },
  );

  test("after notAfter: CERTIFICATE_EXPIRED", async () => {
    const { result } = await run([certificate], { now: "2026-01-01T00:00:01Z" });
    expect(findingsOf(result, "CERTIFICATE_EXPIRED")).toEqual([
      {
        code: "CERTIFICATE_EXPIRED",
        severity: "error",
        certificateIndexes: [0],
        observed:
          "Certificate 0 (CN=dated) expired at 2026-01-01T00:00:00Z; the evaluation time is 2026-01-01T00:00:01Z.",
        evidence: { notAfter: "2026-01-01T00:00:00Z", evaluatedAt: "2026-01-01T00:00:01Z" },
        nextAction: expect.any(String) as unknown as string,
      },
    ]);
    expect(codes(result)).not.toContain("CERTIFICATE_NOT_YET_VALID");
  });

  test("the evaluation instant is the clock's, cut to whole seconds", async () => {
    const { result } = await run([certificate], { now: "2026-01-01T00:00:00.900Z" });
    expect(result.evaluatedAt).toBe("2026-01-01T00:00:00Z");
    expect(codes(result)).not.toContain("CERTIFICATE_EXPIRED");
  });
});

describe("self-signatures", () => {
  test("SELF_SIGNED_CERTIFICATE for a verified self-issued leaf, with ca false", async () => {
    const selfSigned = makeCertificate({ subject: "CN=localhost", sans: ["localhost"] });
    const { result } = await run([selfSigned]);
    expect(result.certificates[0]!.selfSignature).toBe("verified");
    expect(
      findingsOf(result, "SELF_SIGNED_CERTIFICATE").map((f) => [f.certificateIndexes, f.evidence]),
    ).toEqual([[[0], { ca: false }]]);
    expect(codes(result)).not.toContain("ISSUER_NOT_IN_BUNDLE");
  });

  test("SELF_SIGNATURE_FAILED when the self-issued certificate was signed by another key", async () => {
    const forged = makeCertificate({ subject: "CN=Root", ca: true, signedBy: "key:someone-else" });
    const { result } = await run([forged]);
    expect(result.certificates[0]!.selfSignature).toBe("failed");
    expect(
      findingsOf(result, "SELF_SIGNATURE_FAILED").map((f) => [f.severity, f.certificateIndexes, f.evidence]),
    ).toEqual([["error", [0], { signatureAlgorithm: "sha256WithRSAEncryption" }]]);
    expect(codes(result)).not.toContain("SELF_SIGNED_CERTIFICATE");
    expect(codes(result)).not.toContain("ISSUER_NOT_IN_BUNDLE");
  });

  test("not self-issued: no self-check, selfSignature null", async () => {
    const { intermediate, leaf } = chain();
    const { result, verifier } = await run([leaf, intermediate]);
    expect(result.certificates.map((c) => c.selfSignature)).toEqual([null, null]);
    expect(verifier.calls).toHaveLength(1);
    expect(codes(result)).not.toContain("SELF_SIGNED_CERTIFICATE");
    expect(codes(result)).not.toContain("SELF_SIGNATURE_FAILED");
  });
});

describe("SIGNATURE_UNSUPPORTED and SIGNATURE_CHECK_UNAVAILABLE", () => {
  test("a self-check that is unsupported: certificateIndexes [i]", async () => {
    const root = makeCertificate({
      subject: "CN=Old Root",
      ca: true,
      signatureAlgorithm: "md5WithRSAEncryption",
    });
    const { result } = await run([root], {
      script: (child) =>
        child.signatureAlgorithm.startsWith("md5") ? { outcome: "unsupported" } : undefined,
    });
    expect(result.certificates[0]!.selfSignature).toBe("unsupported");
    expect(
      findingsOf(result, "SIGNATURE_UNSUPPORTED").map((f) => [f.severity, f.certificateIndexes, f.evidence]),
    ).toEqual([["warning", [0], { signatureAlgorithm: "md5WithRSAEncryption" }]]);
    expect(codes(result)).not.toContain("SELF_SIGNED_CERTIFICATE");
  });

  test("a candidate check that is unsupported: [child, issuer], the child's algorithm", async () => {
    const { root, intermediate } = chain();
    const leaf = makeCertificate({
      subject: "CN=dsa.example",
      issuer: "CN=Example Intermediate,O=Example",
      signatureAlgorithm: "dsa_with_SHA256",
    });
    const { result } = await run([leaf, intermediate, root], {
      script: (child) =>
        child.signatureAlgorithm.startsWith("dsa") ? { outcome: "unsupported" } : undefined,
    });
    expect(result.relationships[0]!.signature).toBe("unsupported");
    expect(
      findingsOf(result, "SIGNATURE_UNSUPPORTED").map((f) => [f.certificateIndexes, f.evidence]),
    ).toEqual([[[0, 1], { signatureAlgorithm: "dsa_with_SHA256" }]]);
    // An unsupported check is not `failed`: the issuer still counts as present.
    expect(codes(result)).not.toContain("ISSUER_NOT_IN_BUNDLE");
  });

  test("unavailable checks carry the verifier's reason, self [i] and candidate [child, issuer]", async () => {
    const root = makeCertificate({ subject: "CN=Broken Key Root", ca: true, key: "broken" });
    const leaf = makeCertificate({
      subject: "CN=leaf",
      issuer: "CN=Broken Key Root",
      signatureAlgorithm: "ecdsa-with-SHA256",
    });
    const { result } = await run([leaf, root], {
      script: (_, issuer) =>
        issuer.subject === "CN=Broken Key Root"
          ? { outcome: "unavailable", reason: "unusable issuer key" }
          : undefined,
    });
    expect(result.certificates[1]!.selfSignature).toBe("unavailable");
    expect(result.relationships.map((r) => r.signature)).toEqual(["unavailable"]);
    expect(
      findingsOf(result, "SIGNATURE_CHECK_UNAVAILABLE").map((f) => [f.certificateIndexes, f.evidence]),
    ).toEqual([
      [[0, 1], { signatureAlgorithm: "ecdsa-with-SHA256", reason: "unusable issuer key" }],
      [[1], { signatureAlgorithm: "sha256WithRSAEncryption", reason: "unusable issuer key" }],
    ]);
  });

  test("an unavailable check without a reason has reason null", async () => {
    const root = makeCertificate({ subject: "CN=R", ca: true });
    const { result } = await run([root], { script: () => ({ outcome: "unavailable" }) });
    expect(findingsOf(result, "SIGNATURE_CHECK_UNAVAILABLE")[0]!.evidence).toEqual({
      signatureAlgorithm: "sha256WithRSAEncryption",
      reason: null,
    });
  });

  test("a verifier that throws counts as unavailable", async () => {
    const root = makeCertificate({ subject: "CN=R", ca: true });
    const { result } = await run([root], {
      script: () => {
        throw new Error("boom");
      },
    });
    expect(result.certificates[0]!.selfSignature).toBe("unavailable");
    expect(findingsOf(result, "SIGNATURE_CHECK_UNAVAILABLE")).toHaveLength(1);
    expect(JSON.stringify(result)).not.toContain("boom");
  });

  test("not raised when every check is verified or failed", async () => {
    const { root, intermediate, leaf } = chain();
    const stranger = makeCertificate({
      subject: "CN=Example Root,O=Example",
      ca: true,
      key: "other",
      variant: "x",
    });
    const { result } = await run([leaf, intermediate, root, stranger]);
    expect(codes(result)).not.toContain("SIGNATURE_UNSUPPORTED");
    expect(codes(result)).not.toContain("SIGNATURE_CHECK_UNAVAILABLE");
  });
});

describe("ISSUER_NOT_IN_BUNDLE", () => {
  test("raised with the issuer name when no certificate carries it", async () => {
    const { intermediate, leaf } = chain();
    const { result } = await run([leaf, intermediate]);
    expect(findingsOf(result, "ISSUER_NOT_IN_BUNDLE")).toEqual([
      {
        code: "ISSUER_NOT_IN_BUNDLE",
        severity: "info",
        certificateIndexes: [1],
        observed:
          "Certificate 1 (CN=Example Intermediate) was issued by CN=Example Root, no certificate in the bundle carries that name, and it is not a known root: an intermediate CA certificate is most likely missing.",
        evidence: { issuer: "CN=Example Root,O=Example", issuerIsKnownRoot: false, caIssuersUrl: null },
        nextAction:
          "Add the certificate of CN=Example Root to the bundle right after certificate 1 (CN=Example Intermediate); its CA publishes it, usually at the address in the Authority Information Access extension (if CN=Example Root is a private root that every client already trusts, nothing needs adding).",
      },
    ]);
  });

  test("raised when every candidate's signature failed", async () => {
    const leaf = makeCertificate({ subject: "CN=leaf", issuer: "CN=CA" });
    const impostor = makeCertificate({ subject: "CN=CA", ca: true, key: "impostor" });
    const { result } = await run([leaf, impostor]);
    expect(result.relationships.map((r) => [r.childIndex, r.issuerIndex, r.signature])).toEqual([
      [0, 1, "failed"],
    ]);
    expect(findingsOf(result, "ISSUER_NOT_IN_BUNDLE").map((f) => f.certificateIndexes)).toEqual([[0]]);
  });

  test("not raised when one candidate did not fail", async () => {
    const leaf = makeCertificate({ subject: "CN=leaf", issuer: "CN=CA" });
    const impostor = makeCertificate({ subject: "CN=CA", issuer: "CN=Other", ca: true, key: "impostor" });
    const real = makeCertificate({ subject: "CN=CA", issuer: "CN=Other", ca: true, variant: "real" });
    const { result } = await run([leaf, impostor, real]);
    expect(findingsOf(result, "ISSUER_NOT_IN_BUNDLE").map((f) => f.certificateIndexes)).toEqual([[1], [2]]);
  });

  test("not raised for a self-issued certificate, even when its self-signature failed", async () => {
    const root = makeCertificate({ subject: "CN=R", ca: true, signedBy: "nobody" });
    const { result } = await run([root]);
    expect(codes(result)).not.toContain("ISSUER_NOT_IN_BUNDLE");
  });
});

describe("candidate-issuer findings", () => {
  test("CANDIDATE_SIGNATURE_FAILED for a same-name CA with another key; nothing else about that pair", async () => {
    const leaf = makeCertificate({ subject: "CN=leaf", issuer: "CN=CA", authorityKeyIdentifier: "01" });
    const real = makeCertificate({
      subject: "CN=CA",
      issuer: "CN=Root",
      ca: true,
      subjectKeyIdentifier: "01",
    });
    const wrong = makeCertificate({
      subject: "CN=CA",
      issuer: "CN=Root",
      key: "wrong",
      ca: false,
      keyCertSign: false,
      subjectKeyIdentifier: "02",
    });
    const { result } = await run([leaf, real, wrong]);
    expect(findingsOf(result, "CANDIDATE_SIGNATURE_FAILED")).toEqual([
      {
        code: "CANDIDATE_SIGNATURE_FAILED",
        severity: "warning",
        certificateIndexes: [0, 2],
        observed: expect.any(String) as unknown as string,
        evidence: { childIndex: 0, issuerIndex: 2 },
        nextAction: expect.any(String) as unknown as string,
      },
    ]);
    // The failed pair raises none of the eligibility findings.
    expect(codes(result)).not.toContain("ISSUER_NOT_CA");
    expect(codes(result)).not.toContain("ISSUER_KEY_USAGE_REJECTED");
    expect(codes(result)).not.toContain("ISSUER_KEY_ID_MISMATCH");
  });

  test.each([
    [false, "it has no basicConstraints extension"],
    [true, "its basicConstraints has cA false"],
  ])("ISSUER_NOT_CA (basicConstraintsPresent %p)", async (present, phrase) => {
    const issuer = makeCertificate({
      subject: "CN=NotCA",
      issuer: "CN=Root",
      basicConstraintsPresent: present,
    });
    const leaf = makeCertificate({ subject: "CN=leaf", issuer: "CN=NotCA" });
    const { result } = await run([leaf, issuer]);
    expect(result.relationships).toEqual([
      {
        childIndex: 0,
        issuerIndex: 1,
        signature: "verified",
        issuerEligible: false,
        keyIdentifierMatch: null,
      },
    ]);
    const [notCa] = findingsOf(result, "ISSUER_NOT_CA");
    expect(notCa!.severity).toBe("error");
    expect(notCa!.certificateIndexes).toEqual([0, 1]);
    expect(notCa!.evidence).toEqual({ childIndex: 0, issuerIndex: 1, basicConstraintsPresent: present });
    expect(notCa!.observed).toContain(phrase);
  });

  test("ISSUER_NOT_CA is raised for unsupported and unavailable checks too, not for failed ones", async () => {
    const issuer = makeCertificate({ subject: "CN=NotCA", issuer: "CN=Root" });
    const leaf = makeCertificate({ subject: "CN=leaf", issuer: "CN=NotCA" });
    for (const outcome of ["unsupported", "unavailable"] as const) {
      const { result } = await run([leaf, issuer], { script: () => ({ outcome }) });
      expect(codes(result)).toContain("ISSUER_NOT_CA");
    }
    const { result } = await run([leaf, issuer], { script: () => ({ outcome: "failed" }) });
    expect(codes(result)).not.toContain("ISSUER_NOT_CA");
  });

  test("ISSUER_KEY_USAGE_REJECTED when keyUsage lacks keyCertSign; eligible when keyUsage is absent", async () => {
    const noCertSign = makeCertificate({
      subject: "CN=CA1",
      issuer: "CN=Root",
      ca: true,
      keyCertSign: false,
    });
    const noKeyUsage = makeCertificate({ subject: "CN=CA2", issuer: "CN=Root", ca: true, keyCertSign: null });
    const leaf1 = makeCertificate({ subject: "CN=leaf1", issuer: "CN=CA1" });
    const leaf2 = makeCertificate({ subject: "CN=leaf2", issuer: "CN=CA2" });
    const { result } = await run([leaf1, noCertSign, leaf2, noKeyUsage]);
    expect(result.relationships.map((r) => [r.childIndex, r.issuerIndex, r.issuerEligible])).toEqual([
      [0, 1, false],
      [2, 3, true],
    ]);
    expect(
      findingsOf(result, "ISSUER_KEY_USAGE_REJECTED").map((f) => [
        f.severity,
        f.certificateIndexes,
        f.evidence,
      ]),
    ).toEqual([["error", [0, 1], { childIndex: 0, issuerIndex: 1 }]]);
    expect(codes(result)).not.toContain("ISSUER_NOT_CA");
  });

  test("a non-CA issuer with keyUsage but no keyCertSign raises both", async () => {
    const issuer = makeCertificate({ subject: "CN=X", issuer: "CN=Root", keyCertSign: false });
    const leaf = makeCertificate({ subject: "CN=leaf", issuer: "CN=X" });
    const { result } = await run([leaf, issuer]);
    expect(codes(result).filter((c) => c.startsWith("ISSUER_"))).toEqual([
      "ISSUER_NOT_CA",
      "ISSUER_KEY_USAGE_REJECTED",
      "ISSUER_NOT_IN_BUNDLE",
    ]);
  });

  test("ISSUER_KEY_ID_MISMATCH when AKI and SKI differ; keyIdentifierMatch null when either is absent", async () => {
    const ca = makeCertificate({
      subject: "CN=CA",
      issuer: "CN=Root",
      ca: true,
      subjectKeyIdentifier: "AB:CD",
    });
    const mismatched = makeCertificate({ subject: "CN=a", issuer: "CN=CA", authorityKeyIdentifier: "12:34" });
    const matched = makeCertificate({ subject: "CN=b", issuer: "CN=CA", authorityKeyIdentifier: "ab:cd" });
    const absent = makeCertificate({ subject: "CN=c", issuer: "CN=CA" });
    const { result } = await run([mismatched, matched, absent, ca]);
    expect(result.relationships.map((r) => [r.childIndex, r.keyIdentifierMatch])).toEqual([
      [0, false],
      [1, true],
      [2, null],
    ]);
    expect(findingsOf(result, "ISSUER_KEY_ID_MISMATCH")).toEqual([
      {
        code: "ISSUER_KEY_ID_MISMATCH",
        severity: "warning",
        certificateIndexes: [0, 3],
        observed: expect.any(String) as unknown as string,
        evidence: {
          childIndex: 0,
          issuerIndex: 3,
          authorityKeyIdentifier: "12:34",
          subjectKeyIdentifier: "AB:CD",
        },
        nextAction: expect.any(String) as unknown as string,
      },
    ]);
  });

  test("keyIdentifierMatch null when the issuer has no SKI", async () => {
    const ca = makeCertificate({ subject: "CN=CA", issuer: "CN=Root", ca: true });
    const leaf = makeCertificate({ subject: "CN=a", issuer: "CN=CA", authorityKeyIdentifier: "12:34" });
    const { result } = await run([leaf, ca]);
    expect(result.relationships[0]!.keyIdentifierMatch).toBeNull();
    expect(codes(result)).not.toContain("ISSUER_KEY_ID_MISMATCH");
  });
});

describe("MULTIPLE_ISSUERS", () => {
  const leaf = makeCertificate({ subject: "CN=leaf", issuer: "CN=CA" });
  // Cross-signed: same subject and key, different issuers, so different fingerprints.
  const caByRootA = makeCertificate({ subject: "CN=CA", issuer: "CN=Root A", ca: true });
  const caByRootB = makeCertificate({ subject: "CN=CA", issuer: "CN=Root B", ca: true });

  test("two verified issuers with distinct fingerprints: the child, then every verified candidate", async () => {
    const { result } = await run([leaf, caByRootA, caByRootB, caByRootA]);
    expect(findingsOf(result, "MULTIPLE_ISSUERS")).toEqual([
      {
        code: "MULTIPLE_ISSUERS",
        severity: "info",
        certificateIndexes: [0, 1, 2, 3],
        observed: expect.any(String) as unknown as string,
        evidence: { childIndex: 0, issuerCount: 2 },
        nextAction: expect.any(String) as unknown as string,
      },
    ]);
  });

  test("repeats of one issuer are one issuer", async () => {
    const { result } = await run([leaf, caByRootA, caByRootA]);
    expect(codes(result)).not.toContain("MULTIPLE_ISSUERS");
  });

  test("candidates whose signature failed or was not verified do not count", async () => {
    const impostor = makeCertificate({ subject: "CN=CA", issuer: "CN=Root C", ca: true, key: "impostor" });
    const { result } = await run([leaf, caByRootA, impostor]);
    expect(codes(result)).not.toContain("MULTIPLE_ISSUERS");
    const otherKey = makeCertificate({ subject: "CN=CA", issuer: "CN=Root B", ca: true, key: "other" });
    const unsupported = await run([leaf, caByRootA, otherKey], {
      script: (_, issuer) =>
        issuer.publicKeyKey === otherKey.publicKeyKey ? { outcome: "unsupported" } : undefined,
    });
    expect(unsupported.result.relationships.map((r) => r.signature)).toEqual(["verified", "unsupported"]);
    expect(codes(unsupported.result)).not.toContain("MULTIPLE_ISSUERS");
  });

  test("issuers sharing a key share one check, so they share its outcome", async () => {
    const { result, verifier } = await run([leaf, caByRootA, caByRootB], {
      script: (_, issuer) => (issuer.issuer === "CN=Root B" ? { outcome: "unsupported" } : undefined),
    });
    expect(verifier.calls).toEqual([{ child: leaf.fingerprintSha256, issuerKey: caByRootA.publicKeyKey }]);
    expect(result.relationships.map((r) => r.signature)).toEqual(["verified", "verified"]);
  });
});

describe("leaves and hostname", () => {
  test("LEAF_SELECTION_REQUIRED: hostname, several possible leaves, no leafIndex", async () => {
    const a = makeCertificate({ subject: "CN=a", issuer: "CN=CA", sans: ["a.example"] });
    const b = makeCertificate({ subject: "CN=b", issuer: "CN=CA", sans: ["b.example"] });
    const ca = makeCertificate({ subject: "CN=CA", issuer: "CN=Root", ca: true });
    const { result } = await run([ca, a, b, a], { hostname: "a.example" });
    expect(result.hostname).toEqual({ expected: "a.example", status: "ambiguous" });
    expect(findingsOf(result, "LEAF_SELECTION_REQUIRED")).toEqual([
      {
        code: "LEAF_SELECTION_REQUIRED",
        severity: "warning",
        certificateIndexes: [1, 2],
        observed: expect.any(String) as unknown as string,
        evidence: { leafCount: 2 },
        nextAction: expect.any(String) as unknown as string,
      },
    ]);
    const withLeaf = await run([ca, a, b, a], { hostname: "a.example", leafIndex: 3 });
    expect(codes(withLeaf.result)).not.toContain("LEAF_SELECTION_REQUIRED");
    expect(withLeaf.result.hostname).toEqual({ expected: "a.example", status: "matched" });
    const noHostname = await run([ca, a, b]);
    expect(codes(noHostname.result)).not.toContain("LEAF_SELECTION_REQUIRED");
    expect(noHostname.result.hostname).toBeNull();
  });

  test("NO_LEAF_CERTIFICATE with and without a hostname", async () => {
    const root = makeCertificate({ subject: "CN=Root", ca: true });
    const ca = makeCertificate({ subject: "CN=CA", issuer: "CN=Root", ca: true });
    for (const hostname of [undefined, "www.example.com"]) {
      const { result } = await run([ca, root], { hostname });
      expect(findingsOf(result, "NO_LEAF_CERTIFICATE")).toEqual([
        {
          code: "NO_LEAF_CERTIFICATE",
          severity: "warning",
          certificateIndexes: [],
          observed: "All 2 certificates are CA certificates, so none could serve as a leaf.",
          evidence: { certificateCount: 2 },
          nextAction: expect.any(String) as unknown as string,
        },
      ]);
      expect(result.hostname).toEqual(hostname ? { expected: hostname, status: "no-leaf" } : null);
    }
  });

  test("HOSTNAME_MATCH with the SAN as written", async () => {
    const { root, intermediate, leaf } = chain();
    const { result } = await run([leaf, intermediate, root], { hostname: " V1.API.Example.COM. " });
    expect(result.hostname).toEqual({ expected: "v1.api.example.com", status: "matched" });
    expect(findingsOf(result, "HOSTNAME_MATCH")).toEqual([
      {
        code: "HOSTNAME_MATCH",
        severity: "info",
        certificateIndexes: [0],
        observed: expect.any(String) as unknown as string,
        evidence: { hostname: "v1.api.example.com", matchedName: "*.api.example.com" },
        nextAction: expect.any(String) as unknown as string,
      },
    ]);
    expect(codes(result)).not.toContain("HOSTNAME_MISMATCH");
  });

  test("HOSTNAME_MISMATCH counts the dns SANs; no Common Name fallback", async () => {
    const { root, intermediate, leaf } = chain();
    const { result } = await run([leaf, intermediate, root], { hostname: "192-0-2-1.example.com" });
    expect(result.hostname).toEqual({ expected: "192-0-2-1.example.com", status: "mismatched" });
    expect(
      findingsOf(result, "HOSTNAME_MISMATCH").map((f) => [f.severity, f.certificateIndexes, f.evidence]),
    ).toEqual([["error", [0], { hostname: "192-0-2-1.example.com", dnsNameCount: 2 }]]);
    const cnOnly = makeCertificate({ subject: "CN=www.example.com", issuer: "CN=CA" });
    const cn = await run([cnOnly], { hostname: "www.example.com" });
    expect(cn.result.hostname!.status).toBe("mismatched");
    expect(findingsOf(cn.result, "HOSTNAME_MISMATCH")[0]!.evidence).toEqual({
      hostname: "www.example.com",
      dnsNameCount: 0,
    });
    expect(codes(cn.result)).not.toContain("HOSTNAME_MATCH");
  });

  test("blank hostname: no hostname findings", async () => {
    const { root, intermediate, leaf } = chain();
    const { result } = await run([leaf, intermediate, root], { hostname: "   " });
    expect(result.hostname).toBeNull();
    expect(codes(result).filter((c) => c.startsWith("HOSTNAME") || c.startsWith("LEAF"))).toEqual([]);
  });
});

describe("ordering", () => {
  const make = (code: Finding["code"], certificateIndexes: number[]): Finding => ({
    code,
    severity: SEVERITY_OF[code],
    certificateIndexes,
    observed: "x.",
    evidence: {},
    nextAction: "y.",
  });

  test("severity, then first index (none first), then code in table order, then remaining indexes", () => {
    const shuffled = [
      make("HOSTNAME_MATCH", [0]),
      make("ISSUER_NOT_CA", [3, 1]),
      make("CANDIDATE_SIGNATURE_FAILED", [0, 2]),
      make("NO_LEAF_CERTIFICATE", []),
      make("ISSUER_NOT_CA", [0, 4]),
      make("CERTIFICATE_EXPIRED", [3]),
      make("DUPLICATE_CERTIFICATE", [0, 5]),
      make("CANDIDATE_SIGNATURE_FAILED", [0, 1]),
      make("ISSUER_NOT_CA", [0, 2]),
      make("SELF_SIGNED_CERTIFICATE", [1]),
      make("ISSUER_NOT_IN_BUNDLE", [0]),
      make("MULTIPLE_ISSUERS", [0, 1, 2]),
      make("MULTIPLE_ISSUERS", [0, 1]),
    ];
    expect(
      shuffled.sort(compareFindings).map((f) => `${f.code}${JSON.stringify(f.certificateIndexes)}`),
    ).toEqual([
      "ISSUER_NOT_CA[0,2]",
      "ISSUER_NOT_CA[0,4]",
      "CERTIFICATE_EXPIRED[3]",
      "ISSUER_NOT_CA[3,1]",
      "NO_LEAF_CERTIFICATE[]",
      "DUPLICATE_CERTIFICATE[0,5]",
      "CANDIDATE_SIGNATURE_FAILED[0,1]",
      "CANDIDATE_SIGNATURE_FAILED[0,2]",
      "ISSUER_NOT_IN_BUNDLE[0]",
      "MULTIPLE_ISSUERS[0,1]",
      "MULTIPLE_ISSUERS[0,1,2]",
      "HOSTNAME_MATCH[0]",
      "SELF_SIGNED_CERTIFICATE[1]",
    ]);
  });

  test("a bundle with many findings comes back in that order", async () => {
    const leaf = makeCertificate({
      subject: "CN=leaf",
      issuer: "CN=CA",
      sans: ["leaf.example"],
      notAfter: "2025-06-01T00:00:00Z",
      authorityKeyIdentifier: "99",
    });
    const notCa = makeCertificate({ subject: "CN=CA", issuer: "CN=Root", subjectKeyIdentifier: "01" });
    const impostor = makeCertificate({
      subject: "CN=CA",
      issuer: "CN=Root",
      ca: true,
      key: "impostor",
      variant: "i",
    });
    const root = makeCertificate({
      subject: "CN=Root",
      ca: true,
      notBefore: "2027-01-01T00:00:00Z",
      notAfter: "2030-01-01T00:00:00Z",
    });
    const { result } = await run([leaf, notCa, impostor, root, leaf], {
      hostname: "other.example",
      leafIndex: 4,
    });
    expect(
      result.findings.map((f) => `${f.severity} ${f.code}${JSON.stringify(f.certificateIndexes)}`),
    ).toEqual([
      "error CERTIFICATE_EXPIRED[0]",
      "error ISSUER_NOT_CA[0,1]",
      "error CERTIFICATE_NOT_YET_VALID[3]",
      "error CERTIFICATE_EXPIRED[4]",
      "error ISSUER_NOT_CA[4,1]",
      "error HOSTNAME_MISMATCH[4]",
      "warning DUPLICATE_CERTIFICATE[0,4]",
      "warning CANDIDATE_SIGNATURE_FAILED[0,2]",
      "warning ISSUER_KEY_ID_MISMATCH[0,1]",
      "warning CANDIDATE_SIGNATURE_FAILED[4,2]",
      "warning ISSUER_KEY_ID_MISMATCH[4,1]",
      "info SELF_SIGNED_CERTIFICATE[3]",
    ]);
  });
});
