/** The row of `referenceRoots` in the operations table (src/operations/table.ts). */
import { JSON_ANSWER, type Operation } from "../../contract/operation.ts";
import { ReferenceRootsResult } from "../../contract/schemas.ts";

/** Its place in the operations table, so in the OpenAPI document, the client and the routes (ADR 0063). */
export const position = 19;

export const row = {
  id: "referenceRoots",
  method: "GET",
  path: "/v1/reference-roots",
  request: null,
  result: ReferenceRootsResult,
  // no-store: the answer describes this process's configuration (CONTRACT §9.2).
  policy: { ...JSON_ANSWER, noStore: true },
} as const satisfies Operation<"referenceRoots">;
