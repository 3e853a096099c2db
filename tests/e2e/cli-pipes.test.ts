/**
 * `nettools … | head -1` (CONTRACT §7.4): a reader that closes the pipe early never makes a command
 * print an error or a stack trace, and never changes the exit code the command would have had.
 * A stdout that cannot be written at all (a full disk, /dev/full) is one line on stderr and exit 3.
 * Every command is run through a real shell pipe, against a real server where it needs one.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nettoolsLine, runNettools, runShell } from "../cli/run.ts";
import { chainPath } from "../fixtures/fixtures.ts";
import { type RunningServer, startServer } from "./server.ts";

let server: RunningServer;
let dir: string;
/** 40,000 /32s that merge into nothing: about 600 KB of output, far more than a pipe holds. */
let bigList: string;

beforeAll(async () => {
  server = await startServer();
  dir = mkdtempSync(join(tmpdir(), "nettools-pipes-"));
  bigList = join(dir, "scattered.txt");
  const lines: string[] = [];
  for (let i = 0; i < 40_000; i++) lines.push(`10.${(i >> 8) & 255}.${i & 255}.${(i % 2) * 2}`);
  writeFileSync(bigList, `${lines.join("\n")}\n`);
});

afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `nettools ARGS | head -1` in bash; returns nettools' own exit status, what head printed, and stderr. */
async function throughHead(args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const { stdout, stderr: trailer } = await runShell(
    `${nettoolsLine(args)} 2>"$ERR" | head -1; echo "status=\${PIPESTATUS[0]}" >&2`,
    { env: { ERR: join(dir, "stderr.txt") } },
  );
  const status = Number(/status=(\d+)/.exec(trailer)?.[1] ?? -1);
  const stderr = await Bun.file(join(dir, "stderr.txt")).text();
  return { status, stdout, stderr };
}

describe("a closed stdout (| head -1)", () => {
  const commands: [string, () => string[]][] = [
    ["merge (600 KB of output)", () => ["merge", "--plain", "-f", bigList]],
    ["merge, table form", () => ["merge", "-f", bigList]],
    ["subtract", () => ["subtract", "-f", bigList, "-x", "10.0.0.0/24"]],
    ["cover", () => ["cover", "-f", bigList]],
    ["range", () => ["range", "::", "-", "ffff:ffff::1"]],
    ["split (65,536 lines)", () => ["split", "10.0.0.0/8", "24"]],
    ["match (exit 0: lines matched)", () => ["match", "-e", "10.0.0.0/16", bigList]],
    ["match -v (exit 1: nothing left)", () => ["match", "-v", "-e", "10.0.0.0/8", bigList]],
    ["alloc", () => ["alloc", "-l", "24", "-n", "500", "10.0.0.0/8"]],
    ["alloc (exit 1: the pool is full)", () => ["alloc", "-l", "9", "-n", "3", "10.0.0.0/8"]],
    ["diff (exit 1: the lists differ)", () => ["diff", bigList, "-"]],
    ["common --format nft", () => ["common", "--format", "nft", bigList, bigList]],
    ["merge -x (the excluded blocks on stderr)", () => ["merge", "-x", "-f", bigList, "8.8.8.8"]],
    ["info", () => ["info", "10.0.0.0/8"]],
    ["cert (exit 1: the chain's findings)", () => ["cert", chainPath("missing-intermediate")]],
    ["chain (exit 1: incomplete)", () => ["chain", chainPath("missing-intermediate")]],
    [
      "chain --fix --partial (the incomplete chain's PEM on stdout)",
      () => ["chain", "--fix", "--partial", chainPath("missing-intermediate")],
    ],
    ["myip", () => ["myip", "--server", server.url]],
    ["--help", () => ["--help"]],
    ["an invalid entry (exit 2)", () => ["cover", "10.0.0.256"]],
  ];

  test.each(commands)(
    "%s: no error printed, the command's own exit status",
    async (_name, args) => {
      const direct = await runNettools(args());
      const piped = await throughHead(args());
      expect(piped.status).toBe(direct.code);
      // The two runs differ only in the instant a certificate answer is evaluated at.
      const instant = /evaluated at\s+\S+/g;
      expect(piped.stderr.replace(instant, "<now>")).toBe(direct.stderr.replace(instant, "<now>"));
      expect(piped.stderr).not.toMatch(/EPIPE|at .*\.ts:\d+|^\s+at /m);
      expect(piped.stdout).toBe(direct.stdout.split("\n")[0] + (direct.stdout.includes("\n") ? "\n" : ""));
    },
    60_000,
  );
});

describe("a slow reader (a full pipe now and then)", () => {
  test("match writes every line, however slowly the pipe drains", async () => {
    const quoted = nettoolsLine(["match", "-e", "10.0.0.0/8", bigList]);
    const { stdout: counted } = await runShell(`${quoted} | (sleep 0.5; wc -l)`);
    expect(Number(counted.trim())).toBe(40_000);
  }, 60_000);
});

describe("an unwritable stdout (/dev/full)", () => {
  test("one line on stderr naming the failure, exit 3, no stack trace", async () => {
    const { stderr, code } = await runShell(
      `${nettoolsLine(["merge", "--plain", "-f", bigList])} > /dev/full`,
    );
    expect(code).toBe(3);
    expect(stderr).toBe("nettools: cannot write the output (ENOSPC)\n");
  }, 60_000);
});
