/**
 * The CIDR list operations end to end, against the real server process on an ephemeral port: a
 * real curl user's view (CONTRACT §7.4, §8.4–8.5), reverse-zones and cidr-subnets (§8.8–8.9)
 * included.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type RunningServer, startServer } from "./server.ts";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

const post = (path: string, body: unknown) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

test("merge, split, contains and allocate answer over real sockets", async () => {
  const merged = await post("/v1/cidr-merge", {
    inputs: ["2001:db8::/33", "10.0.0.0/25", "2001:db8:8000::/33", "10.0.0.128/25"],
  });
  expect(await merged.json()).toEqual({
    cidrs: ["10.0.0.0/24", "2001:db8::/32"],
    ipv4AddressCount: "256",
    ipv6AddressCount: "79228162514264337593543950336",
  });
  const split = await post("/v1/cidr-split", { cidr: "::/0", prefixLength: 64 });
  expect(split.status).toBe(400);
  expect(((await split.json()) as { error: { code: string } }).error.code).toBe("RESULT_TOO_LARGE");
  const contains = await post("/v1/cidr-contains", {
    cidrs: ["10.0.0.0/8"],
    entries: ["10.9.9.9", "::ffff:10.9.9.9"],
  });
  expect(
    ((await contains.json()) as { results: { contained: boolean }[] }).results.map((r) => r.contained),
  ).toEqual([true, false]);
  const allocated = await post("/v1/cidr-allocate", { within: ["10.0.0.0/30"], prefixLength: 31, count: 3 });
  expect(allocated.status).toBe(400);
  expect(((await allocated.json()) as { error: { code: string } }).error.code).toBe("INSUFFICIENT_SPACE");
});

test("reverse-zones: the bench body over real sockets, serialized exactly", async () => {
  const response = await post("/v1/reverse-zones", { cidr: "192.168.0.0/17" });
  expect(response.status).toBe(200);
  const zones = Array.from({ length: 128 }, (_, k) => `${k}.168.192.in-addr.arpa.`);
  expect(await response.text()).toBe(JSON.stringify({ cidr: "192.168.0.0/17", zones }));
});

test("cidr-subnets: Terraform's example, and INSUFFICIENT_SPACE as 400", async () => {
  const response = await post("/v1/cidr-subnets", { prefix: "10.1.0.0/16", newbits: [4, 4, 8, 4] });
  expect(await response.json()).toEqual({
    prefix: "10.1.0.0/16",
    cidrs: ["10.1.0.0/20", "10.1.16.0/20", "10.1.32.0/24", "10.1.48.0/20"],
  });
  const full = await post("/v1/cidr-subnets", { prefix: "10.0.0.0/31", newbits: [1, 1, 1] });
  expect(full.status).toBe(400);
  expect(((await full.json()) as { error: { code: string } }).error.code).toBe("INSUFFICIENT_SPACE");
});

test("compare-1000 (the bench body), merge with excludeSpecial and a split page over real sockets", async () => {
  const body = await Bun.file(new URL("../../bench/data/compare-1000.json", import.meta.url)).json();
  const compared = await post("/v1/cidr-compare", body);
  expect(compared.status).toBe(200);
  const result = (await compared.json()) as Record<string, { cidrs: string[] }>;
  expect([result.onlyA!.cidrs.length, result.onlyB!.cidrs.length, result.both!.cidrs.length]).toEqual([
    841, 922, 369,
  ]);
  const merged = await post("/v1/cidr-merge", { inputs: ["10.0.0.0/7"], excludeSpecial: true });
  expect(await merged.json()).toEqual({
    cidrs: ["11.0.0.0/8"],
    ipv4AddressCount: "16777216",
    ipv6AddressCount: "0",
    excluded: [{ cidr: "10.0.0.0/8", block: "10.0.0.0/8", name: "Private-Use", rfc: "RFC 1918" }],
  });
  const page = await post("/v1/cidr-split", {
    cidr: "10.0.0.0/8",
    prefixLength: 32,
    offset: "16777215",
    limit: 10,
  });
  expect(await page.json()).toEqual({
    network: "10.0.0.0/8",
    prefixLength: 32,
    subnetCount: "16777216",
    cidrs: ["10.255.255.255/32"],
  });
});
