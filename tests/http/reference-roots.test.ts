/**
 * `GET /v1/reference-roots` (CONTRACT §9.2) through `buildApp(fakes).handle`, with the real
 * reference stores: the built-in snapshot and a trust-store file replacing it. The answer is the
 * store's own description, never cached, and equal to what `nettools roots --json` prints for the
 * same store (the CLI run as a process, tests/cli/run.ts).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mozillaRootStore, rootStoreFromFile } from "../../src/adapters/crypto/root-store.ts";
import { runNettools } from "../cli/run.ts";
import { certPem } from "../fixtures/fixtures.ts";
import { call, testApp } from "./helpers.ts";

const scratch = mkdtempSync(join(tmpdir(), "reference-roots-http-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const TIMEOUT_MS = 60_000;

/** A curl-style file: a header, then two roots each under its title. */
function rootsFile(name: string): string {
  const path = join(scratch, name);
  writeFileSync(
    path,
    `##\n## Bundle of CA Root Certificates\n##\n\nRoot RSA\n========\n${certPem("root-rsa")}\nRoot EC\n=======\n${certPem("root-ec-p256")}`,
  );
  return path;
}

describe("GET /v1/reference-roots", () => {
  test("built-in: the snapshot's description, no-store; HEAD the same headers, no body", async () => {
    const { app } = testApp({ roots: mozillaRootStore() });
    const response = await call(app, "GET", "/v1/reference-roots");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await response.text();
    expect(JSON.parse(body)).toEqual(mozillaRootStore().describe());
    expect(JSON.parse(body)).toMatchObject({ source: "built-in", distrustDates: expect.any(Number) });
    const head = await call(app, "HEAD", "/v1/reference-roots");
    expect(head.status).toBe(200);
    expect(head.headers.get("cache-control")).toBe("no-store");
    expect(await head.text()).toBe("");
  });

  test(
    "equals `nettools roots --json` for the built-in store",
    async () => {
      const { app } = testApp({ roots: mozillaRootStore() });
      const http = await (await call(app, "GET", "/v1/reference-roots")).text();
      const cli = await runNettools(["roots", "--json"]);
      expect(cli.code).toBe(0);
      expect(cli.stdout).toBe(`${http}\n`);
    },
    TIMEOUT_MS,
  );

  test(
    "a file replacing the store: its name, its two roots, no dates; equal to `nettools roots --reference-roots FILE --json`",
    async () => {
      const path = rootsFile("company-roots.pem");
      const { app } = testApp({ roots: rootStoreFromFile(path).store });
      const http = await (await call(app, "GET", "/v1/reference-roots")).text();
      expect(JSON.parse(http)).toMatchObject({
        source: "file",
        version: "company-roots.pem",
        certificates: 2,
        distrustDates: 0,
      });
      const flag = await runNettools(["roots", "--reference-roots", path, "--json"]);
      expect(flag).toEqual({ code: 0, stdout: `${http}\n`, stderr: "" });
      const environment = await runNettools(["roots", "--json"], { env: { NETTOOLS_REFERENCE_ROOTS: path } });
      expect(environment).toEqual({ code: 0, stdout: `${http}\n`, stderr: "" });
    },
    TIMEOUT_MS,
  );
});

describe("nettools roots: a file that cannot replace the store stops the run, exit 2, one line", () => {
  test.each([
    ["--reference-roots", "missing.pem", "cannot read {path} (ENOENT)"],
    ["--reference-roots", "words.pem", "{path} holds no certificate"],
    ["NETTOOLS_REFERENCE_ROOTS", "missing.pem", "cannot read {path} (ENOENT)"],
  ])(
    "%s names %s",
    async (origin, file, reason) => {
      const path = join(scratch, file);
      if (file === "words.pem") writeFileSync(path, "# no certificate here\n");
      const ran =
        origin === "--reference-roots"
          ? await runNettools(["roots", "--reference-roots", path])
          : await runNettools(["roots"], { env: { NETTOOLS_REFERENCE_ROOTS: path } });
      expect(ran.code).toBe(2);
      expect(ran.stdout).toBe("");
      expect(ran.stderr).toBe(`error INVALID_INPUT: ${origin}: ${reason.replace("{path}", path)}\n`);
    },
    TIMEOUT_MS,
  );
});
