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
import { readFileSync } from "node:fs";
import { realCertificateDeps } from "../src/adapters/real-deps.ts";
import { ProxyAwareClientAddressSource } from "../src/adapters/system/client-address.ts";
import { parseCidrList } from "../src/adapters/system/trusted-proxies.ts";
import { buildApp } from "../src/app.ts";
import { createJsonLogger } from "../src/process/logger.ts";
import { runMicro } from "./lib/micro.ts";

const dataDir = new URL("./data/", import.meta.url);
const body = (name: string): string => readFileSync(new URL(name, dataDir), "utf8");

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

/** Each workload of bench/wrk/ (same path, headers and body), plus merge with excludeSpecial. */
const cases: Record<string, { path: string; body?: string; headers?: Record<string, string> }> = {
  health: { path: "/v1/health" },
  "public-ip": { path: "/v1/public-ip", headers: { accept: "application/json" } },
  "public-ip-text": { path: "/v1/public-ip", headers: { accept: "text/plain" } },
  ip: { path: "/v1/ip" },
  "range-ipv4-small": { path: "/v1/range-to-cidrs", body: '{"start":"10.0.0.5","end":"10.0.0.77"}' },
  "range-ipv6-worst": {
    path: "/v1/range-to-cidrs",
    body: '{"start":"::1","end":"ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe"}',
  },
  "split-1024": { path: "/v1/cidr-split", body: '{"cidr":"10.0.0.0/14","prefixLength":24}' },
  "reverse-zones": { path: "/v1/reverse-zones", body: '{"cidr":"192.168.0.0/17"}' },
  "merge-1000": { path: "/v1/cidr-merge", body: body("merge-1000.json") },
  "merge-1000 -x": {
    path: "/v1/cidr-merge",
    body: JSON.stringify({ ...JSON.parse(body("merge-1000.json")), excludeSpecial: true }),
  },
  "subtract-1000": { path: "/v1/cidr-subtract", body: body("subtract-1000.json") },
  "cover-1000": { path: "/v1/cidr-cover", body: body("cover-1000.json") },
  "compare-1000": { path: "/v1/cidr-compare", body: body("compare-1000.json") },
  "contains-1000": { path: "/v1/cidr-contains", body: body("contains-1000.json") },
  "allocate-1000": { path: "/v1/cidr-allocate", body: body("allocate-1000.json") },
  "usage-1000": { path: "/v1/cidr-usage", body: body("usage-1000.json") },
  "cert-chain-3": { path: "/v1/certificate-bundle", body: body("cert-chain-3.json") },
  "cert-bundle-16": { path: "/v1/certificate-bundle", body: body("cert-bundle-16.json") },
  "chain-16": { path: "/v1/certificate-chain", body: body("cert-bundle-16.json") },
  csr: { path: "/v1/csr", body: body("csr.json") },
};

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
