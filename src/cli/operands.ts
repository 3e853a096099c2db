/**
 * The list operands of `nettools diff` and `nettools common` (CONTRACT §8.4), read by
 * src/local/list-sources.ts, as the input-error renderer names them.
 */
import type { Operand } from "../local/list-sources.ts";
import type { GivenList } from "./input-errors.ts";

/** An operand as the input-error renderer names it. */
export function givenList(operand: Operand, label: string): GivenList {
  return { noun: `${label} (${operand.name})`, entries: operand.entries, origins: operand.origins };
}
