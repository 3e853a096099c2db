/**
 * The prose of GET /v1/health for the OpenAPI document: what its row in the operations table
 * (src/contract/operations.ts) does not say. Every example is a real exchange, replayed by
 * tests/docs/openapi.test.ts.
 */
import type { OperationDoc } from "../../adapters/http/openapi-document.ts";

export const docs: OperationDoc = {
  summary: "Liveness and readiness probe",
  tag: "Platform",
  resultDescription:
    "The service is up. Nothing else is checked, so it is cheap enough for a one-second probe.",
  examples: { ok: { summary: "Up", status: 200, response: { status: "ok" } } },
};
