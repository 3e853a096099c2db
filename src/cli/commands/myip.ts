import { COMMON_HELP, makeRun, parse } from "../args.ts";
import { UsageError } from "../io.ts";
import { report, runOperation } from "../run-operation.ts";
import { type Command, printHelp } from "./command.ts";

const HELP = `Usage: nettools myip --server URL [--json]

Prints the IP address your connection to the server comes from (a VPN or proxy changes it).
${COMMON_HELP}`;

export const myip: Command = {
  name: "myip",
  help: HELP,
  async run(args, io) {
    const { values, positionals } = parse(args, {});
    if (values.help) return printHelp(io, HELP);
    if (positionals.length > 0) throw new UsageError("myip takes no arguments");
    const run = makeRun(io, values);
    if (run.client === null) {
      throw new UsageError(
        "myip needs a server to observe your address: pass --server URL or set NETTOOLS_SERVER",
      );
    }
    const result = await runOperation(run, "publicIp", undefined);
    return report(result, run, (value) => `${value.ip}\n`);
  },
};
