/**
 * `nettools csr`, spawned as a user runs it (CONTRACT §8.2): the text and `--json` forms (the
 * API's answer, in this process or with --server), `-c` with the files people have, exit codes,
 * and a private key refused before anything is sent.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningServer, startServer } from "../e2e/server.ts";
import { keyFixture, keyFixturePath } from "../fixtures/key-fixtures.ts";
import { postForText, runNettools } from "./run.ts";

const scratch = mkdtempSync(join(tmpdir(), "nettools-csr-"));
let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

const nettools = (args: string[], options: { stdin?: string; env?: Record<string, string> } = {}) =>
  runNettools(args, { ...options, cwd: scratch, env: { NO_COLOR: "1", ...options.env } });
const r = (name: string) => keyFixturePath(`requests/${name}.pem`);
const c = (name: string) => keyFixturePath(`certs/${name}.pem`);

describe("nettools csr", () => {
  test("a good request and its certificate: the fields, no problems, the match; exit 0", async () => {
    const ran = await nettools(["csr", "-c", c("p256"), "-c", c("ca"), r("p256")]);
    expect(ran.code).toBe(0);
    expect(ran.stderr).toBe("");
    expect(ran.stdout).toContain("subject          CN=www.example.com,O=Network Tools Fixtures,C=US\n");
    expect(ran.stdout).toContain(
      "requested names  DNS:www.example.com, DNS:example.com, IP:192.0.2.10, IP:2001:db8::10\n",
    );
    expect(ran.stdout).toContain("key              EC P-256 256 bits\n");
    expect(ran.stdout).toContain("signature        ecdsa-with-SHA256, verified\n");
    expect(ran.stdout).toContain("No problems.");
    expect(ran.stdout).toEndWith("The request's key is in certificate #0.\n");
  });

  test("what a CA refuses: the problems with the clients that refuse them; exit 1", async () => {
    const ran = await nettools(["csr", r("rsa-1024-nosan-sha1")]);
    expect(ran.code).toBe(1);
    expect(ran.stdout).toContain("ERROR (2)\n  NO_SUBJECT_ALT_NAME\n");
    expect(ran.stdout).toContain("Refused by: Chrome, Apple (Safari, macOS, iOS), Go.");
    expect(ran.stdout).toContain("RSA 1024 bits");
    expect(ran.stdout).toContain("WARNING (1)\n  CSR_SIGNATURE_SHA1\n");
  });

  test("exit 1 for a failed signature, and for certificates that do not hold the key", async () => {
    expect((await nettools(["csr", r("tampered")])).code).toBe(1);
    const other = await nettools(["csr", "-c", c("other"), r("p256")]);
    expect(other.stdout).toEndWith("No certificate holds the request's key.\n");
    expect(other.code).toBe(1);
    // A warning alone (SHA-1) does not fail the command.
    expect((await nettools(["csr", r("ecdsa-sha1")])).code).toBe(0);
  });

  test("--json is the API's answer: in this process, with --server, and from the server itself", async () => {
    const body = { pem: keyFixture("requests/p256.pem"), certificatePem: keyFixture("certs/p256.pem") };
    const local = await nettools(["csr", "--json", "-c", c("p256"), r("p256")]);
    const remote = await nettools(["csr", "--json", "--server", server.url, "-c", c("p256"), "-"], {
      stdin: body.pem,
    });
    const direct = await postForText(server.url, "/v1/csr", body);
    expect(JSON.parse(local.stdout)).toEqual(JSON.parse(direct));
    expect(remote.stdout).toBe(local.stdout);
    expect(local.code).toBe(0);
    expect(remote.code).toBe(0);
  });

  test("a HAProxy file as -c: its key set aside with a notice, never read or sent", async () => {
    const ran = await nettools([
      "csr",
      "--server",
      server.url,
      "-c",
      keyFixturePath("files/haproxy.pem"),
      r("p256"),
    ]);
    expect(ran.stderr).toContain("a private key (block 2, line ");
    expect(ran.stderr).toContain("was set aside: it is not read, sent or shown");
    expect(ran.stdout).toEndWith("The request's key is in certificate #0.\n");
    expect(ran.code).toBe(0);
  });

  test("a key in the request file is refused before any request (the server is unreachable): exit 2", async () => {
    const ran = await nettools(["csr", "--server", "http://127.0.0.1:9", "-"], {
      stdin: keyFixture("requests/p256.pem") + keyFixture("keys/p256.pem"),
    });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain("private key material is not accepted");
  });

  test("a certificate where the request goes: exit 2, the line shown from the user's own file", async () => {
    const ran = await nettools(["csr", c("p256")]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('PEM blocks labelled "CERTIFICATE" are not accepted');
    expect(ran.stderr).toContain("1 | -----BEGIN CERTIFICATE-----");
  });

  test("usage: exactly one request file", async () => {
    const ran = await nettools(["csr"]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('csr needs exactly one request file, or "-" for stdin');
  });
});
