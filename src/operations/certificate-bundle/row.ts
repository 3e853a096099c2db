/** The row of `certificateBundle` in the operations table (src/operations/table.ts). */
import type { Static } from "@sinclair/typebox";
import { CertificateBundleRequest, CertificateBundleResult } from "../../contract/certificate-schemas.ts";
import { pemBlockCount } from "../../contract/costs.ts";
import { JSON_ANSWER, type Operation } from "../../contract/operation.ts";

/** Its place in the operations table, so in the OpenAPI document, the client and the routes (ADR 0063). */
export const position = 5;

export const row = {
  id: "certificateBundle",
  method: "POST",
  path: "/v1/certificate-bundle",
  request: CertificateBundleRequest,
  result: CertificateBundleResult,
  policy: { ...JSON_ANSWER, noStore: true, admission: "queued" },
  cost: (input: Static<typeof CertificateBundleRequest>) => pemBlockCount(input.pem),
} as const satisfies Operation<"certificateBundle">;
