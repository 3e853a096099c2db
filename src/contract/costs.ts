/**
 * What the rows' costs share (CONTRACT §1.7, docs/decisions/0037-admission-for-all-work.md). A
 * cost is a count of units whose time the admission measures: for the CIDR operations, the
 * entries read plus the entries the answer will hold where the body says so (a split's page, a
 * subnets plan, an allocation); for the certificate operations, the PEM blocks (the queue admits
 * n blocks for n² signature checks). Each row states its own `cost` in its folder
 * (`src/operations/<id>/row.ts`), typed with its request; src/contract/operations.ts checks that
 * the row's schema and the function agree. They are arithmetic on the body only: no allocation.
 */
import type { Static } from "@sinclair/typebox";
import { MAX_RESULT_CIDRS } from "../domain/limits.ts";
import type { CidrSplitRequest } from "./cidr-list-schemas.ts";

/** PEM blocks in a text, counted by their BEGIN lines (the scanner itself runs later, in the use case). */
export function pemBlockCount(pem: string): number {
  let count = 0;
  for (let at = pem.indexOf("-----BEGIN"); at !== -1; at = pem.indexOf("-----BEGIN", at + 10)) count++;
  return count;
}

/**
 * How many subnets a split answers, known from the body before splitting: 2^(prefixLength − the
 * block's own length), at most the page's `limit` (or the result bound; a larger split is refused
 * as RESULT_TOO_LARGE, which costs less than this says). An unreadable block costs 1: the use case
 * refuses it at once.
 */
export function splitAnswerSize(input: Static<typeof CidrSplitRequest>): number {
  const slash = input.cidr.indexOf("/");
  const own = slash === -1 ? (input.cidr.includes(":") ? 128 : 32) : Number(input.cidr.slice(slash + 1));
  const bits = input.prefixLength - own;
  if (!Number.isInteger(bits) || bits < 0) return 1;
  return Math.min(input.limit ?? MAX_RESULT_CIDRS, 2 ** Math.min(bits, 30));
}
