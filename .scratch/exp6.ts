import { testApp, call } from "../tests/http/helpers.ts";
const { app } = testApp();
for (const [m, p] of [["GET", "/docs"], ["HEAD", "/docs"], ["POST", "/docs"], ["GET", "/docs/assets/swagger-ui.css"], ["GET", "/docs/assets/nope.js"], ["POST", "/docs/json"], ["GET", "/docs/"]]) {
  const r = await call(app, m!, p!);
  const t = await r.text();
  console.log(m, p, r.status, JSON.stringify([...r.headers.entries()]), t.length, t.slice(0, 120).replace(/\n/g, " "));
}
const r = await call(app, "GET", "/docs/json");
console.log(r.status, [...r.headers.entries()]);
await Bun.write(".scratch/doc.json", JSON.stringify(await r.json(), null, 2));
