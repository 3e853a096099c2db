/**
 * The OpenAPI prose and examples of `POST /v1/cidr-subnets` (CONTRACT §8.9). Every example is a
 * real exchange, replayed against the running server by tests/docs/openapi.test.ts.
 */
import type { OperationDoc } from "../../adapters/http/openapi-document.ts";

const noSpace =
  "newbits argument 3: not enough remaining address space for a subnet with a prefix of 25 bits after 10.0.0.128/26";

export const docs: OperationDoc = {
  summary: "Terraform's cidrsubnets: consecutive blocks of different sizes",
  description:
    "What Terraform's `cidrsubnets(prefix, newbits...)` returns: for each `newbits` entry in order, the block of length prefix length + newbits that starts at the first aligned address after the previous block. Blocks are packed one after another and a gap is never filled afterwards (`10.0.0.0/16` with 8, 4, 8 gives `10.0.0.0/24`, `10.0.16.0/20`, `10.0.32.0/24`; cidr-allocate's first fit would give `10.0.1.0/24` third). Each `newbits` is 1 to 32, and the prefix length plus each at most 32 or 128. Differences from Terraform: leading-zero octets are refused (Terraform reads `010` as 10); a prefix starting at `0.0.0.0` or `::` packs from there (Terraform wraps around and reports no space); IPv4-mapped prefixes (`::ffff:10.0.0.0/104`) are IPv6 (Go reads them as IPv4). Issues carry `path` only.",
  tag: "CIDR",
  resultDescription:
    "`prefix` (host bits cleared) and `cidrs`: one block per `newbits` entry, in the same order.",
  errors: { 400: ["INSUFFICIENT_SPACE"] },
  examples: {
    terraform: {
      summary: "Terraform's documented example: 10.1.0.0/16 with 4, 4, 8, 4",
      request: { prefix: "10.1.0.0/16", newbits: [4, 4, 8, 4] },
      status: 200,
      response: {
        prefix: "10.1.0.0/16",
        cidrs: ["10.1.0.0/20", "10.1.16.0/20", "10.1.32.0/24", "10.1.48.0/20"],
      },
    },
    ipv6: {
      summary: "IPv6: two /64s and a /60 from a /56",
      request: { prefix: "2001:db8::/56", newbits: [8, 8, 4] },
      status: 200,
      response: {
        prefix: "2001:db8::/56",
        cidrs: ["2001:db8::/64", "2001:db8:0:1::/64", "2001:db8:0:10::/60"],
      },
    },
    insufficientSpace: {
      summary: "No room left after the previous block",
      request: { prefix: "10.0.0.0/24", newbits: [1, 2, 1] },
      status: 400,
      response: {
        error: {
          code: "INSUFFICIENT_SPACE",
          message: `${noSpace}.`,
          issues: [{ message: noSpace, path: ["newbits", 2] }],
        },
      },
    },
    tooLong: {
      summary: "A block longer than the family allows",
      request: { prefix: "10.0.0.0/30", newbits: [3] },
      status: 400,
      response: {
        error: {
          code: "INVALID_INPUT",
          message:
            "newbits argument 1 (3): would extend prefix to 33 bits, which is too long for an IPv4 address",
          issues: [
            {
              message:
                "newbits argument 1 (3): would extend prefix to 33 bits, which is too long for an IPv4 address",
              path: ["newbits", 0],
            },
          ],
        },
      },
    },
  },
};
