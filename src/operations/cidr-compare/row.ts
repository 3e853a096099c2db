/** The row of `cidrCompare` in the operations table (src/operations/table.ts). */
import type { Static } from "@sinclair/typebox";
import { CidrCompareRequest, CidrCompareResult } from "../../contract/cidr-list-schemas.ts";
import { METERED_JSON_ANSWER, type Operation } from "../../contract/operation.ts";

/** Its place in the operations table, so in the OpenAPI document, the client and the routes (ADR 0063). */
export const position = 14;

export const row = {
  id: "cidrCompare",
  method: "POST",
  path: "/v1/cidr-compare",
  request: CidrCompareRequest,
  result: CidrCompareResult,
  policy: METERED_JSON_ANSWER,
  cost: (input: Static<typeof CidrCompareRequest>) => Math.max(1, input.a.length + input.b.length),
  encoder: "deferredLists",
} as const satisfies Operation<"cidrCompare">;
