/**
 * The page's log matching (src/web/log-match.ts) against `nettools match` run in this process on
 * the same pattern file and log (issue 34.7): the same stdout bytes, the same stderr lines and the
 * same exit status, for random pattern files (labels, junk, ranges, IPv6) and logs (addresses in
 * many spellings, junk, NUL bytes, long lines), under every option the page offers.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { match } from "../../src/cli/match.ts";
import { type LogMatchOptions, matchFlags, matchLog } from "../../src/web/log-match.ts";
import { capturingIo } from "../cli/match-harness.ts";

const encoder = new TextEncoder();

async function cliMatch(patterns: Uint8Array, log: Uint8Array, options: LogMatchOptions) {
  const { io, output } = capturingIo(() => patterns, log);
  const code = await match(["-f", "patterns.txt", ...matchFlags(options)], io);
  const { stdout, stderr } = output();
  return { code, stdout: new Uint8Array(stdout), stderr: stderr.split("\n").filter((line) => line !== "") };
}

const octet = fc.integer({ min: 0, max: 255 });
const v4 = fc.tuple(fc.constantFrom(10, 192, 203, 8), octet, octet, octet).map((o) => o.join("."));
const v6 = fc
  .tuple(fc.constantFrom("2001:db8", "fe80", "2001:db8:1"), fc.integer({ min: 0, max: 0xffff }))
  .map(([head, tail]) => `${head}::${tail.toString(16)}`);
const pattern = fc.oneof(
  fc.tuple(v4, fc.integer({ min: 8, max: 32 })).map(([a, n]) => `${a}/${n}`),
  fc.tuple(v6, fc.integer({ min: 16, max: 128 })).map(([a, n]) => `${a}/${n}`),
  v4,
  fc.tuple(v4, v4).map(([a, b]) => `${a}-${b}`),
  fc.constantFrom("not-a-cidr", "10.0.0.300/8", "# comment", "", "  "),
);
const patternLine = fc
  .tuple(pattern, fc.option(fc.constantFrom("  AWS eu-west-1", "\tlabel", " DYNAMODB # note")))
  .map(([p, label]) => `${p}${label ?? ""}`);
const logLine = fc
  .array(
    fc.oneof(
      v4,
      v6,
      v4.map((a) => `SRC=${a}`),
      v4.map((a) => `${a}:51234`),
      v6.map((a) => `[${a}]:443`),
      fc.constantFrom("GET /", "1.2.3.4.5", "010.0.0.1", "\u0000", "x".repeat(600), "é", ":"),
    ),
    { maxLength: 6 },
  )
  .map((words) => words.join(" "));
const options = fc.record({
  mode: fc.constantFrom("lines", "invert", "count", "only", "pattern"),
  excludeReserved: fc.boolean(),
});

describe("log matching on the page equals nettools match", () => {
  test("property: same stdout bytes, stderr lines and exit for random patterns, logs and options", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(patternLine, { maxLength: 12 }),
        fc.array(logLine, { maxLength: 20 }),
        fc.boolean(),
        options,
        async (patternLines, logLines, finalNewline, { mode, excludeReserved }) => {
          const chosen: LogMatchOptions = {
            invert: mode === "invert",
            count: mode === "count",
            onlyMatching: mode === "only",
            printPattern: mode === "pattern",
            excludeReserved,
          };
          const patterns = encoder.encode(patternLines.join("\n"));
          const log = encoder.encode(logLines.join("\n") + (finalNewline ? "\n" : ""));
          const page = matchLog(patterns, log, chosen);
          const cli = await cliMatch(patterns, log, chosen);
          expect(page.stdout).toEqual(cli.stdout);
          expect(page.stderr).toEqual(cli.stderr);
          expect(page.exit).toBe(cli.code as 0 | 1);
        },
      ),
      { numRuns: 300 },
    );
  });

  test("the page's default example: two lines selected, the documentation pattern's label named", async () => {
    const patterns = encoder.encode("203.0.113.0/24  TEST-NET-3\n2001:db8::/32  documentation\n");
    const log = encoder.encode(
      "a 203.0.113.5 port 1\nb 192.0.2.10 port 2\nc [2001:db8::5]:443 d\ne no address\n",
    );
    const lines = matchLog(patterns, log, {
      invert: false,
      count: false,
      onlyMatching: false,
      printPattern: false,
      excludeReserved: false,
    });
    expect(new TextDecoder().decode(lines.stdout)).toBe("a 203.0.113.5 port 1\nc [2001:db8::5]:443 d\n");
    const labelled = matchLog(patterns, log, {
      invert: false,
      count: false,
      onlyMatching: false,
      printPattern: true,
      excludeReserved: false,
    });
    expect(new TextDecoder().decode(labelled.stdout)).toBe(
      "203.0.113.5\t203.0.113.0/24\tTEST-NET-3\n2001:db8::5\t2001:db8::/32\tdocumentation\n",
    );
    const none = matchLog(encoder.encode("junk\n"), log, {
      invert: false,
      count: true,
      onlyMatching: false,
      printPattern: false,
      excludeReserved: false,
    });
    expect(none.exit).toBe(1);
    expect(none.stderr.at(-1)).toBe("warning: no pattern was read: no line can match");
  });
});
