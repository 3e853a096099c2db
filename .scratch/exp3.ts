import { testApp, call, jsonOf } from "../tests/http/helpers.ts";
const { app } = testApp();
const reqs: [string, string, unknown?, Record<string,string>?, string?][] = [
  ["GET", "/v1/health"],
  ["POST", "/v1/cidr-cover", { inputs: ["192.0.2.10", "192.0.2.77/30", "192.0.2.130"] }],
  ["POST", "/v1/cidr-cover", { inputs: ["2001:db8::1", "2001:db8:0:ff::/64"] }],
  ["POST", "/v1/cidr-cover", { inputs: ["10.0.0.0/24", "10.0.0.256"] }],
  ["POST", "/v1/cidr-cover", { inputs: ["10.0.0.0/24", "2001:db8::/32"] }],
  ["POST", "/v1/cidr-subtract", { include: ["10.0.0.0/24"], exclude: ["10.0.0.128/26", "10.0.0.7"] }],
  ["POST", "/v1/cidr-subtract", { include: ["192.0.2.0/24"], exclude: ["192.0.2.0/24"] }],
  ["POST", "/v1/cidr-subtract", { include: ["10.0.0.0/8"], exclude: ["10.0.0.0/8", "10.0.0.0/33"] }],
  ["POST", "/v1/cidr-subtract", { include: ["2001:db8::/32"], exclude: ["2001:db8::1", "2001:db8::3", "2001:db8::5"] }],
  ["POST", "/v1/range-to-cidrs", { start: "192.0.2.10", end: "192.0.2.100" }],
  ["POST", "/v1/range-to-cidrs", { start: "2001:db8::", end: "2001:db8::ff:ffff" }],
  ["POST", "/v1/range-to-cidrs", { start: "10.0.0.9", end: "10.0.0.1" }],
  ["POST", "/v1/range-to-cidrs", { start: "10.0.0.0/24", end: "10.0.0.1" }],
  ["POST", "/v1/range-to-cidrs", { start: "10.0.0.1", end: "::1" }],
  ["POST", "/v1/range-to-cidrs", { start: "10.0.0.1" , extra: 1}],
  ["GET", "/v1/range-to-cidrs"],
  ["GET", "/v1/public-ip"],
  ["POST", "/v1/public-ip"],
  ["POST", "/v1/range-to-cidrs", undefined, {"content-type": "text/plain"}, "start=1"],
  ["POST", "/v1/range-to-cidrs", undefined, {"content-type": "application/json"}, '{"start": "10.0.0.1",'],
  ["GET", "/nope"],
];
for (const [m, p, json, headers, body] of reqs) {
  const r = await call(app, m, p, { json, headers, body });
  console.log(m, p, JSON.stringify(json ?? body ?? null), "=>", r.status, r.headers.get("allow") ?? "", await r.text());
}
