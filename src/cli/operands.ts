/**
 * The list operands of `nettools diff` and `nettools common` (CONTRACT §8.4): each a FILE or `-`
 * (stdin, at most once), read as `merge -f` reads a file, each entry keeping its `FILE:LINE`.
 */

import type { Sourced } from "../local/list-lines.ts";
import { collectEntries, stdinOnce } from "./args.ts";
import type { GivenList } from "./input-errors.ts";
import { type Io, UsageError } from "./io.ts";

/** One operand as read: its name (`stdin` for `-`) and its entries with their places. */
export interface Operand extends Sourced {
  readonly name: string;
}

/** Reads every operand; stdin may be named once. */
export async function readOperands(operands: readonly string[], io: Io): Promise<Operand[]> {
  if (operands.filter((operand) => operand === "-").length > 1) {
    throw new UsageError('stdin ("-") can be read only once');
  }
  const stdin = stdinOnce(io);
  const out: Operand[] = [];
  for (const operand of operands) {
    const entries = await collectEntries([], [], [operand], io, stdin);
    out.push({ name: operand === "-" ? "stdin" : operand, ...entries });
  }
  return out;
}

/** An operand as the input-error renderer names it. */
export function givenList(operand: Operand, label: string): GivenList {
  return { noun: `${label} (${operand.name})`, entries: operand.entries, origins: operand.origins };
}
