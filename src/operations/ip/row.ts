/** The row of `ip` in the operations table (src/operations/table.ts). */
import { CLIENT_ADDRESS, type Operation } from "../../contract/operation.ts";
import { PublicIpResult } from "../../contract/schemas.ts";
import { addressLine } from "../public-ip/row.ts";

export const row = {
  id: "ip",
  method: "GET",
  path: "/v1/ip",
  request: null,
  result: PublicIpResult,
  policy: { ...CLIENT_ADDRESS, representation: "text" },
  text: addressLine,
} as const satisfies Operation<"ip">;
