/**
 * A reference peer for the health gap (docs/performance.md): the thinnest `Bun.serve` that answers
 * `GET /v1/health` with the headers CONTRACT §1.2–1.3 puts on every response (exactly
 * `Content-Type: application/json`, `X-Content-Type-Options: nosniff`, `Access-Control-Allow-Origin: *`
 * and a fresh `X-Request-Id`), and nothing else: no routing, no validation, no log.
 *
 *   PORT=3105 node_modules/.bin/bun bench/contract-headers-peer.ts &
 *   PEERS="headers=http://127.0.0.1:3105" npm run bench -- health
 */
const BODY = '{"status":"ok"}';
const server = Bun.serve({
  port: Number(process.env.PORT ?? 3105),
  hostname: "127.0.0.1",
  fetch: () =>
    new Response(BODY, {
      headers: {
        "content-type": "application/json",
        "x-content-type-options": "nosniff",
        "access-control-allow-origin": "*",
        "x-request-id": crypto.randomUUID(),
      },
    }),
});
console.error(`contract-headers peer listening on http://127.0.0.1:${server.port}`);
