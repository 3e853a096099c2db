/** The row of `crl` in the operations table (src/operations/table.ts). */
import type { Static } from "@sinclair/typebox";
import { pemBlockCount } from "../../contract/costs.ts";
import { CrlRequest, CrlResult } from "../../contract/crl-schemas.ts";
import { JSON_ANSWER, type Operation } from "../../contract/operation.ts";

/** Its place in the operations table, so in the OpenAPI document, the client and the routes (ADR 0063). */
export const position = 18;

export const row = {
  id: "crl",
  method: "POST",
  path: "/v1/crl",
  request: CrlRequest,
  result: CrlResult,
  // A signature check: queued like the other certificate operations (CONTRACT §10.2).
  policy: { ...JSON_ANSWER, noStore: true, admission: "queued" },
  // One signature check (the list's, with issuerPem) and the certificates looked up.
  cost: (input: Static<typeof CrlRequest>) => 1 + pemBlockCount(input.certificatePem ?? ""),
} as const satisfies Operation<"crl">;
