/**
 * The certification-request use case (CONTRACT §8.2) with fakes: the request's PEM by §4.1's rules
 * with request labels, `certificatePem` by the bundle's rules at its own path, each rule of the
 * CSR table raised exactly where it applies (a fast-check property against a slow obvious model),
 * the order of problems, and the key match.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import {
  CLIENTS,
  CSR_PROBLEM_CODES,
  type CsrResult,
  csrProblems,
  inspectCertificationRequest,
  NOT_A_REQUEST_MESSAGE,
} from "../../src/domain/certificates/csr.ts";
import type { CertificateData } from "../../src/domain/certificates/model.ts";
import { PRIVATE_KEY_MESSAGE } from "../../src/domain/certificates/pem.ts";
import type { CertificationRequestData } from "../../src/domain/certificates/request-model.ts";
import { DomainError, type Issue } from "../../src/domain/errors.ts";
import { MAX_CERTIFICATES } from "../../src/domain/limits.ts";
import type { SignatureOutcome } from "../../src/domain/ports.ts";
import {
  bundleOf,
  fakeDecoder,
  makeCertificate,
  makeRequest,
  type RequestSpec,
} from "../fakes/certificates.ts";
import { scriptedVerifier } from "../fakes/verifier.ts";

/** PEM text of a fake request, under `label`. */
function requestPem(request: CertificationRequestData, label = "CERTIFICATE REQUEST", eol = "\n"): string {
  const lines =
    Buffer.from(request.der)
      .toString("base64")
      .match(/.{1,64}/g) ?? [];
  return [`-----BEGIN ${label}-----`, ...lines, `-----END ${label}-----`].join(eol) + eol;
}

interface Setup {
  requests?: CertificationRequestData[];
  certificates?: CertificateData[];
  /** Answer every check with this outcome instead of the fake's own verdict. */
  outcome?: SignatureOutcome;
}

async function inspect(
  body: { pem: string; certificatePem?: string },
  setup: Setup = {},
): Promise<CsrResult> {
  const outcome = setup.outcome;
  return inspectCertificationRequest(body, {
    decoder: fakeDecoder(setup.certificates ?? [], setup.requests ?? []),
    verifier: scriptedVerifier(() => (outcome === undefined ? undefined : { outcome })),
  });
}

async function issuesOf(body: { pem: string; certificatePem?: string }, setup: Setup = {}): Promise<Issue[]> {
  try {
    await inspect(body, setup);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    expect(error.code).toBe("INVALID_INPUT");
    return error.issues;
  }
  throw new Error("expected INVALID_INPUT");
}

const REQUEST = makeRequest({ subject: "CN=www.example.com,O=Example", sans: ["www.example.com"] });
const PEM = requestPem(REQUEST);

