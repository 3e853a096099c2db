/**
 * `network-tools-api healthcheck`: the container's HEALTHCHECK probe, built into the binary
 * because the runtime image (distroless) has no curl or wget. It asks the server running in
 * the same container for GET /v1/health and answers with the exit code Docker expects:
 * 0 healthy, 1 unhealthy (never 2, which Docker reserves).
 */

const PROBE_TIMEOUT_MS = 3_000;

/** The address to probe for a server listening on `host`: loopback for the wildcards. */
export function probeHost(host: string): string {
  if (host === "0.0.0.0" || host === "") return "127.0.0.1";
  if (host === "::" || host === "[::]") return "[::1]";
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

/**
 * Fetches http://<host>:<port>/v1/health once.
 * @returns 0 when it answers 200 with {"status":"ok"}, otherwise 1
 */
export async function probeHealth(host: string, port: number, timeoutMs = PROBE_TIMEOUT_MS): Promise<number> {
  if (port === 0) return 1;
  try {
    const response = await fetch(`http://${probeHost(host)}:${port}/v1/health`, {
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = (await response.json()) as { status?: unknown };
    return response.status === 200 && body.status === "ok" ? 0 : 1;
  } catch {
    return 1;
  }
}
