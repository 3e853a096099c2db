/**
 * The prose of POST /v1/cidr-split for the OpenAPI document: what its row in the operations table
 * (src/contract/operations.ts) does not say. Every example is a real exchange, replayed by
 * tests/docs/openapi.test.ts.
 */

import type { OperationDoc } from "../../adapters/http/openapi-document.ts";
import { MAX_RESULT_CIDRS } from "../../domain/limits.ts";

export const docs: OperationDoc = {
  summary: "Every subnet of a given length inside a block",
  description: `Splits one block (a CIDR, or an address: a /32 or /128) into every subnet of \`prefixLength\`, as \`ipcalc -S\` and \`sipcalc -s\` do. The number of subnets is known first: over ${MAX_RESULT_CIDRS} is refused at once with the exact count, whatever the size of the block.`,
  tag: "CIDR",
  resultDescription:
    "The block (host bits cleared), the length asked for, the number of subnets as a decimal string, and every subnet by network address.",
  errors: { 400: ["RESULT_TOO_LARGE"] },
  examples: {
    ipv4: {
      summary: "A /22 into /24s",
      request: { cidr: "10.0.0.0/22", prefixLength: 24 },
      status: 200,
      response: {
        network: "10.0.0.0/22",
        prefixLength: 24,
        subnetCount: "4",
        cidrs: ["10.0.0.0/24", "10.0.1.0/24", "10.0.2.0/24", "10.0.3.0/24"],
      },
    },
    page: {
      summary: "One page: two /64s from number 65536 (offset and limit; never RESULT_TOO_LARGE)",
      request: { cidr: "2001:db8::/32", prefixLength: 64, offset: "65536", limit: 2 },
      status: 200,
      response: {
        network: "2001:db8::/32",
        prefixLength: 64,
        subnetCount: "4294967296",
        cidrs: ["2001:db8:1::/64", "2001:db8:1:1::/64"],
      },
    },
    offsetPastEnd: {
      summary: "An offset at or past subnetCount",
      request: { cidr: "10.0.0.0/22", prefixLength: 24, offset: "4", limit: 10 },
      status: 400,
      response: {
        error: {
          code: "INVALID_INPUT",
          message:
            "offset must be below subnetCount 4 (10.0.0.0/22 holds 4 subnets of /24, numbered from 0); it is 4",
          issues: [
            {
              message:
                "offset must be below subnetCount 4 (10.0.0.0/22 holds 4 subnets of /24, numbered from 0); it is 4",
              path: ["offset"],
            },
          ],
        },
      },
    },
    resultTooLarge: {
      summary: "::/0 into /64s: refused at once, with the exact count",
      request: { cidr: "::/0", prefixLength: 64 },
      status: 400,
      response: {
        error: {
          code: "RESULT_TOO_LARGE",
          message:
            "Splitting ::/0 into /64 subnets gives 18446744073709551616 CIDRs, more than the limit of 10000; split a smaller block, or into a shorter prefix length.",
        },
      },
    },
    shorterThanBlock: {
      summary: "A length shorter than the block's own",
      request: { cidr: "10.0.0.0/16", prefixLength: 8 },
      status: 400,
      response: {
        error: {
          code: "INVALID_INPUT",
          message: "prefixLength 8 is shorter than the block's own /16; it must be from 16 to 32",
          issues: [
            {
              message: "prefixLength 8 is shorter than the block's own /16; it must be from 16 to 32",
              path: ["prefixLength"],
            },
          ],
        },
      },
    },
  },
};
