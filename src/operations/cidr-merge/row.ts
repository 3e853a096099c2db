/** The row of `cidrMerge` in the operations table (src/operations/table.ts). */
import type { Static } from "@sinclair/typebox";
import { CidrMergeRequest, CidrMergeResult } from "../../contract/cidr-list-schemas.ts";
import { METERED_JSON_ANSWER, type Operation } from "../../contract/operation.ts";

/** Its place in the operations table, so in the OpenAPI document, the client and the routes (ADR 0063). */
export const position = 8;

export const row = {
  id: "cidrMerge",
  method: "POST",
  path: "/v1/cidr-merge",
  request: CidrMergeRequest,
  result: CidrMergeResult,
  policy: METERED_JSON_ANSWER,
  cost: (input: Static<typeof CidrMergeRequest>) => input.inputs.length,
  encoder: "deferredLists",
} as const satisfies Operation<"cidrMerge">;
