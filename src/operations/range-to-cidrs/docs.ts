/**
 * The prose of POST /v1/range-to-cidrs for the OpenAPI document: what its row in the operations table
 * (src/contract/operations.ts) does not say. Every example is a real exchange, replayed by
 * tests/docs/openapi.test.ts.
 */
import type { OperationDoc } from "../../adapters/http/openapi-document.ts";

export const docs: OperationDoc = {
  summary: "Inclusive address range as a minimal CIDR list",
  tag: "CIDR",
  resultDescription:
    "The complete minimal list of CIDRs covering exactly the inclusive range, sorted, with no gaps, no overlaps and no extra addresses.",
  errors: { 400: ["MIXED_ADDRESS_FAMILIES"] },
  examples: {
    ipv4: {
      summary: "An IPv4 range",
      request: { start: "192.0.2.10", end: "192.0.2.100" },
      status: 200,
      response: {
        family: "ipv4",
        range: { first: "192.0.2.10", last: "192.0.2.100" },
        cidrs: [
          "192.0.2.10/31",
          "192.0.2.12/30",
          "192.0.2.16/28",
          "192.0.2.32/27",
          "192.0.2.64/27",
          "192.0.2.96/30",
          "192.0.2.100/32",
        ],
        cidrCount: 7,
        addressCount: "91",
      },
    },
    ipv6: {
      summary: "An IPv6 range that is exactly one CIDR",
      request: { start: "2001:db8::", end: "2001:db8::ff:ffff" },
      status: 200,
      response: {
        family: "ipv6",
        range: { first: "2001:db8::", last: "2001:db8::ff:ffff" },
        cidrs: ["2001:db8::/104"],
        cidrCount: 1,
        addressCount: "16777216",
      },
    },
    reversed: {
      summary: "start after end (never swapped)",
      request: { start: "10.0.0.9", end: "10.0.0.1" },
      status: 400,
      response: {
        error: {
          code: "INVALID_INPUT",
          message:
            'start "10.0.0.9" is after end "10.0.0.1"; the range must run upwards from start to end and is never swapped',
          issues: [
            {
              message:
                'start "10.0.0.9" is after end "10.0.0.1"; the range must run upwards from start to end and is never swapped',
              path: ["start"],
              field: "start",
            },
          ],
        },
      },
    },
    prefixGiven: {
      summary: "A CIDR where an address is required",
      request: { start: "10.0.0.0/24", end: "10.0.0.1" },
      status: 400,
      response: {
        error: {
          code: "INVALID_INPUT",
          message:
            '"10.0.0.0/24" is not a valid IPv4 address: it has a prefix length ("/24"); only a bare address is accepted here',
          issues: [
            {
              message:
                '"10.0.0.0/24" is not a valid IPv4 address: it has a prefix length ("/24"); only a bare address is accepted here',
              path: ["start"],
              field: "start",
            },
          ],
        },
      },
    },
    mixedFamilies: {
      summary: "An IPv4 start and an IPv6 end",
      request: { start: "10.0.0.1", end: "2001:db8::1" },
      status: 400,
      response: {
        error: {
          code: "MIXED_ADDRESS_FAMILIES",
          message: "IPv4 and IPv6 cannot be mixed in one request.",
          issues: [
            {
              message:
                '"2001:db8::1" is IPv6, but start "10.0.0.1" is IPv4; all addresses must be of one family',
              path: ["end"],
              field: "end",
            },
          ],
        },
      },
    },
  },
};
