/**
 * The runtime's floor for this service's own exchanges (issue 32): a bare `Bun.serve` that answers
 * each workload of bench/wrk/ with the very bytes and headers the service answers, replayed, doing
 * no work of its own beyond what any JSON API on Bun must do — read the body, `JSON.parse` it,
 * make a fresh `X-Request-Id`, send the answer. No router, no validation, no computation, no log.
 *
 * Whatever this server's requests per second are against the Go peer's on the same workload is the
 * most the service can reach on this runtime and machine: the service does all this server does
 * and its work besides. So `floor ÷ go` below 1.0 says a target of 1.0 is out of reach in Bun's
 * serving alone, and `service ÷ floor` is the share our own code leaves (docs/performance.md).
 *
 *   ANSWERS_FROM=http://127.0.0.1:PORT PORT=3106 node_modules/.bin/bun bench/peers/bun-floor.ts
 *
 * ANSWERS_FROM is a running service: each workload's request is sent to it once at start and its
 * answer kept. `reusePort` is on, so WORKERS=2's equal is two of these processes on one port (the
 * kernel spreads connections between them as it does between the service's workers). Listens on
 * 127.0.0.1 only.
 */
import { WORKLOADS } from "../lib/workloads.ts";

const source = process.env.ANSWERS_FROM;
if (source === undefined) {
  console.error("usage: ANSWERS_FROM=http://127.0.0.1:PORT PORT=3106 bun bench/peers/bun-floor.ts");
  process.exit(2);
}

/** An answer as the service sent it, less its request id, date and length (made per answer). */
interface Kept {
  readonly body: Uint8Array<ArrayBuffer>;
  readonly init: ResponseInit;
}

const PER_ANSWER = new Set(["x-request-id", "date", "content-length"]);

async function keep(path: string, init: RequestInit): Promise<Kept> {
  const response = await fetch(new URL(path, source), init);
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!PER_ANSWER.has(name)) headers[name] = value;
  });
  return {
    body: new Uint8Array(await response.arrayBuffer()),
    init: { status: response.status, headers: new Headers(headers) },
  };
}

/** GET answers by path; POST answers by path and body length (checked unique at start). */
const gets = new Map<string, Kept>();
const posts = new Map<string, Kept>();
for (const workload of Object.values(WORKLOADS)) {
  const headers = { "content-type": "application/json", ...workload.headers };
  if (workload.body === undefined) {
    if (workload.headers === undefined) gets.set(workload.path, await keep(workload.path, { headers }));
    continue;
  }
  const key = `${workload.path} ${Buffer.byteLength(workload.body)}`;
  if (posts.has(key)) continue; // two workloads of one length on one path: the first is kept
  posts.set(key, await keep(workload.path, { method: "POST", body: workload.body, headers }));
}

const answer = (kept: Kept): Response => {
  const response = new Response(kept.body, kept.init);
  response.headers.set("x-request-id", crypto.randomUUID());
  return response;
};
const notFound = new Response("{}", { status: 404 });
const utf8 = new TextDecoder("utf-8", { fatal: true });
/** The path of a request's URL (`http://host:port/path?query`) without parsing the whole URL. */
const pathOf = (url: string): string => {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  const query = url.indexOf("?", start);
  return query < 0 ? url.slice(start) : url.slice(start, query);
};

const server = Bun.serve({
  port: Number(process.env.PORT ?? 3106),
  hostname: "127.0.0.1",
  reusePort: true,
  async fetch(request) {
    const path = pathOf(request.url);
    if (request.method === "GET") {
      const kept = gets.get(path);
      return kept === undefined ? notFound.clone() : answer(kept);
    }
    const bytes = await request.bytes();
    JSON.parse(utf8.decode(bytes)); // what any JSON API must do with the body
    const kept = posts.get(`${path} ${bytes.byteLength}`);
    return kept === undefined ? notFound.clone() : answer(kept);
  },
});
console.error(
  `bun-floor peer on http://127.0.0.1:${server.port} (${gets.size} GET, ${posts.size} POST answers)`,
);