describe("the request's fields", () => {
  test("a good request: its fields, no problems, no match asked for", async () => {
    const request = makeRequest({
      subject: "CN=www.example.com,O=Example",
      sans: [
        "www.example.com",
        { type: "email", value: "admin@example.com" },
        { type: "ip", value: "192.0.2.10" },
        "example.com",
        { type: "uri", value: "https://example.com/" },
        { type: "ip", value: "2001:db8::1" },
      ],
    });
    const result = await inspect({ pem: requestPem(request) }, { requests: [request] });
    expect(result).toEqual({
      subject: "CN=www.example.com,O=Example",
      commonName: "www.example.com",
      subjectAltNames: { dns: ["www.example.com", "example.com"], ip: ["192.0.2.10", "2001:db8::1"] },
      keyType: "EC",
      keyBits: 256,
      keyCurve: "P-256",
      publicKeySha256: request.publicKeySha256,
      signatureAlgorithm: "ecdsa-with-SHA256",
      signatureValid: "verified",
      problems: [],
      matchesCertificate: null,
      matchingCertificateIndexes: null,
    });
    // The result's keys are in the contract's order.
    expect(Object.keys(result)).toEqual([
      "subject",
      "commonName",
      "subjectAltNames",
      "keyType",
      "keyBits",
      "keyCurve",
      "publicKeySha256",
      "signatureAlgorithm",
      "signatureValid",
      "problems",
      "matchesCertificate",
      "matchingCertificateIndexes",
    ]);
  });

  test("the self-signature is checked once, with the request's own key", async () => {
    const verifier = scriptedVerifier();
    const signedByOther = makeRequest({ signedBy: "key:someone else" });
    for (const [request, expected] of [
      [REQUEST, "verified"],
      [signedByOther, "failed"],
    ] as const) {
      const result = await inspectCertificationRequest(
        { pem: requestPem(request) },
        { decoder: fakeDecoder([], [request]), verifier },
      );
      expect(result.signatureValid).toBe(expected);
    }
    expect(verifier.calls.map((call) => call.issuerKey)).toEqual([
      REQUEST.publicKeyKey,
      signedByOther.publicKeyKey,
    ]);
  });

  test.each(["verified", "failed", "unsupported", "unavailable"] as const)(
    "signatureValid is the verifier's outcome: %s",
    async (outcome) => {
      const result = await inspect({ pem: PEM }, { requests: [REQUEST], outcome });
      expect(result.signatureValid).toBe(outcome);
      expect(result.problems.map((problem) => problem.code)).toEqual(
        outcome === "failed" ? ["CSR_SIGNATURE_INVALID"] : [],
      );
    },
  );

  test("NEW CERTIFICATE REQUEST, CRLF line ends and whitespace around the block are read the same", async () => {
    const plain = await inspect({ pem: PEM }, { requests: [REQUEST] });
    for (const pem of [
      requestPem(REQUEST, "NEW CERTIFICATE REQUEST"),
      requestPem(REQUEST, undefined, "\r\n"),
      `\n  ${PEM}\n\n`,
    ]) {
      expect(await inspect({ pem }, { requests: [REQUEST] })).toEqual(plain);
    }
  });
});

describe("the request's PEM: §4.1's rules with request labels", () => {
  test("no block at all", async () => {
    expect(await issuesOf({ pem: "  \n" })).toEqual([
      { message: "pem contains no CERTIFICATE REQUEST block", path: ["pem"] },
    ]);
  });

  test("a second request block is located at that block, however well-formed", async () => {
    const second = makeRequest({ subject: "CN=second" });
    const pem = PEM + requestPem(second);
    expect(await issuesOf({ pem }, { requests: [REQUEST, second] })).toEqual([
      {
        message: "pem takes exactly one certificate request; this is a second CERTIFICATE REQUEST block",
        path: ["pem"],
        location: { line: PEM.split("\n").length, offset: PEM.length, end: pem.length - 1 },
      },
    ]);
  });

  test("a CERTIFICATE block is named, with the field to give it in", async () => {
    const certificate = makeCertificate({ subject: "CN=www.example.com" });
    const pem = bundleOf([certificate]);
    const issues = await issuesOf({ pem }, { certificates: [certificate] });
    expect(issues).toEqual([
      {
        message:
          'PEM blocks labelled "CERTIFICATE" are not accepted; only CERTIFICATE REQUEST blocks are: a certificate is not a request, so give it as certificatePem to check that it holds the request\'s key',
        path: ["pem"],
        location: { line: 1, offset: 0, end: pem.length - 1 },
      },
    ]);
  });

  test("a private key beside the request: refused at its whole block, never echoed", async () => {
    const key =
      "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIKeySecretBytesAreNeverEchoedBackToAnyone\n-----END EC PRIVATE KEY-----\n";
    const pem = PEM + key;
    const issues = await issuesOf({ pem }, { requests: [REQUEST] });
    expect(issues).toEqual([
      {
        message: PRIVATE_KEY_MESSAGE,
        path: ["pem"],
        location: { line: PEM.split("\n").length, offset: PEM.length, end: pem.length - 1 },
      },
    ]);
    expect(JSON.stringify(issues)).not.toContain("KeySecret");
  });

  test("a lower-case label is named with the case hint; a malformed label is not quoted", async () => {
    const lower = PEM.replaceAll("CERTIFICATE REQUEST", "certificate request");
    expect((await issuesOf({ pem: lower }))[0]?.message).toBe(
      'PEM blocks labelled "certificate request" are not accepted; only CERTIFICATE REQUEST blocks are: labels are case-sensitive, so write CERTIFICATE REQUEST in capitals on both the BEGIN and END lines',
    );
    const weird = PEM.replaceAll("CERTIFICATE REQUEST", "X--Y");
    expect((await issuesOf({ pem: weird }))[0]?.message).toBe(
      "this PEM block's label is not accepted; only CERTIFICATE REQUEST blocks are",
    );
  });

  test("block problems name the block's own label", async () => {
    const noEnd = PEM.replace(/-----END[^\n]*\n/, "");
    expect((await issuesOf({ pem: noEnd }))[0]?.message).toBe(
      "this CERTIFICATE REQUEST block has no END line",
    );
    const badBase64 =
      "-----BEGIN NEW CERTIFICATE REQUEST-----\nab!c\n-----END NEW CERTIFICATE REQUEST-----\n";
    expect((await issuesOf({ pem: badBase64 }))[0]?.message).toBe(
      "this NEW CERTIFICATE REQUEST block does not contain valid base64",
    );
    const mismatched = PEM.replace("-----END CERTIFICATE REQUEST-----", "-----END CERTIFICATE-----");
    expect((await issuesOf({ pem: mismatched }))[0]?.message).toBe(
      "the END line of this block does not match its BEGIN line (expected label CERTIFICATE REQUEST)",
    );
  });

  test("text outside the block: openssl req -text output and base64 without BEGIN are named", async () => {
    const text = "Certificate Request:\n    Data:\n        Version: 1 (0x0)\n";
    expect((await issuesOf({ pem: text + PEM }, { requests: [REQUEST] }))[0]?.message).toContain(
      "openssl req -text output",
    );
    const headless = PEM.split("\n").slice(1).join("\n");
    expect((await issuesOf({ pem: headless }))[0]?.message).toBe(
      "base64 lines stand outside any block: the BEGIN CERTIFICATE REQUEST line before them is missing",
    );
  });

  test("DER the decoder refuses is an issue at the block, the decoder's reason not echoed", async () => {
    const unknown = makeRequest({ subject: "CN=unknown to the decoder" });
    expect(await issuesOf({ pem: requestPem(unknown) })).toEqual([
      {
        message: NOT_A_REQUEST_MESSAGE,
        path: ["pem"],
        location: { line: 1, offset: 0, end: requestPem(unknown).length - 1 },
      },
    ]);
  });

  test("over 49152 characters: one issue, nothing scanned", async () => {
    expect(await issuesOf({ pem: PEM + " ".repeat(49_152) })).toEqual([
      { message: "pem is longer than 49152 characters", path: ["pem"] },
    ]);
  });
});

