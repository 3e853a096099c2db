/** The row of `cidrUsage` in the operations table (src/operations/table.ts). */
import type { Static } from "@sinclair/typebox";
import { CidrUsageRequest, CidrUsageResult } from "../../contract/cidr-list-schemas.ts";
import { METERED_JSON_ANSWER, type Operation } from "../../contract/operation.ts";

/** Its place in the operations table, so in the OpenAPI document, the client and the routes (ADR 0063). */
export const position = 20;

export const row = {
  id: "cidrUsage",
  method: "POST",
  path: "/v1/cidr-usage",
  request: CidrUsageRequest,
  result: CidrUsageResult,
  policy: METERED_JSON_ANSWER,
  cost: (input: Static<typeof CidrUsageRequest>) => input.pool.length + input.used.length,
} as const satisfies Operation<"cidrUsage">;
