/**
 * The CIDR list operations over HTTP (CONTRACT §7.4, §8.4–8.5) through app.handle: the shared
 * rules of §1 hold for each of their rows (and for reverse-zones' and cidr-subnets', whose results
 * are in reverse-zones.test.ts and cidr-subnets.test.ts), issues carry `path` only, the domain's
 * codes map to their statuses; cidr-compare's sets, issues and RESULT_TOO_LARGE; cidr-merge with
 * and without `excludeSpecial`; cidr-split's `offset` and `limit` checked by the schema and by the
 * domain.
 */
import { describe, expect, test } from "bun:test";
import { call, errorOf, jsonOf, testApp } from "./helpers.ts";

const { app } = testApp();
const post = (path: string, json: unknown) => call(app, "POST", path, { json });

const POSTS: [string, unknown][] = [
  ["/v1/cidr-merge", { inputs: ["10.0.0.0/25", "10.0.0.128/25", "::ffff:10.0.0.1"] }],
  ["/v1/cidr-split", { cidr: "10.0.0.0/30", prefixLength: 31 }],
  ["/v1/cidr-contains", { cidrs: ["10.0.0.0/8"], entries: ["10.1.2.3"] }],
  ["/v1/cidr-allocate", { within: ["10.0.0.0/24"], prefixLength: 26 }],
  ["/v1/reverse-zones", { cidr: "192.168.0.0/17" }],
  ["/v1/cidr-subnets", { prefix: "10.1.0.0/16", newbits: [4, 4, 8, 4] }],
  ["/v1/cidr-compare", { a: ["10.0.0.0/24"], b: ["10.0.0.128/25"] }],
  ["/v1/cidr-usage", { pool: ["10.0.0.0/22"], used: ["10.0.0.0/24"] }],
];

describe("each CIDR row follows the shared rules", () => {
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
      results: [
        { entry: "10.1.2.3/32", contained: true, overlaps: true, matchedCidr: "10.0.0.0/8", label: null },
      ],
    });
    expect(await jsonOf(await call(app, "POST", "/v1/cidr-allocate", { json: POSTS[3]![1] }))).toEqual({
      cidrs: ["10.0.0.0/26"],
      freeAddressCount: "192",
    });
  });
});

describe("cidr-usage (CONTRACT §12)", () => {
  test("the counts, the largest free block and the sizes; issues at their path", async () => {
    const ok = await post("/v1/cidr-usage", { pool: ["10.0.0.0/23"], used: ["10.0.0.0/24", "10.9.0.0/16"] });
    expect(await jsonOf(ok)).toEqual({
      total: "512",
      used: "256",
      free: "256",
      outsidePool: "65536",
      percentUsed: 50,
      largestFree: "10.0.1.0/24",
      freeBySize: Array.from({ length: 9 }, (_, k) => ({ prefixLength: 24 + k, blocks: String(2 ** k) })),
    });
    const bad = await post("/v1/cidr-usage", { pool: ["10.0.0.0/23"], used: ["2001:db8::/32"] });
    expect(bad.status).toBe(400);
    expect(await errorOf(bad)).toMatchObject({
      code: "MIXED_ADDRESS_FAMILIES",
      issues: [{ path: ["used", 0] }],
    });
    const missing = await post("/v1/cidr-usage", { pool: ["10.0.0.0/23"] });
    expect(missing.status).toBe(400);
    expect((await errorOf(missing)).code).toBe("INVALID_INPUT");
    const tooMany = await post("/v1/cidr-usage", {
      pool: ["10.0.0.0/8"],
      used: Array.from({ length: 10_001 }, () => "10.0.0.1"),
    });
    expect([400, 413]).toContain(tooMany.status);
  });
});

describe("cidr-contains labels (CONTRACT §12)", () => {
  test("blocks may be { cidr, label }; each answer carries the most specific block's label or null", async () => {
    const body = {
      cidrs: [
        { cidr: "52.94.0.0/16", label: "AMAZON" },
        { cidr: "52.94.5.0/24", label: "DYNAMODB eu-west-1" },
        "52.94.6.0/24",
      ],
      entries: ["52.94.5.7", "52.94.1.1", "52.94.6.1", "8.8.8.8"],
    };
    const response = await post("/v1/cidr-contains", body);
    expect(response.status).toBe(200);
    expect(
      (
        (await jsonOf(response)) as { results: { matchedCidr: string | null; label: string | null }[] }
      ).results.map(({ matchedCidr, label }) => [matchedCidr, label]),
    ).toEqual([
      ["52.94.5.0/24", "DYNAMODB eu-west-1"],
      ["52.94.0.0/16", "AMAZON"],
      ["52.94.6.0/24", null],
      [null, null],
    ]);
  });

  test("a label outside 1–256 characters, or an unknown key, is INVALID_INPUT", async () => {
    for (const block of [
      { cidr: "10.0.0.0/8", label: "" },
      { cidr: "10.0.0.0/8", label: "x".repeat(257) },
      { cidr: "10.0.0.0/8", label: "a", extra: 1 },
    ]) {
      const response = await post("/v1/cidr-contains", { cidrs: [block], entries: ["10.0.0.1"] });
      expect(response.status).toBe(400);
      expect((await errorOf(response)).code).toBe("INVALID_INPUT");
    }
  });
});

