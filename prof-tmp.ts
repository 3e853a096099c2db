import { Elysia } from "elysia";
import { buildApp } from "./src/app.ts";
import { createJsonLogger } from "./src/adapters/system/logger.ts";
import { loopbackClient } from "./tests/fakes/client-address.ts";
import { realCertificateDeps } from "./src/adapters/real-deps.ts";
const mode = process.argv[2] ?? "full";
const logger = createJsonLogger(mode === "nolog" ? "warn" : "info", () => {});
const app = buildApp({ logger, cors: { kind: "any" }, clientAddress: loopbackClient, ...realCertificateDeps() });
const bare = new Elysia().get("/v1/health", () => ({ status: "ok" }));
const target = mode === "bare" ? bare : app;
const N = 100000;
const url = "http://localhost/v1/health";
const rangeBody = JSON.stringify({ start: "10.0.0.1", end: "10.0.0.200" });
for (let round = 0; round < 3; round++) {
  let t = performance.now();
  for (let i = 0; i < N; i++) { const r = await target.handle(new Request(url)); await r.text(); }
  const health = ((performance.now() - t) * 1000) / N;
  t = performance.now();
  const M = mode === "bare" ? 0 : 30000;
  for (let i = 0; i < M; i++) { const r = await target.handle(new Request("http://localhost/v1/range-to-cidrs", { method: "POST", headers: { "content-type": "application/json" }, body: rangeBody })); await r.text(); }
  const range = M ? ((performance.now() - t) * 1000) / M : 0;
  console.log(mode, `health ${health.toFixed(2)} µs/req`, `range ${range.toFixed(2)} µs/req`);
}
