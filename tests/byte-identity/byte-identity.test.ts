/**
 * Byte identity across a refactoring of the edge (issue 32, "what it must show"): the OpenAPI
 * document as served, the client package's declarations as its build script writes them, and a
 * representative run of every `nettools` command (stdout, stderr and exit code) are compared byte
 * for byte with what `main` produced before the change, captured in fixtures/ by this same file.
 *
 * When a change is meant to alter one of them (a new operation, a reworded help text), re-capture
 * and review the diff: `UPDATE_BYTE_IDENTITY=1 bun test tests/byte-identity/byte-identity.test.ts`.
 * A run without that variable never writes: it only compares.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { CLI, runProcess } from "../cli/run.ts";
import { testApp } from "../http/helpers.ts";

const ROOT = resolve(import.meta.dir, "../..");
const FIXTURES = join(import.meta.dir, "fixtures");
/** Inputs by their path from the checkout's root, the runs' directory: no output names the checkout. */
const INPUTS = "tests/byte-identity/inputs";
const CERTS = "tests/fixtures/client-rules";
const UPDATE = process.env.UPDATE_BYTE_IDENTITY === "1";

/** Compares `actual` with the fixture `name`, or (UPDATE_BYTE_IDENTITY=1) writes it. */
function expectFixture(name: string, actual: string): void {
  const file = join(FIXTURES, name);
  if (UPDATE) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  if (!existsSync(file)) throw new Error(`no fixture ${name}: capture it with UPDATE_BYTE_IDENTITY=1`);
  expect(actual).toBe(readFileSync(file, "utf8"));
}

/** One `nettools` run: its fixture's name, its arguments and what it reads on stdin. */
interface CliCase {
  readonly name: string;
  readonly args: readonly string[];
  readonly stdin?: string;
}

const AT = ["--at", "2026-06-01T00:00:00Z"];
const LIST = "10.0.0.0/24\n10.0.1.0/24\n192.168.7.0/25\n2001:db8::/48\n2001:db8:1::/48\n";

/** Every command, in its text and `--json` forms where it has both, and its help text. */
const CLI_CASES: readonly CliCase[] = [
  { name: "help", args: ["--help"] },
  { name: "version", args: ["--version"] },
  { name: "unknown-command", args: ["frobnicate"] },
  { name: "cover", args: ["cover", "10.0.0.0/24", "10.0.3.7"] },
  { name: "cover-json", args: ["cover", "--json", "10.0.0.0/24", "10.0.3.7", "10.9.0.0/16"] },
  { name: "subtract", args: ["subtract", "10.0.0.0/16", "-x", "10.0.1.0/24", "-x", "10.0.200.0/21"] },
  {
    name: "subtract-json",
    args: ["subtract", "--json", "2001:db8::/32", "-x", "2001:db8:8000::/33", "-x", "2001:db8::/48"],
  },
  { name: "merge", args: ["merge", "-"], stdin: LIST },
  { name: "merge-json", args: ["merge", "--json", "-"], stdin: `${LIST}10.0.2.0/23\n` },
  {
    name: "merge-exclude-special",
    args: ["merge", "--json", "--exclude-reserved", "10.0.0.0/7", "2001::/15"],
  },
  { name: "diff", args: ["diff", "-", join(INPUTS, "b.txt")], stdin: LIST },
  { name: "diff-json", args: ["diff", "--json", "-", join(INPUTS, "b.txt")], stdin: LIST },
  { name: "common", args: ["common", "-", join(INPUTS, "b.txt")], stdin: LIST },
  { name: "split", args: ["split", "10.0.0.0/22", "26"] },
  { name: "split-json", args: ["split", "--json", "2001:db8::/56", "60"] },
  { name: "split-large-json", args: ["split", "--json", "10.0.0.0/14", "24"] },
  { name: "range", args: ["range", "10.0.0.3", "10.0.1.77"] },
  { name: "range-json", args: ["range", "--json", "2001:db8::5-2001:db8::1:0"] },
  { name: "expand", args: ["expand", "192.0.2.0/29", "2001:db8::/126"] },
  { name: "match", args: ["match", "10.0.0.0/8", "-"], stdin: "a 10.1.2.3 x\nb 192.0.2.1\nc 10.255.0.1\n" },
  {
    name: "alloc",
    args: ["alloc", "-l", "24", "10.0.0.0/20", "--used", "-"],
    stdin: "10.0.0.0/24\n10.0.2.0/23\n",
  },
  {
    name: "alloc-json",
    args: ["alloc", "--json", "-l", "26", "-n", "3", "10.0.0.0/22", "--used", "-"],
    stdin: "10.0.0.0/25\n",
  },
  { name: "usage", args: ["usage", "10.0.0.0/16", "--used", "-"], stdin: "10.0.0.0/24\n10.0.8.0/21\n" },
  { name: "usage-json", args: ["usage", "--json", "10.0.0.0/16", "--used", "-"], stdin: "10.0.0.0/24\n" },
  { name: "subnets", args: ["subnets", "10.0.0.0/16", "8", "8", "4"] },
  { name: "subnets-json", args: ["subnets", "--json", "2001:db8::/48", "16", "8", "16"] },
  { name: "rdns", args: ["rdns", "100.64.0.0/10", "192.0.2.64/26", "2001:db8::/30"] },
  { name: "rdns-json", args: ["rdns", "--json", "192.168.0.0/17"] },
  { name: "info", args: ["info", "192.168.1.77/20"] },
  { name: "info-json", args: ["info", "--json", "2001:db8::1"] },
  { name: "cert", args: ["cert", ...AT, join(CERTS, "chains/days-200-2026.pem")] },
  { name: "cert-json", args: ["cert", "--json", ...AT, join(CERTS, "chains/days-200-2026.pem")] },
  {
    name: "chain",
    args: ["chain", ...AT, "--roots", join(CERTS, "certs/root.pem"), join(CERTS, "chains/days-200-2026.pem")],
  },
  {
    name: "chain-json",
    args: [
      "chain",
      "--json",
      ...AT,
      "--roots",
      join(CERTS, "certs/root.pem"),
      join(CERTS, "chains/days-200-2026.pem"),
    ],
  },
  { name: "csr", args: ["csr", join(INPUTS, "request.csr")] },
  { name: "csr-json", args: ["csr", "--json", join(INPUTS, "request.csr")] },
  { name: "crl", args: ["crl", ...AT, join(INPUTS, "list.crl")] },
  { name: "crl-json", args: ["crl", "--json", ...AT, join(INPUTS, "list.crl")] },
  { name: "roots", args: ["roots"] },
  { name: "roots-json", args: ["roots", "--json"] },
  { name: "key-match", args: ["key-match", "-c", join(INPUTS, "ca.pem"), "-r", join(INPUTS, "request.csr")] },
  { name: "myip-without-server", args: ["myip"] },
  { name: "split-invalid", args: ["split", "10.0.0.0/33", "24"] },
  { name: "split-invalid-json", args: ["split", "--json", "10.0.0.0/8", "40"] },
  ...[
    "cover",
    "subtract",
    "merge",
    "diff",
    "common",
    "split",
    "range",
    "expand",
    "match",
    "alloc",
    "usage",
    "subnets",
    "rdns",
    "info",
    "cert",
    "chain",
    "csr",
    "crl",
    "roots",
    "key-match",
    "myip",
    "serve",
  ].map((command) => ({ name: `${command}-help`, args: [command, "--help"] })),
];

