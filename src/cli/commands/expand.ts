/**
 * `nettools expand ITEM...` (CONTRACT §8.7): every address of each ITEM, one a line, like `prips`.
 * An ITEM is an address, a CIDR (all its addresses, network and broadcast included) or a range
 * `START-END`; `-` reads ITEMs from stdin, one a line (a byte-order mark, blank lines, `#`
 * comments and CRLF accepted, CONTRACT §7.6). Every ITEM is read and checked, and the exact total
 * computed, before anything is printed (src/local/expand.ts): over the cap (65536, `--max N` up
 * to 16777216) nothing is printed and the exit status is 2.
 */
import { expansionsOf, readItem, writeAddresses } from "../../local/expand.ts";
import { emptySourced, linesOf } from "../../local/list-lines.ts";
import { byteIo } from "../byte-output.ts";
import { command, help, options } from "../command.ts";
import { ChunkedOutput } from "../composition-root.ts";
import { ENTRY_CHECK_HELP, EntryChecks } from "../entry-checks.ts";
import { EXIT, stdinOnlyOnce, UsageError } from "../io.ts";
import { chooseStyle } from "../style.ts";

/** Addresses printed at most without `--max`, and the largest `--max`. */
export const EXPAND_DEFAULT_MAX = 65536;
export const EXPAND_MAX_LIMIT = 16_777_216;

const HELP = help`Usage: nettools expand [--max N] ITEM... | -

Prints every address of each ITEM, one a line: in address order within an ITEM, the ITEMs in
the order given, nothing merged (overlapping ITEMs print their addresses twice), like prips.
An ITEM is an address, a CIDR (all its addresses, network and broadcast included) or a range
START-END of one family. "-" reads ITEMs from stdin, one a line (blank lines and "# comments"
skipped). IPv6 is written as RFC 5952 says, IPv4-mapped addresses as ::ffff:192.0.2.1.

Options:
${options(15, {
  "--max N": `print at most N addresses in all (default ${EXPAND_DEFAULT_MAX}, at most ${EXPAND_MAX_LIMIT}); over
               it nothing is printed and the exit code is 2`,
  "-h, --help": "show this help",
})}
${ENTRY_CHECK_HELP}

Every ITEM is checked and the total counted before anything is printed.
Exit codes: 0 printed, 2 invalid ITEM, over the limit, or usage.

Examples: nettools expand 192.0.2.0/30
          nettools expand 10.0.0.250-10.0.1.5 2001:db8::/126 | xargs -n1 ping -c1 -W1`;

/** `--max`: a whole number from 1 to {@link EXPAND_MAX_LIMIT}. */
function readMax(text: string | undefined): number {
  if (text === undefined) return EXPAND_DEFAULT_MAX;
  if (!/^[0-9]+$/.test(text) || Number(text) < 1 || Number(text) > EXPAND_MAX_LIMIT) {
    throw new UsageError(
      `--max must be a whole number from 1 to ${EXPAND_MAX_LIMIT}, not ${JSON.stringify(text)}`,
    );
  }
  return Number(text);
}

export const expand = command("expand", HELP, async ({ values, positionals }, io) => {
  const max = readMax(values.max);
  if (positionals.length === 0)
    throw new UsageError("expand needs at least one ITEM (an address, a CIDR or START-END), or -");
  stdinOnlyOnce(positionals);

  const items = emptySourced();
  for (const [i, item] of positionals.entries()) {
    if (item === "-") {
      linesOf((await io.readStdin()).replace(/^\uFEFF/, ""), "stdin", items);
    } else {
      items.entries.push(item);
      items.origins.addText(`arg ${i + 1}`);
    }
  }
  const err = chooseStyle(io.stderrIsTty, io.env);
  const checks = new EntryChecks(io, values);
  const kept = checks.list(
    items,
    (entry) => {
      const read = readItem(entry);
      return "problem" in read ? read.problem : null;
    },
    (entry) => (entry.includes("-") ? null : entry),
  );
  const stop = checks.verdict([kept]);
  if (stop !== null) return stop;
  const read = expansionsOf(kept);
  if (!read.ok) {
    const problems = read.problems;
    for (const problem of problems.slice(0, 100)) io.stderr(`${err.red("error")}: ${problem}\n`);
    if (problems.length > 100)
      io.stderr(`${err.red("error")}: … and ${problems.length - 100} more invalid ITEMs\n`);
    return EXIT.invalidInput;
  }
  const { expansions, total } = read;
  if (total > BigInt(max)) {
    io.stderr(`${err.red("error")}: would print ${total} addresses, over the limit of ${max} (--max)\n`);
    return EXIT.invalidInput;
  }
  const out = new ChunkedOutput(byteIo(io).stdout);
  for (const expansion of expansions) writeAddresses(out, expansion.first, Number(expansion.count));
  out.flush();
  return EXIT.ok;
});
