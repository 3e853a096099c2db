/**
 * The prose of POST /v1/cidr-contains for the OpenAPI document: what its row in the operations table
 * (src/contract/operations.ts) does not say. Every example is a real exchange, replayed by
 * tests/docs/openapi.test.ts.
 */

import type { OperationDoc } from "../../adapters/http/openapi-document.ts";
import { MAX_LIST_ENTRIES } from "../../domain/limits.ts";

export const docs: OperationDoc = {
  summary: "Which entries lie inside, or overlap, a list of blocks",
  description: `For each entry (an address or CIDR), whether one block of \`cidrs\` holds it wholly, whether any block shares an address with it, and the most specific block that holds it: grepcidr's question, for CIDRs too. Families may mix; an entry meets only the blocks of its own family. \`cidrs\` and \`entries\` together hold at most ${MAX_LIST_ENTRIES} entries (one issue at \`[]\` when over).`,
  tag: "CIDR",
  resultDescription:
    "One answer per entry, in input order. Two blocks that cover an entry only together (two /25s and their /24) overlap it without containing it.",
  examples: {
    lookup: {
      summary: "Nested blocks, an entry covered by two blocks together, a miss, IPv6",
      request: {
        cidrs: ["10.0.0.0/8", "10.1.0.0/16", "192.168.0.0/25", "192.168.0.128/25", "2001:db8::/32"],
        entries: ["10.1.2.3", "192.168.0.0/24", "203.0.113.9", "2001:db8::1"],
      },
      status: 200,
      response: {
        results: [
          { entry: "10.1.2.3/32", contained: true, overlaps: true, matchedCidr: "10.1.0.0/16", label: null },
          { entry: "192.168.0.0/24", contained: false, overlaps: true, matchedCidr: null, label: null },
          { entry: "203.0.113.9/32", contained: false, overlaps: false, matchedCidr: null, label: null },
          {
            entry: "2001:db8::1/128",
            contained: true,
            overlaps: true,
            matchedCidr: "2001:db8::/32",
            label: null,
          },
        ],
      },
    },
    invalidEntries: {
      summary: "Invalid entries of both lists, located by path",
      request: { cidrs: ["10.0.0.0/8", "10.0.0.0/33"], entries: ["10.0.0.1", "fe80::1%eth0"] },
      status: 400,
      response: {
        error: {
          code: "INVALID_INPUT",
          message: "The request has 2 invalid values.",
          issues: [
            {
              message:
                '"10.0.0.0/33" is not a valid IPv4 CIDR: prefix length 33 is above 32, the IPv4 maximum',
              path: ["cidrs", 1],
            },
            {
              message:
                '"fe80::1%eth0" is not a valid IPv6 address: zone indexes such as "%eth0" are not accepted: a zone names a link on one host and has no meaning in address arithmetic',
              path: ["entries", 1],
            },
          ],
        },
      },
    },
  },
};
