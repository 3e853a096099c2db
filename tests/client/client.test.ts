/**
 * The typed client against the real server process (tests/e2e/server.ts), against fake servers
 * that break the schemas, and against no server at all.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { dirname, resolve } from "node:path";
import {
  type ApiResult,
  createClient,
  DEFAULT_MAX_RESPONSE_BYTES,
  invalidResponseOf,
  isClientError,
} from "../../src/client/index.ts";
import { OPERATION_LIST, OPERATIONS } from "../../src/contract/operations.ts";
import { type RunningServer, startServer } from "../e2e/server.ts";
import { chainPem } from "../fixtures/fixtures.ts";
import { DBIP_IPV4_CLIENT } from "../fixtures/geoip/expected.ts";
import { describeHostileAnswers } from "./hostile-answers.ts";

let server: RunningServer;
const fakes: { stop(force?: boolean): unknown }[] = [];

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  for (const fake of fakes) fake.stop(true);
  await server.stop();
});

function api(options: Partial<Parameters<typeof createClient>[0]> = {}) {
  return createClient({ baseUrl: server.url, ...options });
}

/** Narrows a result to its value, failing the test with the error otherwise. */
function successValue<T>(result: ApiResult<T>): T {
  if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result)}`);
  return result.value;
}

/** A fake API on 127.0.0.1 answering every request with `respond`. */
function fakeServer(respond: (request: Request) => Response | Promise<Response>): string {
  const fake = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: respond });
  fakes.push(fake);
  return `http://127.0.0.1:${fake.port}`;
}

describe("each operation succeeds against the real server", () => {
  test("health", async () => {
    const result = await api().health();
    expect(result).toMatchObject({ ok: true, status: 200, value: { status: "ok" } });
  });

  test("cidrCover", async () => {
    const value = successValue(await api().cidrCover({ inputs: ["10.0.0.0/24", "10.0.1.7"] }));
    expect(value).toEqual({
      family: "ipv4",
      normalizedInputs: ["10.0.0.0/24", "10.0.1.7/32"],
      cidr: "10.0.0.0/23",
      range: { first: "10.0.0.0", last: "10.0.1.255" },
      inputAddressCount: "257",
      coveredAddressCount: "512",
      additionalAddressCount: "255",
    });
  });

  test("cidrSubtract", async () => {
    const value = successValue(
      await api().cidrSubtract({ include: ["10.0.0.0/8"], exclude: ["10.128.0.0/9"] }),
    );
    expect(value.cidrs).toEqual(["10.0.0.0/9"]);
    expect(value.remainingAddressCount).toBe("8388608");
  });

  test("rangeToCidrs", async () => {
    const value = successValue(await api().rangeToCidrs({ start: "2001:db8::1", end: "2001:db8::4" }));
    expect(value).toMatchObject({
      family: "ipv6",
      cidrs: ["2001:db8::1/128", "2001:db8::2/127", "2001:db8::4/128"],
    });
    expect(value.cidrCount).toBe(3);
  });

  test("certificateBundle", async () => {
    const value = successValue(
      await api().certificateBundle({ pem: chainPem("rsa-sha256"), hostname: "leaf.example.test" }),
    );
    expect(value.certificates.length).toBe(3);
    expect(value.relationships.length).toBeGreaterThan(0);
    for (const finding of value.findings) expect(["error", "warning", "info"]).toContain(finding.severity);
  });

  test("publicIp (JSON) and publicIpText", async () => {
    expect(successValue(await api().publicIp())).toEqual({ family: "ipv4", ip: "127.0.0.1" });
    expect(successValue(await api().publicIpText())).toBe("127.0.0.1");
  });

  test("a request id is sent and echoed", async () => {
    const result = await api().health({ requestId: "client-test.1" });
    expect(result.ok && result.requestId).toBe("client-test.1");
  });

  test("a base URL with a trailing slash works", async () => {
    expect((await createClient({ baseUrl: `${server.url}/` }).health()).ok).toBe(true);
  });
});

