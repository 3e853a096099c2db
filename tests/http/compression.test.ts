/**
 * Compressed static assets (issue 13): the page and the Swagger UI files in brotli or gzip as
 * `Accept-Encoding` allows, with `Content-Encoding`, `Vary: Accept-Encoding` and the variant's
 * `Content-Length`; every variant decodes to the identity body; HEAD sends the same headers.
 */
import { describe, expect, test } from "bun:test";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { chooseCoding } from "../../src/adapters/http/content-encoding.ts";
import { call, testApp } from "./helpers.ts";

const ASSETS = [
  "/",
  "/assets/app.js",
  "/assets/app.css",
  "/docs/assets/swagger-ui-bundle.js",
  "/docs/assets/swagger-ui.css",
];

describe("chooseCoding", () => {
  test.each([
    [null, "identity"],
    ["", "identity"],
    ["identity", "identity"],
    ["deflate", "identity"],
    ["gzip", "gzip"],
    ["GZIP", "gzip"],
    ["x-gzip", "gzip"],
    ["br", "br"],
    ["gzip, br", "br"],
    ["br, gzip", "br"],
    ["gzip, deflate, br, zstd", "br"],
    ["gzip;q=0.5, br;q=0.4", "gzip"],
    ["gzip;q=1.0, *;q=0.5", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["br;q=0.0, gzip;q=0", "identity"],
    ["*", "br"],
    ["*;q=0", "identity"],
    ["*;q=0, gzip;q=0.1", "gzip"],
    ["identity;q=0", "identity"],
    ["gzip ; q=0.8 , br ; q=0.9", "br"],
  ])("%j → %s", (header, coding) => {
    expect(chooseCoding(header)).toBe(coding as ReturnType<typeof chooseCoding>);
  });
});

describe.each(ASSETS)("%s", (path) => {
  const { app } = testApp();

  async function get(acceptEncoding?: string, method = "GET") {
    const headers: Record<string, string> =
      acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding };
    const response = await call(app, method, path, { headers });
    return { response, body: new Uint8Array(await response.arrayBuffer()) };
  }

  test("identity without Accept-Encoding; brotli and gzip decode to the same bytes", async () => {
    const plain = await get();
    expect(plain.response.status).toBe(200);
    expect(plain.response.headers.get("content-encoding")).toBeNull();
    expect(plain.response.headers.get("vary")).toContain("Accept-Encoding");
    expect(plain.response.headers.get("content-length")).toBe(String(plain.body.length));

    const br = await get("br, gzip");
    expect(br.response.headers.get("content-encoding")).toBe("br");
    expect(br.response.headers.get("vary")).toContain("Accept-Encoding");
    expect(br.response.headers.get("content-length")).toBe(String(br.body.length));
    expect(br.response.headers.get("content-type")).toBe(plain.response.headers.get("content-type"));
    expect(new Uint8Array(brotliDecompressSync(br.body))).toEqual(plain.body);
    expect(br.body.length).toBeLessThan(plain.body.length / 2);

    const gzip = await get("gzip");
    expect(gzip.response.headers.get("content-encoding")).toBe("gzip");
    expect(gzip.response.headers.get("content-length")).toBe(String(gzip.body.length));
    expect(new Uint8Array(gunzipSync(gzip.body))).toEqual(plain.body);
  });

  test("HEAD: the GET's headers for that coding and no body", async () => {
    const got = await get("gzip;q=0.5, br");
    const head = await get("gzip;q=0.5, br", "HEAD");
    expect(head.response.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.response.headers.get("content-encoding")).toBe("br");
    expect(head.response.headers.get("content-length")).toBe(String(got.body.length));
  });
});

test("a restricted CORS policy's Vary: Origin is kept beside Accept-Encoding", async () => {
  const { app } = testApp({ cors: { kind: "list", origins: new Set(["https://a.example"]) } });
  const response = await call(app, "GET", "/assets/app.js", {
    headers: { origin: "https://a.example", "accept-encoding": "br" },
  });
  const vary = (response.headers.get("vary") ?? "").split(",").map((part) => part.trim().toLowerCase());
  expect(vary).toContain("origin");
  expect(vary).toContain("accept-encoding");
});
