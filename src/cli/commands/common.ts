import { type GivenLists, givenList } from "../../local/input-issue-words.ts";
import { PlacesJoined } from "../../local/list-lines.ts";
import { type Operand, readOperands } from "../../local/list-sources.ts";
import { command, help, options } from "../command.ts";
import { helpFooter } from "../common-help.ts";
import { ENTRY_CHECK_HELP, EntryChecks } from "../entry-checks.ts";
import { EXIT, UsageError } from "../io.ts";
import { FORMAT_HELP, listRunOf, printList } from "../list-format.ts";
import { renderMixedMerge } from "../render.ts";
import { report, runOperation } from "../run-operation.ts";

const HELP = help`Usage: nettools common [options] A B [C...]

The addresses every list holds, as the minimal sorted CIDR list (IPv4 first), as "iprange
--common" prints them. A, B, … are files, or "-" for stdin (once): one address or CIDR a line,
blank lines and "# comments" skipped, IPv4 and IPv6 mixed (IPv4-mapped ::ffff:a.b.c.d is IPv6).
An invalid entry is reported as FILE:LINE.
Not on a terminal (a pipe or a file), the CIDRs are printed one a line with nothing else.

Output option:
${options(18, { "--plain": "print only the CIDRs, one a line; not with --json" })}
${FORMAT_HELP}
${ENTRY_CHECK_HELP}
With --json (two lists only), the cidr-compare result; --server also takes two lists only.
"nettools common a.txt b.txt > /dev/null && …" tests for overlap.
${helpFooter("0 the lists share addresses; 1 they share none (nothing is printed in lines; the other\nformats still print their empty form)")}

Example: nettools common blocklist.txt our-customers.txt`;

export const common = command("common", HELP, async ({ values, positionals }, io) => {
  const { run, output } = listRunOf(io, values);
  if (positionals.length < 2)
    throw new UsageError("common needs at least two lists: common A B (a FILE or - each)");
  if (positionals.length > 2 && run.json) {
    throw new UsageError("--json prints one cidr-compare result: give two lists");
  }
  if (positionals.length > 2 && run.client !== null) {
    throw new UsageError("with --server, common compares two lists (one cidr-compare request)");
  }
  const checks = new EntryChecks(io, values);
  const operands = (await readOperands(positionals, io)).map((operand) => ({
    ...operand,
    ...checks.list(operand),
  }));
  const total = operands.reduce((sum, operand) => sum + operand.entries.length, 0);
  const stop = checks.verdict([{ entries: { length: total } }]);
  if (stop !== null) return stop;
  if (operands.length > 2) {
    // Every entry of every list is checked first, so every bad line is reported at once.
    const all: Operand = {
      name: "the lists",
      entries: operands.flatMap((operand) => operand.entries),
      origins: new PlacesJoined(operands.map((operand) => operand.origins)),
    };
    const checked = await runOperation(run, "cidrCompare", { a: all.entries, b: [] });
    if (!checked.ok) return report(checked, run, () => "", { lists: { a: givenList(all, "the lists") } });
  }
  const [first, second, ...rest] = operands as [Operand, Operand, ...Operand[]];
  let lists: GivenLists = { a: givenList(first, "list A"), b: givenList(second, "list B") };
  let result = await runOperation(run, "cidrCompare", { a: first.entries, b: second.entries });
  for (const next of rest) {
    if (!result.ok) break;
    const shared = result.value.both.cidrs;
    lists = {
      a: { noun: "the common part", entries: shared, origins: [] },
      b: givenList(next, "the next list"),
    };
    result = await runOperation(run, "cidrCompare", { a: shared, b: next.entries });
  }
  if (!result.ok) return report(result, run, () => "", { lists });
  const both = result.value.both;
  const found = both.cidrs.length > 0 ? EXIT.ok : EXIT.findings;
  if (run.json) {
    io.stdout(`${JSON.stringify(result.value)}\n`);
    return found;
  }
  const answer = { ok: true as const, status: 200, value: both };
  printList(answer, run, output, renderMixedMerge, { minimal: true });
  return found;
});
