/**
 * GET /v1/public-ip through app.handle with a fake address source (CONTRACT §5).
 */
import { describe, expect, test } from "bun:test";
import { negotiate } from "../../src/adapters/http/accept.ts";
import { fixedClientAddress } from "../fakes/client-address.ts";
import { call, errorOf, jsonOf, testApp } from "./helpers.ts";

describe("representations", () => {
  const { app } = testApp({ clientAddress: fixedClientAddress("203.0.113.7") });

  test("JSON by default, never cached, varies on Accept", async () => {
    const response = await call(app, "GET", "/v1/public-ip");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("vary")).toContain("Accept");
    expect(await jsonOf(response)).toEqual({ family: "ipv4", ip: "203.0.113.7" });
  });

  test("text/plain is the address and a line feed", async () => {
    const response = await call(app, "GET", "/v1/public-ip", { headers: { accept: "text/plain" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("vary")).toContain("Accept");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-request-id")).toBeTruthy();
    expect(await response.text()).toBe("203.0.113.7\n");
  });

  test("HEAD answers with headers and no body", async () => {
    const response = await call(app, "HEAD", "/v1/public-ip");
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");
  });

  test("IPv6 clients are reported in RFC 5952 text", async () => {
    const v6 = testApp({ clientAddress: fixedClientAddress("2001:DB8:0:0:0:0:0:1") }).app;
    expect(await jsonOf(await call(v6, "GET", "/v1/public-ip"))).toEqual({
      family: "ipv6",
      ip: "2001:db8::1",
    });
  });

  test("no observable address is 503 CLIENT_IP_UNAVAILABLE, not cached", async () => {
    const none = testApp({ clientAddress: fixedClientAddress(null) }).app;
    const response = await call(none, "GET", "/v1/public-ip");
    expect(response.status).toBe(503);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect((await errorOf(response)).code).toBe("CLIENT_IP_UNAVAILABLE");
  });

  test("POST is 405 with Allow: GET, HEAD", async () => {
    const response = await call(app, "POST", "/v1/public-ip", { json: {} });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });
});

describe("Accept negotiation", () => {
  test.each([
    [null, "json"],
    ["", "json"],
    ["*/*", "json"],
    ["application/*", "json"],
    ["application/json", "json"],
    ["text/plain", "text"],
    ["text/*", "text"],
    ["TEXT/PLAIN", "text"],
    ["text/plain, application/json", "json"],
    ["application/json;q=0.5, text/plain", "text"],
    ["text/plain;q=0.9, application/json;q=0.9", "json"],
    ["text/plain;q=0.8, */*;q=0.9", "json"],
    ["text/*;q=0.5, */*;q=0.1", "text"],
    ["text/plain, application/json;q=0", "text"],
    ["text/plain;q=0, */*", "json"],
    ["image/png", "json"],
    ["text/html", "json"],
    ["text/html, text/plain;q=0.1", "text"],
    ["application/json;q=0, text/plain;q=0", "json"],
    ["text/plain;q=bogus", "json"],
    ["garbage", "json"],
  ] as const)("Accept %p → %s", (accept, expected) => {
    expect(negotiate(accept)).toBe(expected);
  });
});
