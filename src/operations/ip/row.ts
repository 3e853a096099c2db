/** The row of `ip` in the operations table (src/operations/table.ts). */
import { CLIENT_ADDRESS, type Operation } from "../../contract/operation.ts";
import { PublicIpResult } from "../../contract/schemas.ts";
import { addressLine } from "../public-ip/row.ts";

/** Its place in the operations table, so in the OpenAPI document, the client and the routes (ADR 0063). */
export const position = 15;

export const row = {
  id: "ip",
  method: "GET",
  path: "/v1/ip",
  request: null,
  result: PublicIpResult,
  policy: { ...CLIENT_ADDRESS, representation: "text" },
  text: addressLine,
} as const satisfies Operation<"ip">;
