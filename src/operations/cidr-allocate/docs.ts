/**
 * The prose of POST /v1/cidr-allocate for the OpenAPI document: what its row in the operations table
 * (src/contract/operations.ts) does not say. Every example is a real exchange, replayed by
 * tests/docs/openapi.test.ts.
 */
import type { OperationDoc } from "../../adapters/http/openapi-document.ts";

export const docs: OperationDoc = {
  summary: "The next free blocks of a pool, first fit",
  description:
    "The `count` lowest-addressed blocks of `prefixLength` lying wholly inside the union of `within` and sharing no address with the union of `used` (Terraform's `cidrsubnets`, netipx's `IPSet`). `within` blocks may overlap or abut; `used` may reach outside `within`. Adding the answer to `used` and asking again gives the next blocks.",
  tag: "CIDR",
  resultDescription:
    "The blocks, lowest first, and `freeAddressCount`: the addresses of `within` outside `used` and outside these blocks, as a decimal string.",
  errors: { 400: ["MIXED_ADDRESS_FAMILIES", "INSUFFICIENT_SPACE"] },
  examples: {
    firstFit: {
      summary: "Two /26s from a partly used /24",
      request: {
        within: ["10.0.0.0/24"],
        used: ["10.0.0.0/26", "10.0.0.128/27"],
        prefixLength: 26,
        count: 2,
      },
      status: 200,
      response: { cidrs: ["10.0.0.64/26", "10.0.0.192/26"], freeAddressCount: "32" },
    },
    insufficientSpace: {
      summary: "Fewer free blocks than asked for",
      request: { within: ["10.0.0.0/24"], used: ["10.0.0.0/25"], prefixLength: 25, count: 2 },
      status: 400,
      response: {
        error: {
          code: "INSUFFICIENT_SPACE",
          message: "Only 1 free block of /25 fits inside within and outside used; count asks for 2.",
        },
      },
    },
    mixedFamilies: {
      summary: "A used block of the other family",
      request: { within: ["10.0.0.0/16"], used: ["2001:db8::/32"], prefixLength: 24 },
      status: 400,
      response: {
        error: {
          code: "MIXED_ADDRESS_FAMILIES",
          message: "IPv4 and IPv6 cannot be mixed in one request.",
          issues: [
            {
              message:
                '"2001:db8::/32" is IPv6, but the first entry of within "10.0.0.0/16" is IPv4; all addresses must be of one family',
              path: ["used", 0],
            },
          ],
        },
      },
    },
  },
};
