/** The row of `health` in the operations table (src/operations/table.ts). */
import { JSON_ANSWER, type Operation } from "../../contract/operation.ts";
import { HealthResult } from "../../contract/schemas.ts";

/** Its place in the operations table, so in the OpenAPI document, the client and the routes (ADR 0063). */
export const position = 1;

export const row = {
  id: "health",
  method: "GET",
  path: "/v1/health",
  request: null,
  result: HealthResult,
  policy: { ...JSON_ANSWER, rateLimited: false },
  encoder: "constant",
} as const satisfies Operation<"health">;
