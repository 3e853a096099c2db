/**
 * Inbound adapter for GET /v1/public-ip: JSON or text by `Accept` (CONTRACT §5).
 */
import { Elysia } from "elysia";
import type { ClientAddressSource } from "../../domain/ports.ts";
import { observePublicIp } from "../../domain/public-ip.ts";
import { negotiate } from "./accept.ts";
import { PublicIpResult } from "./schemas.ts";

/** Routes GET (and HEAD) /v1/public-ip. */
export const publicIpRoutes = (source: ClientAddressSource) =>
  new Elysia({ name: "public-ip-routes", normalize: false }).get(
    "/v1/public-ip",
    ({ request, set }) => {
      set.headers.vary = "Accept";
      const result = observePublicIp(source, request);
      if (negotiate(request.headers.get("accept")) === "text") {
        // A Response skips the JSON response schema; Elysia merges `set.headers` into it.
        set.headers["content-type"] = "text/plain; charset=utf-8";
        return new Response(`${result.ip}\n`);
      }
      return result;
    },
    {
      response: { 200: PublicIpResult },
      detail: {
        summary: "The IP address this connection is observed from",
        description:
          "`Accept: text/plain` returns the address and a line feed; anything else returns JSON. Never cached.",
        tags: ["Diagnostics"],
      },
    },
  );
