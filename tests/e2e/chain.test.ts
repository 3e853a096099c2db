/**
 * POST /v1/certificate-chain against the real server process (real decoder, verifier and the
 * runtime's Mozilla roots): a misordered private chain with the caller's root comes back fixed,
 * and openssl accepts the fixed file; the answer is never cached.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { certPath, certPem, chainPem } from "../fixtures/fixtures.ts";
import { type RunningServer, startServer } from "./server.ts";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

test("a misordered chain plus the caller's root: complete, and the fix verifies with openssl", async () => {
  const response = await fetch(`${server.url}/v1/certificate-chain`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      pem: chainPem("chain-misordered"),
      roots: certPem("chain-root"),
      hostname: "192.0.2.10",
    }),
  });
  expect(response.status).toBe(200);
  expect(response.headers.get("cache-control")).toBe("no-store");
  const body = (await response.json()) as {
    status: string;
    path: number[];
    problems: { code: string }[];
    fullchainPem: string;
  };
  expect(body.status).toBe("complete");
  expect(body.path).toEqual([1, 2, 0]);
  expect(body.problems.map((problem) => problem.code)).toEqual(["WRONG_ORDER"]);
  const dir = mkdtempSync(join(tmpdir(), "chain-e2e-"));
  const blocks = body.fullchainPem.match(
    /-----BEGIN CERTIFICATE-----\n[\s\S]*?-----END CERTIFICATE-----\n/g,
  )!;
  writeFileSync(join(dir, "leaf.pem"), blocks[0]!);
  writeFileSync(join(dir, "rest.pem"), blocks.slice(1).join(""));
  const verify = Bun.spawnSync([
    "openssl",
    "verify",
    "-CAfile",
    certPath("chain-root"),
    "-untrusted",
    join(dir, "rest.pem"),
    join(dir, "leaf.pem"),
  ]);
  expect(verify.exitCode).toBe(0);
});
