import { CIDR_HELP, COMMON_HELP, collectEntries, makeRun, PLAIN_OPTION, parse, stdinOnce } from "../args.ts";
import { argOrigins } from "../input.ts";
import { UsageError } from "../io.ts";
import { cidrLines, renderMerge } from "../render.ts";
import { report, runOperation } from "../run-operation.ts";
import { type Command, printHelp } from "./command.ts";

const HELP = `Usage: nettools merge [options] ENTRY... | -

Collapses addresses and CIDRs (one family) into the minimal sorted list of CIDRs covering exactly
their union: duplicates and overlaps removed, adjacent blocks joined. The same as "subtract" with
nothing excluded; --json prints that cidr-subtract result.
ENTRY is an address or CIDR; "-" reads entries from stdin, one a line (blank lines and lines
starting with # are skipped).

Options:
  -f, --file FILE   read entries from FILE, one a line ("-" = stdin); repeatable
${CIDR_HELP}
${COMMON_HELP}

Example: nettools merge --plain -f prefixes.txt > merged.txt`;

export const merge: Command = {
  name: "merge",
  summary: "collapse a list of addresses and CIDRs into a minimal sorted CIDR list",
  help: HELP,
  async run(args, io) {
    const { values, positionals, tokens } = parse(args, {
      file: { type: "string", short: "f", multiple: true },
      ...PLAIN_OPTION,
    });
    if (values.help) return printHelp(io, HELP);
    const run = makeRun(io, values);
    const origins = argOrigins(tokens, []).get("positionals") ?? [];
    const entries = await collectEntries(positionals, origins, values.file ?? [], io, stdinOnce(io));
    if (entries.entries.length === 0) throw new UsageError("merge needs at least one address or CIDR");
    const result = await runOperation(run, "cidrSubtract", { include: entries.entries, exclude: [] });
    return report(result, run, renderMerge, {
      lists: { include: { noun: "the address list", ...entries } },
      plain: cidrLines,
    });
  },
};
