import { diffChunks } from "../../local/diff-lines.ts";
import { givenList } from "../../local/input-issue-words.ts";
import { type Operand, readOperands } from "../../local/list-sources.ts";
import { makeRun } from "../args.ts";
import { command, help, options } from "../command.ts";
import { helpFooter } from "../common-help.ts";
import { ENTRY_CHECK_HELP, EntryChecks } from "../entry-checks.ts";
import { EXIT, UsageError } from "../io.ts";
import { report, runOperation } from "../run-operation.ts";

const HELP = help`Usage: nettools diff [options] A B

Compares two lists of addresses and CIDRs as address sets, as "iprange --diff" does: how they are
written does not matter, only the addresses (two /25s equal their /24). Prints one line per block
of the minimal difference, in address order (IPv4 first): "-CIDR" for a block only in A, "+CIDR"
for a block only in B. Equal lists print nothing.
A and B are files, or "-" for stdin (once): one address or CIDR a line, blank lines and
"# comments" skipped, IPv4 and IPv6 mixed (IPv4-mapped ::ffff:a.b.c.d is IPv6). An invalid entry
is reported as FILE:LINE.

Options:
${options(18, { "-q, --quiet": "print nothing; only the exit code tells", "--format FORMAT": null })}
${ENTRY_CHECK_HELP}
With --json, the cidr-compare result (onlyA, onlyB, both, equal); the exit code is the same.
${helpFooter("0 the lists are equal; 1 they differ (diff(1)'s)")}

Example: nettools diff yesterday.txt today.txt`;

export const diff = command("diff", HELP, async ({ values, positionals }, io) => {
  if (values.format !== undefined) {
    throw new UsageError("--format does not apply to diff: its lines say which list holds each block");
  }
  const run = makeRun(io, values);
  if (positionals.length !== 2) throw new UsageError("diff needs two lists: diff A B (a FILE or - each)");
  const checks = new EntryChecks(io, values);
  const [a, b] = (await readOperands(positionals, io)).map((operand) => ({
    ...operand,
    ...checks.list(operand),
  })) as [Operand, Operand];
  const stop = checks.verdict([{ entries: { length: a.entries.length + b.entries.length } }]);
  if (stop !== null) return stop;
  const result = await runOperation(run, "cidrCompare", { a: a.entries, b: b.entries });
  if (!result.ok) {
    return report(result, run, () => "", {
      lists: { a: givenList(a, "list A"), b: givenList(b, "list B") },
    });
  }
  const { onlyA, onlyB, equal } = result.value;
  if (run.json) io.stdout(`${JSON.stringify(result.value)}\n`);
  else if (!values.quiet) for (const chunk of diffChunks(onlyA.cidrs, onlyB.cidrs)) io.stdout(chunk);
  return equal ? EXIT.ok : EXIT.findings;
});
