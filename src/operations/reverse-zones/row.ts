/** The row of `reverseZones` in the operations table (src/operations/table.ts). */
import type { Static } from "@sinclair/typebox";
import { METERED_JSON_ANSWER, type Operation } from "../../contract/operation.ts";
import { ReverseZonesRequest, ReverseZonesResult } from "../../contract/planning-schemas.ts";

/** Its place in the operations table, so in the OpenAPI document, the client and the routes (ADR 0063). */
export const position = 12;

export const row = {
  id: "reverseZones",
  method: "POST",
  path: "/v1/reverse-zones",
  request: ReverseZonesRequest,
  result: ReverseZonesResult,
  policy: METERED_JSON_ANSWER,
  // At most 128 zones whatever the block.
  cost: (_input: Static<typeof ReverseZonesRequest>) => 1,
  encoder: "deferredLists",
} as const satisfies Operation<"reverseZones">;
