/**
 * `nettools match` (CONTRACT §7.4, issue 18): grepcidr's habits with the API's address rules,
 * rule by rule through the command with a fake Io, then against Debian's grepcidr on generated logs
 * (bench/gen-match-log.py), default, -v and -c, byte for byte.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Io } from "../../src/cli/io.ts";
import { match } from "../../src/cli/match.ts";

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `match ARGS` against in-memory files (and stdin). */
async function run(args: string[], files: Record<string, string>, stdin = ""): Promise<Ran> {
  let stdout = "";
  let stderr = "";
  const io: Io = {
    argv: [],
    env: {},
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    stdoutIsTty: false,
    stderrIsTty: false,
    readStdin: async () => stdin,
    readFile: async (path) => {
      const text = files[path];
      if (text === undefined) throw Object.assign(new Error("missing"), { code: "ENOENT" });
      return text;
    },
  };
  const code = await match(args, io);
  return { code, stdout, stderr };
}

const BLOCKS = "10.0.0.0/8\n192.168.1.0/24  # lan\n\n# lab\n2001:db8::/32\n";

describe("match, rule by rule", () => {
  const log = [
    "a 10.1.2.3 x", // inside 10/8
    "b 11.0.0.1", // an address, outside
    "no address here",
    "c,192.168.1.7,d", // commas split fields
    "d\t2001:DB8::5 e", // IPv6, any case, tab
    "e host=10.0.0.1", // not a whole field
    "f 10.0.0.0/7", // a CIDR field wider than the block: not inside
    "g 10.2.0.0/16", // a CIDR field inside
    "h ::ffff:10.0.0.1", // IPv4-mapped IPv6 is IPv6, not inside 10/8
    "i 010.0.0.1", // leading zero: not an address
    "j 11.0.0.1 10.9.9.9", // one of two fields inside
  ].join("\n");

  test("prints the lines in which a field lies wholly inside a block, in order; exit 0", async () => {
    const ran = await run(["-f", "blocks", "log"], { blocks: BLOCKS, log: `${log}\n` });
    expect(ran).toEqual({
      code: 0,
      stdout: "a 10.1.2.3 x\nc,192.168.1.7,d\nd\t2001:DB8::5 e\ng 10.2.0.0/16\nj 11.0.0.1 10.9.9.9\n",
      stderr: "",
    });
  });

  test("-v prints the lines with an address but none inside; a line with no address never", async () => {
    const ran = await run(["-v", "-f", "blocks", "log"], { blocks: BLOCKS, log });
    expect(ran.stdout).toBe("b 11.0.0.1\nf 10.0.0.0/7\nh ::ffff:10.0.0.1\n");
    expect(ran.code).toBe(0);
  });

  test("-c counts the lines that would be printed, -v too", async () => {
    expect((await run(["-c", "-f", "blocks", "log"], { blocks: BLOCKS, log })).stdout).toBe("5\n");
    expect((await run(["-vc", "-f", "blocks", "log"], { blocks: BLOCKS, log })).stdout).toBe("3\n");
  });

  test("exit 1 when no line is selected, with or without -c; a file of no addresses selects nothing with -v", async () => {
    const none = await run(["-f", "blocks", "log"], { blocks: BLOCKS, log: "x 8.8.8.8\nnothing\n" });
    expect(none).toEqual({ code: 1, stdout: "", stderr: "" });
    expect(await run(["-c", "-e", "10.0.0.0/8", "log"], { log: "8.8.8.8\n" })).toEqual({
      code: 1,
      stdout: "0\n",
      stderr: "",
    });
    expect((await run(["-v", "-e", "10.0.0.0/8", "log"], { log: "no\naddress\n" })).code).toBe(1);
  });

  test("blocks on the command line (-e, split on whitespace and commas) and the log on stdin", async () => {
    const ran = await run(
      ["-e", "10.0.0.0/8, 2001:db8::/32", "-"],
      {},
      "1 10.0.0.1\r\n2 8.8.8.8\r\n3 2001:db8::1",
    );
    expect(ran).toEqual({ code: 0, stdout: "1 10.0.0.1\r\n3 2001:db8::1\n", stderr: "" });
  });

  test("nested and duplicate blocks: each line is printed once", async () => {
    const ran = await run(
      ["-e", "10.0.0.0/8 10.1.0.0/16 10.1.0.0/16 10.1.2.3"],
      {},
      "10.1.2.3\n10.1.2.4\n10.2.0.0\n",
    );
    expect(ran.stdout).toBe("10.1.2.3\n10.1.2.4\n10.2.0.0\n");
  });

  test("an invalid block is exit 2 with its place; netmask notation names the CIDR to write", async () => {
    const ran = await run(["-f", "blocks", "log"], {
      blocks: "10.0.0.0/8\n10.0.0.0/255.255.255.0\n",
      log: "10.0.0.1\n",
    });
    expect(ran.code).toBe(2);
    expect(ran.stdout).toBe("");
    expect(ran.stderr).toContain("blocks:2: ");
    expect(ran.stderr).toContain("write the prefix length instead: 10.0.0.0/24");
    const missing = await run(["-f", "nope", "log"], { log: "" });
    expect(missing).toEqual({ code: 2, stdout: "", stderr: "error: nope: no such file\n" });
  });

  test("without blocks it is a usage error", async () => {
    await expect(run(["log"], { log: "" })).rejects.toThrow("match needs blocks");
    await expect(run(["-f", "-", "-"], {})).rejects.toThrow("stdin");
  });
});

describe("match against Debian's grepcidr", () => {
  const dir = mkdtempSync(join(tmpdir(), "nettools-match-"));
  const generator = resolve(import.meta.dir, "../../bench/gen-match-log.py");
  const cases = [
    { lines: 20000, blocks: 300, seed: 1 },
    { lines: 5000, blocks: 20, seed: 2 },
    { lines: 5000, blocks: 2000, seed: 3 },
  ];

  for (const { lines, blocks, seed } of cases) {
    const log = join(dir, `log-${seed}.txt`);
    const list = join(dir, `blocks-${seed}.txt`);
    const made = Bun.spawnSync([
      "python3",
      generator,
      String(lines),
      String(blocks),
      log,
      list,
      String(seed),
    ]);
    if (made.exitCode !== 0) throw new Error(made.stderr.toString());
    const files = { [log]: readFileSync(log, "utf8"), [list]: readFileSync(list, "utf8") };

    for (const flags of [[], ["-v"], ["-c"], ["-v", "-c"]]) {
      test(`${lines} lines, ${blocks} blocks, flags [${flags.join(" ")}]: same output and exit status`, async () => {
        const theirs = Bun.spawnSync(["grepcidr", ...flags, "-f", list, log]);
        const ours = await run([...flags, "-f", list, log], files);
        expect(ours.stderr).toBe("");
        expect(ours.code).toBe(theirs.exitCode);
        expect(ours.stdout).toBe(theirs.stdout.toString());
        if (flags.length === 0) expect(ours.stdout.split("\n").length).toBeGreaterThan(lines / 20);
      });
    }
  }
});
