/** The row of `publicIp` in the operations table (src/operations/table.ts). */
import type { Static } from "@sinclair/typebox";
import { CLIENT_ADDRESS, type Operation } from "../../contract/operation.ts";
import { PublicIpResult } from "../../contract/schemas.ts";

/** The text of a public-ip answer (and of `ip`'s): the address and a line feed (CONTRACT §5, §7.5). */
export function addressLine(result: Static<typeof PublicIpResult>): string {
  return `${result.ip}\n`;
}

/** Its place in the operations table, so in the OpenAPI document, the client and the routes (ADR 0063). */
export const position = 7;

export const row = {
  id: "publicIp",
  method: "GET",
  path: "/v1/public-ip",
  request: null,
  result: PublicIpResult,
  policy: { ...CLIENT_ADDRESS, representation: "json-or-text" },
  text: addressLine,
} as const satisfies Operation<"publicIp">;
