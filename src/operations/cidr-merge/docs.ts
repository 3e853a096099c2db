/**
 * The prose of POST /v1/cidr-merge for the OpenAPI document: what its row in the operations table
 * (src/contract/operations.ts) does not say. Every example is a real exchange, replayed by
 * tests/docs/openapi.test.ts.
 */

import type { OperationDoc } from "../../adapters/http/openapi-document.ts";
import { MAX_LIST_ENTRIES } from "../../domain/limits.ts";

export const docs: OperationDoc = {
  summary: "Minimal CIDR list of a mixed IPv4/IPv6 list",
  description: `Collapses up to ${MAX_LIST_ENTRIES} addresses and CIDRs, IPv4 and IPv6 in any order, into the minimal list covering exactly their union (what Python's \`collapse_addresses\` gives per family). Issues carry \`path\` only.`,
  tag: "CIDR",
  resultDescription:
    "The IPv4 blocks first, then the IPv6 blocks, each by network address; IPv4-mapped IPv6 (`::ffff:a.b.c.d`) is IPv6. The address counts are exact decimal strings, per family.",
  errors: { 400: ["RESULT_TOO_LARGE"] },
  examples: {
    mixed: {
      summary: "Both families, overlaps and neighbours",
      request: {
        inputs: [
          "10.0.0.0/25",
          "2001:db8::/33",
          "10.0.0.128/25",
          "192.0.2.1",
          "2001:db8:8000::/33",
          "10.0.0.7",
        ],
      },
      status: 200,
      response: {
        cidrs: ["10.0.0.0/24", "192.0.2.1/32", "2001:db8::/32"],
        ipv4AddressCount: "257",
        ipv6AddressCount: "79228162514264337593543950336",
      },
    },
    excludeSpecial: {
      summary:
        "excludeSpecial: private, documentation and loopback space removed, each block with its registry row",
      request: {
        inputs: ["10.0.0.0/7", "192.0.2.0/23", "198.51.100.7", "2001:db8::/31", "::1"],
        excludeSpecial: true,
      },
      status: 200,
      response: {
        cidrs: ["11.0.0.0/8", "192.0.3.0/24", "2001:db9::/32"],
        ipv4AddressCount: "16777472",
        ipv6AddressCount: "79228162514264337593543950336",
        excluded: [
          { cidr: "10.0.0.0/8", block: "10.0.0.0/8", name: "Private-Use", rfc: "RFC 1918" },
          {
            cidr: "192.0.2.0/24",
            block: "192.0.2.0/24",
            name: "Documentation (TEST-NET-1)",
            rfc: "RFC 5737",
          },
          {
            cidr: "198.51.100.7/32",
            block: "198.51.100.0/24",
            name: "Documentation (TEST-NET-2)",
            rfc: "RFC 5737",
          },
          { cidr: "::1/128", block: "::1/128", name: "Loopback Address", rfc: "RFC 4291" },
          { cidr: "2001:db8::/32", block: "2001:db8::/32", name: "Documentation", rfc: "RFC 3849" },
        ],
      },
    },
    invalidEntries: {
      summary: "Every invalid entry, located by path",
      request: { inputs: ["10.0.0.0/24", "10.0.0.256", "2001:db8::/129"] },
      status: 400,
      response: {
        error: {
          code: "INVALID_INPUT",
          message: "The request has 2 invalid values.",
          issues: [
            {
              message: '"10.0.0.256" is not a valid IPv4 address: octet 256 is above 255',
              path: ["inputs", 1],
            },
            {
              message:
                '"2001:db8::/129" is not a valid IPv6 CIDR: prefix length 129 is above 128, the IPv6 maximum',
              path: ["inputs", 2],
            },
          ],
        },
      },
    },
  },
};
