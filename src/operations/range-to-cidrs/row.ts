/** The row of `rangeToCidrs` in the operations table (src/operations/table.ts). */
import type { Static } from "@sinclair/typebox";
import { METERED_JSON_ANSWER, type Operation } from "../../contract/operation.ts";
import { RangeToCidrsRequest, RangeToCidrsResult } from "../../contract/schemas.ts";

/** Its place in the operations table, so in the OpenAPI document, the client and the routes (ADR 0063). */
export const position = 4;

export const row = {
  id: "rangeToCidrs",
  method: "POST",
  path: "/v1/range-to-cidrs",
  request: RangeToCidrsRequest,
  result: RangeToCidrsResult,
  policy: METERED_JSON_ANSWER,
  legacyLocators: true,
  // At most 2 × 128 CIDRs whatever the range.
  cost: (_input: Static<typeof RangeToCidrsRequest>) => 1,
  // Lists of more than 32 CIDRs stay prefix words and are written as bytes at the edge (ADR 60).
  encoder: "deferredLists",
} as const satisfies Operation<"rangeToCidrs">;
