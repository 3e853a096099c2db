/**
 * POST /v1/certificate-bundle through app.handle with a fake clock, decoder and verifier.
 */
import { describe, expect, test } from "bun:test";
import { createMemoryLogger } from "../../src/process/logger.ts";
import { bundleOf, fakeDecoder, makeCertificate } from "../fakes/certificates.ts";
import { fixedClock } from "../fakes/clock.ts";
import { scriptedVerifier } from "../fakes/verifier.ts";
import { call, errorOf, jsonOf, testApp } from "./helpers.ts";

const root = makeCertificate({ subject: "CN=Example Root", ca: true });
const leaf = makeCertificate({
  subject: "CN=www.example.com",
  issuer: "CN=Example Root",
  sans: ["www.example.com", "*.example.com"],
});
const PRIVATE_KEY = [
  "-----BEGIN PRIVATE KEY-----",
  "MC4CAQAwBQYDK2VwBCIEIBD1zZ3Pw1yc1S2QkM5D8vWQm3jJm8sX1hdxJ6bKq8Vr",
  "-----END PRIVATE KEY-----",
].join("\n");

function certApp(instant = "2026-06-01T12:00:00Z") {
  const logger = createMemoryLogger();
  const verifier = scriptedVerifier();
  const { app } = testApp({
    logger,
    clock: fixedClock(instant),
    decoder: fakeDecoder([root, leaf]),
    verifier,
  });
  return { app, logger, verifier };
}

describe("POST /v1/certificate-bundle", () => {
  test("a chain is inspected, evaluated at the clock's instant, and not cached", async () => {
    const { app } = certApp();
    const response = await call(app, "POST", "/v1/certificate-bundle", {
      json: { pem: bundleOf([leaf, root]), hostname: "Shop.Example.com." },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = (await jsonOf(response)) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual([
      "evaluatedAt",
      "certificates",
      "relationships",
      "leafIndexes",
      "selectedLeafIndex",
      "hostname",
      "findings",
    ]);
    expect(body.evaluatedAt).toBe("2026-06-01T12:00:00Z");
    expect(body.hostname).toEqual({ expected: "shop.example.com", status: "matched" });
    expect(body.relationships).toEqual([
      {
        childIndex: 0,
        issuerIndex: 1,
        signature: "verified",
        issuerEligible: true,
        keyIdentifierMatch: null,
      },
    ]);
    expect(body.selectedLeafIndex).toBe(0);
  });

  test("the same bundle at an instant after validity reports the expiry", async () => {
    const { app } = certApp("2030-01-01T00:00:00Z");
    const body = (await jsonOf(
      await call(app, "POST", "/v1/certificate-bundle", { json: { pem: bundleOf([leaf, root]) } }),
    )) as { findings: { code: string; severity: string }[] };
    expect(body.findings.filter((finding) => finding.code === "CERTIFICATE_EXPIRED")).toHaveLength(2);
    expect(body.findings[0]?.severity).toBe("error");
  });

  test("a private key is rejected, located, never echoed and never logged", async () => {
    const { app, logger } = certApp();
    const pem = `${bundleOf([leaf])}\n${PRIVATE_KEY}\n`;
    const response = await call(app, "POST", "/v1/certificate-bundle", {
      json: { pem, hostname: "secret-host.example" },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const text = await response.text();
    expect(text).not.toContain("MC4CAQAw");
    expect(text).not.toContain("secret-host");
    const error = JSON.parse(text).error as {
      code: string;
      issues: { message: string; path: string[]; location: object }[];
    };
    expect(error.code).toBe("INVALID_INPUT");
    const issue = error.issues.find((entry) => entry.message === "private key material is not accepted");
    expect(issue?.path).toEqual(["pem"]);
    const begin = pem.indexOf("-----BEGIN PRIVATE KEY-----");
    const end = pem.indexOf("-----END PRIVATE KEY-----") + "-----END PRIVATE KEY-----".length;
    expect(issue?.location).toEqual({ line: pem.slice(0, begin).split("\n").length, offset: begin, end });
    await Bun.sleep(5);
    const logged = JSON.stringify(logger.records);
    expect(logged).not.toContain("MC4CAQAw");
    expect(logged).not.toContain("secret-host");
  });

  test.each([
    ["a string leafIndex", { leafIndex: "0" }, ["leafIndex"]],
    ["leafIndex out of range", { leafIndex: 16 }, ["leafIndex"]],
    ["an unknown field", { verbose: true }, ["verbose"]],
    ["a hostname that is a URL", { hostname: "https://www.example.com/" }, ["hostname"]],
    ["a hostname with a port", { hostname: "www.example.com:443" }, ["hostname"]],
  ])("%s is INVALID_INPUT at its path", async (_name, extra, path) => {
    const { app } = certApp();
    const error = await errorOf(
      await call(app, "POST", "/v1/certificate-bundle", { json: { pem: bundleOf([leaf, root]), ...extra } }),
    );
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.issues?.map((issue) => issue.path)).toContainEqual(path);
  });

  test("a pem over 49152 characters is INVALID_INPUT at pem", async () => {
    const { app } = certApp();
    const error = await errorOf(
      await call(app, "POST", "/v1/certificate-bundle", { json: { pem: " ".repeat(49_153) } }),
    );
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.issues?.[0]?.path).toEqual(["pem"]);
  });

  test("a missing pem is INVALID_INPUT at pem", async () => {
    const { app } = certApp();
    const error = await errorOf(
      await call(app, "POST", "/v1/certificate-bundle", { json: { hostname: "a.example" } }),
    );
    expect(error.issues?.map((issue) => issue.path)).toContainEqual(["pem"]);
  });
});
