/**
 * In-process micro-benchmark of whole API requests: each workload's exact request goes through
 * the Elysia application's `handle` (its router, the traffic wrapper, the route's handler: body
 * read, JSON, schema, use case, response with the contract's headers, access log into memory),
 * without sockets. CPU µs per request, the
 * median of its rounds: what one request costs the server's single JavaScript thread, which is
 * what bounds WORKERS=1's requests per second. The Request object is made per call, as Bun does.
 *   node_modules/.bin/bun bench/handler-micro.ts [name-filter]
 * Every workload of bench/wrk/ is here (the filter matches a part of the name).
 */
import { realCertificateDeps } from "../src/adapters/real-deps.ts";
import { ProxyAwareClientAddressSource } from "../src/adapters/system/client-address.ts";
import { parseCidrList } from "../src/adapters/system/trusted-proxies.ts";
import { buildApp } from "../src/app.ts";
import { createJsonLogger } from "../src/process/logger.ts";
import { runMicro } from "./lib/micro.ts";
import { WORKLOADS } from "./lib/workloads.ts";

let logged = 0;
const { handle } = buildApp({
  logger: createJsonLogger("info", (chunk) => {
    logged += chunk.length;
  }),
  cors: { kind: "any" },
  clientAddress: new ProxyAwareClientAddressSource(() => "127.0.0.1", parseCidrList(""), "x-forwarded-for"),
  ...realCertificateDeps(),
  // The server ends a turn's account with setImmediate; this loop awaits each answer without ever
  // giving the event loop a turn, so the account would never close and admission would refuse
  // every metered request once 10 ms had been spent (ADR 48). A microtask ends it after each
  // request instead, as the HTTP tests do (tests/http/helpers.ts).
  loopBudget: { afterTurn: queueMicrotask },
});

const cases = WORKLOADS;

const calls: Record<string, () => Promise<number>> = {};
for (const [name, { path, body: text, headers = {} }] of Object.entries(cases)) {
  const url = `http://127.0.0.1${path}`;
  const init: RequestInit =
    text === undefined
      ? { method: "GET", headers }
      : {
          method: "POST",
          body: text,
          headers: {
            ...headers,
            "content-type": "application/json",
            "content-length": String(Buffer.byteLength(text)),
          },
        };
  calls[name] = async () => {
    const response = await handle(new Request(url, init));
    if (response.status !== 200)
      throw new Error(`${name}: status ${response.status}: ${await response.text()}`);
    return (await response.arrayBuffer()).byteLength;
  };
}
await runMicro(calls, { rounds: 11, roundMs: 200, warmupMs: 500, clock: "cpu", unit: "request" });
if (logged === 0) console.log("(nothing was logged)");
