/**
 * CONTRACT §12 (issue 34): every command's help ends its options with that command's own exit
 * codes (no list command speaks of certificate chains), and the argument parser's mistakes are
 * said in our words, each with the pointer to the help and exit 2.
 */
import { describe, expect, test } from "bun:test";
import { COMMAND_CATALOG } from "../../src/cli/commands/catalog.ts";
import { scratchRunner } from "./run.ts";

const { nettools } = scratchRunner("nettools-help-words-");

describe("help footers", () => {
  test("every command's help states exit codes; only cert and chain speak of chains", async () => {
    for (const { name, load } of COMMAND_CATALOG) {
      const { help } = await load();
      expect({ name, hasExitCodes: /^Exit codes( for [\w-]+)?: 0 /m.test(help) }).toEqual({
        name,
        hasExitCodes: true,
      });
      const chains = /broken certificate chain|broken chain/.test(help);
      expect({ name, chains }).toEqual({ name, chains: name === "chain" || name === "cert" });
    }
  });

  test("the footers differ by command: alloc says 1 is a full pool, merge has no 1", async () => {
    const alloc = (await nettools(["alloc", "--help"])).stdout;
    expect(alloc).toContain("1 fewer blocks fit than asked for");
    const merge = (await nettools(["merge", "--help"])).stdout;
    expect(merge).toMatch(
      /^Exit codes: 0 the merged list is printed; 2 invalid input or usage; 3 network or server failure\./m,
    );
  });
});

describe("the argument parser's mistakes, in our words", () => {
  test.each([
    [["subnets", "--cloud"], "error: --cloud needs a value: --cloud CLOUD"],
    [["subnets", "--count"], "error: unknown option --count"],
    [["split", "--cloud"], "error: --cloud needs a value: --cloud CLOUD"],
    [["merge", "-f"], "error: --file (-f) needs a value: --file FILE"],
    [["merge", "--json=yes", "10.0.0.0/8"], "error: --json takes no value"],
    [
      ["merge", "-f", "-x"],
      'error: -f needs a value, and the next argument starts with "-": write --file=VALUE if that is the value',
    ],
    [["match", "--nope"], "error: unknown option --nope"],
    [["expand", "--max"], "error: --max needs a value: --max MAX"],
  ])("%p", async (args, line) => {
    const ran = await nettools(args);
    expect(ran.code).toBe(2);
    expect(ran.stdout).toBe("");
    expect(ran.stderr).toBe(`${line}\nRun "nettools ${args[0]} --help" for usage.\n`);
    expect(ran.stderr).not.toMatch(/Option '|argument missing|positional/);
  });
});
