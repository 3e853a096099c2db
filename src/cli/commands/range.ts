import { COMMON_HELP, makeRun, PLAIN_OPTION, parse, readSource, stdinOnce } from "../args.ts";
import { rangeEndpoints } from "../input.ts";
import { EXIT, UsageError } from "../io.ts";
import { cidrLines, renderRange } from "../render.ts";
import { report, runOperation } from "../run-operation.ts";
import { type Command, printHelp } from "./command.ts";

const HELP = `Usage: nettools range [options] START END | START-END | START - END
       nettools range [options] FILE | -

Minimal CIDR list covering exactly the inclusive range START–END (bare addresses of one
family, START at or before END). "START - END" is how whois shows a NetRange.
With one FILE argument, or "-" for stdin: one range a line in any of these forms (blank lines
and "# comments" skipped), the CIDRs of every range in input order.
Not on a terminal (a pipe or a file), the CIDRs are printed one a line with nothing else.

Output option:
  --plain         print only the CIDRs, one a line; not with --json
${COMMON_HELP}
With --json and a FILE, one JSON result a line, in input order.

Examples: nettools range 192.0.2.10 - 192.0.2.20
          nettools range ranges.txt > cidrs.txt`;

export const range: Command = {
  name: "range",
  help: HELP,
  async run(args, io) {
    const { values, positionals } = parse(args, { ...PLAIN_OPTION });
    if (values.help) return printHelp(io, HELP);
    const run = makeRun(io, values);
    const endpoints = rangeEndpoints(positionals);
    if (endpoints !== null) {
      const result = await runOperation(run, "rangeToCidrs", { start: endpoints[0], end: endpoints[1] });
      return report(result, run, renderRange, { plain: cidrLines, list: true });
    }
    if (positionals.length !== 1) {
      throw new UsageError(
        'range needs two addresses (START END, START-END or "START - END"), or one FILE or "-"',
      );
    }
    const name = positionals[0]!;
    const source = name === "-" ? "stdin" : name;
    let text: string;
    try {
      text = await readSource(name, io, stdinOnce(io));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new UsageError(
        `range needs two addresses (START END, START-END or "START - END"), or a FILE: ${reason}`,
      );
    }
    const lines = text.split(/\r\n|\r|\n/).map((line) => (line.split("#")[0] ?? "").trim());
    // One range written over two lines ("START\nEND"), as earlier versions read stdin.
    const filled = lines.filter((line) => line !== "");
    const across =
      filled.length === 2 && filled.every((line) => !/[\s-]/.test(line)) ? rangeEndpoints(filled) : null;
    if (across !== null) {
      const result = await runOperation(run, "rangeToCidrs", { start: across[0], end: across[1] });
      return report(result, run, renderRange, { plain: cidrLines, list: true });
    }
    let ranges = 0;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (line === "") continue;
      const pair = rangeEndpoints([line]);
      if (pair === null) {
        io.stderr(
          `${run.err.red("error")}: ${source}:${i + 1}: expected a range (START END, START-END or "START - END"), not "${line.slice(0, 100)}"\n`,
        );
        return EXIT.invalidInput;
      }
      const result = await runOperation(run, "rangeToCidrs", { start: pair[0], end: pair[1] });
      if (!result.ok) {
        io.stderr(`${source}:${i + 1}: `);
        return report(result, run, renderRange);
      }
      ranges++;
      report(result, run, renderRange, { plain: cidrLines, list: true });
    }
    if (ranges === 0) throw new UsageError(`${source} holds no range`);
    return EXIT.ok;
  },
};