describe("errors", () => {
  test("schema issues on the list operations carry path only (no legacy index)", async () => {
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

describe("POST /v1/cidr-compare", () => {
  test("onlyA, onlyB, both and equal, as the contract's example", async () => {
    const response = await post("/v1/cidr-compare", {
      a: ["10.0.0.0/24"],
      b: ["10.0.0.128/25", "192.0.2.1"],
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(
      '{"onlyA":{"cidrs":["10.0.0.0/25"],"ipv4AddressCount":"128","ipv6AddressCount":"0"},' +
        '"onlyB":{"cidrs":["192.0.2.1/32"],"ipv4AddressCount":"1","ipv6AddressCount":"0"},' +
        '"both":{"cidrs":["10.0.0.128/25"],"ipv4AddressCount":"128","ipv6AddressCount":"0"},"equal":false}',
    );
  });

  test("both lists may be empty; a missing list is an issue at its path", async () => {
    expect(await jsonOf(await post("/v1/cidr-compare", { a: [], b: [] }))).toMatchObject({ equal: true });
    const missing = await errorOf(await post("/v1/cidr-compare", { a: [] }));
    expect(missing.code).toBe("INVALID_INPUT");
    expect(missing.issues!.map((i) => i.path)).toEqual([["b"]]);
  });

  test("issues carry path only; over 1000 together is one issue at []", async () => {
    const bad = await errorOf(
      await post("/v1/cidr-compare", { a: ["10.0.0.0/24"], b: ["::1", "10.0.0.0/33"] }),
    );
    expect(bad.issues).toEqual([
      {
        message: '"10.0.0.0/33" is not a valid IPv4 CIDR: prefix length 33 is above 32, the IPv4 maximum',
        path: ["b", 1],
      },
    ]);
    const many = (n: number) => Array.from({ length: n }, (_, i) => `10.0.${i >> 8}.${i & 255}`);
    const over = await errorOf(await post("/v1/cidr-compare", { a: many(500), b: many(501) }));
    expect(over.issues).toEqual([
      { message: "a and b together must have at most 1000 entries; they have 1001", path: [] },
    ]);
  });

  test("RESULT_TOO_LARGE is a 400 with the exact total and no lists", async () => {
    const holes = Array.from({ length: 999 }, (_, i) => `${(i * 64 + 1).toString(16)}:1::`);
    const response = await post("/v1/cidr-compare", { a: ["::/0"], b: holes });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe("RESULT_TOO_LARGE");
    expect(error.message).toMatch(/^The comparison would list \d+ CIDRs in onlyA, onlyB and both together/);
  });
});

describe("POST /v1/cidr-merge with excludeSpecial", () => {
  test("true: the remainder, and each removed block with its row", async () => {
    expect(
      await jsonOf(await post("/v1/cidr-merge", { inputs: ["10.0.0.0/7"], excludeSpecial: true })),
    ).toEqual({
      cidrs: ["11.0.0.0/8"],
      ipv4AddressCount: "16777216",
      ipv6AddressCount: "0",
      excluded: [{ cidr: "10.0.0.0/8", block: "10.0.0.0/8", name: "Private-Use", rfc: "RFC 1918" }],
    });
  });

  test("absent or false: exactly today's answer, without an excluded field", async () => {
    const plain = await (await post("/v1/cidr-merge", { inputs: ["10.0.0.0/7"] })).text();
    expect(plain).toBe('{"cidrs":["10.0.0.0/7"],"ipv4AddressCount":"33554432","ipv6AddressCount":"0"}');
    expect(
      await (await post("/v1/cidr-merge", { inputs: ["10.0.0.0/7"], excludeSpecial: false })).text(),
    ).toBe(plain);
  });

  test("a non-boolean excludeSpecial is INVALID_INPUT at its path", async () => {
    const error = await errorOf(
      await post("/v1/cidr-merge", { inputs: ["10.0.0.0/7"], excludeSpecial: "yes" }),
    );
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.issues!.map((i) => i.path)).toEqual([["excludeSpecial"]]);
  });
});

describe("POST /v1/cidr-split with offset and limit", () => {
  test("a page of a split far too large to list", async () => {
    expect(
      await jsonOf(
        await post("/v1/cidr-split", {
          cidr: "::/0",
          prefixLength: 64,
          offset: "18446744073709551615",
          limit: 3,
        }),
      ),
    ).toEqual({
      network: "::/0",
      prefixLength: 64,
      subnetCount: "18446744073709551616",
      cidrs: ["ffff:ffff:ffff:ffff::/64"],
    });
  });

  test("the schema bounds them: limit 1–10000, offset a decimal string", async () => {
    for (const body of [
      { limit: 0 },
      { limit: 10001 },
      { limit: 2.5 },
      { offset: 5 },
      { offset: "05" },
      { offset: "-1" },
    ]) {
      const error = await errorOf(
        await post("/v1/cidr-split", { cidr: "10.0.0.0/22", prefixLength: 24, ...body }),
      );
      expect({ body, code: error.code, path: error.issues![0]!.path }).toEqual({
        body,
        code: "INVALID_INPUT",
        path: [Object.keys(body)[0]!],
      });
    }
  });

  test("an offset at or past subnetCount is INVALID_INPUT on [offset]", async () => {
    const error = await errorOf(
      await post("/v1/cidr-split", { cidr: "10.0.0.0/22", prefixLength: 24, offset: "4" }),
    );
    expect(error.issues!.map((i) => i.path)).toEqual([["offset"]]);
  });
});
