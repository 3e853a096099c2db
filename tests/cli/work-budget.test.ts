/**
 * Local work is bounded too (CONTRACT §7.3): the hostile bundles of issue 24's attack, run by the
 * real CLI process. `nettools chain` on a 22-certificate cross-signing ring and `nettools cert` on
 * 500 same-name P-521 CAs each end within the budget (`--timeout`, default 10 s) with one line
 * and exit 3, and the process's peak resident size stays under 512 MB. The inputs are made in
 * the test with WebCrypto (tests/support/crafted-certificates.ts).
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crossSigningRing, sameNameP521Cas } from "../support/crafted-certificates.ts";
import { CLI, type Measured, runProcess } from "./run.ts";

const MB = 1024 * 1024;
/** What the process may add to the budget: starting Bun and loading the CLI on a busy machine. */
const STARTUP_SLACK_MS = 2_000;

const scratch = mkdtempSync(join(tmpdir(), "nettools-budget-"));
let ring: string;
let sameName: string;
beforeAll(async () => {
  ring = join(scratch, "ring-22.pem");
  writeFileSync(ring, await crossSigningRing(21));
  sameName = join(scratch, "same-name-p521-500.pem");
  writeFileSync(sameName, await sameNameP521Cas(500));
}, 60_000);

/** The CLI run and measured (wall time, peak resident size). */
const measured = (args: string[]): Promise<Measured> => runProcess([process.execPath, CLI, ...args]);

function expectStoppedInBudget(ran: Measured, seconds: number): void {
  expect(ran.code).toBe(3);
  expect(ran.stdout).toBe("");
  const lines = ran.stderr.trimEnd().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(
    /^error: stopped at the (time limit \(\d+(\.\d+)? s; --timeout SECONDS sets it\)|memory limit \(\d+ MB\)) (after|while) .*; no verdict$/,
  );
  expect(ran.wallMs).toBeLessThan(seconds * 1000 + STARTUP_SLACK_MS);
  expect(ran.maxRssBytes).toBeLessThan(512 * MB);
}

describe("the work budget of in-process certificate runs", () => {
  test("chain on a 22-certificate cross-signing ring, --timeout 1", async () => {
    const ran = await measured(["chain", "--timeout", "1", ring]);
    expectStoppedInBudget(ran, 1);
    expect(ran.stderr).toContain("time limit (1 s;");
    expect(ran.stderr).toContain("after all 22 signature checks, while searching for the best path");
  }, 30_000);

  test("chain --fix -o on the ring writes nothing when it stops", async () => {
    const output = join(scratch, "never.pem");
    const ran = await measured(["chain", "--fix", "-o", output, "--timeout", "1", ring]);
    expectStoppedInBudget(ran, 1);
    expect(await Bun.file(output).exists()).toBe(false);
  }, 30_000);

  test("cert on 500 same-name P-521 CAs, --timeout 1: how many of the 250,000 checks were done", async () => {
    const ran = await measured(["cert", "--timeout", "1", sameName]);
    expectStoppedInBudget(ran, 1);
    expect(ran.stderr).toMatch(/after \d+ of 250000 signature checks; no verdict/);
  }, 30_000);

  test("at the default budget (10 s): cert on the 500 CAs and chain on the ring", async () => {
    for (const args of [
      ["cert", sameName],
      ["chain", ring],
    ]) {
      const ran = await measured(args);
      expectStoppedInBudget(ran, 10);
    }
  }, 60_000);

  test("the budget covers the connection: a server that never answers", async () => {
    const silent = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    try {
      const ran = await measured(["cert", "--timeout", "1", "--connect", `127.0.0.1:${silent.port}`]);
      expect(ran.code).toBe(3);
      expect(ran.stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(ran.wallMs).toBeLessThan(1000 + STARTUP_SLACK_MS);
    } finally {
      silent.stop(true);
    }
  }, 30_000);

  test("--timeout must be a number of seconds", async () => {
    for (const bad of ["0", "-1", "ten", "1e3", "86401"]) {
      const ran = await measured(["cert", "--timeout", bad, ring]);
      expect([bad, ran.code]).toEqual([bad, 2]);
      // "-1" reads as an option to the argument parser, which refuses it first.
      if (bad !== "-1") expect(ran.stderr).toContain("--timeout must be a number of seconds");
    }
  }, 30_000);
});
