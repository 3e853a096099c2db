/** The row of `cidrContains` in the operations table (src/operations/table.ts). */
import type { Static } from "@sinclair/typebox";
import { CidrContainsRequest, CidrContainsResult } from "../../contract/cidr-list-schemas.ts";
import { METERED_JSON_ANSWER, type Operation } from "../../contract/operation.ts";

/** Its place in the operations table, so in the OpenAPI document, the client and the routes (ADR 0063). */
export const position = 10;

export const row = {
  id: "cidrContains",
  method: "POST",
  path: "/v1/cidr-contains",
  request: CidrContainsRequest,
  result: CidrContainsResult,
  policy: METERED_JSON_ANSWER,
  cost: (input: Static<typeof CidrContainsRequest>) => input.cidrs.length + input.entries.length,
} as const satisfies Operation<"cidrContains">;
