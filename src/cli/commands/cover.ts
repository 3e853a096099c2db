import { collectEntries, stdinOnce } from "../../local/list-sources.ts";
import { CIDR_HELP, makeRun } from "../args.ts";
import { command, help, options } from "../command.ts";
import { helpFooter } from "../common-help.ts";
import { ENTRY_CHECK_HELP, EntryChecks } from "../entry-checks.ts";
import { argOrigins } from "../input.ts";
import { UsageError } from "../io.ts";
import { renderCover } from "../render.ts";
import { report, runOperation } from "../run-operation.ts";

const HELP = help`Usage: nettools cover [options] ENTRY... | -

Smallest single CIDR that contains every given IP address or CIDR (one family).
ENTRY is an address or CIDR; "-" reads entries from stdin, one a line (blank lines and
lines starting with # are skipped).

Options:
${options(20, {
  "-f, --file FILE": { repeatable: 'read entries from FILE, one a line ("-" = stdin); repeatable' },
})}
${CIDR_HELP}
${ENTRY_CHECK_HELP}
${helpFooter("0 the smallest CIDR is printed")}

Example: nettools cover 10.0.0.0/24 10.0.1.7`;

export const cover = command("cover", HELP, async ({ values, positionals, tokens }, io) => {
  const run = makeRun(io, values);
  const origins = argOrigins(tokens, []).get("positionals") ?? [];
  const given = await collectEntries(positionals, origins, values.file ?? [], io, stdinOnce(io));
  if (given.entries.length === 0) throw new UsageError("cover needs at least one address or CIDR");
  const checks = new EntryChecks(io, values);
  const inputs = checks.list(given);
  const stop = checks.verdict([inputs]);
  if (stop !== null) return stop;
  const result = await runOperation(run, "cidrCover", { inputs: inputs.entries });
  return report(result, run, renderCover, {
    lists: { inputs: { noun: "the address list", ...inputs } },
    plain: (value) => `${value.cidr}\n`,
  });
});