describe("certificatePem: the bundle's rules at its own path", () => {
  const own = makeCertificate({ subject: "CN=www.example.com", key: "key:CN=www.example.com,O=Example" });
  const other = makeCertificate({ subject: "CN=other.example.com" });
  const ca = makeCertificate({ subject: "CN=Example CA", ca: true });
  const setup = { requests: [REQUEST], certificates: [own, other, ca] };

  test("matchingCertificateIndexes: every position holding the request's key, repeats included", async () => {
    const result = await inspect({ pem: PEM, certificatePem: bundleOf([other, own, ca, own]) }, setup);
    expect(result.matchesCertificate).toBe(true);
    expect(result.matchingCertificateIndexes).toEqual([1, 3]);
    const none = await inspect({ pem: PEM, certificatePem: bundleOf([other, ca]) }, setup);
    expect(none.matchesCertificate).toBe(false);
    expect(none.matchingCertificateIndexes).toEqual([]);
  });

  test("empty or blank certificatePem has no certificate: an issue, not null", async () => {
    for (const certificatePem of ["", "\n  \n"]) {
      expect(await issuesOf({ pem: PEM, certificatePem }, setup)).toEqual([
        { message: "certificatePem contains no CERTIFICATE block", path: ["certificatePem"] },
      ]);
    }
  });

  test("issues of both fields together, pem first; certificatePem issues located in its own text", async () => {
    const certificatePem = `${bundleOf([own])}-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----\n`;
    const issues = await issuesOf({ pem: "", certificatePem }, setup);
    expect(issues.map((issue) => issue.path)).toEqual([["pem"], ["certificatePem"]]);
    expect(issues[1]?.location?.offset).toBe(bundleOf([own]).length);
    expect(issues[1]?.message).toContain(
      '"CERTIFICATE REQUEST" are not accepted; only CERTIFICATE blocks are',
    );
  });

  test("a 17th block, a certificate the decoder refuses, a key: each located, path certificatePem", async () => {
    const seventeen = bundleOf(Array.from({ length: MAX_CERTIFICATES + 1 }, () => own));
    const tooMany = await issuesOf({ pem: PEM, certificatePem: seventeen }, setup);
    expect(tooMany).toHaveLength(1);
    expect(tooMany[0]).toMatchObject({
      message: "a bundle holds at most 16 PEM blocks; this is block 17",
      path: ["certificatePem"],
    });
    const stranger = makeCertificate({ subject: "CN=unknown" });
    const key = "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n";
    const issues = await issuesOf({ pem: PEM, certificatePem: bundleOf([stranger]) + key }, setup);
    expect(issues.map((issue) => [issue.path, issue.message])).toEqual([
      [["certificatePem"], "this CERTIFICATE block is not one DER-encoded X.509 certificate"],
      [["certificatePem"], PRIVATE_KEY_MESSAGE],
    ]);
    expect(issues.every((issue) => issue.location !== undefined)).toBe(true);
  });

  test("over the size limit, the message names the field", async () => {
    expect(await issuesOf({ pem: PEM, certificatePem: "x".repeat(49_153) }, setup)).toEqual([
      { message: "certificatePem is longer than 49152 characters", path: ["certificatePem"] },
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// The rules.

const ORDER = new Map(CSR_PROBLEM_CODES.map((code, rank) => [code, rank]));
const SEVERITY: Record<string, number> = { error: 0, warning: 1, info: 2 };

/** The slow obvious model of CONTRACT §8.2's CSR problems: which codes, with which facts. */
function modelProblems(request: CertificationRequestData, outcome: SignatureOutcome) {
  const rsa = ["RSA", "1.2.840.113549.1.1.10"].includes(request.keyType) && request.keyBits !== null;
  const raised: { code: string; severity: string; clients: string[] }[] = [];
  if (!request.sans.some((san) => san.type === "dns" || san.type === "ip"))
    raised.push({ code: "NO_SUBJECT_ALT_NAME", severity: "error", clients: ["chrome", "apple", "go"] });
  if (rsa && request.keyBits! < 1024)
    raised.push({
      code: "RSA_KEY_UNDER_1024",
      severity: "error",
      clients: ["chrome", "apple", "go", "openssl"],
    });
  if (rsa && request.keyBits! >= 1024 && request.keyBits! <= 2047)
    raised.push({
      code: "RSA_KEY_UNDER_2048",
      severity: "error",
      // OpenSSL's level 2 counts 1963 bits and more as 112 bits of security.
      clients: request.keyBits! < 1963 ? ["apple", "openssl"] : ["apple"],
    });
  if (outcome === "failed") raised.push({ code: "CSR_SIGNATURE_INVALID", severity: "error", clients: [] });
  if (request.signatureUsesSha1)
    raised.push({ code: "CSR_SIGNATURE_SHA1", severity: "warning", clients: [] });
  return raised;
}

const sanArbitrary = fc.oneof(
  fc.constantFrom("www.example.com", "example.com"),
  fc.record({
    type: fc.constantFrom("dns", "ip", "email", "uri", "otherName"),
    value: fc.constantFrom("a.example", "192.0.2.1", "x"),
  }),
);
const requestArbitrary: fc.Arbitrary<RequestSpec> = fc.record({
  subject: fc.constantFrom("CN=www.example.com", "O=Example", "", "CN=a\\,b,O=Example"),
  sans: fc.array(sanArbitrary, { maxLength: 4 }),
  keyType: fc.constantFrom("RSA", "1.2.840.113549.1.1.10", "EC", "Ed25519", "DSA", "1.2.3.4"),
  keyBits: fc.oneof(
    fc.constant(null),
    fc.integer({ min: 1, max: 8192 }),
    fc.constantFrom(1023, 1024, 2047, 2048),
  ),
  signatureUsesSha1: fc.boolean(),
});
const outcomeArbitrary = fc.constantFrom<SignatureOutcome>(
  "verified",
  "failed",
  "unsupported",
  "unavailable",
);

describe("the CSR rules (CONTRACT §8.2, severities and clients of §8.1)", () => {
  test("every request raises exactly the model's problems, ordered by severity then §8.1's code order", () => {
    fc.assert(
      fc.property(requestArbitrary, outcomeArbitrary, (spec, outcome) => {
        const request = makeRequest(spec);
        const problems = csrProblems(request, outcome);
        const expected = modelProblems(request, outcome).sort(
          (a, b) =>
            SEVERITY[a.severity]! - SEVERITY[b.severity]! ||
            ORDER.get(a.code as never)! - ORDER.get(b.code as never)!,
        );
        const actual: { code: string; severity: string; clients: string[] }[] = problems.map(
          ({ code, severity, clients }) => ({ code, severity, clients: [...clients] }),
        );
        expect(actual).toEqual(expected);
        for (const problem of problems) {
          expect(problem.certificateIndexes).toEqual([]);
          // clients in the contract's fixed vocabulary order
          expect(problem.clients).toEqual(CLIENTS.filter((client) => problem.clients.includes(client)));
          expect(problem.observed).toMatch(/^The (request|signature)/);
          expect(problem.observed).toEndWith(".");
          expect(problem.nextAction).toEndWith(".");
        }
      }),
      { numRuns: 500 },
    );
  });

  test("RSA_KEY_UNDER_1024 and RSA_KEY_UNDER_2048 never both, and only for RSA keys", () => {
    const codes = (spec: RequestSpec) =>
      csrProblems(makeRequest(spec), "verified").map((problem) => problem.code);
    expect(codes({ keyType: "RSA", keyBits: 1023 })).toEqual(["RSA_KEY_UNDER_1024"]);
    expect(codes({ keyType: "RSA", keyBits: 1024 })).toEqual(["RSA_KEY_UNDER_2048"]);
    expect(codes({ keyType: "RSA", keyBits: 2047 })).toEqual(["RSA_KEY_UNDER_2048"]);
    expect(codes({ keyType: "RSA", keyBits: 2048 })).toEqual([]);
    // An RSASSA-PSS key (named by its OID) is an RSA key too.
    expect(codes({ keyType: "1.2.840.113549.1.1.10", keyBits: 1024 })).toEqual(["RSA_KEY_UNDER_2048"]);
    expect(codes({ keyType: "DSA", keyBits: 1024 })).toEqual([]);
    expect(codes({ keyType: "EC", keyBits: 256 })).toEqual([]);
  });

  test("wording: the request by its CN, the numbers as §8.1 writes them", () => {
    const problems = csrProblems(
      makeRequest({
        subject: "CN=legacy.example.com,O=Example",
        sans: [{ type: "email", value: "a@example.com" }],
        keyType: "RSA",
        keyBits: 1024,
        signatureAlgorithm: "sha1WithRSAEncryption",
        signatureUsesSha1: true,
      }),
      "failed",
    );
    expect(problems.map((problem) => problem.code)).toEqual([
      "NO_SUBJECT_ALT_NAME",
      "RSA_KEY_UNDER_2048",
      "CSR_SIGNATURE_INVALID",
      "CSR_SIGNATURE_SHA1",
    ]);
    const [noSan, rsa, invalid, sha1] = problems;
    expect(noSan?.observed).toContain("The request (CN=legacy.example.com)");
    expect(noSan?.observed).toContain("subjectAltName");
    expect(noSan?.nextAction).toContain('-addext "subjectAltName=DNS:legacy.example.com"');
    expect(rsa?.observed).toContain("RSA 1024 bits");
    expect(invalid?.observed).toContain("the request (CN=legacy.example.com)");
    expect(sha1?.observed).toContain("sha1WithRSAEncryption");
  });

  test("a request without a subject is 'the request'; a subject without CN is named by its first attribute", () => {
    const nameless = csrProblems(makeRequest({ subject: "", sans: [] }), "verified");
    expect(nameless[0]?.observed).toStartWith("The request asks for no DNS name");
    expect(nameless[0]?.nextAction).toContain("DNS:www.example.com");
    const byOrg = csrProblems(makeRequest({ subject: "O=Example Org", sans: [] }), "verified");
    expect(byOrg[0]?.observed).toStartWith("The request (O=Example Org) asks");
  });

  test("a CN that is not a host name is never pasted into the advice", () => {
    const odd = csrProblems(makeRequest({ subject: 'CN=a" ; rm -rf /', sans: [] }), "verified");
    expect(odd[0]?.nextAction).toContain("DNS:www.example.com");
    expect(odd[0]?.nextAction).not.toContain("rm -rf");
  });
});
