import { Elysia } from "elysia";
import { publicIpRoutes } from "../src/adapters/http/public-ip.ts";
import { fixedClientAddress } from "../tests/fakes/client-address.ts";
const app = new Elysia({ normalize: false }).onError(({ code, error }) => { console.log("ERR", code, error); }).use(publicIpRoutes(fixedClientAddress("2001:db8::7")));
const r = await app.handle(new Request("http://localhost/v1/public-ip"));
console.log(r.status, await r.text());
