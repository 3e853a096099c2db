import { testApp, call } from "../tests/http/helpers.ts";
const { app } = testApp();
const reqs: [string, unknown][] = [
  ["/v1/cidr-cover", { inputs: ["10.0.0.1"], family: "ipv4" }],
  ["/v1/cidr-cover", { inputs: [] }],
  ["/v1/cidr-subtract", { include: ["2001:db8::/32"], exclude: ["2001:db8:8000::/34", "2001:db8::/33"] }],
  ["/v1/range-to-cidrs", { start: "10.0.0.1", end: "2001:db8::1" }],
  ["/v1/range-to-cidrs", { start: " 10.0.0.1 ", end: "10.0.0.1" }],
];
for (const [p, json] of reqs) {
  const r = await call(app, "POST", p, { json });
  console.log(p, JSON.stringify(json), "=>", r.status, await r.text());
}
