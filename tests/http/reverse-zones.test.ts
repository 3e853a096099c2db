/**
 * reverse-zones over HTTP (CONTRACT §8.8) through app.handle (the shared rules of §1 for its row
 * are in cidr-lists.test.ts): the largest answer (128 names), and an invalid block as one issue
 * with `path` only.
 */
import { describe, expect, test } from "bun:test";
import { call, errorOf, jsonOf, testApp } from "./helpers.ts";

const { app } = testApp();

describe("reverse-zones", () => {
  test("192.168.0.0/17: the largest answer, 128 zones of three octets", async () => {
    const result = (await jsonOf(
      await call(app, "POST", "/v1/reverse-zones", { json: { cidr: "192.168.0.0/17" } }),
    )) as {
      cidr: string;
      zones: string[];
    };
    expect(result.cidr).toBe("192.168.0.0/17");
    expect(result.zones.length).toBe(128);
    expect(result.zones[0]).toBe("0.168.192.in-addr.arpa.");
    expect(result.zones[127]).toBe("127.168.192.in-addr.arpa.");
  });

  test('an invalid block: one issue at ["cidr"], no legacy locators', async () => {
    const response = await call(app, "POST", "/v1/reverse-zones", { json: { cidr: "fe80::1%eth0" } });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.issues?.length).toBe(1);
    expect(error.issues?.[0]?.path).toEqual(["cidr"]);
    expect(Object.keys(error.issues?.[0] ?? {})).toEqual(["message", "path"]);
  });
});
