/** The entry checks of the list commands (src/local/entry-checks.ts), with the lines they say captured. */
import { describe, expect, test } from "bun:test";
import { ListEntryChecks } from "../../src/local/entry-checks.ts";
import { linesOf } from "../../src/local/list-lines.ts";

function checks(values: { "skip-invalid"?: boolean; strict?: boolean }) {
  const said: string[] = [];
  return { said, checks: new ListEntryChecks((line) => said.push(line), "ERR", values) };
}

describe("ListEntryChecks", () => {
  test("without --skip-invalid the list itself comes back and host bits are said at their place", () => {
    const { said, checks: c } = checks({});
    const list = linesOf("192.0.2.0/22\n10.0.0.1\n", "a.txt");
    expect(c.list(list)).toBe(list);
    expect(said).toEqual(["a.txt:1: 192.0.2.0/22 has host bits set: using 192.0.0.0/22\n"]);
    expect(c.mustStop()).toBe(false);
  });

  test("--skip-invalid drops an unreadable entry at its place and counts it", () => {
    const { said, checks: c } = checks({ "skip-invalid": true });
    const kept = c.list(linesOf("nope\n10.0.0.0/8\n", "b.txt"));
    expect([...kept.entries]).toEqual(["10.0.0.0/8"]);
    expect(kept.origins.at(0)).toBe("b.txt:2");
    expect(said.length).toBe(1);
    expect(said[0]).toStartWith("b.txt:1: ");
    expect(c.mustStop([kept])).toBe(false);
    expect(said.at(-1)).toBe("skipped 1 invalid entry\n");
  });

  test("a required list emptied by skipping stops the run, with the caller's error word", () => {
    const { said, checks: c } = checks({ "skip-invalid": true });
    const kept = c.list(linesOf("nope\n", "c.txt"));
    expect(c.mustStop([kept])).toBe(true);
    expect(said.at(-1)).toBe("ERR: no valid entry left\n");
  });

  test("--strict stops on host bits, an argument's place not written", () => {
    const { said, checks: c } = checks({ strict: true });
    c.hostBits("192.0.2.1/24", "arg 1");
    c.hostBits("192.0.2.0/24", "arg 2");
    expect(said).toEqual(["ERR: 192.0.2.1/24 has host bits set: using 192.0.2.0/24\n"]);
    expect(c.mustStop()).toBe(true);
  });
});
