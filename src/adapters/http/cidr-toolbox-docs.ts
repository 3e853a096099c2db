/**
 * The OpenAPI prose and examples of the CIDR additions (CONTRACT §7.4–7.5): cidr-merge,
 * cidr-split, cidr-contains, cidr-allocate and `GET /v1/ip`. Every example is replayed against
 * the running server by tests/docs/openapi.test.ts.
 */
import { MAX_RESULT_CIDRS, MAX_TOOLBOX_ENTRIES } from "../../domain/limits.ts";
import type { OperationDoc } from "./openapi-document.ts";

export const cidrMergeDoc: OperationDoc = {
  summary: "Minimal CIDR list of a mixed IPv4/IPv6 list",
  description: `Collapses up to ${MAX_TOOLBOX_ENTRIES} addresses and CIDRs, IPv4 and IPv6 in any order, into the minimal list covering exactly their union (what Python's \`collapse_addresses\` gives per family). Issues carry \`path\` only.`,
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

export const cidrSplitDoc: OperationDoc = {
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

export const cidrContainsDoc: OperationDoc = {
  summary: "Which entries lie inside, or overlap, a list of blocks",
  description: `For each entry (an address or CIDR), whether one block of \`cidrs\` holds it wholly, whether any block shares an address with it, and the most specific block that holds it: grepcidr's question, for CIDRs too. Families may mix; an entry meets only the blocks of its own family. \`cidrs\` and \`entries\` together hold at most ${MAX_TOOLBOX_ENTRIES} entries (one issue at \`[]\` when over).`,
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
          { entry: "10.1.2.3/32", contained: true, overlaps: true, matchedCidr: "10.1.0.0/16" },
          { entry: "192.168.0.0/24", contained: false, overlaps: true, matchedCidr: null },
          { entry: "203.0.113.9/32", contained: false, overlaps: false, matchedCidr: null },
          { entry: "2001:db8::1/128", contained: true, overlaps: true, matchedCidr: "2001:db8::/32" },
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

export const cidrAllocateDoc: OperationDoc = {
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

export const ipDoc: OperationDoc = {
  summary: "The IP address this connection is observed from, as plain text",
  description:
    "Always `text/plain`: the address and a line feed, whatever `Accept` says — what `curl host/v1/ip` users expect. Never cached. Errors are JSON envelopes like everywhere else.",
  tag: "Diagnostics",
  resultDescription: "The address the connection is observed from (trusted proxies as for /v1/public-ip).",
  errors: { 503: ["CLIENT_IP_UNAVAILABLE"] },
  textDescription: "The address followed by a line feed.",
  examples: {
    text: { summary: "An IPv4 client", status: 200, mediaType: "text/plain", response: "203.0.113.7\n" },
    textIpv6: { summary: "An IPv6 client", status: 200, mediaType: "text/plain", response: "2001:db8::7\n" },
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
