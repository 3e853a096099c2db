/**
 * POST /v1/csr through app.handle (CONTRACT §8.2, §1, §4.4) with the real DER reader and WebCrypto
 * verifier on requests made by `openssl req`: the result and its headers, the key match, issues at
 * `["pem"]` and `["certificatePem"]`, unknown fields, and what never reaches a response or the log.
 */
import { describe, expect, test } from "bun:test";
import { DerCertificateDecoder } from "../../src/adapters/crypto/decoder.ts";
import { NodeSignatureVerifier } from "../../src/adapters/crypto/verifier.ts";
import { createMemoryLogger } from "../../src/process/logger.ts";
import { keyFixture } from "../fixtures/key-fixtures.ts";
import { call, errorOf, jsonOf, testApp } from "./helpers.ts";

function csrApp() {
  const logger = createMemoryLogger();
  const { app } = testApp({
    logger,
    decoder: new DerCertificateDecoder(),
    verifier: new NodeSignatureVerifier(),
  });
  return { app, logger };
}

const P256 = keyFixture("requests/p256.pem");
const LEAF = keyFixture("certs/p256.pem");
const CA = keyFixture("certs/ca.pem");

describe("POST /v1/csr", () => {
  test("a request and its chain: fields, match at position 0, never cached, nothing logged", async () => {
    const { app, logger } = csrApp();
    const response = await call(app, "POST", "/v1/csr", { json: { pem: P256, certificatePem: LEAF + CA } });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("content-type")).toStartWith("application/json");
    const body = (await jsonOf(response)) as Record<string, unknown>;
    expect(body).toMatchObject({
      subject: "CN=www.example.com,O=Network Tools Fixtures,C=US",
      commonName: "www.example.com",
      subjectAltNames: { dns: ["www.example.com", "example.com"], ip: ["192.0.2.10", "2001:db8::10"] },
      keyType: "EC",
      keyBits: 256,
      keyCurve: "P-256",
      signatureAlgorithm: "ecdsa-with-SHA256",
      signatureValid: "verified",
      problems: [],
      matchesCertificate: true,
      matchingCertificateIndexes: [0],
    });
    expect(body.publicKeySha256).toMatch(/^[0-9a-f]{64}$/);
    const log = JSON.stringify(logger.records);
    for (const secret of ["www.example.com", "BEGIN", String(body.publicKeySha256)])
      expect(log).not.toContain(secret);
    expect(logger.records).toContainEqual(expect.objectContaining({ route: "/v1/csr", status: 200 }));
  });

  test("what a CA refuses: RSA 1024, no subjectAltName, SHA-1; a certificate of another key", async () => {
    const { app } = csrApp();
    const response = await call(app, "POST", "/v1/csr", {
      json: { pem: keyFixture("requests/rsa-1024-nosan-sha1.pem"), certificatePem: LEAF },
    });
    const body = (await jsonOf(response)) as { problems: { code: string; clients: string[] }[] };
    expect(response.status).toBe(200);
    expect(body.problems.map((problem) => [problem.code, problem.clients])).toEqual([
      ["NO_SUBJECT_ALT_NAME", ["chrome", "apple", "go"]],
      ["RSA_KEY_UNDER_2048", ["apple", "openssl"]],
      ["CSR_SIGNATURE_SHA1", []],
    ]);
    expect(body).toMatchObject({ matchesCertificate: false, matchingCertificateIndexes: [] });
  });

  test.each([
    ["rsa-512", ["RSA_KEY_UNDER_1024"], "RSA 512 bits"],
    ["rsa-2047", ["RSA_KEY_UNDER_2048"], "RSA 2047 bits"],
    ["rsa-pss-key-1024", ["RSA_KEY_UNDER_2048"], "RSA 1024 bits"],
    ["email-only", ["NO_SUBJECT_ALT_NAME"], "subjectAltName"],
    ["ecdsa-sha1", ["CSR_SIGNATURE_SHA1"], "ecdsa-with-SHA1"],
    ["rsa-pss-sha1", ["CSR_SIGNATURE_SHA1"], "rsassaPss"],
    ["rsa-pss", [], ""],
    ["ed25519", [], ""],
  ])("%s raises %p", async (name, codes, observed) => {
    const { app } = csrApp();
    const body = (await jsonOf(
      await call(app, "POST", "/v1/csr", { json: { pem: keyFixture(`requests/${name}.pem`) } }),
    )) as { signatureValid: string; problems: { code: string; observed: string }[] };
    expect(body.signatureValid).toBe("verified");
    expect(body.problems.map((problem) => problem.code)).toEqual(codes);
    if (observed !== "") expect(body.problems[0]?.observed).toContain(observed);
  });

  test("a tampered request: signatureValid failed and CSR_SIGNATURE_INVALID", async () => {
    const { app } = csrApp();
    const body = (await jsonOf(
      await call(app, "POST", "/v1/csr", { json: { pem: keyFixture("requests/tampered.pem") } }),
    )) as { signatureValid: string; problems: { code: string }[] };
    expect(body.signatureValid).toBe("failed");
    expect(body.problems.map((problem) => problem.code)).toEqual(["CSR_SIGNATURE_INVALID"]);
  });

  test("a private key in pem: 400 located at the block, and no byte of it in the answer or the log", async () => {
    const { app, logger } = csrApp();
    const key = keyFixture("keys/p256.pem");
    const response = await call(app, "POST", "/v1/csr", { json: { pem: P256 + key } });
    expect(response.status).toBe(400);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const text = await response.clone().text();
    const base64 = key.replace(/-----[^-]+-----|\s+/g, "");
    for (let at = 0; at + 16 <= base64.length; at += 8) expect(text).not.toContain(base64.slice(at, at + 16));
    expect(JSON.stringify(logger.records)).not.toContain(base64.slice(0, 16));
    const error = await errorOf(response);
    expect(error.issues).toEqual([
      {
        message: "private key material is not accepted",
        path: ["pem"],
        location: {
          line: P256.split("\n").length,
          offset: P256.length,
          end: P256.length + key.trimEnd().length,
        },
      },
    ]);
  });

  test("issues at certificatePem carry that path; unknown fields and wrong types are refused", async () => {
    const { app } = csrApp();
    const swapped = await errorOf(
      await call(app, "POST", "/v1/csr", { json: { pem: P256, certificatePem: P256 } }),
    );
    expect(swapped.issues?.map((issue) => issue.path)).toEqual([["certificatePem"]]);
    expect(swapped.issues?.[0]?.message).toContain('labelled "CERTIFICATE REQUEST" are not accepted');
    const unknown = await errorOf(await call(app, "POST", "/v1/csr", { json: { pem: P256, hostname: "x" } }));
    expect(unknown).toMatchObject({ code: "INVALID_INPUT", issues: [{ path: ["hostname"] }] });
    const missing = await errorOf(await call(app, "POST", "/v1/csr", { json: { certificatePem: LEAF } }));
    expect(missing.issues?.[0]?.path).toEqual(["pem"]);
    const tooLong = await call(app, "POST", "/v1/csr", { json: { pem: "x".repeat(49_153) } });
    expect(tooLong.status).toBe(400);
    expect((await errorOf(tooLong)).issues?.[0]?.path).toEqual(["pem"]);
  });

  test("GET is 405 with Allow: POST, OPTIONS", async () => {
    const { app } = csrApp();
    const response = await call(app, "GET", "/v1/csr");
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toContain("POST");
  });
});
