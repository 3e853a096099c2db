/**
 * The CIDR endpoints through app.handle: domain errors arrive in the envelope with the right
 * status, code and locators (CONTRACT §1.1, §2, §3).
 */
import { describe, expect, test } from "bun:test";
import { call, errorOf, jsonOf, testApp } from "./helpers.ts";

const { app } = testApp();

describe("CIDR endpoints over HTTP", () => {
  test("cover answers the spec's shape", async () => {
    const response = await call(app, "POST", "/v1/cidr-cover", {
      json: { inputs: [" 10.0.0.7/24", "10.0.1.1"] },
    });
    expect(response.status).toBe(200);
    expect(await jsonOf(response)).toEqual({
      family: "ipv4",
      normalizedInputs: ["10.0.0.0/24", "10.0.1.1/32"],
      cidr: "10.0.0.0/23",
      range: { first: "10.0.0.0", last: "10.0.1.255" },
      inputAddressCount: "257",
      coveredAddressCount: "512",
      additionalAddressCount: "255",
    });
  });

  test("an invalid cover entry carries path and index", async () => {
    const error = await errorOf(
      await call(app, "POST", "/v1/cidr-cover", {
        json: { inputs: ["10.0.0.0/8", "10.0.0.1", "10.0.0.256"] },
      }),
    );
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.issues).toEqual([expect.objectContaining({ path: ["inputs", 2], index: 2 })]);
    expect(error.issues?.[0]?.message).toContain('"10.0.0.256"');
  });

  test("mixed families point at the first entry of the other family, subtract reading include then exclude", async () => {
    const response = await call(app, "POST", "/v1/cidr-subtract", {
      json: { include: ["10.0.0.0/8"], exclude: ["10.1.0.0/16", "2001:db8::/32"] },
    });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe("MIXED_ADDRESS_FAMILIES");
    expect(error.issues).toEqual([
      expect.objectContaining({ path: ["exclude", 1], list: "exclude", index: 1 }),
    ]);
  });

  test("more than 1000 entries across include and exclude is INVALID_INPUT on the whole request", async () => {
    const include = Array.from({ length: 600 }, () => "10.0.0.1");
    const exclude = Array.from({ length: 401 }, () => "10.0.0.2");
    const error = await errorOf(await call(app, "POST", "/v1/cidr-subtract", { json: { include, exclude } }));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.issues?.[0]?.path).toEqual([]);
  });

  test("a result over 10000 CIDRs is 400 RESULT_TOO_LARGE with no partial list", async () => {
    const exclude = Array.from({ length: 999 }, (_, i) => `${(i * 64 + 1).toString(16)}::1`);
    const response = await call(app, "POST", "/v1/cidr-subtract", { json: { include: ["::/0"], exclude } });
    expect(response.status).toBe(400);
    const body = (await jsonOf(response)) as { error: { code: string; message: string }; cidrs?: unknown };
    expect(Object.keys(body)).toEqual(["error"]);
    expect(body.error.code).toBe("RESULT_TOO_LARGE");
    expect(body.error.message).toContain("10000");
  });

  test("range endpoints: a prefix is refused on its field, a reversed range on start", async () => {
    const prefixed = await errorOf(
      await call(app, "POST", "/v1/range-to-cidrs", { json: { start: "10.0.0.0/24", end: "10.0.0.9" } }),
    );
    expect(prefixed.issues).toEqual([expect.objectContaining({ path: ["start"], field: "start" })]);
    const reversed = await errorOf(
      await call(app, "POST", "/v1/range-to-cidrs", { json: { start: "10.0.0.9", end: "10.0.0.1" } }),
    );
    expect(reversed.code).toBe("INVALID_INPUT");
    expect(reversed.issues).toEqual([expect.objectContaining({ path: ["start"], field: "start" })]);
  });
});
