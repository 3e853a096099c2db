/**
 * Options declared once, by their lines of help (src/cli/command.ts, ADR 0062): the block is laid
 * out as the help prints it, and a command line is read against the options the help shows, no
 * more and no fewer.
 */
import { describe, expect, test } from "bun:test";
import { command, help, options, parseOptions } from "../../src/cli/command.ts";
import { type Io, UsageError } from "../../src/cli/io.ts";

const BLOCK = options(24, {
  "-H, --hostname NAME": "check NAME",
  "--fix": `write the chain;
                        only a complete one`,
  "--connect HOST[:PORT]": "one space when the label ends a column short",
  "--expires-within DAYS|N%": `
                        words on the next line`,
  "-4": "only IPv4",
  "-U CIDR": { repeatable: "a used block; repeatable" },
  "--crl FILE": { repeatable: "a list" },
  "FILE… | -": "a line of help alone",
  "--start-tls PROTO": null,
});

describe("options: the block as the help prints it", () => {
  test("labels two spaces in, words from the column, continuation lines as written", () => {
    expect(BLOCK.text).toBe(
      [
        "  -H, --hostname NAME   check NAME",
        "  --fix                 write the chain;",
        "                        only a complete one",
        "  --connect HOST[:PORT] one space when the label ends a column short",
        "  --expires-within DAYS|N%",
        "                        words on the next line",
        "  -4                    only IPv4",
        "  -U CIDR               a used block; repeatable",
        "  --crl FILE            a list",
        "  FILE… | -             a line of help alone",
      ].join("\n"),
    );
  });

  test("a label past the column is followed by two spaces", () => {
    expect(options(18, { "--timeout SECONDS": "the budget" }).text).toBe("  --timeout SECONDS  the budget");
  });

  test("help`…` prints its parts, and a help prints as its text anywhere", () => {
    const whole = help`Options:\n${BLOCK}\nEnd ${3}.`;
    expect(whole.text).toBe(`Options:\n${BLOCK.text}\nEnd 3.`);
    expect(`${whole}`).toBe(whole.text);
  });
});

describe("parseOptions: the options the help shows", () => {
  const shown = help`${BLOCK}\n${options(18, { "-h, --help": "show this help" })}`;

  test("the label says the name, the short form and whether a value follows", () => {
    const { values, positionals } = parseOptions(
      ["-H", "a.example", "--fix", "-4", "-U", "10.0.0.0/8", "-U", "10.1.0.0/16", "--crl", "x.crl", "f.pem"],
      shown,
    );
    expect(values).toEqual({
      hostname: "a.example",
      fix: true,
      "4": true,
      U: ["10.0.0.0/8", "10.1.0.0/16"],
      crl: ["x.crl"],
    });
    expect(positionals).toEqual(["f.pem"]);
  });

  test("an option whose words are null is accepted though not shown", () => {
    expect(parseOptions(["--start-tls", "smtp"], shown).values).toEqual({ "start-tls": "smtp" });
  });

  test("an option the help does not show is a usage error in our words", () => {
    expect(() => parseOptions(["--nope"], shown)).toThrow(new UsageError("unknown option --nope"));
    expect(() => parseOptions(["--fix=yes"], shown)).toThrow(new UsageError("--fix takes no value"));
    expect(() => parseOptions(["--hostname"], shown)).toThrow(
      new UsageError("--hostname (-H) needs a value: --hostname HOSTNAME"),
    );
  });

  test("a mistake in the declarations is found when the command line is read", () => {
    expect(() => parseOptions([], options(18, { "--fix FILE": "a", "--fix": "b" }))).toThrow(
      "option fix declared twice",
    );
    expect(() => parseOptions([], options(18, { "--fix": { repeatable: "again" } }))).toThrow(
      "--fix takes no value to repeat",
    );
    expect(() => parseOptions([], options(18, { "-fix": "a" }))).toThrow('not an option\'s label: "-fix"');
  });
});

describe("command: --help prints the help, anything else runs", () => {
  /** An Io that only keeps what is printed on stdout (all a help needs). */
  const io = () => {
    const out: string[] = [];
    return { out, io: { stdout: (text: string) => out.push(text) } as unknown as Io };
  };

  test("--help answers before the run, with exit 0", async () => {
    const shown = help`Usage: x\n${options(18, { "-h, --help": "show this help", "--fix": "fix" })}`;
    let ran = false;
    const x = command("x", shown, async ({ values }) => {
      ran = values.fix === true;
      return 0;
    });
    const printed = io();
    expect(await x.run(["--help"], printed.io)).toBe(0);
    expect(printed.out).toEqual([`${shown.text}\n`]);
    expect(ran).toBe(false);
    expect(await x.run(["--fix"], printed.io)).toBe(0);
    expect(ran).toBe(true);
  });
});
