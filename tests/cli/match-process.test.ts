/**
 * `nettools match` and `nettools expand` as a shell runs them (CONTRACT §7.4's pipe rules): the
 * real process (files mapped, bytes written synchronously) gives grepcidr's bytes; a reader that
 * closes the pipe (`| head -1`) never brings a trace nor changes the exit status; a stdout that
 * cannot be written (/dev/full) is one line on stderr and exit 3; and on a 200,000-line access log,
 * the lines, `-c` and the exit status.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { nettoolsLine, runShell, scratchRunner } from "./run.ts";

const dir = mkdtempSync(join(tmpdir(), "nettools-match-process-"));
const FIXTURES = resolve(import.meta.dir, "../fixtures/match");
/** 60,000 lines, about 2 MB: far more than a pipe holds. */
const bigLog = join(dir, "big.log");
writeFileSync(
  bigLog,
  Array.from({ length: 60_000 }, (_, i) => `${i} client=10.${(i >> 8) & 255}.${i & 255}.1:443 GET /\n`).join(
    "",
  ),
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `nettools` followed by ARGS, a piece of a shell line. */
const nettools = (args: string) => `${nettoolsLine()} ${args}`;

describe("the real process", () => {
  test("match on the mixed log: grepcidr's bytes and status, default, -v, -c, -v -c", async () => {
    for (const flags of ["", "-v", "-c", "-v -c"]) {
      const args = `${flags} -f '${FIXTURES}/patterns-mixed.txt' '${FIXTURES}/mixed.log'`;
      const ours = await runShell(`${nettools(`match ${args}`)} 2>/dev/null`);
      const theirs = Bun.spawnSync(["bash", "-c", `grepcidr ${args} 2>/dev/null`]);
      expect(Buffer.from(ours.stdoutBytes).equals(Buffer.from(theirs.stdout))).toBe(true);
      expect(ours.code).toBe(theirs.exitCode);
    }
  });

  test("match | head -1: the first line, match's own status, nothing on stderr", async () => {
    const ran = await runShell(
      `${nettools(`match -e 10.0.0.0/8 '${bigLog}'`)} | head -1; echo "status=\${PIPESTATUS[0]}"`,
    );
    expect(ran.stdout).toBe("0 client=10.0.0.1:443 GET /\nstatus=0\n");
    expect(ran.stderr).toBe("");
    const only = await runShell(
      `${nettools(`match -o -e 10.0.0.0/8 '${bigLog}'`)} | head -1; echo "status=\${PIPESTATUS[0]}"`,
    );
    expect(only.stdout).toBe("10.0.0.1\nstatus=0\n");
    expect(only.stderr).toBe("");
    const none = await runShell(
      `${nettools(`match -e 192.0.2.0/24 '${bigLog}'`)} | head -1; echo "status=\${PIPESTATUS[0]}"`,
    );
    expect(none.stdout).toBe("status=1\n");
  });

  test("expand | head -1: the first address, status 0, nothing on stderr", async () => {
    const ran = await runShell(
      `${nettools("expand 10.0.0.0/8 --max 16777216")} | head -1; echo "status=\${PIPESTATUS[0]}"`,
    );
    expect(ran.stdout).toBe("10.0.0.0\nstatus=0\n");
    expect(ran.stderr).toBe("");
  });

  test("> /dev/full: one line naming the failure, exit 3 (match, match -c, expand)", async () => {
    for (const args of [
      `match -e 10.0.0.0/8 '${bigLog}'`,
      `match -c -e 10.0.0.0/8 '${bigLog}'`,
      "expand 10.0.0.0/16",
    ]) {
      const ran = await runShell(`${nettools(args)} > /dev/full`);
      expect([args, ran.code, ran.stderr]).toEqual([args, 3, "nettools: cannot write the output (ENOSPC)\n"]);
    }
  });

  test("the main help lists expand", async () => {
    expect((await runShell(nettools("--help"))).stdout).toMatch(
      /\n {2}expand +every address of addresses, CIDRs and ranges/,
    );
  });
});

describe("match through the real process", () => {
  const scratch = scratchRunner("nettools-match-lines-");
  const log = scratch.file(
    "access.log",
    Array.from({ length: 200_000 }, (_, i) => `${i} 10.${(i >> 8) & 255}.${i & 255}.1 GET /`).join("\n"),
  );

  test("lines, -c and the exit status", async () => {
    const ran = await scratch.nettools(["match", "-e", "10.0.0.0/16", log]);
    expect(ran.code).toBe(0);
    // 10.0.x.1 for i below 256 in each 65536: four runs of 256 lines
    expect(ran.stdout.split("\n").length - 1).toBe(4 * 256);
    expect((await scratch.nettools(["match", "-c", "-e", "10.0.0.0/24", log])).stdout).toBe("4\n");
    expect((await scratch.nettools(["match", "-e", "192.0.2.0/24", log])).code).toBe(1);
  });

  test("a closed pipe (| head -1) ends it quietly with its own exit status", async () => {
    const script = `${nettoolsLine(["match", "-e", "10.0.0.0/8", join(scratch.dir, log)])} | head -1; echo "status=\${PIPESTATUS[0]}"`;
    const ran = await runShell(script);
    expect(ran.stdout).toBe("0 10.0.0.1 GET /\nstatus=0\n");
    expect(ran.stderr).toBe("");
  });
});
