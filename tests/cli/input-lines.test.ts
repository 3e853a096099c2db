/** List files (issue 18): trailing `# comments` end an entry; line numbers stay the editor's. */
import { expect, test } from "bun:test";
import { linesOf } from "../../src/cli/input.ts";

test("a # ends the entry; comment-only and blank lines are skipped but counted", () => {
  const text =
    "# blocklist\n10.0.0.0/8  # office\n\n192.0.2.1#no space\r\n   # indented comment\n2001:db8::/32\t# lab";
  expect(linesOf(text, "list.txt")).toEqual({
    entries: ["10.0.0.0/8  ", "192.0.2.1", "2001:db8::/32\t"],
    origins: ["list.txt:2", "list.txt:4", "list.txt:6"],
  });
});
