import { CIDR_HELP, collectTwoLists } from "../args.ts";
import { command, help, options } from "../command.ts";
import { helpFooter } from "../common-help.ts";
import { ENTRY_CHECK_HELP, EntryChecks } from "../entry-checks.ts";
import { UsageError } from "../io.ts";
import { FORMAT_HELP, listRunOf, printList } from "../list-format.ts";
import { renderSubtract } from "../render.ts";
import { runOperation } from "../run-operation.ts";

const HELP = help`Usage: nettools subtract [options] INCLUDE... [-x EXCLUDE]...

Removes the excluded address space from the included address space and prints the minimal
sorted CIDR list of what remains. INCLUDE and EXCLUDE are addresses or CIDRs of one family;
"-" as an INCLUDE reads include entries from stdin, one a line.

Options:
${options(28, {
  "-x, --exclude ENTRY": { repeatable: "an entry to remove; repeatable" },
  "-f, --file FILE": { repeatable: 'read include entries from FILE ("-" = stdin); repeatable' },
  "-X, --exclude-file FILE": { repeatable: 'read exclude entries from FILE ("-" = stdin); repeatable' },
})}
${CIDR_HELP}
${ENTRY_CHECK_HELP}
${FORMAT_HELP}
${helpFooter("0 the remainder is printed (an empty remainder too)")}

Example: nettools subtract 10.0.0.0/8 -x 10.128.0.0/9 -x 10.0.0.0/24`;

export const subtract = command("subtract", HELP, async ({ values, positionals, tokens }, io) => {
  const { run, output } = listRunOf(io, values);
  const [givenInclude, givenExclude] = await collectTwoLists(
    io,
    tokens,
    { positionals, files: values.file ?? [] },
    { option: "exclude", values: values.exclude ?? [], files: values["exclude-file"] ?? [] },
  );
  if (givenInclude.entries.length === 0)
    throw new UsageError("subtract needs at least one address or CIDR to include");
  const checks = new EntryChecks(io, values);
  const include = checks.list(givenInclude);
  const exclude = checks.list(givenExclude);
  const stop = checks.verdict([include]);
  if (stop !== null) return stop;
  const result = await runOperation(run, "cidrSubtract", {
    include: include.entries,
    exclude: exclude.entries,
  });
  return printList(result, run, output, renderSubtract, {
    lists: {
      include: { noun: "the include list", ...include },
      exclude: { noun: "the exclude list", ...exclude },
    },
    minimal: true,
  });
});
