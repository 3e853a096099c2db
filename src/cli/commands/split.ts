import { COMMON_HELP, makeRun, PLAIN_OPTION, parse } from "../args.ts";
import { UsageError } from "../io.ts";
import { cidrLines, renderSplit } from "../render.ts";
import { report, runOperation } from "../run-operation.ts";
import { type Command, printHelp } from "./command.ts";

const HELP = `Usage: nettools split [options] CIDR LENGTH

Every subnet of prefix length LENGTH (written 24 or /24) inside CIDR, in address order, as
"ipcalc -S" and "sipcalc -s" print them. CIDR may be an address (a /32 or /128). Run in this
process, up to 1000000 subnets; more is refused at once with the exact count (a server allows
10000).
Not on a terminal (a pipe or a file), the subnets are printed one a line with nothing else.

Output option:
  --plain         print only the subnets, one a line; not with --json
${COMMON_HELP}

Example: nettools split 10.0.0.0/22 /24`;

export const split: Command = {
  name: "split",
  help: HELP,
  async run(args, io) {
    const { values, positionals } = parse(args, { ...PLAIN_OPTION });
    if (values.help) return printHelp(io, HELP);
    const run = makeRun(io, values);
    if (positionals.length !== 2)
      throw new UsageError("split needs a CIDR and a prefix length: split 10.0.0.0/22 24");
    const [cidr, lengthText] = positionals as [string, string];
    const digits = lengthText.startsWith("/") ? lengthText.slice(1) : lengthText;
    if (!/^(0|[1-9][0-9]{0,2})$/.test(digits)) {
      throw new UsageError(`the prefix length must be a whole number such as 24 or /24, not "${lengthText}"`);
    }
    const result = await runOperation(run, "cidrSplit", { cidr, prefixLength: Number(digits) });
    return report(result, run, renderSplit, {
      lists: { cidr: { noun: "the block", entries: [cidr], origins: ["arg 1"] } },
      plain: cidrLines,
      list: true,
    });
  },
};
