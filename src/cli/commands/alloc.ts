import { CIDR_HELP, collectTwoLists } from "../args.ts";
import { command, help, options } from "../command.ts";
import { helpFooter } from "../common-help.ts";
import { ENTRY_CHECK_HELP, EntryChecks } from "../entry-checks.ts";
import { EXIT, UsageError } from "../io.ts";
import { FORMAT_HELP, listRunOf, printList } from "../list-format.ts";
import { renderAllocate } from "../render.ts";
import { runOperation } from "../run-operation.ts";

const HELP = help`Usage: nettools alloc [options] -l LENGTH WITHIN... | -f FILE

First fit: the lowest free blocks of prefix length LENGTH lying wholly inside the WITHIN blocks
(one family; they may overlap or abut) and sharing no address with the used blocks, as IPAM
tools hand them out; a gap between used blocks is filled first. Allocating again with the answer
added to the used list gives the next blocks. (Terraform's cidrsubnets packs blocks in order
and never fills a gap: that is nettools subnets.)

Options:
${options(24, {
  "-l, --length LENGTH": "prefix length of each block (24 or /24); required",
  "-n, --count N": "how many blocks (default 1)",
  "-f, --file FILE": { repeatable: 'read WITHIN blocks from FILE, one a line ("-" = stdin); repeatable' },
  "-u, --used CIDR": { repeatable: "a block already taken; repeatable" },
  "-U, --used-file FILE": { repeatable: "read used blocks from FILE, one a line; repeatable" },
})}
${CIDR_HELP}
${ENTRY_CHECK_HELP}
Not on a terminal (a pipe or a file), the blocks are printed one a line with nothing else.
${FORMAT_HELP}
${helpFooter("0 the blocks are printed; 1 fewer blocks fit than asked for (INSUFFICIENT_SPACE, saying\nhow many do)")}

Example: nettools alloc -l 24 -n 2 -U used.txt 10.0.0.0/16`;

function wholeNumber(text: string, what: string, slash: boolean): number {
  const digits = slash && text.startsWith("/") ? text.slice(1) : text;
  if (!/^(0|[1-9][0-9]{0,6})$/.test(digits))
    throw new UsageError(`${what} must be a whole number, not "${text}"`);
  return Number(digits);
}

export const alloc = command("alloc", HELP, async ({ values, positionals, tokens }, io) => {
  const { run, output } = listRunOf(io, values);
  if (values.length === undefined) throw new UsageError("alloc needs the prefix length of the blocks: -l 24");
  const prefixLength = wholeNumber(values.length, "the prefix length (-l)", true);
  const count = values.count === undefined ? 1 : wholeNumber(values.count, "the count (-n)", false);
  const [givenWithin, givenUsed] = await collectTwoLists(
    io,
    tokens,
    { positionals, files: values.file ?? [] },
    { option: "used", values: values.used ?? [], files: values["used-file"] ?? [] },
  );
  if (givenWithin.entries.length === 0) throw new UsageError("alloc needs at least one WITHIN block");
  const checks = new EntryChecks(io, values);
  const within = checks.list(givenWithin);
  const used = checks.list(givenUsed);
  const stop = checks.verdict([within]);
  if (stop !== null) return stop;
  const result = await runOperation(run, "cidrAllocate", {
    within: within.entries,
    used: used.entries,
    prefixLength,
    count,
  });
  const code = printList(result, run, output, renderAllocate, {
    lists: { within: { noun: "the pool (within)", ...within }, used: { noun: "the used list", ...used } },
  });
  // A full pool is an answer, not a mistake (CONTRACT §7.4): exit 1, as "no match" is for grep.
  return !result.ok && result.error.code === "INSUFFICIENT_SPACE" ? EXIT.findings : code;
});
