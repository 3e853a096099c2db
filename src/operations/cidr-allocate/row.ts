/** The row of `cidrAllocate` in the operations table (src/operations/table.ts). */
import type { Static } from "@sinclair/typebox";
import { CidrAllocateRequest, CidrAllocateResult } from "../../contract/cidr-list-schemas.ts";
import { METERED_JSON_ANSWER, type Operation } from "../../contract/operation.ts";

/** Its place in the operations table, so in the OpenAPI document, the client and the routes (ADR 0063). */
export const position = 11;

export const row = {
  id: "cidrAllocate",
  method: "POST",
  path: "/v1/cidr-allocate",
  request: CidrAllocateRequest,
  result: CidrAllocateResult,
  policy: METERED_JSON_ANSWER,
  cost: (input: Static<typeof CidrAllocateRequest>) =>
    input.within.length + (input.used?.length ?? 0) + (input.count ?? 1),
  encoder: "deferredLists",
} as const satisfies Operation<"cidrAllocate">;
