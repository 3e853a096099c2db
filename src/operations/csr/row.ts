/** The row of `csr` in the operations table (src/operations/table.ts). */
import type { Static } from "@sinclair/typebox";
import { pemBlockCount } from "../../contract/costs.ts";
import { CsrRequest, CsrResult } from "../../contract/csr-schemas.ts";
import { JSON_ANSWER, type Operation } from "../../contract/operation.ts";

/** Its place in the operations table, so in the OpenAPI document, the client and the routes (ADR 0063). */
export const position = 16;

export const row = {
  id: "csr",
  method: "POST",
  path: "/v1/csr",
  request: CsrRequest,
  result: CsrResult,
  policy: { ...JSON_ANSWER, noStore: true, admission: "queued" },
  cost: (input: Static<typeof CsrRequest>) => pemBlockCount(input.pem),
} as const satisfies Operation<"csr">;
