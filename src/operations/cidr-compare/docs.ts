/**
 * The OpenAPI prose and examples of `POST /v1/cidr-compare` (CONTRACT §8.4). Every example is
 * replayed against the running server by tests/docs/openapi.test.ts.
 */

import type { OperationDoc } from "../../adapters/http/openapi-document.ts";
import { MAX_LIST_ENTRIES, MAX_RESULT_CIDRS } from "../../domain/limits.ts";

/** Ninety IPv6 addresses close together, taken out of `::/0`, leave more than 10000 CIDRs. */
const SCATTERED = Array.from({ length: 90 }, (_, k) => `${(k + 1).toString(16)}::`);

export const docs: OperationDoc = {
  summary: "Two lists compared as address sets: only in a, only in b, in both",
  description: `Compares the addresses covered by \`a\` and by \`b\` (each 0 to ${MAX_LIST_ENTRIES} addresses or CIDRs, families mixed, at most ${MAX_LIST_ENTRIES} together): what changed between two versions of a blocklist, as \`iprange --diff\` and \`--common\` answer it. How the lists are written does not matter, only the addresses: two /25s equal their /24. Issues carry \`path\` only (\`["b", 1]\`).`,
  tag: "CIDR",
  resultDescription: `\`onlyA\`, \`onlyB\` and \`both\` are each written as cidr-merge writes a list: the minimal CIDRs, IPv4 first, each family by network address, with exact address counts per family. \`equal\` is true when \`onlyA\` and \`onlyB\` are both empty. More than ${MAX_RESULT_CIDRS} CIDRs in the three lists together is RESULT_TOO_LARGE, the exact total counted without listing them.`,
  errors: { 400: ["RESULT_TOO_LARGE"] },
  examples: {
    changed: {
      summary: "A /24 against half of it and one address, and an IPv6 /32 written as two /33s",
      request: {
        a: ["10.0.0.0/24", "2001:db8::/32"],
        b: ["10.0.0.128/25", "192.0.2.1", "2001:db8::/33", "2001:db8:8000::/33"],
      },
      status: 200,
      response: {
        onlyA: { cidrs: ["10.0.0.0/25"], ipv4AddressCount: "128", ipv6AddressCount: "0" },
        onlyB: { cidrs: ["192.0.2.1/32"], ipv4AddressCount: "1", ipv6AddressCount: "0" },
        both: {
          cidrs: ["10.0.0.128/25", "2001:db8::/32"],
          ipv4AddressCount: "128",
          ipv6AddressCount: "79228162514264337593543950336",
        },
        equal: false,
      },
    },
    equal: {
      summary: "The same addresses written differently",
      request: { a: ["10.0.0.0/25", "10.0.0.128/25"], b: ["10.0.0.0/24"] },
      status: 200,
      response: {
        onlyA: { cidrs: [], ipv4AddressCount: "0", ipv6AddressCount: "0" },
        onlyB: { cidrs: [], ipv4AddressCount: "0", ipv6AddressCount: "0" },
        both: { cidrs: ["10.0.0.0/24"], ipv4AddressCount: "256", ipv6AddressCount: "0" },
        equal: true,
      },
    },
    invalidEntry: {
      summary: "An invalid entry, located by its list and index",
      request: { a: ["10.0.0.0/24"], b: ["10.0.0.1", "10.0.0.256"] },
      status: 400,
      response: {
        error: {
          code: "INVALID_INPUT",
          message: '"10.0.0.256" is not a valid IPv4 address: octet 256 is above 255',
          issues: [
            { message: '"10.0.0.256" is not a valid IPv4 address: octet 256 is above 255', path: ["b", 1] },
          ],
        },
      },
    },
    resultTooLarge: {
      summary: "::/0 against ninety addresses: the exact total, no partial lists",
      request: { a: ["::/0"], b: SCATTERED },
      status: 400,
      response: {
        error: {
          code: "RESULT_TOO_LARGE",
          message:
            "The comparison would list 10183 CIDRs in onlyA, onlyB and both together, more than the limit of 10000.",
        },
      },
    },
  },
};
