import { COMMON_HELP, makeRun, PLAIN_OPTION, parse } from "../args.ts";
import { CLOUD_OPTION_HELP, cloudProviderOf, printCloudSplit } from "../cloud.ts";
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

With --cloud P, one line per subnet, CIDR<TAB>USABLE<TAB>FIRST<TAB>LAST: the addresses left by
cloud provider P's reservations, and the first and last of them (--json adds "cloud" with
"provider" and "usablePerSubnet"); IPv4 only, LENGTH within P's subnet sizes, else exit 2.

Output options:
  --plain         print only the subnets, one a line; not with --json
${CLOUD_OPTION_HELP}
${COMMON_HELP}

Examples: nettools split 10.0.0.0/22 /24
          nettools split --cloud aws 10.0.0.0/24 26`;

export const split: Command = {
  name: "split",
  help: HELP,
  async run(args, io) {
    const { values, positionals } = parse(args, { ...PLAIN_OPTION, cloud: { type: "string" } });
    if (values.help) return printHelp(io, HELP);
    const run = makeRun(io, values);
    const provider = values.cloud === undefined ? null : cloudProviderOf(values.cloud);
    if (positionals.length !== 2)
      throw new UsageError("split needs a CIDR and a prefix length: split 10.0.0.0/22 24");
    const [cidr, lengthText] = positionals as [string, string];
    const digits = lengthText.startsWith("/") ? lengthText.slice(1) : lengthText;
    if (!/^(0|[1-9][0-9]{0,2})$/.test(digits)) {
      throw new UsageError(`the prefix length must be a whole number such as 24 or /24, not "${lengthText}"`);
    }
    const result = await runOperation(run, "cidrSplit", { cidr, prefixLength: Number(digits) });
    if (provider !== null && result.ok) return printCloudSplit(result.value, provider, run);
    return report(result, run, renderSplit, {
      lists: { cidr: { noun: "the block", entries: [cidr], origins: ["arg 1"] } },
      plain: cidrLines,
      list: true,
    });
  },
};
