/**
 * `nettools cert` at real-world size (issue 13): the system's whole CA bundle (Debian's
 * ca-certificates.crt, ~150 certificates, ~220 KB) is inspected in-process, past the API's 16
 * blocks and 49152 characters, with every certificate read and every root's self-signature
 * verified; with --server the API's limits still apply.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { type RunningServer, startServer } from "../e2e/server.ts";
import { runNettools } from "./run.ts";

const BUNDLE = "/etc/ssl/certs/ca-certificates.crt";

const nettools = (args: string[]) => runNettools(args);

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

describe("the system CA bundle through the CLI", () => {
  const blocks = (readFileSync(BUNDLE, "utf8").match(/-----BEGIN CERTIFICATE-----/g) ?? []).length;

  test("in-process: every certificate read, every self-signature verified", async () => {
    expect(blocks).toBeGreaterThan(16);
    const { code, stdout, stderr } = await nettools(["cert", "--json", BUNDLE]);
    const result = JSON.parse(stdout) as {
      certificates: { selfSignature: string | null }[];
      findings: { code: string; severity: string }[];
    };
    expect(stderr).toBe("");
    expect(result.certificates).toHaveLength(blocks);
    expect(result.certificates.every((certificate) => certificate.selfSignature === "verified")).toBe(true);
    // Exit 1 only for error findings (a root past its notAfter in an older bundle), else 0.
    const errors = result.findings.filter((finding) => finding.severity === "error");
    expect(errors.every((finding) => finding.code === "CERTIFICATE_EXPIRED")).toBe(true);
    expect(code).toBe(errors.length > 0 ? 1 : 0);
  }, 60_000);

  test("with --server the API's limits apply: the server refuses the 220 KB body", async () => {
    const { code, stderr } = await nettools(["cert", "--server", server.url, BUNDLE]);
    expect(code).toBe(2);
    expect(stderr).toContain("PAYLOAD_TOO_LARGE");
    expect(stderr).toContain("65536 bytes");
  }, 60_000);
});
