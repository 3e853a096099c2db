/**
 * The list operations of CONTRACT §8.4–8.5 and cidr-split's page (§7.4) over HTTP through
 * app.handle: cidr-compare's sets, issues and RESULT_TOO_LARGE; cidr-merge with and without
 * `excludeSpecial`; cidr-split's `offset` and `limit` checked by the schema and by the domain.
 */
import { describe, expect, test } from "bun:test";
import { call, errorOf, jsonOf, testApp } from "./helpers.ts";

const { app } = testApp();
const post = (path: string, json: unknown) => call(app, "POST", path, { json });

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
