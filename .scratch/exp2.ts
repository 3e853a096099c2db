import { Elysia } from "elysia";
import { openapi } from "@elysiajs/openapi";
import { healthRoutes } from "../src/adapters/http/health.ts";
import { cidrRoutes } from "../src/adapters/http/cidr.ts";
import { publicIpRoutes } from "../src/adapters/http/public-ip.ts";
import { loopbackClient } from "../tests/fakes/client-address.ts";
const app = new Elysia({ normalize: false })
  .use(healthRoutes()).use(cidrRoutes()).use(publicIpRoutes(loopbackClient))
  .use(openapi({ provider: "swagger-ui", path: "/docs", specPath: "/docs/json" }));
const res = await app.handle(new Request("http://localhost/docs/json"));
console.log(JSON.stringify(await res.json(), null, 1));
