/**
 * POST /v1/certificate-chain through app.handle (CONTRACT §7.1, §7.2, §1): the result, no-store on
 * success and error, `roots` issues located at path ["roots"], request bounds, and the log.
 */
import { describe, expect, test } from "bun:test";
import { createMemoryLogger } from "../../src/process/logger.ts";
import { bundleOf, fakeDecoder, makeCertificate, toPem } from "../fakes/certificates.ts";
import { fixedClock } from "../fakes/clock.ts";
import { fakeRootStore } from "../fakes/roots.ts";
import { scriptedVerifier } from "../fakes/verifier.ts";
import { call, errorOf, jsonOf, testApp } from "./helpers.ts";

const root = makeCertificate({ subject: "CN=Private Root", ca: true, subjectKeyIdentifier: "AA" });
const int = makeCertificate({
  subject: "CN=Private Int",
  issuer: "CN=Private Root",
  ca: true,
  subjectKeyIdentifier: "BB",
  authorityKeyIdentifier: "AA",
  caIssuersUrls: ["http://pki.example/root.cer"],
});
const leaf = makeCertificate({
  subject: "CN=app.internal.example",
  issuer: "CN=Private Int",
  authorityKeyIdentifier: "BB",
  sans: ["app.internal.example", { type: "ip", value: "10.1.2.3" }],
});

/** The root's name and key id on another key (CONTRACT §7.2): it did not sign the intermediate. */
const impostor = makeCertificate({
  subject: "CN=Private Root",
  ca: true,
  subjectKeyIdentifier: "AA",
  key: "impostor",
});

function chainApp() {
  const logger = createMemoryLogger();
  const verifier = scriptedVerifier();
  const { app } = testApp({
    logger,
    clock: fixedClock("2026-06-01T12:00:00Z"),
    decoder: fakeDecoder([root, impostor, int, leaf]),
    verifier,
    roots: fakeRootStore(),
  });
  return { app, logger, verifier };
}

describe("POST /v1/certificate-chain", () => {
  test("a misordered private chain with the caller's root: complete, fixed, never cached", async () => {
    const { app } = chainApp();
    const response = await call(app, "POST", "/v1/certificate-chain", {
      json: { pem: bundleOf([int, leaf]), roots: toPem(root), hostname: "10.1.2.3" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = (await jsonOf(response)) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual([
      "evaluatedAt",
      "leafIndex",
      "path",
      "status",
      "profile",
      "anchor",
      "certificates",
      "problems",
      "fullchainPem",
    ]);
    expect(body).toMatchObject({
      leafIndex: 1,
      path: [1, 0],
      status: "complete",
      profile: "private",
      anchor: {
        kind: "supplied-root",
        subject: "CN=Private Root",
        caIssuersUrls: ["http://pki.example/root.cer"],
      },
      fullchainPem: toPem(leaf) + toPem(int),
    });
    expect((body.problems as { code: string }[]).map((p) => p.code)).toEqual(["WRONG_ORDER"]);
    // Supplied roots are never listed.
    expect((body.certificates as { index: number }[]).map((c) => c.index)).toEqual([1, 0]);
  });

  test("roots holding a root of the right name and key id whose key did not sign: incomplete", async () => {
    const { app } = chainApp();
    const response = await call(app, "POST", "/v1/certificate-chain", {
      json: { pem: bundleOf([leaf, int]), roots: toPem(impostor) },
    });
    const body = (await jsonOf(response)) as {
      status: string;
      problems: { code: string; observed: string }[];
    };
    expect(body.status).toBe("incomplete");
    expect(body.problems.map((p) => p.code)).toEqual(["INCOMPLETE_CHAIN"]);
    expect(body.problems[0]!.observed).toContain("its key does not verify the certificate");
  });

  test("roots problems: path [roots] with a location; errors carry no-store too", async () => {
    const { app } = chainApp();
    const response = await call(app, "POST", "/v1/certificate-chain", {
      json: { pem: bundleOf([leaf]), roots: "-----BEGIN CERTIFICATE-----\n!!!\n-----END CERTIFICATE-----\n" },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const error = await errorOf(response);
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.issues).toEqual([
      expect.objectContaining({ path: ["roots"], location: { line: 1, offset: 0, end: 57 } }),
    ]);
  });

  test("request bounds: expiryWarningDays, includeRoot type, unknown fields, bad addresses", async () => {
    const { app } = chainApp();
    const pem = bundleOf([leaf]);
    const cases: [Record<string, unknown>, (string | number)[]][] = [
      [{ pem, expiryWarningDays: 3651 }, ["expiryWarningDays"]],
      [{ pem, expiryWarningDays: -1 }, ["expiryWarningDays"]],
      [{ pem, includeRoot: 1 }, ["includeRoot"]],
      [{ pem, extra: true }, ["extra"]],
      [{ pem, hostname: "1.2.3" }, ["hostname"]],
      [{ pem, hostname: "192.0.2.256" }, ["hostname"]],
    ];
    for (const [json, path] of cases) {
      const error = await errorOf(await call(app, "POST", "/v1/certificate-chain", { json }));
      expect([json, error.code, error.issues?.map((issue) => issue.path)]).toEqual([
        json,
        "INVALID_INPUT",
        [path],
      ]);
    }
  });

  test("the log holds no PEM, hostname, subject or URL", async () => {
    const { app, logger } = chainApp();
    await call(app, "POST", "/v1/certificate-chain", {
      json: { pem: bundleOf([leaf, int]), hostname: "app.internal.example", roots: toPem(root) },
    });
    const log = JSON.stringify(logger.records);
    for (const secret of ["app.internal.example", "Private Root", "pki.example", "BEGIN CERTIFICATE"]) {
      expect(log).not.toContain(secret);
    }
    expect(log).toContain("/v1/certificate-chain");
  });
});
