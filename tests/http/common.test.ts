/**
 * CONTRACT §1: the HTTP rules every endpoint shares, one test per row, through app.handle.
 */
import { describe, expect, test } from "bun:test";
import { MORE_ISSUES_OMITTED } from "../../src/contract/envelope.ts";
import { MAX_BODY_BYTES } from "../../src/domain/limits.ts";
import { call, errorOf, jsonOf, testApp } from "./helpers.ts";

const { app } = testApp();
const RANGE = { start: "10.0.0.0", end: "10.0.0.255" };

describe("routing", () => {
  test("an unknown path is 404 NOT_FOUND with the envelope", async () => {
    const response = await call(app, "GET", "/v1/nothing-here");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toStartWith("application/json");
    const body = (await jsonOf(response)) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(["error"]);
    expect(await errorOf(await call(app, "POST", "/v2/cidr-cover", { json: {} }))).toMatchObject({
      code: "NOT_FOUND",
    });
  });

  test("a known path with the wrong method is 405 with Allow", async () => {
    const get = await call(app, "GET", "/v1/cidr-cover");
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST, OPTIONS");
    expect((await errorOf(get)).code).toBe("METHOD_NOT_ALLOWED");

    const del = await call(app, "DELETE", "/v1/health");
    expect(del.status).toBe(405);
    expect(del.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    const post = await call(app, "POST", "/v1/health", { json: {} });
    expect(post.status).toBe(405);
  });

  test("OPTIONS on a known path is a 204 CORS preflight", async () => {
    const response = await call(app, "OPTIONS", "/v1/range-to-cidrs", {
      headers: { origin: "https://example.com", "access-control-request-method": "POST" },
    });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-methods")).toBe("POST, OPTIONS");
    expect(response.headers.get("access-control-allow-headers")).toBe("Content-Type, X-Request-Id");
    expect(response.headers.get("access-control-max-age")).toBe("86400");
    expect(response.headers.get("x-request-id")).toBeTruthy();
  });

  test("OPTIONS on an unknown path is 404", async () => {
    const response = await call(app, "OPTIONS", "/v1/unknown");
    expect(response.status).toBe(404);
    expect((await errorOf(response)).code).toBe("NOT_FOUND");
  });

  test("GET /v1/health answers ok, HEAD answers without a body", async () => {
    const response = await call(app, "GET", "/v1/health");
    expect(response.status).toBe(200);
    expect(await jsonOf(response)).toEqual({ status: "ok" });
    const head = await call(app, "HEAD", "/v1/health");
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });
});

describe("body size", () => {
  test("a declared Content-Length over the limit is 413 before the body is read", async () => {
    let pulled = false;
    const stream = new ReadableStream(
      {
        pull(controller) {
          pulled = true;
          controller.enqueue(new TextEncoder().encode("{}"));
          controller.close();
        },
      },
      { highWaterMark: 0 },
    );
    const response = await call(app, "POST", "/v1/cidr-cover", {
      body: stream,
      headers: { "content-type": "application/json", "content-length": String(MAX_BODY_BYTES + 1) },
    });
    expect(response.status).toBe(413);
    expect((await errorOf(response)).code).toBe("PAYLOAD_TOO_LARGE");
    expect(pulled).toBe(false);
  });

  test("a chunked body growing past the limit is 413 and reading stops there", async () => {
    let sent = 0;
    const chunk = new Uint8Array(8192).fill(0x20);
    const stream = new ReadableStream({
      pull(controller) {
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const response = await call(app, "POST", "/v1/cidr-cover", {
      body: stream,
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(413);
    expect((await errorOf(response)).code).toBe("PAYLOAD_TOO_LARGE");
    expect(sent).toBeLessThan(MAX_BODY_BYTES + 4 * chunk.byteLength);
  });

  test("a body of exactly the limit is read", async () => {
    const json = JSON.stringify(RANGE);
    const padded = json + " ".repeat(MAX_BODY_BYTES - json.length);
    const response = await call(app, "POST", "/v1/range-to-cidrs", {
      body: padded,
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(200);
  });
});

describe("media type", () => {
  test.each([
    ["text/plain", "text/plain"],
    ["missing", undefined],
    ["a look-alike", "application/jsonx"],
    ["form data", "application/x-www-form-urlencoded"],
  ])("%s is 415 UNSUPPORTED_MEDIA_TYPE", async (_name, contentType) => {
    const headers: Record<string, string> = {};
    if (contentType !== undefined) headers["content-type"] = contentType;
    const response = await call(app, "POST", "/v1/range-to-cidrs", { body: JSON.stringify(RANGE), headers });
    expect(response.status).toBe(415);
    expect((await errorOf(response)).code).toBe("UNSUPPORTED_MEDIA_TYPE");
  });

  test.each(["APPLICATION/JSON", "application/json; charset=utf-8", "Application/Json ;charset=UTF-8"])(
    "%s is accepted",
    async (contentType) => {
      const response = await call(app, "POST", "/v1/range-to-cidrs", {
        body: JSON.stringify(RANGE),
        headers: { "content-type": contentType },
      });
      expect(response.status).toBe(200);
    },
  );
});

describe("JSON", () => {
  test.each([
    ["empty", ""],
    ["truncated", '{"start":"10.0.0.0"'],
    ["single quotes", "{'start':'10.0.0.0'}"],
    ["trailing garbage", '{"start":"1.1.1.1","end":"1.1.1.1"} x'],
  ])("%s body is 400 INVALID_JSON", async (_name, body) => {
    const response = await call(app, "POST", "/v1/range-to-cidrs", {
      body,
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe("INVALID_JSON");
  });

  test("invalid UTF-8 is 400 INVALID_JSON", async () => {
    const bytes = new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]);
    const response = await call(app, "POST", "/v1/range-to-cidrs", {
      body: bytes,
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe("INVALID_JSON");
  });
});

describe("input validation", () => {
  test.each([
    ["an array", []],
    ["a number", 42],
    ["null", null],
    ["a string", "10.0.0.0"],
  ])("a body that is %s is INVALID_INPUT at the root", async (_name, json) => {
    const response = await call(app, "POST", "/v1/range-to-cidrs", { json });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.issues?.[0]?.path).toEqual([]);
  });

  test("a missing field is reported at its path with its field locator", async () => {
    const error = await errorOf(
      await call(app, "POST", "/v1/range-to-cidrs", { json: { start: "10.0.0.0" } }),
    );
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.issues).toEqual([{ message: '"end" is required.', path: ["end"], field: "end" }]);
    expect(error.message).toBe('"end" is required.');
  });

  test("every problem is reported, each with a path and its legacy locator", async () => {
    const error = await errorOf(
      await call(app, "POST", "/v1/cidr-subtract", {
        json: { include: ["10.0.0.0/8", 7], exclude: [""], extra: true },
      }),
    );
    expect(error.code).toBe("INVALID_INPUT");
    const paths = (error.issues ?? []).map((issue) => issue.path);
    expect(paths).toContainEqual(["include", 1]);
    expect(paths).toContainEqual(["exclude", 0]);
    expect(paths).toContainEqual(["extra"]);
    expect(error.issues).toContainEqual(
      expect.objectContaining({ path: ["include", 1], list: "include", index: 1 }),
    );
  });

  test.each(["__proto__", "constructor", "prototype"])(
    "an unknown %s key is rejected and pollutes nothing",
    async (key) => {
      const body = `{"start":"10.0.0.0","end":"10.0.0.1","${key}":{"polluted":true}}`;
      const response = await call(app, "POST", "/v1/range-to-cidrs", {
        body,
        headers: { "content-type": "application/json" },
      });
      expect(response.status).toBe(400);
      const error = await errorOf(response);
      expect(error.code).toBe("INVALID_INPUT");
      expect(error.issues).toContainEqual(expect.objectContaining({ path: [key] }));
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    },
  );

  test("wrong types are INVALID_INPUT, integers are never read from strings", async () => {
    const error = await errorOf(
      await call(app, "POST", "/v1/cidr-cover", { json: { inputs: "10.0.0.0/8" } }),
    );
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.issues?.[0]?.path).toEqual(["inputs"]);
  });

  test("more than 100 issues are capped and the message says more were omitted", async () => {
    const inputs = Array.from({ length: 150 }, (_, i) => `10.0.0.${256 + i}`);
    const error = await errorOf(await call(app, "POST", "/v1/cidr-cover", { json: { inputs } }));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.issues).toHaveLength(100);
    expect(error.message).toBe(MORE_ISSUES_OMITTED);
  });
});

describe("order of checks: route, method, size, media type, JSON, input", () => {
  test("unknown route wins over everything", async () => {
    const response = await call(app, "POST", "/v1/nope", {
      body: "x",
      headers: { "content-type": "text/plain", "content-length": "999999" },
    });
    expect(response.status).toBe(404);
  });
  test("method wins over size and media type", async () => {
    const response = await call(app, "PUT", "/v1/cidr-cover", {
      body: "x",
      headers: { "content-type": "text/plain", "content-length": "999999" },
    });
    expect(response.status).toBe(405);
  });
  test("size wins over media type", async () => {
    const response = await call(app, "POST", "/v1/cidr-cover", {
      body: "x".repeat(MAX_BODY_BYTES + 1),
      headers: { "content-type": "text/plain" },
    });
    expect(response.status).toBe(413);
  });
  test("media type wins over JSON", async () => {
    const response = await call(app, "POST", "/v1/cidr-cover", {
      body: "{",
      headers: { "content-type": "text/plain" },
    });
    expect(response.status).toBe(415);
  });
  test("JSON wins over input", async () => {
    const response = await call(app, "POST", "/v1/cidr-cover", {
      body: "[",
      headers: { "content-type": "application/json" },
    });
    expect((await errorOf(response)).code).toBe("INVALID_JSON");
  });
});

describe("unexpected failures", () => {
  test("a thrown error is a generic 500 envelope, no stack, and the app keeps serving", async () => {
    // A decoder that throws (never expected of a port) stands for any unexpected failure.
    const { app: failing, logger } = testApp({
      decoder: {
        decode: () => {
          throw new TypeError("secret detail 10.9.8.7");
        },
        decodeRequest: () => {
          throw new TypeError("secret detail 10.9.8.7");
        },
      },
    });
    const response = await call(failing, "POST", "/v1/certificate-bundle", {
      json: { pem: "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n" },
    });
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain("secret");
    expect(text).not.toContain("at ");
    expect(JSON.parse(text).error.code).toBe("INTERNAL_ERROR");
    expect(JSON.stringify(logger.records)).not.toContain("secret");
    expect(logger.records).toContainEqual(
      expect.objectContaining({ level: "error", errorName: "TypeError" }),
    );
    expect((await call(failing, "GET", "/v1/health")).status).toBe(200);
  });
});

describe("headers on every response", () => {
  test("nosniff, JSON content type, CORS and a request id", async () => {
    for (const response of [
      await call(app, "GET", "/v1/health"),
      await call(app, "GET", "/nowhere"),
      await call(app, "POST", "/v1/range-to-cidrs", { json: RANGE }),
    ]) {
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("content-type")).toBe("application/json");
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      expect(response.headers.get("x-request-id")).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
    }
  });

  test("a well-formed caller request id is echoed; others are replaced", async () => {
    const good = "req_01.abc-DEF";
    expect(
      (await call(app, "GET", "/v1/health", { headers: { "x-request-id": good } })).headers.get(
        "x-request-id",
      ),
    ).toBe(good);
    for (const bad of ["a b", "x".repeat(129), "<script>", "é"]) {
      const echoed = (await call(app, "GET", "/v1/health", { headers: { "x-request-id": bad } })).headers.get(
        "x-request-id",
      );
      expect(echoed).not.toBe(bad);
      expect(echoed).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
    }
  });

  test("CORS_ORIGINS list echoes only listed origins; off sends no CORS headers", async () => {
    const listed = testApp({ cors: { kind: "list", origins: new Set(["https://ok.example"]) } }).app;
    const ok = await call(listed, "GET", "/v1/health", { headers: { origin: "https://ok.example" } });
    expect(ok.headers.get("access-control-allow-origin")).toBe("https://ok.example");
    expect(ok.headers.get("vary")).toContain("Origin");
    const other = await call(listed, "GET", "/v1/health", { headers: { origin: "https://evil.example" } });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();

    const off = testApp({ cors: { kind: "off" } }).app;
    expect((await call(off, "GET", "/v1/health")).headers.get("access-control-allow-origin")).toBeNull();
    const preflight = await call(off, "OPTIONS", "/v1/health");
    expect(preflight.headers.get("access-control-allow-methods")).toBeNull();
  });
});

describe("access log", () => {
  test("one line per request with the fixed fields and no body", async () => {
    const { app: logged, logger } = testApp();
    await call(logged, "POST", "/v1/range-to-cidrs", { json: { start: "192.0.2.10", end: "192.0.2.20" } });
    await Bun.sleep(5);
    const line = logger.records.find((record) => record.msg === "request");
    expect(line).toMatchObject({ level: "info", method: "POST", route: "/v1/range-to-cidrs", status: 200 });
    expect(typeof line?.durationMs).toBe("number");
    expect(typeof line?.requestId).toBe("string");
    expect(JSON.stringify(logger.records)).not.toContain("192.0.2");
  });
});
