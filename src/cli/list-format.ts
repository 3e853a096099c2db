/**
 * `--format lines|json|nft|ipset|cisco` for every command that prints a list of CIDRs (CONTRACT
 * §8.6): the options and their help, and the printing; their checks and the one renderer of each
 * format are src/local/list-render.ts's. `lines` and `json` write the command's own list; `nft`,
 * `ipset` and `cisco` describe an address set, so they write the minimal CIDR list of the list's
 * union (no duplicate, overlap or joinable pair: nft and ipset refuse overlapping elements), both
 * families' sets unless the command kept one family.
 */
import type { ApiResult } from "../client/index.ts";
import type { GivenLists } from "../local/input-issue-words.ts";
import {
  type Families,
  type ListOutput,
  listOutputOf,
  NFT_ELEMENTS_PER_LINE,
  renderList,
} from "../local/list-render.ts";
import { makeRun, type Run } from "./args.ts";
import { help, options } from "./command.ts";
import { EXIT, type Io } from "./io.ts";
import { cidrLines, type Style } from "./render.ts";
import { report } from "./run-operation.ts";

export * from "../local/list-render.ts";

export const FORMAT_HELP = help`
List formats (the same on a terminal and in a pipe):
${options(20, {
  "--format FORMAT": `lines (one CIDR a line), json (one JSON array), or a firewall's address set:
                    nft (a table with NAME_v4 and NAME_v6 interval sets, reloadable with nft -f,
                    elements added ${NFT_ELEMENTS_PER_LINE} a line), ipset (for ipset restore: each set
                    filled as NAME_v4.tmp and swapped in, so a reader never sees it empty and the
                    file can be restored again and again), cisco (IPv4 as NETWORK WILDCARD, IPv6 as
                    CIDR); the set formats merge the list first, so nothing overlaps`,
  "--set-name NAME": "the sets' name (default nettools): NAME_v4 and NAME_v6",
  "--table NAME": "the nft table (default nettools)",
  "--family FAMILY": `the nft table's family: inet (default, both sets), ip (only NAME_v4) or
                    ip6 (only NAME_v6); blocks of the other family are left out, said on stderr`,
})}
NAME is a letter, then letters, digits or _, at most 28 in all (24 with --format ipset, for
ipset's 31 characters with _v4.tmp). Not with --json.`;

/** The run options of a list-printing command, and the list output its options ask for. */
export function listRunOf(
  io: Io,
  values: Parameters<typeof listOutputOf>[0] & Parameters<typeof makeRun>[1],
): { run: Run; output: ListOutput | null } {
  const output = listOutputOf(values);
  return { output, run: makeRun(io, values) };
}

/**
 * Prints a list-printing command's answer, a list of CIDRs: in `output`'s format when one was asked
 * for and the command succeeded (`set` says what the list already is, for the set formats), else
 * as `report` prints a list, with `lists` to place an input error. Returns the exit code.
 */
export function printList<T extends { cidrs: readonly string[] }>(
  result: ApiResult<T>,
  run: Run,
  output: ListOutput | null,
  render: (value: T, style: Style) => string,
  { lists, ...set }: { lists?: GivenLists; families?: Families; minimal?: boolean } = {},
): number {
  if (output === null || !result.ok)
    return report(result, run, render, { lists, plain: cidrLines, list: true });
  const { text, leftOut } = renderList(result.value.cidrs, output, set);
  if (leftOut > 0) {
    const other = output.family === "ip" ? "IPv6" : "IPv4";
    run.io.stderr(
      `note: ${leftOut} ${other} ${leftOut === 1 ? "block" : "blocks"} left out: --family ${output.family} holds one family\n`,
    );
  }
  run.io.stdout(text);
  return EXIT.ok;
}
