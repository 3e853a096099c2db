import type { ResultOf } from "../../contract/operations.ts";
import { CIDR_HELP, collectTwoLists, makeRun } from "../args.ts";
import { command, help, options } from "../command.ts";
import { helpFooter } from "../common-help.ts";
import { ENTRY_CHECK_HELP, EntryChecks } from "../entry-checks.ts";
import { UsageError } from "../io.ts";
import { type Style, table } from "../render.ts";
import { report, runOperation } from "../run-operation.ts";

const HELP = help`Usage: nettools usage [options] POOL... --used FILE|-

How full a pool is (cidr-usage): the pool's addresses (the union of the POOL blocks, one family),
how many of them the used blocks take, how many are free, the used addresses outside the pool,
the percentage used, the largest free aligned block (the lowest on a tie), and for each prefix
length from that block's to /32 or /128 (at most 64) how many aligned blocks still fit: "how many
/24s can I still hand out?". Counts are exact, whatever the sizes.

Options:
${options(20, {
  "-u, --used FILE": { repeatable: 'the used blocks, one a line ("-" = stdin); repeatable' },
  "-U CIDR": { repeatable: "one used block on the command line; repeatable" },
  "-f, --file FILE": { repeatable: 'read POOL blocks from FILE ("-" = stdin); repeatable' },
})}
${CIDR_HELP}
${ENTRY_CHECK_HELP}
${helpFooter("0 the usage is printed (a full pool too)")}

Example: nettools usage 10.0.0.0/16 --used allocated.txt`;

/** The answer as aligned lines, then the free blocks by size. */
function renderUsage(value: ResultOf<"cidrUsage">, style: Style): string {
  let out = table(
    null,
    [
      ["total", value.total],
      ["used", `${value.used} (${value.percentUsed.toFixed(2)}%)`],
      ["free", value.free],
      ["outside the pool", value.outsidePool],
      ["largest free", value.largestFree ?? "none (the pool is full)"],
    ],
    style,
  );
  if (value.freeBySize.length > 0) {
    out += `\n${style.bold("free blocks by size")}\n`;
    out += table(
      null,
      value.freeBySize.map(({ prefixLength, blocks }) => [`  /${prefixLength}`, blocks]),
      style,
    );
  }
  return out;
}

export const usage = command("usage", HELP, async ({ values, positionals, tokens }, io) => {
  const run = makeRun(io, values);
  const [givenPool, givenUsed] = await collectTwoLists(
    io,
    tokens,
    { positionals, files: values.file ?? [] },
    { option: "U", values: values.U ?? [], files: values.used ?? [] },
  );
  if (givenPool.entries.length === 0)
    throw new UsageError("usage needs at least one POOL block: usage 10.0.0.0/16 --used FILE");
  const checks = new EntryChecks(io, values);
  const pool = checks.list(givenPool);
  const used = checks.list(givenUsed);
  const stop = checks.verdict([pool]);
  if (stop !== null) return stop;
  const result = await runOperation(run, "cidrUsage", { pool: pool.entries, used: used.entries });
  return report(result, run, renderUsage, {
    lists: { pool: { noun: "the pool", ...pool }, used: { noun: "the used list", ...used } },
  });
});