describe("server errors come back as the server's own envelope", () => {
  test("400 INVALID_INPUT with located issues", async () => {
    const result = await api().cidrCover({ inputs: ["10.0.0.1", "10.0.0.256"] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.status).toBe(400);
    expect(result.error.code).toBe("INVALID_INPUT");
    expect(isClientError(result.error)).toBe(false);
    expect(result.error.issues?.[0]).toMatchObject({ path: ["inputs", 1], index: 1 });
  });

  test("400 MIXED_ADDRESS_FAMILIES", async () => {
    const result = await api().rangeToCidrs({ start: "10.0.0.1", end: "::1" });
    expect(result).toMatchObject({ ok: false, status: 400, error: { code: "MIXED_ADDRESS_FAMILIES" } });
  });

  test("400 RESULT_TOO_LARGE", async () => {
    const exclude = Array.from({ length: 200 }, (_, i) => `${(i * 300 + 1).toString(16)}::1`);
    const result = await api().cidrSubtract({ include: ["::/0"], exclude });
    expect(result).toMatchObject({ ok: false, status: 400, error: { code: "RESULT_TOO_LARGE" } });
  });

  test("400 INVALID_INPUT for a PEM problem carries its location", async () => {
    const result = await api().certificateBundle({ pem: "hello\n" });
    expect(result).toMatchObject({ ok: false, status: 400, error: { code: "INVALID_INPUT" } });
    if (result.ok) return;
    expect(result.error.issues?.[0]?.location).toEqual({ line: 1, offset: 0, end: 5 });
  });

  test("400 INVALID_JSON (a fetch that corrupts the body)", async () => {
    const corrupt = (request: Request) => fetch(new Request(request, { body: "{" }));
    const result = await api({ fetch: corrupt }).cidrCover({ inputs: ["10.0.0.1"] });
    expect(result).toMatchObject({ ok: false, status: 400, error: { code: "INVALID_JSON" } });
  });

  test("413 PAYLOAD_TOO_LARGE (a body over 64 KiB)", async () => {
    const result = await api().certificateBundle({ pem: "A".repeat(70_000) });
    expect(result).toMatchObject({ ok: false, status: 413, error: { code: "PAYLOAD_TOO_LARGE" } });
  });

  test("415 UNSUPPORTED_MEDIA_TYPE (a fetch that changes the media type)", async () => {
    const asText = (request: Request) => {
      const headers = new Headers(request.headers);
      headers.set("content-type", "text/plain");
      return fetch(new Request(request, { headers }));
    };
    const result = await api({ fetch: asText }).cidrCover({ inputs: ["10.0.0.1"] });
    expect(result).toMatchObject({ ok: false, status: 415, error: { code: "UNSUPPORTED_MEDIA_TYPE" } });
  });

  test("405 METHOD_NOT_ALLOWED (a fetch that changes the method)", async () => {
    const asPut = (request: Request) => fetch(new Request(request, { method: "PUT" }));
    const result = await api({ fetch: asPut }).cidrCover({ inputs: ["10.0.0.1"] });
    expect(result).toMatchObject({ ok: false, status: 405, error: { code: "METHOD_NOT_ALLOWED" } });
  });

  test("404 NOT_FOUND (a base URL with a path the server does not have)", async () => {
    const result = await createClient({ baseUrl: `${server.url}/nowhere` }).health();
    expect(result).toMatchObject({ ok: false, status: 404, error: { code: "NOT_FOUND" } });
  });
});

describe("a response that does not match the schemas is INVALID_RESPONSE", () => {
  test("a 200 body of the wrong shape names what did not match", async () => {
    const url = fakeServer(() =>
      Response.json({ family: "ipv5", normalizedInputs: [], cidr: "x", range: {}, inputAddressCount: "01" }),
    );
    const result = await createClient({ baseUrl: url }).cidrCover({ inputs: ["10.0.0.1"] });
    const error = invalidResponseOf(result);
    if (error === null) throw new Error(`expected INVALID_RESPONSE, got ${JSON.stringify(result)}`);
    expect(result.status).toBe(200);
    const paths = error.issues.map((issue) => issue.path.join("/"));
    expect(paths).toContain("family");
    expect(paths).toContain("normalizedInputs");
    expect(paths).toContain("inputAddressCount");
    expect(paths).toContain("coveredAddressCount");
    expect(isClientError(error)).toBe(true);
  });

  test("an extra field is a mismatch too", async () => {
    const url = fakeServer(() => Response.json({ status: "ok", extra: 1 }));
    const result = await createClient({ baseUrl: url }).health();
    expect(result).toMatchObject({ ok: false, status: 200, error: { code: "INVALID_RESPONSE" } });
  });

  test("a body that is not JSON", async () => {
    const url = fakeServer(
      () => new Response("{not json", { headers: { "content-type": "application/json" } }),
    );
    const result = await createClient({ baseUrl: url }).health();
    expect(result).toMatchObject({ ok: false, error: { code: "INVALID_RESPONSE" } });
  });

  test("a body of another media type", async () => {
    const url = fakeServer(() => new Response("<html></html>", { headers: { "content-type": "text/html" } }));
    const result = await createClient({ baseUrl: url }).health();
    expect(result).toMatchObject({ ok: false, error: { code: "INVALID_RESPONSE" } });
  });

  test("an error status without a valid envelope", async () => {
    const url = fakeServer(() => Response.json({ message: "boom" }, { status: 502 }));
    const result = await createClient({ baseUrl: url }).health();
    expect(result).toMatchObject({ ok: false, status: 502, error: { code: "INVALID_RESPONSE" } });
  });

  test("an error status with a plain-text body (a proxy's error page)", async () => {
    const url = fakeServer(() => new Response("Bad Gateway", { status: 502 }));
    const result = await createClient({ baseUrl: url }).cidrCover({ inputs: ["10.0.0.1"] });
    expect(result).toMatchObject({ ok: false, status: 502, error: { code: "INVALID_RESPONSE" } });
  });

  test("a public IP that is not an address", async () => {
    const url = fakeServer((request) =>
      request.headers.get("accept") === "text/plain"
        ? new Response("not-an-ip\n", { headers: { "content-type": "text/plain; charset=utf-8" } })
        : Response.json({ family: "ipv4", ip: "::1" }),
    );
    const client = createClient({ baseUrl: url });
    expect(await client.publicIp()).toMatchObject({ ok: false, error: { code: "INVALID_RESPONSE" } });
    expect(await client.publicIpText()).toMatchObject({ ok: false, error: { code: "INVALID_RESPONSE" } });
  });

  test("public-ip's network facts are checked when present (CONTRACT §8.10)", async () => {
    const base = { family: "ipv4", ip: "198.51.100.23" };
    const enriched = DBIP_IPV4_CLIENT;
    let answer: unknown = enriched;
    const client = createClient({ baseUrl: fakeServer(() => Response.json(answer)) });
    expect(await client.publicIp()).toMatchObject({ ok: true, value: enriched });
    for (const [wrong, path] of [
      [{ ...base, asn: "64500" }, "asn"],
      [{ ...base, asn: -1 }, "asn"],
      [{ ...base, asnOrg: null }, "asnOrg"],
      [{ ...base, country: null }, "country"],
      [{ ...base, attribution: "Data from somewhere" }, "attribution"],
    ] as const) {
      answer = wrong;
      const result = await client.publicIp();
      expect(invalidResponseOf(result)?.issues.map((issue) => issue.path.join("/"))).toContain(path);
    }
  });

  test("a databases list with an unknown variable or a bad date", async () => {
    const entry = {
      variable: "GEOIP_ASN_DB",
      databaseType: "DBIP-ASN-Lite (compat=GeoLite2-ASN)",
      buildDate: "2026-08-01T00:00:00Z",
      ipVersion: 6,
      attribution: null,
    };
    let answer: unknown = { databases: [entry] };
    const client = createClient({ baseUrl: fakeServer(() => Response.json(answer)) });
    expect(await client.publicIpDatabases()).toMatchObject({ ok: true, value: { databases: [entry] } });
    for (const wrong of [
      { ...entry, variable: "GEOIP_CITY_DB" },
      { ...entry, buildDate: "yesterday" },
      { ...entry, ipVersion: 5 },
    ]) {
      answer = { databases: [wrong] };
      expect(await client.publicIpDatabases()).toMatchObject({
        ok: false,
        error: { code: "INVALID_RESPONSE" },
      });
    }
  });

  test("a certificate result with a malformed fingerprint", async () => {
    const good = successValue(await api().certificateBundle({ pem: chainPem("rsa-sha256") }));
    const broken = structuredClone(good);
    broken.certificates[1]!.fingerprintSha256 = "not-a-fingerprint";
    const url = fakeServer(() => Response.json(broken));
    const result = await createClient({ baseUrl: url }).certificateBundle({ pem: "x" });
    expect(invalidResponseOf(result)?.issues[0]?.path).toEqual(["certificates", 1, "fingerprintSha256"]);
  });
});

describe("no response is NETWORK_ERROR", () => {
  test("a closed port", async () => {
    const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const port = probe.port;
    probe.stop(true);
    const result = await createClient({ baseUrl: `http://127.0.0.1:${port}` }).health();
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.status).toBeUndefined();
    expect(result.error.code).toBe("NETWORK_ERROR");
    expect(result.error.message).toContain(`127.0.0.1:${port}`);
  });

  test("a server that never answers, within the timeout", async () => {
    const url = fakeServer(() => new Promise<Response>(() => {}));
    const started = performance.now();
    const result = await createClient({ baseUrl: url, timeoutMs: 200 }).health();
    expect(performance.now() - started).toBeLessThan(3000);
    expect(result).toMatchObject({ ok: false, error: { code: "NETWORK_ERROR" } });
    if (!result.ok) expect(result.error.message).toContain("time limit");
  });

  test("a body that stalls after the headers, within the timeout", async () => {
    const url = fakeServer(
      () =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('{"status":'));
            },
          }),
          { headers: { "content-type": "application/json" } },
        ),
    );
    const result = await createClient({ baseUrl: url, timeoutMs: 300 }).health();
    expect(result).toMatchObject({ ok: false, error: { code: "NETWORK_ERROR" } });
  });

  test("an aborted call", async () => {
    const url = fakeServer(() => new Promise<Response>(() => {}));
    const controller = new AbortController();
    const pending = createClient({ baseUrl: url }).health({ signal: controller.signal });
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: { code: "NETWORK_ERROR" } });
  });

  test("a fetch that throws", async () => {
    const failing = () => Promise.reject(new TypeError("boom"));
    const result = await createClient({ baseUrl: "http://127.0.0.1:1", fetch: failing }).health();
    expect(result).toMatchObject({ ok: false, error: { code: "NETWORK_ERROR" } });
  });
});

