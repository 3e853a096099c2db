/**
 * One test per bug the hardening work found (docs/reliability.md, "Bugs found and fixed") that
 * the fuzz and corpus tables do not already pin by name.
 */
import { describe, expect, test } from "bun:test";
import { MAX_JSON_DEPTH } from "../../src/adapters/http/json-body.ts";
import { call, errorOf, testApp } from "../http/helpers.ts";
import { nestingExceeds } from "../support/json-body-model.ts";

const { app, logger } = testApp();

describe("hardening regressions", () => {
  test('an empty field name is reported at the object holding it, not as path [""]', async () => {
    const response = await call(app, "POST", "/v1/range-to-cidrs", {
      body: '{"start":"10.0.0.1","end":"10.0.0.2","":1}',
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.issues).toEqual([{ message: 'Unknown field "" is not allowed.', path: [] }]);
  });

  test("paths are exact: a trailing slash is 404 for every method", async () => {
    for (const method of ["GET", "HEAD", "POST", "DELETE", "OPTIONS"]) {
      for (const path of ["/v1/public-ip/", "/v1/health/", "/v1/cidr-cover/", "/docs/"]) {
        const response = await call(app, method, path);
        expect({ method, path, status: response.status }).toEqual({ method, path, status: 404 });
      }
    }
    // no address is ever served from an alias path without the endpoint's no-store header
    expect((await errorOf(await call(app, "GET", "/v1/public-ip/"))).code).toBe("NOT_FOUND");
  });

  test("a known path with a method it does not take is 405 with Allow, decided before routing", async () => {
    const response = await call(app, "PATCH", "/v1/public-ip");
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  test("a body that breaks off mid-way is INVALID_JSON, not an unexpected error", async () => {
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue(new TextEncoder().encode('{"inputs":["10.0.'));
        } else controller.error(new Error("connection reset"));
      },
    });
    const response = await call(app, "POST", "/v1/cidr-cover", {
      body,
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toEqual({
      code: "INVALID_JSON",
      message: "The request body ended before it was complete.",
    });
    await Bun.sleep(20);
    expect(logger.records.filter((r) => r.level === "error")).toEqual([]);
  });

  test("the model's nesting check is iterative and exact at the limit", () => {
    let value: unknown = "x";
    for (let i = 0; i < MAX_JSON_DEPTH; i++) value = [value];
    expect(nestingExceeds(value, MAX_JSON_DEPTH)).toBe(false);
    expect(nestingExceeds([value], MAX_JSON_DEPTH)).toBe(true);
    let deep: unknown = {};
    for (let i = 0; i < 200_000; i++) deep = { a: deep };
    expect(nestingExceeds(deep, MAX_JSON_DEPTH)).toBe(true);
    expect(nestingExceeds({ a: 1, b: [1, 2, { c: null }] }, MAX_JSON_DEPTH)).toBe(false);
  });
});
