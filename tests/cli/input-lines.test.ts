/**
 * List files (issue 18): trailing `# comments` end an entry; line numbers stay the editor's; a
 * notation a list does not take (a netmask, a range) is named with the accepted form and the
 * converter, through the real process.
 */
import { describe, expect, test } from "bun:test";
import { linesOf } from "../../src/local/list-lines.ts";
import { scratchRunner } from "./run.ts";

const { nettools, file } = scratchRunner("nettools-lines-");

test("a # ends the entry; comment-only and blank lines are skipped but counted", () => {
  const text =
    "# blocklist\n10.0.0.0/8  # office\n\n192.0.2.1#no space\r\n   # indented comment\n2001:db8::/32\t# lab";
  expect(linesOf(text, "list.txt")).toEqual({
    entries: ["10.0.0.0/8  ", "192.0.2.1", "2001:db8::/32\t"],
    origins: ["list.txt:2", "list.txt:4", "list.txt:6"],
  });
});

describe("list files and the messages for other notations", () => {
  test("netmask notation and a range in a list name the accepted form and the converter", async () => {
    const ran = await nettools([
      "merge",
      "-f",
      file("mixed.txt", "10.0.0.0/255.255.255.0\n10.0.1.0-10.0.1.255\n"),
    ]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain("mixed.txt:1");
    expect(ran.stderr).toContain("write the prefix length instead: 10.0.0.0/24");
    expect(ran.stderr).toContain("mixed.txt:2");
    expect(ran.stderr).toContain("nettools range");
  });
});
