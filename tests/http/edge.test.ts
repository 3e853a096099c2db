/**
 * The application through `app.handle`: routing by path alone (CONTRACT §1.6), bounded
 * validation (§1.7) and the operations table as the one source of routes.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { pathOf } from "../../src/adapters/http/application.ts";
import {
  issuesFromSchemaFailures,
  MORE_ISSUES_OMITTED,
  type SchemaFailure,
} from "../../src/contract/envelope.ts";
import { OPERATION_LIST } from "../../src/contract/operations.ts";
import { errorOf, testApp } from "./helpers.ts";

const { app } = testApp();

describe("routing follows the path alone, whatever the host (CONTRACT §1.6)", () => {
  const hosts = [
    "http://api",
    "http://a",
    "http://api:80",
    "http://localhost",
    "http://[::1]:8080",
    "http://x.y",
  ];
  test.each(hosts)("%s: every endpoint behaves as with localhost", async (origin) => {
    const health = await app.handle(new Request(`${origin}/v1/health`));
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    const cover = await app.handle(
      new Request(`${origin}/v1/cidr-cover?x=1`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"inputs":["10.0.0.1"]}',
      }),
    );
    expect(cover.status).toBe(200);
    const missing = await app.handle(new Request(`${origin}/health`));
    expect(missing.status).toBe(404);
    expect((await errorOf(missing)).message).toBe("No endpoint exists at /health.");
    const wrong = await app.handle(new Request(`${origin}/v1/cidr-cover`));
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("POST, OPTIONS");
  });

  test.each([
    ["http://api/v1/health", "/v1/health"],
    ["http://a/v1/health?x=1", "/v1/health"],
    ["http://api:80/", "/"],
    ["http://a", "/"],
    ["/v1/health", "/v1/health"],
    ["/v1/health?q", "/v1/health"],
    ["http://[::1]:3000/docs/json", "/docs/json"],
  ])("pathOf(%s) = %s", (url, path) => {
    expect(pathOf(url)).toBe(path);
  });
});

describe("dot segments route the same with and without a Host (CONTRACT §1.6)", () => {
  /** RFC 3986 §5.2.4 remove_dot_segments on a path of segments, with `%2e` read as `.` (WHATWG). */
  function removeDotSegments(target: string): string {
    const segments = target.slice(1).split("/");
    const output: string[] = [];
    segments.forEach((segment, index) => {
      const last = index === segments.length - 1;
      const plain = segment.toLowerCase().replaceAll("%2e", ".");
      if (plain === "." || plain === "..") {
        if (plain === "..") output.pop();
        if (last) output.push("");
      } else output.push(segment);
    });
    return `/${output.join("/")}`;
  }

  test.each([
    ["/v1/x/../health", "/v1/health"],
    ["/v1/./health", "/v1/health"],
    ["/v1/x/%2e%2e/health", "/v1/health"],
    ["/v1/x/.%2E/health?q=/../x", "/v1/health"],
    ["/../../v1/health", "/v1/health"],
    ["/v1/health/..", "/v1/"],
    ["/v1/x\\..\\health", "/v1/health"],
    ["/v1/x/..%2fhealth", "/v1/x/..%2fhealth"],
    ["//elsewhere/v1/health", "//elsewhere/v1/health"],
  ])("a raw target %s routes as %s, as Bun resolves it with a Host", (target, path) => {
    expect(pathOf(target)).toBe(path);
    expect(pathOf(new URL(`http://a${target}`).href)).toBe(path);
  });

  test("property: a raw target's path is the RFC 3986 resolution of its dot segments", () => {
    const segment = fc.constantFrom("v1", "x", "health", ".", "..", "%2e", "%2E%2e", ".%2e", "%2e.", "");
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 8 }), (segments) => {
        const target = `/${segments.join("/")}`;
        expect(pathOf(target)).toBe(removeDotSegments(target));
      }),
    );
  });

  test("a raw dot-segment target (no Host) is served by the route it resolves to", async () => {
    for (const [method, target, status] of [
      ["GET", "/v1/x/../health", 200],
      ["GET", "/v1/./health", 200],
      ["POST", "/v1/x/../cidr-cover", 200],
      ["GET", "/v1/x/../cidr-cover", 405],
      ["GET", "/v1/x/../nope", 404],
    ] as const) {
      const request = new Request("http://localhost/unused", {
        method,
        ...(method === "POST"
          ? { headers: { "content-type": "application/json" }, body: '{"inputs":["10.0.0.1"]}' }
          : {}),
      });
      // What Bun hands over for a request without a usable Host: the raw target as the URL.
      Object.defineProperty(request, "url", { value: target });
      const response = await app.handle(request);
      expect(response.status).toBe(status);
      if (status === 404) expect((await errorOf(response)).message).toBe("No endpoint exists at /v1/nope.");
    }
  });
});

describe("the operations table is the one source of the API's routes", () => {
  test("every operation is routed with its method, and nothing else under /v1", () => {
    const routed = app.routes.filter((route) => route.path.startsWith("/v1/"));
    expect(routed.map((route) => `${route.method} ${route.path}`).sort()).toEqual(
      OPERATION_LIST.map((operation) => `${operation.method} ${operation.path}`).sort(),
    );
  });

  test("policies become headers: no-store where the table says so, and only there", async () => {
    for (const operation of OPERATION_LIST) {
      const response = await app.handle(
        new Request(`http://localhost${operation.path}`, {
          method: operation.method === "GET" ? "POST" : "GET",
        }),
      );
      expect(response.status).toBe(405);
      expect(response.headers.get("cache-control")).toBe(operation.policy.noStore ? "no-store" : null);
    }
  });
});

describe("validation stops at 101 problems (CONTRACT §1.7)", () => {
  test("the failure iterator is read no further than 101 distinct issues", () => {
    let pulled = 0;
    function* failures(): Generator<SchemaFailure> {
      for (let i = 0; i < 1_000_000; i++) {
        pulled++;
        yield { path: `/inputs/${i}`, message: "Expected string" };
      }
    }
    const issues = issuesFromSchemaFailures(failures());
    expect(issues).toHaveLength(101);
    expect(pulled).toBe(101);
  });

  test("a missing field is reported once, as required", () => {
    const issues = issuesFromSchemaFailures([
      { path: "/start", message: "Expected required property" },
      { path: "/start", message: "Expected string" },
    ]);
    expect(issues).toEqual([{ message: '"start" is required.', path: ["start"], field: "start" }]);
  });

  test("a body of 32,000 wrong values: 100 issues and a message that says more were omitted", async () => {
    const zeros = Array(16_000).fill(0);
    const response = await app.handle(
      new Request("http://localhost/v1/cidr-subtract", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ include: zeros, exclude: zeros }),
      }),
    );
    const error = await errorOf(response);
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.issues).toHaveLength(100);
    expect(error.message).toBe(MORE_ISSUES_OMITTED);
  });
});
