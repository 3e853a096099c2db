/**
 * `at` on POST /v1/certificate-bundle and POST /v1/certificate-chain through app.handle (CONTRACT
 * §9.1): the answer is judged at `at` while the server's clock says otherwise, one app serves
 * requests at different instants, and every other `at` (wrong type, shape, range, length) is
 * INVALID_INPUT with one issue at ["at"] that never echoes the text.
 */
import { describe, expect, test } from "bun:test";
import { createMemoryLogger } from "../../src/process/logger.ts";
import { bundleOf, fakeDecoder, makeCertificate } from "../fakes/certificates.ts";
import { fixedClock } from "../fakes/clock.ts";
import { fakeRootStore } from "../fakes/roots.ts";
import { scriptedVerifier } from "../fakes/verifier.ts";
import { call, errorOf, jsonOf, testApp } from "./helpers.ts";

const leaf = makeCertificate({
  subject: "CN=www.example.com",
  sans: ["www.example.com"],
  notBefore: "2030-01-01T00:00:00Z",
  notAfter: "2030-04-01T00:00:00Z",
});
const pem = bundleOf([leaf]);

function instantApp() {
  const logger = createMemoryLogger();
  const clock = fixedClock("2026-06-01T12:00:00Z");
  const { app } = testApp({
    logger,
    clock,
    decoder: fakeDecoder([leaf]),
    verifier: scriptedVerifier(),
    roots: fakeRootStore(),
  });
  return { app, clock, logger };
}

type Body = { evaluatedAt: string; problems?: { code: string }[]; findings?: { code: string }[] };

describe("`at` over HTTP (CONTRACT §9.1)", () => {
  test("chain: evaluatedAt and the dated problems follow `at`; without it, the server's clock", async () => {
    const { app } = instantApp();
    const answer = async (json: Record<string, unknown>) => {
      const response = await call(app, "POST", "/v1/certificate-chain", { json });
      expect(response.status).toBe(200);
      const body = (await jsonOf(response)) as Body & { certificates: { expiresInDays: number }[] };
      const dated = body.problems!.map((p) => p.code).filter((c) => ["EXPIRED", "NOT_YET_VALID"].includes(c));
      return [body.evaluatedAt, body.certificates[0]!.expiresInDays, dated];
    };
    expect(await answer({ pem })).toEqual(["2026-06-01T12:00:00Z", 1399, ["NOT_YET_VALID"]]);
    expect(await answer({ pem, at: "2030-02-01T12:00:00.25+12:00" })).toEqual([
      "2030-02-01T00:00:00Z",
      59,
      [],
    ]);
    expect(await answer({ pem, at: "2030-04-02T00:00:00Z" })).toEqual([
      "2030-04-02T00:00:00Z",
      -1,
      ["EXPIRED"],
    ]);
    expect(await answer({ pem })).toEqual(["2026-06-01T12:00:00Z", 1399, ["NOT_YET_VALID"]]);
  });

  test("bundle: evaluatedAt and the expiry findings follow `at`", async () => {
    const { app } = instantApp();
    const answer = async (json: Record<string, unknown>) => {
      const response = await call(app, "POST", "/v1/certificate-bundle", { json });
      expect(response.status).toBe(200);
      const body = (await jsonOf(response)) as Body;
      return [
        body.evaluatedAt,
        body.findings!.map((f) => f.code).filter((c) => /^CERTIFICATE_(EXPIRED|NOT_YET_VALID)$/.test(c)),
      ];
    };
    expect(await answer({ pem })).toEqual(["2026-06-01T12:00:00Z", ["CERTIFICATE_NOT_YET_VALID"]]);
    expect(await answer({ pem, at: "2030-02-01T00:00:00Z" })).toEqual(["2030-02-01T00:00:00Z", []]);
    expect(await answer({ pem, at: "2031-01-01T00:00:00Z" })).toEqual([
      "2031-01-01T00:00:00Z",
      ["CERTIFICATE_EXPIRED"],
    ]);
  });

  test("every other `at` is INVALID_INPUT with one issue at ['at'], the text never echoed", async () => {
    const { app, logger } = instantApp();
    const secret = "2030-02-30T00:00:00Z";
    const bad: unknown[] = [
      secret,
      "2030-02-01",
      "2030-02-01T00:00:00",
      "2030-02-01 00:00:00Z",
      "1949-12-31T23:59:59Z",
      "10000-01-01T00:00:00Z",
      `2030-02-01T00:00:00.${"1".repeat(80)}Z`,
      "",
      1893456000,
      null,
      true,
      ["2030-02-01T00:00:00Z"],
    ];
    for (const path of ["/v1/certificate-chain", "/v1/certificate-bundle"]) {
      for (const at of bad) {
        const response = await call(app, "POST", path, { json: { pem, at } });
        const error = await errorOf(response);
        expect([path, at, response.status, error.code, error.issues?.map((issue) => issue.path)]).toEqual([
          path,
          at,
          400,
          "INVALID_INPUT",
          [["at"]],
        ]);
        if (typeof at === "string" && at.length > 0) expect(JSON.stringify(error)).not.toContain(at);
      }
    }
    expect(logger.records.length).toBeGreaterThan(0);
    expect(JSON.stringify(logger.records)).not.toContain(secret);
  });
});
