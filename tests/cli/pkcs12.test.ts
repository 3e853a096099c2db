/**
 * PKCS#12 files in `cert`, `chain` and `key-match` (CONTRACT §10.3), as processes: files from
 * `openssl pkcs12 -export` (default and `-legacy`) read by content from a file and from stdin, the
 * certificates used as a bundle in file order (openssl's own order is the oracle), the key only by
 * key-match; the password only through --passin, never printed; a wrong or missing one refused
 * in one line; a 20,000,000-iteration file refused in well under a second; a legacy file without
 * openssl on PATH answered with the command that converts it.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAX_PKCS12_ITERATIONS, readPkcs12 } from "../../src/local/pkcs12.ts";
import { openssl } from "../support/openssl-ca.ts";
import { makePkcs12Files, P12_PASSWORD, type Pkcs12Files } from "../support/pkcs12-files.ts";
import { CLI, type Ran, runNettools, runProcess } from "./run.ts";

let files: Pkcs12Files;
let passFile = "";
const ENV = { P12PW: P12_PASSWORD };

beforeAll(() => {
  files = makePkcs12Files();
  passFile = join(files.dir, "password.txt");
  writeFileSync(passFile, `${P12_PASSWORD}\n`);
}, 60_000);

/** The key's base64 body lines, none of which may be printed. */
const keyLines = () =>
  files.keyPem.split("\n").filter((line) => line.length > 20 && !line.startsWith("-----"));

function neverLeaks(ran: Ran): void {
  const out = ran.stdout + ran.stderr;
  expect(out).not.toContain(P12_PASSWORD);
  for (const line of keyLines()) expect(out).not.toContain(line);
}

/** Subjects of openssl's own reading of the file, in its order. */
function opensslSubjects(path: string, legacy: boolean): string[] {
  const pem = openssl([
    "pkcs12",
    "-in",
    path,
    "-nokeys",
    "-passin",
    `pass:${P12_PASSWORD}`,
    ...(legacy ? ["-legacy"] : []),
  ]);
  return [...pem.matchAll(/^subject=(.*)$/gm)].map((m) => m[1]!.trim());
}

describe("PKCS#12 in cert, chain and key-match", () => {
  test("cert reads the default and the legacy file: the certificates in openssl's order", async () => {
    for (const [path, legacy] of [
      [files.modern, false],
      [files.legacy, true],
    ] as const) {
      const ran = await runNettools(["cert", "--json", "--passin", "env:P12PW", path], { env: ENV });
      neverLeaks(ran);
      const subjects = JSON.parse(ran.stdout).certificates.map((c: { subject: string }) => c.subject);
      const oracle = opensslSubjects(path, legacy);
      expect(oracle).toHaveLength(2);
      // openssl prints "CN = x, O = y"; compare the CN values in order.
      expect(subjects.map((s: string) => /CN=([^,]+)/.exec(s)?.[1])).toEqual(
        oracle.map((s) => /CN ?= ?([^,/]+)/.exec(s)?.[1]?.trim()),
      );
    }
  }, 30_000);

  test("chain from stdin with the password in a file; --fix writes the chain as PEM", async () => {
    const stdin = new Uint8Array(readFileSync(files.modern));
    const ran = await runProcess(
      [process.execPath, CLI, "chain", "--fix", "--passin", `file:${passFile}`, "-"],
      { stdin },
    );
    neverLeaks({ code: ran.code, stdout: ran.stdout, stderr: ran.stderr });
    expect(ran.stdout).toStartWith("-----BEGIN CERTIFICATE-----");
    expect(ran.stdout).not.toContain("PRIVATE KEY");
    expect(ran.stdout).toContain(files.certificatesPem.split("\n")[1]!);
  });

  test("key-match compares the file's key by SPKI with its certificates, never printing it", async () => {
    for (const path of [files.modern, files.legacy]) {
      const ran = await runNettools(["key-match", "--json", "--passin", "env:P12PW", "-c", path], {
        env: ENV,
      });
      neverLeaks(ran);
      expect(ran.code).toBe(0);
      expect(JSON.parse(ran.stdout)).toMatchObject({ match: true, matchingCertificateIndexes: [0] });
    }
  });

  test("no password: the empty one is tried (a file exported with it reads); a protected one is refused", async () => {
    const open = await runNettools(["cert", "--json", files.unprotected]);
    expect(open.code).toBe(0);
    const closed = await runNettools(["cert", files.modern]);
    expect(closed.code).toBe(2);
    expect(closed.stderr).toContain("--passin");
    const wrong = await runNettools(["cert", "--passin", "env:P12PW", files.modern], {
      env: { P12PW: "not-it" },
    });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("password is wrong");
    expect(wrong.stderr).not.toContain("not-it");
  });

  test("20,000,000 iterations: refused before any work, in well under a second", async () => {
    const bytes = readFileSync(files.tooManyIterations);
    const started = performance.now();
    const read = await readPkcs12(bytes, P12_PASSWORD, true);
    const elapsed = performance.now() - started;
    expect(read).toMatchObject({ ok: false, kind: "iterations" });
    expect(elapsed).toBeLessThan(100);
    expect(MAX_PKCS12_ITERATIONS).toBe(10_000_000);
    const ran = await runNettools(["cert", "--passin", "env:P12PW", files.tooManyIterations], { env: ENV });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain("10,000,000");
  });

  test("a legacy file without openssl on PATH: one line naming the command that converts it", async () => {
    const empty = mkdtempSync(join(tmpdir(), "nettools-no-openssl-"));
    const ran = await runNettools(["cert", "--passin", "env:P12PW", files.legacy], {
      env: { ...ENV, PATH: empty },
    });
    expect(ran.code).toBe(2);
    expect(ran.stderr.trim().split("\n")).toHaveLength(1);
    expect(ran.stderr).toContain("openssl pkcs12 -legacy -in");
    neverLeaks(ran);
  });

  test("the password reaches openssl in its environment, never on its command line", async () => {
    const dir = mkdtempSync(join(tmpdir(), "nettools-fake-openssl-"));
    const record = join(dir, "argv.txt");
    writeFileSync(join(dir, "openssl"), `#!/bin/sh\nprintf '%s\\n' "$@" > ${record}\nexit 1\n`, {
      mode: 0o755,
    });
    const ran = await runNettools(["cert", "--passin", "env:P12PW", files.legacy], {
      env: { ...ENV, PATH: `${dir}:/usr/bin:/bin` },
    });
    expect(ran.code).toBe(2);
    const argv = readFileSync(record, "utf8");
    expect(argv).toContain("-legacy");
    expect(argv).toContain("env:");
    expect(argv).not.toContain(P12_PASSWORD);
    neverLeaks(ran);
  });
});
