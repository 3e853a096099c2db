/**
 * reverse-zones and cidr-subnets end to end (CONTRACT §8.8–8.9), against the real server process
 * on an ephemeral port: the bench workload's body (128 zones, the joint-text path of the
 * responder) byte for byte as JSON.stringify would write it, and Terraform's example.
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
