/**
 * The prose of GET /v1/ip for the OpenAPI document: what its row in the operations table
 * (src/contract/operations.ts) does not say. Every example is a real exchange, replayed by
 * tests/docs/openapi.test.ts.
 */
import type { OperationDoc } from "../../adapters/http/openapi-document.ts";

export const docs: OperationDoc = {
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
