/**
 * Per operation, the prose the OpenAPI document needs beyond the operations table's facts:
 * summary, tag, descriptions, extra error codes and realistic examples. Every example is a real exchange:
 * tests/docs/openapi.test.ts sends each one to the running server and expects exactly the
 * documented response. A new operation needs an entry in OPERATION_DOCS, keyed by its id
 * (it does not compile without one).
 */
import { MAX_RESULT_CIDRS } from "../../domain/limits.ts";
import { DBIP_ATTRIBUTION } from "../../domain/network-facts.ts";
import { certificateBundleDoc } from "./certificate-docs.ts";
import { certificateChainDoc } from "./chain-docs.ts";
import { cidrAllocateDoc, cidrContainsDoc, cidrMergeDoc, cidrSplitDoc, ipDoc } from "./cidr-toolbox-docs.ts";
import type { OperationDoc, OperationDocs } from "./openapi-document.ts";
import { cidrCompareDoc } from "./operation-docs/cidr-compare.ts";
import { cidrSubnetsDoc } from "./operation-docs/cidr-subnets.ts";
import { csrDoc } from "./operation-docs/csr.ts";
import { publicIpDatabasesDoc } from "./operation-docs/public-ip-databases.ts";
import { reverseZonesDoc } from "./operation-docs/reverse-zones.ts";

const health: OperationDoc = {
  summary: "Liveness and readiness probe",
  tag: "Platform",
  resultDescription:
    "The service is up. Nothing else is checked, so it is cheap enough for a one-second probe.",
  examples: { ok: { summary: "Up", status: 200, response: { status: "ok" } } },
};

const cidrCover: OperationDoc = {
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

/** Ninety scattered IPv6 addresses taken out of `::/0` leave more than 10000 CIDRs. */
const SCATTERED_EXCLUDES = Array.from({ length: 90 }, (_, k) => `${(k + 1).toString(16)}::`);

const cidrSubtract: OperationDoc = {
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

const rangeToCidrs: OperationDoc = {
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

const publicIp: OperationDoc = {
  summary: "The IP address this connection is observed from",
  description:
    "`Accept: text/plain` returns the address and a line feed; anything else returns JSON. Never cached. When the operator supplies GeoIP databases (`GET /v1/public-ip/databases`), the JSON gains `asn`, `asnOrg` and `country` where they know the address, and the credit [IP Geolocation by DB-IP](https://db-ip.com) when one of those came from DB-IP; a field nobody knows is absent, never null.",
  tag: "Diagnostics",
  resultDescription:
    "The address the connection is observed from. `Accept: text/plain` (or `text/*` preferred over JSON) selects the text form; anything else, no `Accept` included, gives JSON.",
  errors: { 503: ["CLIENT_IP_UNAVAILABLE"] },
  textDescription: "The address followed by a line feed.",
  examples: {
    ipv4: { summary: "An IPv4 client", status: 200, response: { family: "ipv4", ip: "203.0.113.7" } },
    ipv6: { summary: "An IPv6 client", status: 200, response: { family: "ipv6", ip: "2001:db8::7" } },
    enriched: {
      summary: "A client the GeoIP databases know (DB-IP Lite)",
      status: 200,
      response: {
        family: "ipv4",
        ip: "198.51.100.23",
        asn: 64500,
        asnOrg: "Example Transit B.V.",
        country: "NL",
        attribution: DBIP_ATTRIBUTION,
      },
    },
    text: { summary: "Accept: text/plain", status: 200, mediaType: "text/plain", response: "203.0.113.7\n" },
    clientIpUnavailable: {
      summary: "A trusted proxy sent no forwarding header",
      status: 503,
      response: {
        error: {
          code: "CLIENT_IP_UNAVAILABLE",
          message:
            "The client's address could not be observed: the trusted proxy sent no X-Forwarded-For header.",
        },
      },
    },
  },
};

/** The prose of every operation, keyed by the operations table's ids. */
export const OPERATION_DOCS: OperationDocs = {
  health,
  cidrCover,
  cidrSubtract,
  rangeToCidrs,
  certificateBundle: certificateBundleDoc,
  certificateChain: certificateChainDoc,
  publicIp,
  cidrMerge: cidrMergeDoc,
  cidrSplit: cidrSplitDoc,
  cidrContains: cidrContainsDoc,
  cidrAllocate: cidrAllocateDoc,
  reverseZones: reverseZonesDoc,
  cidrSubnets: cidrSubnetsDoc,
  cidrCompare: cidrCompareDoc,
  ip: ipDoc,
  csr: csrDoc,
  publicIpDatabases: publicIpDatabasesDoc,
};
