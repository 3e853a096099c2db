/** The row of `cidrSubtract` in the operations table (src/operations/table.ts). */
import type { Static } from "@sinclair/typebox";
import { METERED_JSON_ANSWER, type Operation } from "../../contract/operation.ts";
import { CidrSubtractRequest, CidrSubtractResult } from "../../contract/schemas.ts";

/** Its place in the operations table, so in the OpenAPI document, the client and the routes (ADR 0063). */
export const position = 3;

export const row = {
  id: "cidrSubtract",
  method: "POST",
  path: "/v1/cidr-subtract",
  request: CidrSubtractRequest,
  result: CidrSubtractResult,
  policy: METERED_JSON_ANSWER,
  legacyLocators: true,
  cost: (input: Static<typeof CidrSubtractRequest>) => input.include.length + input.exclude.length,
  encoder: "deferredLists",
} as const satisfies Operation<"cidrSubtract">;
