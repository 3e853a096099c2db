/** The row of `cidrSplit` in the operations table (src/operations/table.ts). */
import type { Static } from "@sinclair/typebox";
import { CidrSplitRequest, CidrSplitResult } from "../../contract/cidr-list-schemas.ts";
import { splitAnswerSize } from "../../contract/costs.ts";
import { METERED_JSON_ANSWER, type Operation } from "../../contract/operation.ts";

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
