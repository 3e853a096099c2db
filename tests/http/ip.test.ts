/**
 * GET /v1/ip through app.handle with a fake address source (CONTRACT §7.5): always text, the
 * address and a line feed, never cached, whatever the Accept; errors are JSON envelopes.
 */
import { describe, expect, test } from "bun:test";
import { fixedClientAddress } from "../fakes/client-address.ts";
import { call, errorOf, testApp } from "./helpers.ts";

describe("GET /v1/ip", () => {
  const v4 = testApp({ clientAddress: fixedClientAddress("203.0.113.7") }).app;

  test.each([undefined, "application/json", "*/*", "text/html"])(
    "always text/plain, the address and a line feed, never cached (Accept: %s)",
    async (accept) => {
      const response = await call(v4, "GET", "/v1/ip", accept === undefined ? {} : { headers: { accept } });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(await response.text()).toBe("203.0.113.7\n");
    },
  );

  test("IPv6 in RFC 5952 text; HEAD has no body", async () => {
    const v6 = testApp({ clientAddress: fixedClientAddress("2001:DB8::0:1") }).app;
    expect(await (await call(v6, "GET", "/v1/ip")).text()).toBe("2001:db8::1\n");
    const head = await call(v4, "HEAD", "/v1/ip");
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  test("errors are JSON envelopes: 503 CLIENT_IP_UNAVAILABLE (no-store) and 405", async () => {
    const none = testApp({ clientAddress: fixedClientAddress(null) }).app;
    const response = await call(none, "GET", "/v1/ip", { headers: { accept: "text/plain" } });
    expect(response.status).toBe(503);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect((await errorOf(response)).code).toBe("CLIENT_IP_UNAVAILABLE");
    const post = await call(v4, "POST", "/v1/ip", { json: {} });
    expect(post.status).toBe(405);
    expect(post.headers.get("content-type")).toMatch(/^application\/json/);
  });
});
