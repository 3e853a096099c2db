/**
 * REFERENCE_ROOTS_FILE against the real server process (CONTRACT §9.2): a file that cannot replace
 * the built-in store stops the start with exit 2 and one line naming the variable and the path; a
 * usable one is the store `GET /v1/reference-roots` describes, the same that `nettools roots`
 * prints for the same file locally and through `--server`, and a chain anchored in it reads as
 * `webpki` (the profile means "anchored in the reference store").
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runNettools } from "../cli/run.ts";
import { certPem } from "../fixtures/fixtures.ts";
import { runServerCommand, startServer } from "./server.ts";

const scratch = mkdtempSync(join(tmpdir(), "reference-roots-e2e-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const TIMEOUT_MS = 60_000;

describe("REFERENCE_ROOTS_FILE that cannot be used: exit 2, one line", () => {
  test.each([
    ["missing.pem", "cannot read {path} (ENOENT)"],
    ["crl-only.pem", "{path} holds no certificate"],
  ])(
    "%s",
    async (file, reason) => {
      const path = join(scratch, file);
      if (file === "crl-only.pem")
        writeFileSync(path, "-----BEGIN X509 CRL-----\nAAAA\n-----END X509 CRL-----\n");
      const ran = await runServerCommand([], { HOST: "127.0.0.1", PORT: "0", REFERENCE_ROOTS_FILE: path });
      expect(ran.code).toBe(2);
      expect(ran.stderr).toBe(
        `network-tools-api: configuration error: REFERENCE_ROOTS_FILE: ${reason.replace("{path}", path)}\n`,
      );
      expect(ran.stdout).not.toContain("listening");
    },
    TIMEOUT_MS,
  );
});

test(
  "a usable file: described by the API exactly as by nettools roots, and a chain under it is webpki",
  async () => {
    const path = join(scratch, "private-ca.pem");
    const crl = "-----BEGIN X509 CRL-----\nMAA=\n-----END X509 CRL-----\n";
    writeFileSync(path, `# our private CA\n${certPem("chain-root")}${crl}`);
    const server = await startServer({ REFERENCE_ROOTS_FILE: path });
    try {
      const http = await (await fetch(`${server.url}/v1/reference-roots`)).text();
      expect(JSON.parse(http)).toMatchObject({ source: "file", version: "private-ca.pem", certificates: 1 });
      // The skipped CRL is named once, at start, in a warn line.
      const warned = server.lines.filter((line) => line.includes("REFERENCE_ROOTS_FILE"));
      expect(warned).toHaveLength(1);
      expect(JSON.parse(warned[0]!)).toMatchObject({
        level: "warn",
        msg: "REFERENCE_ROOTS_FILE: blocks that are not certificates were skipped (X509 CRL), as openssl skips them in a CA file",
      });
      const remote = await runNettools(["roots", "--server", server.url, "--json"]);
      const local = await runNettools(["roots", "--reference-roots", path, "--json"]);
      expect(remote.stdout).toBe(`${http}\n`);
      expect(local.stdout).toBe(`${http}\n`);
      const chain = await fetch(`${server.url}/v1/certificate-chain`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ pem: certPem("chain-leaf") + certPem("chain-int2") + certPem("chain-int1") }),
      });
      expect(await chain.json()).toMatchObject({ profile: "webpki" });
    } finally {
      await server.stop();
    }
  },
  TIMEOUT_MS,
);
