import { Elysia } from "elysia";
import { openapi } from "@elysiajs/openapi";
import { testApp } from "../tests/http/helpers.ts";

const docs = new Elysia({ name: "docs", normalize: false })
  .onAfterHandle(({ request, response }) => {
    console.log("afterHandle", new URL(request.url).pathname, typeof response, response instanceof Response);
    if (new URL(request.url).pathname === "/docs/json") return { patched: true, ...(response as object) };
  })
  .use(openapi({ provider: "swagger-ui", path: "/docs", specPath: "/docs/json", documentation: { info: { title: "T", version: "0.5.0" } }, swagger: { cdn: "/docs/assets/swagger-ui-bundle.js", theme: "/docs/assets/swagger-ui.css", validatorUrl: null } as never }));
const app = new Elysia({ normalize: false }).onRequest(({ set }) => { set.headers["x-request-id"] = "abc"; set.headers["x-content-type-options"] = "nosniff"; })
  .get("/v1/health", () => ({ status: "ok" }))
  .use(docs);
for (const r of app.routes) console.log(r.method, r.path, JSON.stringify(r.hooks?.detail));
for (const p of ["/docs", "/docs/json", "/docs/", "/docs/json/"]) {
  const res = await app.handle(new Request("http://localhost" + p));
  console.log(p, res.status, [...res.headers.entries()]);
  const text = await res.text();
  console.log(text.slice(0, 3000));
}
