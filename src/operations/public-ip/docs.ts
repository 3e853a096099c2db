/**
 * The prose of GET /v1/public-ip for the OpenAPI document: what its row in the operations table
 * (src/contract/operations.ts) does not say. Every example is a real exchange, replayed by
 * tests/docs/openapi.test.ts.
 */

import type { OperationDoc } from "../../adapters/http/openapi-document.ts";
import { DBIP_ATTRIBUTION } from "../../domain/network-facts.ts";

export const docs: OperationDoc = {
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