/** A run as one text: exit code, then stdout and stderr, each marked. */
async function runText({ args, stdin }: CliCase): Promise<string> {
  const ran = await runProcess([process.execPath, CLI, ...args], {
    ...(stdin === undefined ? {} : { stdin }),
    env: { TZ: "UTC", LANG: "C", NO_COLOR: "1" },
    cwd: ROOT,
    timeoutMs: 30_000,
  });
  return `exit ${ran.code}\n--- stdout\n${ran.stdout}--- stderr\n${ran.stderr}`;
}

describe("byte identity before and after a refactoring (issue 32)", () => {
  test("the OpenAPI document as served, byte for byte", async () => {
    const { app } = testApp();
    const response = await app.handle(new Request("http://localhost/docs/json"));
    expect(response.status).toBe(200);
    expectFixture("openapi.json.txt", await response.text());
  });

  test("the client package's declarations as its build script writes them", () => {
    const built = Bun.spawnSync([process.execPath, "scripts/build-client-package.ts"], {
      cwd: ROOT,
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(built.exitCode).toBe(0);
    expectFixture("client-index.d.ts.txt", readFileSync(join(ROOT, "packages/client/index.d.ts"), "utf8"));
  }, 60_000);

  test("every nettools command's representative output, stdout, stderr and exit code", async () => {
    // Four at a time: each run is a process of its own.
    const outputs = new Map<string, string>();
    for (let i = 0; i < CLI_CASES.length; i += 4) {
      const batch = CLI_CASES.slice(i, i + 4);
      const texts = await Promise.all(batch.map(runText));
      for (const [k, cliCase] of batch.entries()) outputs.set(cliCase.name, texts[k]!);
    }
    // Every case ran to an answer (none killed by the time limit: that would be exit -1 or 137).
    for (const [name, text] of outputs)
      expect({ name, exit: /^exit ([0-3])\n/.test(text) }).toEqual({ name, exit: true });
    for (const [name, text] of outputs) expectFixture(`cli/${name}.txt`, text);
  }, 240_000);
});
