import { testApp, call } from "../tests/http/helpers.ts";
const { app } = testApp();
for (const n of [40, 45, 50, 60, 80, 90]) {
  const exclude = Array.from({ length: n }, (_, k) => `${(k + 1).toString(16)}::`);
  const r = await call(app, "POST", "/v1/cidr-subtract", { json: { include: ["::/0"], exclude } });
  const t = await r.text();
  console.log(n, r.status, t.length, t.slice(0, 300));
}
for (const n of [20, 25, 30, 40]) {
  const exclude = Array.from({ length: n }, (_, k) => [`${(k + 1).toString(16)}::`, `${(k + 1).toString(16)}:ffff:ffff:ffff:ffff:ffff:ffff:ffff`]).flat();
  const r = await call(app, "POST", "/v1/cidr-subtract", { json: { include: ["::/0"], exclude } });
  const t = await r.text();
  console.log("pair", n, r.status, t.length, t.slice(0, 300));
}
