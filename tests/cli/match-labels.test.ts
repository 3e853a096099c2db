/**
 * Labelled pattern files and `match --print-pattern` (CONTRACT §12): a label after the pattern
 * changes nothing grepcidr selects (grepcidr itself is the oracle), and each matching address is
 * printed with the most specific pattern holding it and that pattern's label.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import fc from "fast-check";
import { scratchRunner } from "./run.ts";

const scratch = scratchRunner("nettools-match-labels-");
const { nettools, file } = scratch;

const PATTERNS =
  "52.94.0.0/16 AMAZON\n52.94.5.0/24\tDYNAMODB eu-west-1  # a comment\n52.94.6.0/24\n10.0.0.1-10.0.0.9 lab range\n2600:1f00::/24 AMAZON v6\n";
const LOG = "a 52.94.5.7 b 52.94.1.1\nc 52.94.6.1 8.8.8.8 10.0.0.3\nd 8.8.4.4\n[2600:1f00::5]:443 x\n";

describe("match --print-pattern", () => {
  test("ADDRESS<TAB>PATTERN<TAB>LABEL, the most specific pattern, one line per address as -o finds them", async () => {
    const ran = await nettools(["match", "--print-pattern", "-f", file("aws.txt", PATTERNS)], LOG);
    expect(ran).toEqual({
      code: 0,
      stdout:
        "52.94.5.7\t52.94.5.0/24\tDYNAMODB eu-west-1\n" +
        "52.94.1.1\t52.94.0.0/16\tAMAZON\n" +
        "52.94.6.1\t52.94.6.0/24\t\n" +
        "10.0.0.3\t10.0.0.1-10.0.0.9\tlab range\n" +
        "2600:1f00::5\t2600:1f00::/24\tAMAZON v6\n",
      stderr: "",
    });
    const only = await nettools(["match", "-o", "-f", "aws.txt"], LOG);
    expect(only.stdout).toBe(ran.stdout.replace(/\t.*$/gm, ""));
  });

  test("labels change nothing grepcidr selects", async () => {
    const pick = (i: number) => `${52 + (i % 3)}.${(i * 37) % 256}.${i % 7}.0/${16 + (i % 9)}`;
    const cases = fc.sample(fc.array(fc.nat(500), { minLength: 1, maxLength: 30 }), {
      seed: 34,
      numRuns: 10,
    });
    for (const picks of cases) {
      const patterns = file("p.txt", picks.map((i) => `${pick(i)}  label ${i} # c`).join("\n"));
      const log = file("l.txt", picks.map((i) => `x ${pick(i + 1).replace(/\.0\/\d+$/, ".9")} y`).join("\n"));
      const grepcidr = Bun.spawnSync(["grepcidr", "-f", join(scratch.dir, patterns), join(scratch.dir, log)]);
      const ours = await nettools(["match", "-f", patterns, log]);
      expect(ours.stdout).toBe(grepcidr.stdout.toString());
      expect(ours.code).toBe(grepcidr.exitCode);
    }
  });

  test("with -v or -c it is a usage error", async () => {
    expect((await nettools(["match", "--print-pattern", "-v", "10.0.0.0/8"], "10.0.0.1\n")).code).toBe(2);
    expect((await nettools(["match", "--print-pattern", "-c", "10.0.0.0/8"], "10.0.0.1\n")).code).toBe(2);
  });
});
