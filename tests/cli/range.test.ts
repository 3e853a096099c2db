/**
 * `nettools range` over a file of ranges (CONTRACT §7.4, §7.6): one range a line in any spelling,
 * comments skipped, CIDRs in input order; one address is a one-address range; the whole input is
 * checked first, every bad line reported at FILE:LINE and nothing printed (exit 2).
 */
import { describe, expect, test } from "bun:test";
import { scratchRunner } from "./run.ts";

const { nettools, file } = scratchRunner("nettools-range-");

describe("range over a file of ranges", () => {
  test("one range a line in any spelling, comments skipped, CIDRs in input order", async () => {
    const ranges = file(
      "ranges.txt",
      "# office\n10.0.0.0-10.0.0.9\n\n192.0.2.0 192.0.2.255  # lab\n2001:db8::1 - 2001:db8::2\n",
    );
    const ran = await nettools(["range", ranges]);
    expect(ran).toEqual({
      code: 0,
      stdout: "10.0.0.0/29\n10.0.0.8/31\n192.0.2.0/24\n2001:db8::1/128\n2001:db8::2/128\n",
      stderr: "",
    });
    const stdin = await nettools(["range", "-"], "10.0.0.0-10.0.0.9\n192.0.2.0 192.0.2.255\n");
    expect(stdin.stdout).toBe("10.0.0.0/29\n10.0.0.8/31\n192.0.2.0/24\n");
    const json = await nettools(["range", "--json", ranges]);
    expect(
      json.stdout
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line).cidrCount),
    ).toEqual([2, 1, 2]);
  });

  test("a bad line is exit 2 at FILE:LINE", async () => {
    const bad = await nettools(["range", file("bad.txt", "10.0.0.0-10.0.0.9\n10.0.0.9 10.0.0.1\n")]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("bad.txt:2");
    const garbage = await nettools(["range", file("garbage.txt", "10.0.0.0/24\n")]);
    expect(garbage.code).toBe(2);
    expect(garbage.stderr).toContain("garbage.txt:1");
  });
});

describe("range checks the whole input first", () => {
  test("every bad line is reported, and nothing is printed; exit 2", async () => {
    const ranges = file(
      "mixed.txt",
      "10.0.0.0-10.0.0.9\n10.0.0.9 10.0.0.1\n192.0.2.7\nnot a range\n10.0.0.256\n2001:db8::1 - 10.0.0.1\n",
    );
    const ran = await nettools(["range", ranges]);
    expect(ran.code).toBe(2);
    expect(ran.stdout).toBe("");
    expect(ran.stderr).toContain("4 problems in the input");
    for (const line of [2, 4, 5, 6]) expect(ran.stderr).toContain(`mixed.txt:${line}: `);
    expect(ran.stderr).not.toContain("mixed.txt:1:");
    expect(ran.stderr).not.toContain("mixed.txt:3:");
    expect(ran.stderr.match(/octet 256/g)).toHaveLength(1);
  });

  test("one address is a one-address range, as an argument and as a line", async () => {
    expect(await nettools(["range", "192.0.2.1"])).toEqual({ code: 0, stdout: "192.0.2.1/32\n", stderr: "" });
    expect((await nettools(["range", "-"], "2001:db8::1\n10.0.0.0-10.0.0.1\n")).stdout).toBe(
      "2001:db8::1/128\n10.0.0.0/31\n",
    );
  });
});
