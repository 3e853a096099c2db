/**
 * `--format lines|json|nft|ipset|cisco` for every command that prints a list of CIDRs (CONTRACT
 * §8.6): the options, their checks, and the one renderer of each format. `lines` and `json`
 * write the command's own list; `nft`, `ipset` and `cisco` describe an address set, so they write
 * the minimal CIDR list of the list's union (no duplicate, overlap or joinable pair: nft and ipset
 * refuse overlapping elements), both families' sets unless the command kept one family.
 */
import type { ApiResult } from "../client/index.ts";
import { type Families, type ListOutput, listOutputOf, renderList } from "../local/list-render.ts";
import { makeRun, type Run } from "./args.ts";
import { EXIT, type Io } from "./io.ts";

export * from "../local/list-render.ts";

/** The run options of a list-printing command, and the list output its options ask for. */
export function listRunOf(
  io: Io,
  values: Parameters<typeof listOutputOf>[0] & Parameters<typeof makeRun>[1],
): { run: Run; output: ListOutput | null } {
  const output = listOutputOf(values);
  return { output, run: makeRun(io, values) };
}

/**
 * Prints a list-printing command's answer: in `output`'s format when one was asked for and the
 * command succeeded, else through `print` (the command's usual `report`). Returns the exit code.
 */
export function printList<T>(
  result: ApiResult<T>,
  run: Run,
  output: ListOutput | null,
  listOf: (value: T) => { cidrs: readonly string[]; families?: Families; minimal?: boolean },
  print: () => number,
): number {
  if (output === null || !result.ok) return print();
  const { cidrs, ...options } = listOf(result.value);
  const { text, leftOut } = renderList(cidrs, output, options);
  if (leftOut > 0) {
    const other = output.family === "ip" ? "IPv6" : "IPv4";
    run.io.stderr(
      `note: ${leftOut} ${other} ${leftOut === 1 ? "block" : "blocks"} left out: --family ${output.family} holds one family\n`,
    );
  }
  run.io.stdout(text);
  return EXIT.ok;
}
