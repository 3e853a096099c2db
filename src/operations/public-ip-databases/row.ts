/** The row of `publicIpDatabases` in the operations table (src/operations/table.ts). */
import { JSON_ANSWER, type Operation } from "../../contract/operation.ts";
import { PublicIpDatabasesResult } from "../../contract/schemas.ts";

/** Its place in the operations table, so in the OpenAPI document, the client and the routes (ADR 0063). */
export const position = 17;

export const row = {
  id: "publicIpDatabases",
  method: "GET",
  path: "/v1/public-ip/databases",
  request: null,
  result: PublicIpDatabasesResult,
  // no-store: a SIGHUP reload changes the answer at any moment (CONTRACT §8.10).
  policy: { ...JSON_ANSWER, noStore: true },
} as const satisfies Operation<"publicIpDatabases">;
