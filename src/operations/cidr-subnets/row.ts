/** The row of `cidrSubnets` in the operations table (src/operations/table.ts). */
import type { Static } from "@sinclair/typebox";
import { METERED_JSON_ANSWER, type Operation } from "../../contract/operation.ts";
import { CidrSubnetsRequest, CidrSubnetsResult } from "../../contract/planning-schemas.ts";

/** Its place in the operations table, so in the OpenAPI document, the client and the routes (ADR 0063). */
export const position = 13;

export const row = {
  id: "cidrSubnets",
  method: "POST",
  path: "/v1/cidr-subnets",
  request: CidrSubnetsRequest,
  result: CidrSubnetsResult,
  policy: METERED_JSON_ANSWER,
  cost: (input: Static<typeof CidrSubnetsRequest>) => Math.max(1, input.newbits.length),
  encoder: "deferredLists",
} as const satisfies Operation<"cidrSubnets">;
