/** The row of `cidrCover` in the operations table (src/operations/table.ts). */
import type { Static } from "@sinclair/typebox";
import { METERED_JSON_ANSWER, type Operation } from "../../contract/operation.ts";
import { CidrCoverRequest, CidrCoverResult } from "../../contract/schemas.ts";

/** Its place in the operations table, so in the OpenAPI document, the client and the routes (ADR 0063). */
export const position = 2;

export const row = {
  id: "cidrCover",
  method: "POST",
  path: "/v1/cidr-cover",
  request: CidrCoverRequest,
  result: CidrCoverResult,
  policy: METERED_JSON_ANSWER,
  legacyLocators: true,
  cost: (input: Static<typeof CidrCoverRequest>) => input.inputs.length,
  encoder: "deferredLists",
} as const satisfies Operation<"cidrCover">;
