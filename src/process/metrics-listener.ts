/**
 * The metrics listener (CONTRACT §6): `GET /metrics` on its own port (METRICS_PORT) and HOST,
 * never on the API port, so the exposition is not reachable through the ingress that publishes
 * the API. Anything else on this port is a plain 404.
 */
import type { Server } from "bun";
import { EXPOSITION_CONTENT_TYPE } from "./metrics.ts";

/**
 * Starts listening; throws what Bun.serve throws when the port cannot be had (the caller turns
 * it into one line and exit code 2, like a busy API port).
 * @param render the exposition text, computed per scrape (it may ask the workers first)
 */
export function listenForMetrics(
  host: string,
  port: number,
  render: () => Promise<string>,
): Server<undefined> {
  return Bun.serve({
    hostname: host,
    port,
    development: false,
    idleTimeout: 30,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      if (path !== "/metrics")
        return new Response("not found: the metrics are at /metrics\n", { status: 404 });
      if (request.method !== "GET" && request.method !== "HEAD")
        return new Response("use GET\n", { status: 405, headers: { allow: "GET, HEAD" } });
      return new Response(await render(), {
        headers: { "content-type": EXPOSITION_CONTENT_TYPE, "cache-control": "no-store" },
      });
    },
  });
}