describe("packaging", () => {
  const ROOT = resolve(import.meta.dir, "../..");

  test("the client's module graph holds no Elysia, no server module, no Bun or Node API", async () => {
    const transpiler = new Bun.Transpiler({ loader: "ts" });
    const seen = new Set<string>();
    const bare = new Set<string>();
    const visit = async (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = await Bun.file(file).text();
      expect(source).not.toMatch(/\bBun\.|\bprocess\.|\brequire\(/);
      for (const { path } of transpiler.scanImports(source)) {
        if (path.startsWith(".")) await visit(resolve(dirname(file), path));
        else bare.add(path);
      }
    };
    await visit(`${ROOT}/src/client/index.ts`);
    for (const specifier of bare) expect(specifier).toMatch(/^@sinclair\/typebox(\/|$)/);
    for (const file of seen) {
      const relative = file.slice(ROOT.length + 1);
      // The wire contract: src/contract/ and the operations' rows with their table (ADR 0059).
      expect(relative).toMatch(
        /^src\/(client\/|domain\/|contract\/|operations\/table\.ts$|operations\/[a-z-]+\/row\.ts$)/,
      );
    }
  });

  test("it bundles for the browser", async () => {
    const build = await Bun.build({ entrypoints: [`${ROOT}/src/client/index.ts`], target: "browser" });
    expect(build.success).toBe(true);
  });
});

describe("derived from the operations table", () => {
  test("the client has one method per operation, named by its id", () => {
    const client = createClient({ baseUrl: "http://127.0.0.1:9" });
    for (const id of Object.keys(OPERATIONS)) {
      expect(typeof (client as unknown as Record<string, unknown>)[id]).toBe("function");
    }
  });

  test("each call uses its operation's method, path and media type, for every row", async () => {
    const seen: string[] = [];
    const client = createClient({
      baseUrl: "http://api.test",
      fetch: async (request) => {
        seen.push(`${request.method} ${new URL(request.url).pathname} ${request.headers.get("accept")}`);
        return new Response("{}", { status: 500, headers: { "content-type": "application/json" } });
      },
    });
    const methods = client as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const expected: string[] = [];
    for (const operation of OPERATION_LIST) {
      const call = methods[operation.id];
      if (call === undefined) throw new Error(`no client method ${operation.id}`);
      await (operation.request === null ? call() : call({}));
      const accept = operation.policy.representation === "text" ? "text/plain" : "application/json";
      expected.push(`${operation.method} ${operation.path} ${accept}`);
      if (operation.policy.representation === "json-or-text") {
        const text = methods[`${operation.id}Text`];
        if (text === undefined) throw new Error(`no client method ${operation.id}Text`);
        await text();
        expected.push(`${operation.method} ${operation.path} text/plain`);
      }
    }
    expect(seen).toEqual(expected);
  });
});

describeHostileAnswers("the source client", () => import("../../src/client/index.ts"));

describe("the answers the real server gives fit the client's limits", () => {
  test("a body rejected for its __proto__ field comes back with that issue", async () => {
    const body = JSON.parse('{"inputs":["10.0.0.1"],"__proto__":{"x":1}}') as { inputs: string[] };
    const result = await api().cidrCover(body);
    expect(result).toMatchObject({ ok: false, status: 400, error: { code: "INVALID_INPUT" } });
    if (!result.ok) expect(result.error.issues?.map((issue) => issue.path)).toEqual([["__proto__"]]);
  });

  test("the largest answers (lists of about 10000 IPv6 CIDRs) are read whole, far under the default limit", async () => {
    // 8192 subnets of 43-character CIDRs, and a subtraction that leaves 9,000-odd scattered blocks.
    const split = successValue(
      await api().cidrSplit({ cidr: "ffff:ffff:ffff:ffff:ffff:ffff:ffff:0/115", prefixLength: 128 }),
    );
    expect(split.cidrs).toHaveLength(8192);
    const exclude = Array.from(
      { length: 400 },
      (_, i) =>
        `ffff:ffff:ffff:ffff:ffff:ffff:${((i * 131) % 65536).toString(16)}:${((i * 7919) % 65536).toString(16)}`,
    );
    const subtracted = successValue(
      await api().cidrSubtract({ include: ["ffff:ffff:ffff:ffff:ffff:ffff::/96"], exclude }),
    );
    const size = JSON.stringify(subtracted).length;
    expect(subtracted.cidrs.length).toBeGreaterThan(9_000);
    expect(size).toBeGreaterThan(400_000);
    // The bound of any list answer: 10000 CIDRs of at most 43 characters, quoted, comma-separated.
    const longest = `${"ffff:".repeat(7)}ffff/128`;
    expect(longest).toHaveLength(43);
    const bound = 10_000 * (longest.length + 3) + 1_000;
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBeGreaterThanOrEqual(8 * bound);
  });
});
