/** The row of `cidrSplit` in the operations table (src/operations/table.ts). */
import type { Static } from "@sinclair/typebox";
import { CidrSplitRequest, CidrSplitResult } from "../../contract/cidr-list-schemas.ts";
import { splitAnswerSize } from "../../contract/costs.ts";
import { METERED_JSON_ANSWER, type Operation } from "../../contract/operation.ts";

/** Its place in the operations table, so in the OpenAPI document, the client and the routes (ADR 0063). */
export const position = 9;

export const row = {
  id: "cidrSplit",
  method: "POST",
  path: "/v1/cidr-split",
  request: CidrSplitRequest,
  result: CidrSplitResult,
  policy: METERED_JSON_ANSWER,
  cost: (input: Static<typeof CidrSplitRequest>) => splitAnswerSize(input),
  encoder: "deferredLists",
} as const satisfies Operation<"cidrSplit">;
