/**
 * CONTRACT §12: `--skip-invalid` on every list-reading command (one stderr line per skipped entry
 * at its place, in the words of the error, a last count line, the exit code as if the entries were
 * absent, 2 when none is left), and host bits said once per entry (`--strict`: exit 2).
 */
import { describe, expect, test } from "bun:test";
import { scratchRunner } from "./run.ts";

const { nettools, file } = scratchRunner("nettools-entry-checks-");

const FEED = "10.0.0.0/24\njunk here\n10.0.1.0/24   # fine\n10.0.0.256\n";

describe("--skip-invalid", () => {
  test("merge: the same words as the error, at FILE:LINE, a count, exit 0 with the valid rest", async () => {
    const feed = file("feed.txt", FEED);
    const failed = await nettools(["merge", "-f", feed]);
    expect(failed.code).toBe(2);
    const errorLines = failed.stderr
      .split("\n")
      .filter((line) => line.includes("feed.txt:"))
      .map((line) => line.replace(/^\s*- /, ""));
    expect(errorLines).toHaveLength(2);
    const skipped = await nettools(["merge", "--skip-invalid", "-f", feed]);
    expect(skipped).toEqual({
      code: 0,
      stdout: "10.0.0.0/23\n",
      stderr: `${errorLines.join("\n")}\nskipped 2 invalid entries\n`,
    });
    expect(skipped.stderr).toContain('feed.txt:4: "10.0.0.256" is not a valid IPv4 address');
  });

  test("nothing valid left: exit 2 and nothing on stdout", async () => {
    const ran = await nettools(["merge", "--skip-invalid", "-"], "nope\n300.1.1.1\n");
    expect(ran.code).toBe(2);
    expect(ran.stdout).toBe("");
    expect(ran.stderr).toContain("stdin:1: ");
    expect(ran.stderr).toContain("skipped 2 invalid entries\n");
  });

  test("the exit status is the one without the skipped entries (common, diff)", async () => {
    const a = file("a.txt", "10.0.0.0/24\nbad\n");
    const b = file("b.txt", "192.0.2.0/24\n");
    const common = await nettools(["common", "--skip-invalid", a, b]);
    expect(common.code).toBe(1);
    expect(common.stderr).toBe(
      'a.txt:2: "bad" is not a valid IP address: expected an IPv4 address such as 192.0.2.1 or an IPv6 address such as 2001:db8::1\nskipped 1 invalid entry\n',
    );
    const same = file("same.txt", "10.0.0.0/25\n10.0.0.128/25\n10.0.0.999\n");
    const diff = await nettools(["diff", "--skip-invalid", a, same]);
    expect(diff.code).toBe(0);
    expect(diff.stdout).toBe("");
  });

  test("every list-reading command takes it", async () => {
    const list = file("list.txt", "10.0.0.0/16\nx\n");
    const cases: [string[], string][] = [
      [["cover", "--plain", "--skip-invalid", "-f", list], "10.0.0.0/16\n"],
      [["subtract", "--skip-invalid", "-f", list, "-x", "10.0.128.0/17"], "10.0.0.0/17\n"],
      [["alloc", "--skip-invalid", "-l", "24", "-f", list], "10.0.0.0/24\n"],
      [["rdns", "--skip-invalid", "10.0.0.0/16", "bogus"], "0.10.in-addr.arpa.\n"],
      [["expand", "--skip-invalid", "-"], "10.0.0.0\n"],
      [
        ["range", "--skip-invalid", file("ranges.txt", "10.0.0.0-10.0.0.1\n10.0.0.9-10.0.0.1\n")],
        "10.0.0.0/31\n",
      ],
    ];
    for (const [args, stdout] of cases) {
      const ran = await nettools(args, args[0] === "expand" ? "10.0.0.0\nwhat\n" : undefined);
      expect({ args, code: ran.code, stdout: ran.stdout }).toEqual({ args, code: 0, stdout });
      expect(ran.stderr).toEndWith("skipped 1 invalid entry\n");
    }
  });

  test("match: patterns are skipped as grepcidr skips them; the flag adds the count, none left is 2", async () => {
    const patterns = file("patterns.txt", "192.0.2.0/24\nnot-a-pattern\n");
    const ran = await nettools(["match", "--skip-invalid", "-f", patterns], "x 192.0.2.7 y\n");
    expect(ran.code).toBe(0);
    expect(ran.stdout).toBe("x 192.0.2.7 y\n");
    expect(ran.stderr).toEndWith("skipped 1 invalid entry\n");
    const none = await nettools(["match", "--skip-invalid", "-f", file("junk.txt", "zzz\n")], "192.0.2.7\n");
    expect(none.code).toBe(2);
  });
});

describe("host bits said (CLI)", () => {
  test("one line per entry naming the network used; single addresses never", async () => {
    const ran = await nettools(["rdns", "192.0.2.0/22", "192.0.2.9"]);
    expect(ran.code).toBe(0);
    expect(ran.stderr).toBe("192.0.2.0/22 has host bits set: using 192.0.0.0/22\n");
    expect(ran.stdout.split("\n")[0]).toBe("0.0.192.in-addr.arpa.");
  });

  test("file entries say their place; IPv6 too; a clean CIDR says nothing", async () => {
    const list = file("hb.txt", "10.0.0.0/8\n2001:db8::1/32\n10.1.2.3/16\n");
    const ran = await nettools(["merge", "-f", list]);
    expect(ran.code).toBe(0);
    expect(ran.stderr).toBe(
      "hb.txt:2: 2001:db8::1/32 has host bits set: using 2001:db8::/32\n" +
        "hb.txt:3: 10.1.2.3/16 has host bits set: using 10.1.0.0/16\n",
    );
  });

  test("--strict makes it exit 2 with nothing on stdout, in every command that normalises", async () => {
    for (const args of [
      ["merge", "--strict", "192.0.2.0/22"],
      ["rdns", "--strict", "192.0.2.0/22"],
      ["split", "--strict", "192.0.2.0/22", "24"],
      ["subnets", "--strict", "192.0.2.0/22", "2"],
      ["info", "--strict", "192.0.2.0/22"],
      ["cover", "--strict", "192.0.2.0/22"],
    ]) {
      const ran = await nettools(args);
      expect({ args, code: ran.code, stdout: ran.stdout }).toEqual({ args, code: 2, stdout: "" });
      expect(ran.stderr).toContain("192.0.2.0/22 has host bits set: using 192.0.0.0/22");
    }
    const clean = await nettools(["split", "--strict", "192.0.0.0/22", "23"]);
    expect(clean).toEqual({ code: 0, stdout: "192.0.0.0/23\n192.0.2.0/23\n", stderr: "" });
  });
});
