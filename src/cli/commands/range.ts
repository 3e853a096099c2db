import { COMMON_HELP, makeRun, PLAIN_OPTION, parse, stdinOnce } from "../args.ts";
import { rangeEndpoints } from "../input.ts";
import { UsageError } from "../io.ts";
import { cidrLines, renderRange } from "../render.ts";
import { report, runOperation } from "../run-operation.ts";
import { type Command, printHelp } from "./command.ts";

const HELP = `Usage: nettools range [options] START END | START-END | START - END | -

Minimal CIDR list covering exactly the inclusive range START–END (bare addresses of one
family, START at or before END). "START - END" is how whois shows a NetRange. "-" reads the
range from stdin in any of these forms.

Output option:
  --plain         print only the CIDRs, one a line (for pipes); not with --json
${COMMON_HELP}

Example: nettools range 192.0.2.10 - 192.0.2.20`;

export const range: Command = {
  name: "range",
  summary: "an inclusive address range as a minimal CIDR list",
  help: HELP,
  async run(args, io) {
    const { values, positionals } = parse(args, { ...PLAIN_OPTION });
    if (values.help) return printHelp(io, HELP);
    const run = makeRun(io, values);
    let words: string[] = positionals;
    if (positionals.length === 1 && positionals[0] === "-") {
      words = (await stdinOnce(io)()).split(/\r\n|\r|\n/).filter((line) => !line.trim().startsWith("#"));
    }
    const endpoints = rangeEndpoints(words);
    if (endpoints === null) {
      throw new UsageError('range needs exactly two addresses: START END, START-END or "START - END"');
    }
    const result = await runOperation(run, "rangeToCidrs", { start: endpoints[0], end: endpoints[1] });
    return report(result, run, renderRange, { plain: cidrLines });
  },
};
