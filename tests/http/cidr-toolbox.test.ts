/**
 * The CIDR additions and GET /v1/ip over HTTP (CONTRACT §7.4–7.5) through app.handle: the shared
 * rules of §1 hold for each new row (reverse-zones and cidr-subnets, §8.8–8.9, too; their results
 * in tests/http/planning.test.ts), issues carry `path` only, the domain's codes map to their
 * statuses, and /v1/ip is always text.
 */
import { describe, expect, test } from "bun:test";
import { fixedClientAddress } from "../fakes/client-address.ts";
import { call, errorOf, jsonOf, testApp } from "./helpers.ts";

const { app } = testApp();

const POSTS: [string, unknown][] = [
  ["/v1/cidr-merge", { inputs: ["10.0.0.0/25", "10.0.0.128/25", "::ffff:10.0.0.1"] }],
  ["/v1/cidr-split", { cidr: "10.0.0.0/30", prefixLength: 31 }],
  ["/v1/cidr-contains", { cidrs: ["10.0.0.0/8"], entries: ["10.1.2.3"] }],
  ["/v1/cidr-allocate", { within: ["10.0.0.0/24"], prefixLength: 26 }],
  ["/v1/reverse-zones", { cidr: "192.168.0.0/17" }],
  ["/v1/cidr-subnets", { prefix: "10.1.0.0/16", newbits: [4, 4, 8, 4] }],
  ["/v1/cidr-compare", { a: ["10.0.0.0/24"], b: ["10.0.0.128/25"] }],
];

describe("each new POST row follows the shared rules", () => {
  test.each(POSTS)("%s answers 200 JSON, with CORS and a request id", async (path, body) => {
    const response = await call(app, "POST", path, { json: body });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("x-request-id")).toBeTruthy();
    expect(response.headers.get("cache-control")).toBeNull();
  });

  test.each(POSTS)("%s: wrong media type 415, GET 405, unknown field 400 at [extra]", async (path, body) => {
    expect((await call(app, "POST", path, { body: JSON.stringify(body) })).status).toBe(415);
    const wrongMethod = await call(app, "GET", path);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toContain("POST");
    const extra = await call(app, "POST", path, { json: { ...(body as object), extra: 1 } });
    expect(extra.status).toBe(400);
    expect((await errorOf(extra)).issues).toEqual([
      { message: 'Unknown field "extra" is not allowed.', path: ["extra"] },
    ]);
  });
});

describe("results", () => {
  test("merge: families mixed, IPv4 first", async () => {
    expect(await jsonOf(await call(app, "POST", "/v1/cidr-merge", { json: POSTS[0]![1] }))).toEqual({
      cidrs: ["10.0.0.0/24", "::ffff:10.0.0.1/128"],
      ipv4AddressCount: "256",
      ipv6AddressCount: "1",
    });
  });

  test("split, contains and allocate", async () => {
    expect(await jsonOf(await call(app, "POST", "/v1/cidr-split", { json: POSTS[1]![1] }))).toEqual({
      network: "10.0.0.0/30",
      prefixLength: 31,
      subnetCount: "2",
      cidrs: ["10.0.0.0/31", "10.0.0.2/31"],
    });
    expect(await jsonOf(await call(app, "POST", "/v1/cidr-contains", { json: POSTS[2]![1] }))).toEqual({
      results: [{ entry: "10.1.2.3/32", contained: true, overlaps: true, matchedCidr: "10.0.0.0/8" }],
    });
    expect(await jsonOf(await call(app, "POST", "/v1/cidr-allocate", { json: POSTS[3]![1] }))).toEqual({
      cidrs: ["10.0.0.0/26"],
      freeAddressCount: "192",
    });
  });
});

describe("errors", () => {
  test("schema issues on the additions carry path only (no legacy index)", async () => {
    const response = await call(app, "POST", "/v1/cidr-merge", { json: { inputs: ["10.0.0.1", 7] } });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.issues!.map((i) => Object.keys(i).sort().join())).toEqual(["message,path"]);
    expect(error.issues![0]!.path).toEqual(["inputs", 1]);
    // the spec's cidr-cover keeps its legacy locator on the same mistake
    const cover = await errorOf(
      await call(app, "POST", "/v1/cidr-cover", { json: { inputs: ["10.0.0.1", 7] } }),
    );
    expect(cover.issues![0]!.index).toBe(1);
  });

  test("domain issues carry path only too", async () => {
    const error = await errorOf(
      await call(app, "POST", "/v1/cidr-merge", { json: { inputs: ["10.0.0.256"] } }),
    );
    expect(error.issues).toEqual([
      { message: '"10.0.0.256" is not a valid IPv4 address: octet 256 is above 255', path: ["inputs", 0] },
    ]);
  });

  test("two lists over 1000 together: one issue at []", async () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => `10.0.${i >> 8}.${i & 255}`);
    const response = await call(app, "POST", "/v1/cidr-contains", {
      json: { cidrs: many(600), entries: many(401) },
    });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).issues).toEqual([
      { message: "cidrs and entries together must have at most 1000 entries; they have 1001", path: [] },
    ]);
    const allocate = await call(app, "POST", "/v1/cidr-allocate", {
      json: { within: many(500), used: many(501), prefixLength: 32 },
    });
    expect((await errorOf(allocate)).issues![0]!.path).toEqual([]);
  });

  test("split of ::/0 into /64s: 400 RESULT_TOO_LARGE with the exact count", async () => {
    const response = await call(app, "POST", "/v1/cidr-split", { json: { cidr: "::/0", prefixLength: 64 } });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe("RESULT_TOO_LARGE");
    expect(error.message).toContain("18446744073709551616");
  });

  test("prefixLength out of range is INVALID_INPUT on its field, by schema (129) and by family (33)", async () => {
    const schema = await errorOf(
      await call(app, "POST", "/v1/cidr-split", { json: { cidr: "::/0", prefixLength: 129 } }),
    );
    expect(schema.issues!.map((i) => i.path)).toEqual([["prefixLength"]]);
    const family = await errorOf(
      await call(app, "POST", "/v1/cidr-allocate", { json: { within: ["10.0.0.0/8"], prefixLength: 33 } }),
    );
    expect(family.code).toBe("INVALID_INPUT");
    expect(family.issues!.map((i) => i.path)).toEqual([["prefixLength"]]);
  });

  test("allocate: 400 INSUFFICIENT_SPACE saying how many fit; MIXED_ADDRESS_FAMILIES reading within then used", async () => {
    const short = await call(app, "POST", "/v1/cidr-allocate", {
      json: { within: ["10.0.0.0/24"], prefixLength: 25, count: 3 },
    });
    expect(short.status).toBe(400);
    expect(await errorOf(short)).toEqual({
      code: "INSUFFICIENT_SPACE",
      message: "Only 2 free blocks of /25 fit inside within and outside used; count asks for 3.",
    });
    const mixed = await errorOf(
      await call(app, "POST", "/v1/cidr-allocate", {
        json: { within: ["10.0.0.0/24", "::/0"], used: ["::1"], prefixLength: 25 },
      }),
    );
    expect(mixed.code).toBe("MIXED_ADDRESS_FAMILIES");
    expect(mixed.issues!.map((i) => i.path)).toEqual([["within", 1]]);
  });
});

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
