/**
 * The prose of POST /v1/cidr-cover for the OpenAPI document: what its row in the operations table
 * (src/contract/operations.ts) does not say. Every example is a real exchange, replayed by
 * tests/docs/openapi.test.ts.
 */
import type { OperationDoc } from "../../adapters/http/openapi-document.ts";

export const docs: OperationDoc = {
  summary: "Smallest single CIDR covering every input",
  tag: "CIDR",
  resultDescription:
    "The smallest single CIDR containing every input address; it may include addresses that are not in the inputs (`additionalAddressCount`).",
  errors: { 400: ["MIXED_ADDRESS_FAMILIES"] },
  examples: {
    ipv4: {
      summary: "IPv4 addresses and a CIDR with host bits set",
      request: { inputs: ["192.0.2.10", "192.0.2.77/30", "192.0.2.130"] },
      status: 200,
      response: {
        family: "ipv4",
        normalizedInputs: ["192.0.2.10/32", "192.0.2.76/30", "192.0.2.130/32"],
        cidr: "192.0.2.0/24",
        range: { first: "192.0.2.0", last: "192.0.2.255" },
        inputAddressCount: "6",
        coveredAddressCount: "256",
        additionalAddressCount: "250",
      },
    },
    ipv6: {
      summary: "IPv6: an address and a /64",
      request: { inputs: ["2001:db8::1", "2001:db8:0:ff::/64"] },
      status: 200,
      response: {
        family: "ipv6",
        normalizedInputs: ["2001:db8::1/128", "2001:db8:0:ff::/64"],
        cidr: "2001:db8::/56",
        range: { first: "2001:db8::", last: "2001:db8:0:ff:ffff:ffff:ffff:ffff" },
        inputAddressCount: "18446744073709551617",
        coveredAddressCount: "4722366482869645213696",
        additionalAddressCount: "4703919738795935662079",
      },
    },
    invalidAddress: {
      summary: "An invalid address, located by index",
      request: { inputs: ["10.0.0.0/24", "10.0.0.256"] },
      status: 400,
      response: {
        error: {
          code: "INVALID_INPUT",
          message: '"10.0.0.256" is not a valid IPv4 address: octet 256 is above 255',
          issues: [
            {
              message: '"10.0.0.256" is not a valid IPv4 address: octet 256 is above 255',
              path: ["inputs", 1],
              index: 1,
            },
          ],
        },
      },
    },
    unknownField: {
      summary: "A field the request does not have",
      request: { inputs: ["10.0.0.1"], family: "ipv4" },
      status: 400,
      response: {
        error: {
          code: "INVALID_INPUT",
          message: 'Unknown field "family" is not allowed.',
          issues: [{ message: 'Unknown field "family" is not allowed.', path: ["family"] }],
        },
      },
    },
    mixedFamilies: {
      summary: "IPv4 and IPv6 together",
      request: { inputs: ["10.0.0.0/24", "2001:db8::/32"] },
      status: 400,
      response: {
        error: {
          code: "MIXED_ADDRESS_FAMILIES",
          message: "IPv4 and IPv6 cannot be mixed in one request.",
          issues: [
            {
              message:
                '"2001:db8::/32" is IPv6, but the first entry "10.0.0.0/24" is IPv4; all addresses must be of one family',
              path: ["inputs", 1],
              index: 1,
            },
          ],
        },
      },
    },
  },
};
