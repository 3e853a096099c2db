import { buildApp } from "./app-copy.ts";
import { createMemoryLogger } from "../src/adapters/system/logger.ts";
import { fixedClientAddress } from "../tests/fakes/client-address.ts";
const app = buildApp({ logger: createMemoryLogger(), cors: { kind: "any" }, clientAddress: fixedClientAddress("2001:db8::7") } as never);
const r = await app.handle(new Request("http://localhost/v1/public-ip"));
console.log(r.status, await r.text());
