/**
 * `at` against the real server process (CONTRACT §9.1), with `openssl verify -attime` as the
 * oracle: at every validity edge of a private chain's members (a second before, at, a second
 * after each notBefore and notAfter, as openssl prints them), the chain has an EXPIRED or
 * NOT_YET_VALID problem exactly when openssl refuses it at that instant, but for the notAfter
 * second itself: RFC 5280 §4.1.2.5 makes the period inclusive (Go's `now.After(NotAfter)` too),
 * while OpenSSL's X509_cmp_time counts "equal" as "earlier" and calls it expired; `evaluatedAt` is the
 * instant asked for, and the OpenAPI document describes `at` on both operations.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { certPath, certPem } from "../fixtures/fixtures.ts";
import { type RunningServer, startServer } from "./server.ts";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

const MEMBERS = ["chain-leaf", "chain-int2", "chain-int1"] as const;
const scratch = mkdtempSync(join(tmpdir(), "nettools-at-e2e-"));
const untrusted = join(scratch, "untrusted.pem");
writeFileSync(untrusted, certPem("chain-int2") + certPem("chain-int1"));

function opensslDate(name: string, which: "startdate" | "enddate"): number {
  const ran = Bun.spawnSync(["openssl", "x509", "-noout", `-${which}`, "-in", certPath(name)]);
  const seconds =
    Date.parse(
      ran.stdout
        .toString()
        .trim()
        .replace(/^not(Before|After)=/, ""),
    ) / 1000;
  if (!Number.isInteger(seconds)) throw new Error(`no ${which} for ${name}`);
  return seconds;
}

function opensslAccepts(seconds: number): boolean {
  const ran = Bun.spawnSync([
    "openssl",
    "verify",
    "-attime",
    String(seconds),
    "-CAfile",
    certPath("chain-root"),
    "-untrusted",
    untrusted,
    certPath("chain-leaf"),
  ]);
  return ran.exitCode === 0;
}

const rfc3339 = (seconds: number) => `${new Date(seconds * 1000).toISOString().slice(0, 19)}Z`;

test("at every validity edge, dated problems exactly where openssl verify -attime refuses", async () => {
  const edges = new Set<number>();
  const lastSeconds = new Set<number>();
  for (const name of [...MEMBERS, "chain-root"]) {
    for (const which of ["startdate", "enddate"] as const) {
      const edge = opensslDate(name, which);
      for (const delta of [-1, 0, 1]) edges.add(edge + delta);
      if (which === "enddate") lastSeconds.add(edge);
    }
  }
  const pem = certPem("chain-leaf") + certPem("chain-int2") + certPem("chain-int1");
  const seen = { accepted: 0, refused: 0 };
  for (const seconds of [...edges].sort((a, b) => a - b)) {
    const at = rfc3339(seconds);
    const response = await fetch(`${server.url}/v1/certificate-chain`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ pem, roots: certPem("chain-root"), at }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { evaluatedAt: string; problems: { code: string }[] };
    expect(body.evaluatedAt).toBe(at);
    const dated = body.problems.some((p) => p.code === "EXPIRED" || p.code === "NOT_YET_VALID");
    const accepted = opensslAccepts(seconds);
    seen[accepted ? "accepted" : "refused"]++;
    const lastSecond = lastSeconds.has(seconds) && opensslAccepts(seconds - 1);
    expect([at, dated]).toEqual([at, lastSecond ? false : !accepted]);
  }
  expect(seen.accepted).toBeGreaterThan(0);
  expect(seen.refused).toBeGreaterThan(0);
});

test("a bad `at` is 400 INVALID_INPUT at ['at']; the OpenAPI document describes `at` on both operations", async () => {
  const response = await fetch(`${server.url}/v1/certificate-bundle`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ pem: certPem("chain-leaf"), at: "2030-01-01T00:00:00" }),
  });
  expect(response.status).toBe(400);
  const body = (await response.json()) as { error: { code: string; issues: { path: unknown[] }[] } };
  expect([body.error.code, body.error.issues.map((issue) => issue.path)]).toEqual([
    "INVALID_INPUT",
    [["at"]],
  ]);

  const document = (await (await fetch(`${server.url}/docs/json`)).json()) as {
    components: {
      schemas: Record<string, { properties: Record<string, { type: string; maxLength: number }> }>;
    };
  };
  for (const name of ["CertificateBundleRequest", "CertificateChainRequest"]) {
    const at = document.components.schemas[name]!.properties.at!;
    expect([name, at.type, at.maxLength]).toEqual([name, "string", 64]);
  }
});
