/** The row of `certificateChain` in the operations table (src/operations/table.ts). */
import type { Static } from "@sinclair/typebox";
import { CertificateChainRequest, CertificateChainResult } from "../../contract/chain-schemas.ts";
import { pemBlockCount } from "../../contract/costs.ts";
import { JSON_ANSWER, type Operation } from "../../contract/operation.ts";

/** Its place in the operations table, so in the OpenAPI document, the client and the routes (ADR 0063). */
export const position = 6;

export const row = {
  id: "certificateChain",
  method: "POST",
  path: "/v1/certificate-chain",
  request: CertificateChainRequest,
  result: CertificateChainResult,
  policy: { ...JSON_ANSWER, noStore: true, admission: "queued" },
  cost: (input: Static<typeof CertificateChainRequest>) => pemBlockCount(input.pem),
} as const satisfies Operation<"certificateChain">;
