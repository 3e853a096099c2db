/**
 * `nettools match` (CONTRACT §7.4, §8.5, §8.7; issues 18 and 24), rule by rule through the command
 * with a fake Io: grepcidr's selection and patterns, `-o`, `-x`, warnings and usage; then against
 * Debian's grepcidr on the generated logs of the benchmark (bench/gen-match-log.py), default, -v and
 * -c, byte for byte. match-grepcidr.test.ts holds the mixed-format log and the random comparison.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { composeCli } from "../../src/cli/composition-root.ts";
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
    ports: composeCli(),
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

describe("match, rule by rule", () => {
  const PATTERNS = "10.0.0.0/8\n192.168.1.0/24  # lan\n\n# lab\n2001:db8::/32\n192.0.2.10 - 192.0.2.20\n";
  const log = [
    "a 10.1.2.3 x", // inside 10/8
    "b 11.0.0.1", // an address, outside
    "no address here",
    "c,192.168.1.7,d",
    "d\t2001:DB8::5 e", // IPv6, any case
    "e host=10.0.0.1", // anywhere in a line
    "f 192.0.2.15:443", // a range pattern; ip:port
    "g [2001:db8::9]:443",
    "h 010.0.0.1", // leading zero: not an address (glibc's inet_pton)
    "i 10.0.0.1.5", // five numbers: not an address
    "j 11.0.0.1 10.9.9.9", // one of two addresses inside
  ].join("\n");

  test("prints the lines holding an address inside a pattern, in order, as they are; exit 0", async () => {
    const ran = await run(["-f", "patterns", "log"], { patterns: PATTERNS, log: `${log}\n` });
    expect(ran).toEqual({
      code: 0,
      stdout:
        "a 10.1.2.3 x\nc,192.168.1.7,d\nd\t2001:DB8::5 e\ne host=10.0.0.1\nf 192.0.2.15:443\ng [2001:db8::9]:443\nj 11.0.0.1 10.9.9.9\n",
      stderr: "",
    });
  });

  test("-v prints the lines with an address but none inside; a line with no address never", async () => {
    const ran = await run(["-v", "-f", "patterns", "log"], { patterns: PATTERNS, log });
    expect(ran.stdout).toBe("b 11.0.0.1\n");
    expect(ran.code).toBe(0);
  });

  test("-c counts the lines that would be printed, -v too", async () => {
    expect((await run(["-c", "-f", "patterns", "log"], { patterns: PATTERNS, log })).stdout).toBe("7\n");
    expect((await run(["-vc", "-f", "patterns", "log"], { patterns: PATTERNS, log })).stdout).toBe("1\n");
  });

  test("a last line without newline is printed without one, as grepcidr does", async () => {
    expect((await run(["-e", "10.0.0.0/8", "log"], { log: "10.0.0.1\n10.0.0.2" })).stdout).toBe(
      "10.0.0.1\n10.0.0.2",
    );
  });

  test("exit 1 when no line is selected, with or without -c; a file of no addresses selects nothing with -v", async () => {
    const none = await run(["-f", "patterns", "log"], { patterns: PATTERNS, log: "x 8.8.8.8\nnothing\n" });
    expect(none).toEqual({ code: 1, stdout: "", stderr: "" });
    expect(await run(["-c", "-e", "10.0.0.0/8", "log"], { log: "8.8.8.8\n" })).toEqual({
      code: 1,
      stdout: "0\n",
      stderr: "",
    });
    expect((await run(["-v", "-e", "10.0.0.0/8", "log"], { log: "no\naddress\n" })).code).toBe(1);
  });

  test("patterns as the first argument (grepcidr PATTERN FILE), with -e, and the log on stdin", async () => {
    expect((await run(["10.0.0.0/8,2001:db8::/32", "log"], { log: "1 10.0.0.1\n2 8.8.8.8\n" })).stdout).toBe(
      "1 10.0.0.1\n",
    );
    const ran = await run(
      ["-e", "10.0.0.0/8, 2001:db8::/32", "-"],
      {},
      "1 10.0.0.1\r\n2 8.8.8.8\r\n3 2001:db8::1",
    );
    expect(ran).toEqual({ code: 0, stdout: "1 10.0.0.1\r\n3 2001:db8::1", stderr: "" });
  });

  test("several -e and -f add up (grepcidr keeps the last of each)", async () => {
    const ran = await run(["-e", "10.0.0.1", "-e", "10.0.0.2", "-f", "a", "-f", "b", "log"], {
      a: "10.0.0.3\n",
      b: "10.0.0.4\n",
      log: "10.0.0.1\n10.0.0.2\n10.0.0.3\n10.0.0.4\n10.0.0.5\n",
    });
    expect(ran.stdout).toBe("10.0.0.1\n10.0.0.2\n10.0.0.3\n10.0.0.4\n");
  });

  test("several files: each line printed starts with its file's name, -c counts them all", async () => {
    const files = { one: "10.0.0.1 a\n8.8.8.8\n", two: "10.0.0.2 b\n" };
    expect((await run(["-e", "10.0.0.0/8", "one", "two"], files)).stdout).toBe(
      "one:10.0.0.1 a\ntwo:10.0.0.2 b\n",
    );
    expect((await run(["-c", "-e", "10.0.0.0/8", "one", "two"], files)).stdout).toBe("2\n");
  });

  test("a pattern grepcidr cannot read is skipped with a warning at its place; the run goes on", async () => {
    const ran = await run(["-f", "patterns", "log"], {
      patterns: "10.0.0.0/8\n10.0.0.0/255.255.255.0\n2001:db8::1-2001:db8::9\nnonsense\n",
      log: "10.0.0.1\n2001:db8::5\n2001:db8::1\n",
    });
    expect(ran.code).toBe(0);
    expect(ran.stdout).toBe("10.0.0.1\n2001:db8::1\n");
    expect(ran.stderr).toContain("warning: patterns:2: skipped: ");
    expect(ran.stderr).toContain("write the prefix length instead: 10.0.0.0/24");
    expect(ran.stderr).toContain(
      'warning: patterns:3: "2001:db8::1-2001:db8::9" is read as its first address only',
    );
    expect(ran.stderr).toContain("warning: patterns:4: skipped: ");
  });

  test("no pattern at all: a warning, nothing selected, exit 1 (grepcidr's status)", async () => {
    const ran = await run(["-f", "patterns", "log"], { patterns: "# nothing\n\n", log: "10.0.0.1\n" });
    expect(ran).toEqual({ code: 1, stdout: "", stderr: "warning: no pattern was read: no line can match\n" });
  });

  test("a byte-order mark, CRLF, indented comments and blank lines in a pattern file (§7.6)", async () => {
    const ran = await run(["-f", "patterns", "log"], {
      patterns: "\ufeff10.0.0.0/8\r\n   # indented\r\n \t \r\n192.0.2.0/24\r\n",
      log: "10.0.0.1\n192.0.2.1\n8.8.8.8\n",
    });
    expect(ran).toEqual({ code: 0, stdout: "10.0.0.1\n192.0.2.1\n", stderr: "" });
  });

  test("a file that cannot be read is exit 2 naming it", async () => {
    expect(await run(["-f", "nope", "log"], { log: "" })).toEqual({
      code: 2,
      stdout: "",
      stderr: "error: nope: no such file\n",
    });
    expect((await run(["-e", "10.0.0.0/8", "log", "nope"], { log: "10.0.0.1\n" })).code).toBe(2);
  });

  test("usage errors", async () => {
    await expect(run(["-f", "-", "-"], {})).rejects.toThrow("stdin");
    await expect(run([], {})).rejects.toThrow("match needs patterns");
    await expect(run(["-o", "-v", "-e", "10.0.0.0/8"], {})).rejects.toThrow("-o prints matching addresses");
    await expect(run(["-o", "-c", "-e", "10.0.0.0/8"], {})).rejects.toThrow("cannot go with -c");
    await expect(run(["--bogus", "-e", "10.0.0.0/8"], {})).rejects.toThrow("bogus");
  });
});

describe("match -o (CONTRACT §8.7)", () => {
  test("prints each matching address as written, one a line, in line order, twice when it is there twice", async () => {
    const ran = await run(
      ["-o", "-e", "203.0.113.0/24,2001:db8::/32"],
      {},
      [
        'haproxy: 203.0.113.5:51234 [2001:DB8:1::5]:443 {"ip":"203.0.113.5"} 8.8.8.8',
        "none 8.8.8.8",
        "SRC=203.0.113.8 DST=192.0.2.1 x203.0.113.9y",
        "last 203.0.113.10",
      ].join("\n"),
    );
    expect(ran).toEqual({
      code: 0,
      stdout: "203.0.113.5\n2001:DB8:1::5\n203.0.113.5\n203.0.113.8\n203.0.113.10\n",
      stderr: "",
    });
  });

  test("exit 1 when no address matches; with several files each address starts with its file's name", async () => {
    expect(await run(["-o", "-e", "10.0.0.0/8", "log"], { log: "8.8.8.8\n" })).toEqual({
      code: 1,
      stdout: "",
      stderr: "",
    });
    const files = { one: "10.0.0.1 10.0.0.2\n", two: "x=10.0.0.3\n" };
    expect((await run(["-o", "-e", "10.0.0.0/8", "one", "two"], files)).stdout).toBe(
      "one:10.0.0.1\none:10.0.0.2\ntwo:10.0.0.3\n",
    );
  });

  test("the lines -o takes its addresses from are exactly the lines match selects", async () => {
    const lines = readFileSync(resolve(import.meta.dir, "../fixtures/match/mixed.log"), "utf8").split("\n");
    const patterns = readFileSync(resolve(import.meta.dir, "../fixtures/match/patterns-mixed.txt"), "utf8");
    let selected = 0;
    for (const line of lines) {
      const whole = await run(["-f", "p", "l"], { p: patterns, l: line });
      const only = await run(["-o", "-f", "p", "l"], { p: patterns, l: line });
      expect(only.code).toBe(whole.code);
      for (const field of only.stdout.split("\n").slice(0, -1)) {
        expect(line).toContain(field);
        // Each address printed is, alone, a selected line.
        expect((await run(["-f", "p", "l"], { p: patterns, l: field })).code).toBe(0);
      }
      if (whole.code === 0) selected++;
    }
    expect(selected).toBeGreaterThan(20);
  });
});

describe("match -x: special-purpose addresses are not addresses (CONTRACT §8.5)", () => {
  const everything = ["-e", "0.0.0.0/0,::/0"];
  const log = [
    "public 8.8.8.8",
    "private 10.0.0.1 and 192.168.1.1",
    "documentation 203.0.113.5 2001:db8::1 3fff::1",
    "kept inside an excluded row 192.0.0.9 (PCP anycast)",
    "TEREDO 2001::1 is N/A: kept",
    "multicast 224.0.0.1 and ff02::1 are outside the table: kept",
    "mapped ::ffff:8.8.8.8 is excluded",
    "private then public 172.16.0.1 1.1.1.1",
    "loopback ::1 127.0.0.1",
  ].join("\n");

  test("a line whose only addresses are special never matches", async () => {
    const ran = await run(["-x", ...everything, "log"], { log });
    expect(ran.stdout.split("\n").map((line) => line.split(" ")[0])).toEqual([
      "public",
      "kept",
      "TEREDO",
      "multicast",
      "private",
      "",
    ]);
  });

  test("nor with -v: a special address is not an address for -v either", async () => {
    const ran = await run(["-x", "-v", "-e", "8.8.8.8", "log"], { log });
    expect(ran.stdout).toBe(
      "kept inside an excluded row 192.0.0.9 (PCP anycast)\nmulticast 224.0.0.1 and ff02::1 are outside the table: kept\nprivate then public 172.16.0.1 1.1.1.1\n",
    );
    // Without -x, the special addresses count as addresses outside the pattern.
    const without = await run(["-v", "-e", "8.8.8.8", "log"], { log });
    expect(without.stdout.split("\n").map((line) => line.split(" ")[0])).toEqual([
      "private",
      "documentation",
      "kept",
      "multicast",
      "private",
      "loopback",
    ]);
  });

  test("a CIDR written in a line is special when any of its addresses is", async () => {
    const lines = [
      "198.51.0.0/16 holds TEST-NET-2",
      "198.51.0.0/24 holds none",
      "198.51.0.0 alone",
      "2000::/3 holds 2001:db8::/32",
      "2400::/6 holds none",
      "8.0.0.0/08 is no CIDR (leading zero): only its address counts",
    ];
    const ran = await run(["-x", ...everything, "log"], { log: lines.join("\n") });
    expect(ran.stdout.split("\n").map((line) => line.split(" ")[0])).toEqual([
      "198.51.0.0/24",
      "198.51.0.0",
      "2400::/6",
      "8.0.0.0/08",
    ]);
    // Without -x the candidate is the address alone, as grepcidr reads it.
    expect((await run(everything.concat("log"), { log: lines.join("\n") })).stdout.split("\n")).toHaveLength(
      6,
    );
  });

  test("-o never prints a special address", async () => {
    const ran = await run(["-x", "-o", ...everything, "log"], { log });
    expect(ran.stdout).toBe("8.8.8.8\n192.0.0.9\n2001::1\n224.0.0.1\nff02::1\n1.1.1.1\n");
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
