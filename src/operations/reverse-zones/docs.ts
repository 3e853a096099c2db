/**
 * The OpenAPI prose and examples of `POST /v1/reverse-zones` (CONTRACT §8.8). Every example is a
 * real exchange, replayed against the running server by tests/docs/openapi.test.ts.
 */
import type { OperationDoc } from "../../adapters/http/openapi-document.ts";

/** The 64 zones of 100.64.0.0/10: 64.100.in-addr.arpa. to 127.100.in-addr.arpa. */
const SHARED_SPACE_ZONES = Array.from({ length: 64 }, (_, k) => `${64 + k}.100.in-addr.arpa.`);

export const docs: OperationDoc = {
  summary: "The reverse DNS zones of a block",
  description:
    "The minimal list of reverse zones whose blocks together are exactly `cidr`: whole octets under `in-addr.arpa.` and whole nibbles under `ip6.arpa.`, so a block between two boundaries gets every zone of the next boundary (a /10 is 64 /16 zones, never one rounded /8 or /16). An IPv4 block from /25 to /31 gets one RFC 2317 classless name, `FIRST/p.C.B.A.in-addr.arpa.` (the form of RFC 2317's own example; rename it to `FIRST-LAST` or `FIRST-p` if your DNS uses those). A /32 or /128, or a bare address, is its PTR name. Each name is the last labels of Python's `ipaddress` `reverse_pointer` plus a dot. At most 128 names (IPv4 /1, /9, /17) or 8 (IPv6). Issues carry `path` only.",
  tag: "CIDR",
  resultDescription: "`cidr` (the block, host bits cleared) and `zones`, by address, each ending with a dot.",
  examples: {
    sharedSpace: {
      summary: "100.64.0.0/10: 64 zones of two octets",
      request: { cidr: "100.64.0.0/10" },
      status: 200,
      response: { cidr: "100.64.0.0/10", zones: SHARED_SPACE_ZONES },
    },
    classless: {
      summary: "A /26: one RFC 2317 name",
      request: { cidr: "192.0.2.64/26" },
      status: 200,
      response: { cidr: "192.0.2.64/26", zones: ["64/26.2.0.192.in-addr.arpa."] },
    },
    ipv6: {
      summary: "An IPv6 /30: four nibble zones",
      request: { cidr: "2001:db8::/30" },
      status: 200,
      response: {
        cidr: "2001:db8::/30",
        zones: [
          "8.b.d.0.1.0.0.2.ip6.arpa.",
          "9.b.d.0.1.0.0.2.ip6.arpa.",
          "a.b.d.0.1.0.0.2.ip6.arpa.",
          "b.b.d.0.1.0.0.2.ip6.arpa.",
        ],
      },
    },
    address: {
      summary: "An address: its PTR name",
      request: { cidr: "192.0.2.1" },
      status: 200,
      response: { cidr: "192.0.2.1/32", zones: ["1.2.0.192.in-addr.arpa."] },
    },
    invalid: {
      summary: "Not a CIDR",
      request: { cidr: "10.0.0.256/24" },
      status: 400,
      response: {
        error: {
          code: "INVALID_INPUT",
          message: '"10.0.0.256/24" is not a valid IPv4 CIDR: octet 256 is above 255',
          issues: [
            { message: '"10.0.0.256/24" is not a valid IPv4 CIDR: octet 256 is above 255', path: ["cidr"] },
          ],
        },
      },
    },
  },
};
