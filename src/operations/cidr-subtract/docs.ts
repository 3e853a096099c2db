/**
 * The prose of POST /v1/cidr-subtract for the OpenAPI document: what its row in the operations table
 * (src/contract/operations.ts) does not say. Every example is a real exchange, replayed by
 * tests/docs/openapi.test.ts.
 */

import type { OperationDoc } from "../../adapters/http/openapi-document.ts";
import { MAX_RESULT_CIDRS } from "../../domain/limits.ts";

/** Ninety scattered IPv6 addresses taken out of `::/0` leave more than 10000 CIDRs. */
const SCATTERED_EXCLUDES = Array.from({ length: 90 }, (_, k) => `${(k + 1).toString(16)}::`);

export const docs: OperationDoc = {
  summary: "Included address space minus excluded ranges, as minimal CIDRs",
  tag: "CIDR",
  resultDescription:
    "The included address space minus the excluded ranges, as the minimal sorted list of CIDRs; an empty list when everything is removed.",
  errors: { 400: ["MIXED_ADDRESS_FAMILIES", "RESULT_TOO_LARGE"] },
  examples: {
    ipv4: {
      summary: "A /24 minus a /26 and one address",
      request: { include: ["10.0.0.0/24"], exclude: ["10.0.0.128/26", "10.0.0.7"] },
      status: 200,
      response: {
        family: "ipv4",
        normalizedInclude: ["10.0.0.0/24"],
        normalizedExclude: ["10.0.0.128/26", "10.0.0.7/32"],
        cidrs: [
          "10.0.0.0/30",
          "10.0.0.4/31",
          "10.0.0.6/32",
          "10.0.0.8/29",
          "10.0.0.16/28",
          "10.0.0.32/27",
          "10.0.0.64/26",
          "10.0.0.192/26",
        ],
        includedAddressCount: "256",
        removedAddressCount: "65",
        remainingAddressCount: "191",
      },
    },
    ipv6: {
      summary: "IPv6 with overlapping excludes",
      request: { include: ["2001:db8::/32"], exclude: ["2001:db8:8000::/34", "2001:db8::/33"] },
      status: 200,
      response: {
        family: "ipv6",
        normalizedInclude: ["2001:db8::/32"],
        normalizedExclude: ["2001:db8:8000::/34", "2001:db8::/33"],
        cidrs: ["2001:db8:c000::/34"],
        includedAddressCount: "79228162514264337593543950336",
        removedAddressCount: "59421121885698253195157962752",
        remainingAddressCount: "19807040628566084398385987584",
      },
    },
    everythingRemoved: {
      summary: "Everything removed: a success with no CIDRs",
      request: { include: ["192.0.2.0/24"], exclude: ["192.0.2.0/24"] },
      status: 200,
      response: {
        family: "ipv4",
        normalizedInclude: ["192.0.2.0/24"],
        normalizedExclude: ["192.0.2.0/24"],
        cidrs: [],
        includedAddressCount: "256",
        removedAddressCount: "256",
        remainingAddressCount: "0",
      },
    },
    invalidExclude: {
      summary: "An invalid entry, located by list and index",
      request: { include: ["10.0.0.0/8"], exclude: ["10.0.0.0/8", "10.0.0.0/33"] },
      status: 400,
      response: {
        error: {
          code: "INVALID_INPUT",
          message: '"10.0.0.0/33" is not a valid IPv4 CIDR: prefix length 33 is above 32, the IPv4 maximum',
          issues: [
            {
              message:
                '"10.0.0.0/33" is not a valid IPv4 CIDR: prefix length 33 is above 32, the IPv4 maximum',
              path: ["exclude", 1],
              list: "exclude",
              index: 1,
            },
          ],
        },
      },
    },
    resultTooLarge: {
      summary: `A result of more than ${MAX_RESULT_CIDRS} CIDRs`,
      request: { include: ["::/0"], exclude: SCATTERED_EXCLUDES },
      status: 400,
      response: {
        error: {
          code: "RESULT_TOO_LARGE",
          message: `The result would have more than ${MAX_RESULT_CIDRS} CIDRs, the limit; subtract fewer scattered ranges or split the request.`,
        },
      },
    },
  },
};
