/**
 * The OpenAPI document served at /docs/json (issue 5):
 * - it is valid OpenAPI 3.1 (a real validator library) and every schema in it is valid
 *   JSON Schema 2020-12 under strict Ajv;
 * - it is complete: every operation the app routes, derived from the routes themselves, with
 *   its request body, its success schema and every error status of its kind;
 * - its examples are real: each one is replayed against the running server and must come back
 *   exactly as documented;
 * - contract: real responses, success and every error status, validate against the
 *   document's schema for that operation and status, headers included.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Value } from "@sinclair/typebox/value";
import { DerCertificateDecoder } from "../../src/adapters/crypto/decoder.ts";
import { NodeSignatureVerifier } from "../../src/adapters/crypto/verifier.ts";
import { DOCS_JSON_PATH, DOCS_PATHS } from "../../src/adapters/http/docs.ts";
import { RateLimiter } from "../../src/adapters/http/rate-limit.ts";
import { OPERATION_LIST, schemaNamesOf } from "../../src/contract/operations.ts";
import { PublicIpResult } from "../../src/contract/schemas.ts";
import { MAX_BODY_BYTES } from "../../src/domain/limits.ts";
import { OPERATION_DOCS } from "../../src/operations/docs.ts";
import { type RunningServer, startServer } from "../e2e/server.ts";
import { fixedClientAddress } from "../fakes/client-address.ts";
import { fixedClock } from "../fakes/clock.ts";
import { DBIP_FILES } from "../fixtures/geoip/expected.ts";
import { call, testApp } from "../http/helpers.ts";
import {
  apiOperations,
  checkResponse,
  type Document,
  type DocumentValidator,
  documentValidator,
  pointer,
  resolve,
} from "./document.ts";

/** The operations table's row of a documented operation (`METHOD /path`). */
function rowOf(key: string) {
  const row = OPERATION_LIST.find((candidate) => `${candidate.method} ${candidate.path}` === key);
  if (row === undefined) throw new Error(`no row for ${key}`);
  return row;
}

type JsonObject = Record<string, unknown>;
const DECIMAL_COUNT = "^(0|[1-9][0-9]*)$";
const FINGERPRINT = "^(?:[0-9A-F]{2}:){31}[0-9A-F]{2}$";

let server: RunningServer;
let document: Document;
let validator: DocumentValidator;

beforeAll(async () => {
  // 127.0.0.1 is a trusted proxy, so a test can play any client address with X-Forwarded-For,
  // and a request without the header is the real 503 CLIENT_IP_UNAVAILABLE. The GeoIP test
  // databases enrich the documented client the examples name (CONTRACT §8.10).
  server = await startServer({
    TRUSTED_PROXIES: "127.0.0.1/32",
    GEOIP_ASN_DB: DBIP_FILES.asn,
    GEOIP_COUNTRY_DB: DBIP_FILES.country,
  });
  const response = await fetch(`${server.url}${DOCS_JSON_PATH}`);
  expect(response.status).toBe(200);
  document = (await response.json()) as Document;
  validator = documentValidator(document);
});
afterAll(async () => {
  await server.stop();
});

function operationOf(key: string): JsonObject {
  const [method = "", path = ""] = key.split(" ");
  const operation = document.paths[path]?.[method.toLowerCase()];
  if (operation === undefined) throw new Error(`${key} is not in the document`);
  return operation;
}

function responsesOf(key: string): Record<string, JsonObject> {
  return operationOf(key).responses as Record<string, JsonObject>;
}

/** The documented media type object of one response of one operation. */
function mediaOf(key: string, status: string, mediaType = "application/json"): JsonObject {
  const content = responsesOf(key)[status]?.content as Record<string, JsonObject> | undefined;
  const media = content?.[mediaType];
  if (media === undefined) throw new Error(`${key} ${status} ${mediaType} is not in the document`);
  return media;
}

function* operationsInDocument(): Generator<[string, string, JsonObject]> {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) yield [method.toUpperCase(), path, operation];
  }
}

/** Every schema object reachable from `value`, with where it is. */
function* schemasIn(value: unknown, at: string): Generator<[string, JsonObject]> {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) yield* schemasIn(item, `${at}/${index}`);
    return;
  }
  if (value === null || typeof value !== "object") return;
  const object = value as JsonObject;
  yield [at, object];
  for (const [key, child] of Object.entries(object)) {
    if (key === "properties" && child !== null && typeof child === "object") {
      for (const [name, property] of Object.entries(child as JsonObject)) {
        yield* schemasIn(property, `${at}/properties/${name}`);
      }
    } else if (["items", "anyOf", "oneOf", "allOf", "patternProperties"].includes(key)) {
      yield* schemasIn(child, `${at}/${key}`);
    }
  }
}

describe("the document is valid", () => {
  test("OpenAPI 3.1 per @seriousme/openapi-schema-validator", async () => {
    const openApiValidator = new Validator();
    const result = await openApiValidator.validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(openApiValidator.version).toBe("3.1");
    expect(document.openapi).toStartWith("3.1.");
  });

  test("every schema in it compiles as JSON Schema 2020-12 under strict Ajv", () => {
    const places: string[] = [];
    for (const name of Object.keys(document.components.schemas as JsonObject)) {
      places.push(pointer("components", "schemas", name));
    }
    for (const [method, path, operation] of operationsInDocument()) {
      const verb = method.toLowerCase();
      const request = operation.requestBody as { content?: JsonObject } | undefined;
      for (const mediaType of Object.keys(request?.content ?? {})) {
        places.push(pointer("paths", path, verb, "requestBody", "content", mediaType, "schema"));
      }
      for (const [status, response] of Object.entries(operation.responses as Record<string, JsonObject>)) {
        for (const mediaType of Object.keys((response.content ?? {}) as JsonObject)) {
          places.push(pointer("paths", path, verb, "responses", status, "content", mediaType, "schema"));
        }
      }
    }
    expect(places.length).toBeGreaterThan(20);
    for (const place of places) expect(() => validator.check(place, null)).not.toThrow();
  });

  test("info: version 0.5.0, title, description; no security anywhere", () => {
    expect(document.info.version).toBe("0.5.0");
    expect(document.info.title).toBe("Network Tools API");
    expect(String(document.info.description)).toContain("No authentication");
    // The plugin also writes title and description, unescaped, into the page's meta tags.
    expect(`${document.info.title}${document.info.description}`).not.toMatch(/["<>&]/);
    expect(JSON.stringify(document)).not.toContain('"security');
  });
});

describe("the document is complete", () => {
  test("exactly the app's API operations, docs routes excluded, each with its documentation entry", () => {
    const routed = apiOperations();
    expect(routed.length).toBeGreaterThanOrEqual(5);
    const documented = [...operationsInDocument()].map(([method, path]) => `${method} ${path}`).sort();
    expect(documented).toEqual(routed);
    expect(Object.keys(OPERATION_DOCS).sort()).toEqual(OPERATION_LIST.map((row) => row.id).sort());
    for (const path of DOCS_PATHS) expect(document.paths[path]).toBeUndefined();
  });

  test("operation ids are the documented ones and unique", () => {
    const ids = apiOperations().map((key) => operationOf(key).operationId);
    expect(ids).toEqual(apiOperations().map((key) => rowOf(key).id));
    expect(new Set(ids).size).toBe(ids.length);
  });

  test("every operation has every error status of its kind, each with the shared ErrorResponse", () => {
    for (const key of apiOperations()) {
      const [method] = key.split(" ");
      const expected = method === "POST" ? ["200", "400", "405", "413", "415", "500"] : ["200", "405", "500"];
      if (key === "GET /v1/public-ip" || key === "GET /v1/ip") expected.push("503");
      // OVERLOADED (CONTRACT §1.7): every operation with a body does work admitted by its cost.
      if (method === "POST") expected.push("503");
      if (key !== "GET /v1/health") expected.push("429"); // only when the operator sets a limit
      const responses = responsesOf(key);
      expect({ key, statuses: Object.keys(responses).sort() }).toEqual({ key, statuses: expected.sort() });
      for (const [status, response] of Object.entries(responses)) {
        expect(String(response.description).length).toBeGreaterThan(10);
        expect((response.headers as JsonObject)["X-Request-Id"]).toBeDefined();
        if (status === "200") continue;
        const media = (response.content as Record<string, JsonObject>)["application/json"];
        const schema = media?.schema as { allOf: JsonObject[] };
        expect(schema.allOf[0]).toEqual({ $ref: "#/components/schemas/ErrorResponse" });
        expect(Object.keys(media?.examples as JsonObject).length).toBeGreaterThan(0);
        if (status === "405") expect((response.headers as JsonObject).Allow).toBeDefined();
        if (status === "429") expect((response.headers as JsonObject)["Retry-After"]).toBeDefined();
      }
    }
    const errorResponse = (document.components.schemas as JsonObject).ErrorResponse as JsonObject;
    expect(errorResponse.required).toEqual(["error"]);
    expect(errorResponse.additionalProperties).toBe(false);
  });

  test("400 lists the codes the spec and contract give each operation", () => {
    const codes = (key: string) => {
      const schema = mediaOf(key, "400").schema as {
        allOf: { properties: { error: { properties: { code: { enum: string[] } } } } }[];
      };
      return schema.allOf[1]?.properties.error.properties.code.enum;
    };
    expect(codes("POST /v1/cidr-cover")).toEqual(["INVALID_JSON", "INVALID_INPUT", "MIXED_ADDRESS_FAMILIES"]);
    expect(codes("POST /v1/cidr-subtract")).toEqual([
      "INVALID_JSON",
      "INVALID_INPUT",
      "MIXED_ADDRESS_FAMILIES",
      "RESULT_TOO_LARGE",
    ]);
    expect(codes("POST /v1/range-to-cidrs")).toEqual([
      "INVALID_JSON",
      "INVALID_INPUT",
      "MIXED_ADDRESS_FAMILIES",
    ]);
  });

  test("POST operations document a required JSON body by a named schema, with examples", () => {
    for (const key of apiOperations().filter((k) => k.startsWith("POST "))) {
      const body = operationOf(key).requestBody as { required: boolean; content: Record<string, JsonObject> };
      expect(body.required).toBe(true);
      expect(Object.keys(body.content)).toEqual(["application/json"]);
      const media = body.content["application/json"] as JsonObject;
      expect(media.schema).toEqual({ $ref: `#/components/schemas/${schemaNamesOf(rowOf(key).id).request}` });
      expect(Object.keys(media.examples as JsonObject).length).toBeGreaterThan(1);
      expect(resolve(document, media.schema).additionalProperties).toBe(false);
    }
    for (const key of apiOperations().filter((k) => k.startsWith("GET "))) {
      expect(operationOf(key).requestBody).toBeUndefined();
    }
  });

  test("public-ip documents both 200 representations, no-store and Vary", () => {
    const ok = responsesOf("GET /v1/public-ip")["200"] as JsonObject;
    const content = ok.content as Record<string, JsonObject>;
    expect(Object.keys(content).sort()).toEqual(["application/json", "text/plain"]);
    expect(Object.keys(mediaOf("GET /v1/public-ip", "200", "text/plain").examples as JsonObject)).toEqual([
      "text",
    ]);
    expect(Object.keys(ok.headers as JsonObject).sort()).toEqual(["Cache-Control", "Vary", "X-Request-Id"]);
    const unavailable = responsesOf("GET /v1/public-ip")["503"] as JsonObject;
    expect((unavailable.headers as JsonObject)["Cache-Control"]).toBeDefined();
  });

  test("success schemas keep their exact constraints", () => {
    const schemas = document.components.schemas as JsonObject;
    let counts = 0;
    let fingerprints = 0;
    for (const [name, schema] of Object.entries(schemas)) {
      for (const [at, node] of schemasIn(schema, name)) {
        const property = at.split("/").at(-1) ?? "";
        if (/(^a|A)ddressCount$/.test(property)) {
          counts++;
          expect({ at, pattern: node.pattern }).toEqual({ at, pattern: DECIMAL_COUNT });
        }
        if (property === "fingerprintSha256") fingerprints++;
        if (property === "fingerprintSha256")
          expect({ at, pattern: node.pattern }).toEqual({ at, pattern: FINGERPRINT });
        if (property === "family") expect(node.enum ?? node.const).toBeDefined();
      }
    }
    // the spec's seven, cidr-merge's two per family, cidr-allocate's free count, cidr-compare's two
    // per family in each of its three sets
    expect(counts).toBe(16);
    expect(fingerprints).toBe(1);
    const at = (name: string, ...parts: string[]) => pointer("components", "schemas", name, ...parts);
    expect(validator.check(at("CidrCoverResult", "properties", "inputAddressCount"), "0").valid).toBe(true);
    expect(validator.check(at("CidrCoverResult", "properties", "inputAddressCount"), "01").valid).toBe(false);
    expect(validator.check(at("CidrCoverResult", "properties", "family"), "ipv5").valid).toBe(false);
    expect(validator.check(at("RangeToCidrsResult", "properties", "cidrCount"), 255).valid).toBe(false);
    expect(validator.check(at("RangeToCidrsResult", "properties", "cidrCount"), 1.5).valid).toBe(false);
    expect(validator.check(at("CidrCoverRequest"), { inputs: [] }).valid).toBe(false);
    expect(validator.check(at("CidrCoverRequest"), { inputs: ["x".repeat(65)] }).valid).toBe(false);
    expect(validator.check(at("CidrSubtractRequest"), { include: ["10.0.0.0/8"], exclude: [] }).valid).toBe(
      true,
    );
    expect(validator.check(at("PublicIpResult"), { family: "ipv4", ip: "2001:db8::1" }).valid).toBe(false);
    // The plugin drops null from such enums; the document must not (openapi-document.ts).
    const selfSignature = at(
      "CertificateBundleResult",
      "properties",
      "certificates",
      "items",
      "properties",
      "selfSignature",
    );
    expect(validator.check(selfSignature, null).valid).toBe(true);
    expect(validator.check(selfSignature, "unavailable").valid).toBe(true);
    expect(validator.check(selfSignature, "trusted").valid).toBe(false);
  });
});

/** How to reproduce a documented example that is not just "send the request example". */
function requestFor(method: string, path: string, name: string, example: { value: unknown }, status: number) {
  const operation = document.paths[path]?.[method.toLowerCase()] as JsonObject;
  const requestExamples = ((operation.requestBody as { content?: Record<string, JsonObject> } | undefined)
    ?.content?.["application/json"]?.examples ?? {}) as Record<string, { value: unknown }>;
  const headers: Record<string, string> = {};
  let body: string | undefined;
  let verb = method;
  const json = "application/json";
  if (name === "methodNotAllowed") verb = method === "GET" ? "POST" : "GET";
  else if (name === "rateLimited") {
    // sent as is, after the client's budget is spent (see send)
  } else if (name === "invalidJson") [headers["content-type"], body] = [json, '{"start": "10.0.0.1",'];
  else if (name === "unsupportedMediaType") {
    headers["content-type"] = "text/plain";
    body = JSON.stringify(Object.values(requestExamples)[0]?.value);
  } else if (name === "overloaded") {
    // Every queued operation's common 503 example (from its row's admission): any of its valid
    // requests meets the full queue.
    [headers["content-type"], body] = [json, JSON.stringify(Object.values(requestExamples)[0]?.value)];
  } else if (name === "payloadTooLarge")
    [headers["content-type"], body] = [json, JSON.stringify({ pad: "x".repeat(MAX_BODY_BYTES) })];
  else if (path === "/v1/public-ip" || path === "/v1/ip") {
    if (status === 200) {
      const text = typeof example.value === "string";
      headers["x-forwarded-for"] = text ? String(example.value).trim() : (example.value as { ip: string }).ip;
      if (text) headers.accept = "text/plain";
    }
    // 503: the trusted proxy (this test) sends no X-Forwarded-For.
  } else if (method === "POST") {
    const request = requestExamples[name];
    if (request === undefined) throw new Error(`${method} ${path}: example ${name} has no request to replay`);
    [headers["content-type"], body] = [json, JSON.stringify(request.value)];
  }
  return { verb, init: { method: verb, headers, ...(body === undefined ? {} : { body }) } };
}

/**
 * Sends a replayed request to the running server. A certificate result depends on the clock,
 * so those go through the app with the real decoder and verifier and a clock fixed at the
 * example's `evaluatedAt`; a 429 needs a rate limit, so it goes through an app with
 * RATE_LIMIT_PER_MINUTE=60 whose client has just spent its 60 requests; a 503 OVERLOADED needs
 * a full admission queue, so it goes through an app whose queue never frees a slot.
 */
async function send(path: string, init: RequestInit, name: string, expected: unknown): Promise<Response> {
  if (name === "rateLimited") {
    const { app } = testApp({ rateLimiter: new RateLimiter({ perMinute: 60, now: () => 0 }) });
    const url = `http://localhost${path}`;
    // An unknown path spends a token too; a CORS preflight never does (CONTRACT §1.5).
    for (let i = 0; i < 60; i++)
      expect((await app.handle(new Request("http://localhost/v1/spend-a-token"))).status).toBe(404);
    expect((await app.handle(new Request(url, { method: "OPTIONS" }))).status).toBe(204);
    return app.handle(new Request(url, init));
  }
  if (name === "overloaded") {
    // A queued (certificate) operation: the loop budget's clock stands still, so the request gets
    // past the loop's weighing (ADR 48) to its lane, where no slot ever frees up: it waits its 1 ms
    // and is refused with the lane's words. A metered operation's first request is admitted and,
    // on a clock that jumps a second per reading, spends the turn's budget; the turn never ends,
    // so the same request again is refused with the loop's words.
    const queued = OPERATION_LIST.find((row) => row.path === path)?.policy.admission === "queued";
    let jumping = 0;
    const standing = () => 0;
    const { app } = testApp({
      admission: { concurrency: 0, maxWaitMs: 1 },
      loopBudget: { turnMs: 10, now: queued ? standing : () => (jumping += 1000), afterTurn: () => {} },
    });
    await app.handle(new Request(`http://localhost${path}`, init));
    return app.handle(new Request(`http://localhost${path}`, init));
  }
  const evaluatedAt = (expected as { evaluatedAt?: unknown } | null)?.evaluatedAt;
  const certificatePaths = ["/v1/certificate-bundle", "/v1/certificate-chain"];
  if (!certificatePaths.includes(path) || typeof evaluatedAt !== "string") {
    return fetch(`${server.url}${path}`, init);
  }
  const { app } = testApp({
    clock: fixedClock(evaluatedAt),
    decoder: new DerCertificateDecoder(),
    verifier: new NodeSignatureVerifier(),
  });
  return app.handle(new Request(`http://localhost${path}`, init));
}

describe("every example is real", () => {
  test("each response example, replayed against the running server, comes back exactly", async () => {
    let replayed = 0;
    for (const [method, path, operation] of operationsInDocument()) {
      for (const [status, response] of Object.entries(operation.responses as Record<string, JsonObject>)) {
        if (status === "500") continue; // cannot be caused on purpose; see the contract tests
        for (const [mediaType, media] of Object.entries(response.content as Record<string, JsonObject>)) {
          for (const [name, example] of Object.entries(
            (media.examples ?? {}) as Record<string, { value: unknown }>,
          )) {
            const { verb, init } = requestFor(method, path, name, example, Number(status));
            const actual = await send(path, init, name, example.value);
            const label = `${method} ${path} example ${name}`;
            const checked = await checkResponse(document, validator, verb, path, actual);
            expect({
              label,
              status: checked.status,
              mediaType: checked.mediaType,
              body: checked.body,
            }).toEqual({
              label,
              status: Number(status),
              mediaType,
              body: example.value,
            });
            replayed++;
          }
        }
      }
    }
    expect(replayed).toBeGreaterThan(30);
  });

  test("each request example has a response example of the same name", () => {
    for (const [method, path, operation] of operationsInDocument()) {
      const request = (operation.requestBody as { content?: Record<string, JsonObject> } | undefined)
        ?.content?.["application/json"];
      const responseNames = new Set<string>();
      for (const response of Object.values(operation.responses as Record<string, JsonObject>)) {
        for (const media of Object.values(response.content as Record<string, JsonObject>)) {
          for (const name of Object.keys((media.examples ?? {}) as JsonObject)) responseNames.add(name);
        }
      }
      for (const name of Object.keys((request?.examples ?? {}) as JsonObject)) {
        expect(`${method} ${path} ${name}: ${responseNames.has(name)}`).toEndWith("true");
      }
    }
  });
});

describe("contract: real responses match the document", () => {
  const json = { "content-type": "application/json" };
  const cases: {
    label: string;
    method: string;
    path: string;
    init?: RequestInit;
    status: number;
    code?: string;
  }[] = [
    { label: "health", method: "GET", path: "/v1/health", status: 200 },
    {
      label: "public-ip JSON",
      method: "GET",
      path: "/v1/public-ip",
      status: 200,
      init: { headers: { "x-forwarded-for": "198.51.100.23" } },
    },
    {
      label: "public-ip text via q-values",
      method: "GET",
      path: "/v1/public-ip",
      status: 200,
      init: { headers: { "x-forwarded-for": "2001:db8::42", accept: "application/json;q=0.5, text/*" } },
    },
    {
      label: "public-ip unobservable",
      method: "GET",
      path: "/v1/public-ip",
      status: 503,
      code: "CLIENT_IP_UNAVAILABLE",
    },
    {
      label: "public-ip malformed forwarding header",
      method: "GET",
      path: "/v1/public-ip",
      status: 503,
      code: "CLIENT_IP_UNAVAILABLE",
      init: { headers: { "x-forwarded-for": "unknown" } },
    },
    {
      label: "cover /0",
      method: "POST",
      path: "/v1/cidr-cover",
      status: 200,
      init: {
        headers: { "content-type": "Application/JSON; charset=utf-8" },
        body: '{"inputs":["0.0.0.0/0"," 10.0.0.1 "]}',
      },
    },
    {
      label: "cover 150 bad entries: capped issues",
      method: "POST",
      path: "/v1/cidr-cover",
      status: 400,
      code: "INVALID_INPUT",
      init: {
        headers: json,
        body: JSON.stringify({ inputs: Array.from({ length: 150 }, (_, i) => `10.0.0.${300 + i}`) }),
      },
    },
    {
      label: "cover wrong types and unknown field",
      method: "POST",
      path: "/v1/cidr-cover",
      status: 400,
      code: "INVALID_INPUT",
      init: { headers: json, body: '{"inputs":[1,null],"__proto__":{"x":1}}' },
    },
    {
      label: "cover array body",
      method: "POST",
      path: "/v1/cidr-cover",
      status: 400,
      code: "INVALID_INPUT",
      init: { headers: json, body: "[]" },
    },
    {
      label: "cover empty body",
      method: "POST",
      path: "/v1/cidr-cover",
      status: 400,
      code: "INVALID_JSON",
      init: { headers: json, body: "" },
    },
    {
      label: "cover no content type",
      method: "POST",
      path: "/v1/cidr-cover",
      status: 415,
      code: "UNSUPPORTED_MEDIA_TYPE",
      init: { body: "{}" },
    },
    {
      label: "subtract mixed families",
      method: "POST",
      path: "/v1/cidr-subtract",
      status: 400,
      code: "MIXED_ADDRESS_FAMILIES",
      init: { headers: json, body: '{"include":["10.0.0.0/8"],"exclude":["::/0"]}' },
    },
    {
      label: "subtract over 1000 entries together",
      method: "POST",
      path: "/v1/cidr-subtract",
      status: 400,
      code: "INVALID_INPUT",
      init: {
        headers: json,
        body: JSON.stringify({
          include: Array(600).fill("10.0.0.0/8"),
          exclude: Array(600).fill("10.0.0.1"),
        }),
      },
    },
    {
      label: "range IPv6 full space",
      method: "POST",
      path: "/v1/range-to-cidrs",
      status: 200,
      init: { headers: json, body: '{"start":"::","end":"ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"}' },
    },
    {
      label: "range worst case: 254 CIDRs",
      method: "POST",
      path: "/v1/range-to-cidrs",
      status: 200,
      init: { headers: json, body: '{"start":"::1","end":"ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe"}' },
    },
    {
      label: "range missing end",
      method: "POST",
      path: "/v1/range-to-cidrs",
      status: 400,
      code: "INVALID_INPUT",
      init: { headers: json, body: '{"start":"10.0.0.1"}' },
    },
    {
      label: "range invalid UTF-8",
      method: "POST",
      path: "/v1/range-to-cidrs",
      status: 400,
      code: "INVALID_JSON",
      init: { headers: json, body: new Uint8Array([0x7b, 0xff, 0x7d]) },
    },
    { label: "unknown path", method: "GET", path: "/v1/cidr-cvoer", status: 404, code: "NOT_FOUND" },
    {
      label: "unknown path, POST",
      method: "POST",
      path: "/v2/range-to-cidrs",
      status: 404,
      code: "NOT_FOUND",
      init: { headers: json, body: "{}" },
    },
    {
      label: "DELETE on health",
      method: "DELETE",
      path: "/v1/health",
      status: 405,
      code: "METHOD_NOT_ALLOWED",
    },
    {
      label: "PUT on subtract",
      method: "PUT",
      path: "/v1/cidr-subtract",
      status: 405,
      code: "METHOD_NOT_ALLOWED",
      init: { headers: json, body: "{}" },
    },
  ];

  for (const item of cases) {
    test(`${item.label}: ${item.method} ${item.path} → ${item.status}`, async () => {
      const response = await fetch(`${server.url}${item.path}`, { ...item.init, method: item.method });
      const checked = await checkResponse(document, validator, item.method, item.path, response);
      expect(checked.status).toBe(item.status);
      if (item.code !== undefined)
        expect((checked.body as { error: { code: string } }).error.code).toBe(item.code);
    });
  }

  test("a 413 for a streamed body without Content-Length matches every POST operation's 413", async () => {
    for (const key of apiOperations().filter((k) => k.startsWith("POST "))) {
      const path = key.slice("POST ".length);
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent > MAX_BODY_BYTES * 2) return controller.close();
          sent += 16_384;
          controller.enqueue(new Uint8Array(16_384).fill(0x20));
        },
      });
      const response = await fetch(`${server.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
        duplex: "half",
      } as RequestInit);
      const checked = await checkResponse(document, validator, "POST", path, response);
      expect(checked.status).toBe(413);
    }
  });

  test("503 from a fake address source matches public-ip's 503", async () => {
    const { app } = testApp({ clientAddress: fixedClientAddress(null) });
    const response = await call(app, "GET", "/v1/public-ip");
    const checked = await checkResponse(document, validator, "GET", "/v1/public-ip", response);
    expect(checked.status).toBe(503);
    expect(checked.body).toEqual({
      error: {
        code: "CLIENT_IP_UNAVAILABLE",
        message: "The client's address could not be observed: the connection has no socket address.",
      },
    });
  });

  test("a 500 (a failing dependency) matches every operation's documented 500 and its example", async () => {
    const failing = {
      clientAddress: () => {
        throw new TypeError("simulated failure");
      },
    };
    const { app } = testApp({ clientAddress: failing });
    for (const key of apiOperations()) {
      const [method = "", path = ""] = key.split(" ");
      const response = await call(app, "GET", "/v1/public-ip");
      expect(response.status).toBe(500);
      // The same response, checked against this operation's 500 entry.
      const rewritten = new Response(await response.text(), { status: 500, headers: response.headers });
      const checked = await checkResponse(document, validator, method, path, rewritten);
      const examples = mediaOf(key, "500").examples as Record<string, { value: unknown }>;
      expect(checked.body).toEqual(examples.internalError?.value);
    }
  });

  test("a body that breaks the document is caught (the check is not vacuous)", async () => {
    const fake = new Response('{"family":"ipv4","ip":"999.1.1.1"}', {
      status: 200,
      headers: {
        "content-type": "application/json",
        "x-request-id": "abc",
        "cache-control": "no-store",
        vary: "Accept",
      },
    });
    await expect(checkResponse(document, validator, "GET", "/v1/public-ip", fake)).rejects.toThrow(
      /does not match/,
    );
    const noId = new Response('{"status":"ok"}', {
      status: 200,
      headers: { "content-type": "application/json" },
    });
    await expect(checkResponse(document, validator, "GET", "/v1/health", noId)).rejects.toThrow(
      /X-Request-Id is missing/,
    );
    const undocumented = new Response("{}", { status: 418, headers: { "content-type": "application/json" } });
    await expect(checkResponse(document, validator, "GET", "/v1/health", undocumented)).rejects.toThrow(
      /not documented/,
    );
  });
});

describe("the docs routes", () => {
  test("/docs is Swagger UI with no absolute URL, only this origin allowed, the common headers", async () => {
    const response = await fetch(`${server.url}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toStartWith("text/html");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(response.headers.get("content-security-policy")).toContain("script-src 'self' 'unsafe-inline'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-request-id")).toBeTruthy();
    const html = await response.text();
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).toContain('"validatorUrl":"none"');
    expect(html).toContain('"url":"/docs/json"');
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(assets.sort()).toEqual(["/docs/assets/swagger-ui-bundle.js", "/docs/assets/swagger-ui.css"]);
  });

  test("the assets are swagger-ui-dist's files, served by the app", async () => {
    for (const [path, file, type] of [
      ["/docs/assets/swagger-ui-bundle.js", "swagger-ui-bundle.js", "text/javascript"],
      ["/docs/assets/swagger-ui.css", "swagger-ui.css", "text/css"],
    ] as const) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toStartWith(type);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      const expected = await Bun.file(
        new URL(`../../node_modules/swagger-ui-dist/${file}`, import.meta.url),
      ).bytes();
      expect(new Uint8Array(await response.arrayBuffer())).toEqual(expected);
    }
  });

  test("404 and 405 with Allow, as for every path", async () => {
    for (const path of DOCS_PATHS) {
      const response = await fetch(`${server.url}${path}`, { method: "POST", body: "{}" });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("METHOD_NOT_ALLOWED");
    }
    for (const path of ["/docs/assets/swagger-ui.js", "/docs/index.html", "/docs/json/x"]) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status).toBe(404);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
    }
  });
});

describe("loading the docs changes nothing else", () => {
  test("TypeBox string formats still work after @elysiajs/openapi is loaded (it overwrites them)", () => {
    expect(Value.Check(PublicIpResult, { family: "ipv6", ip: "2001:db8::7" })).toBe(true);
    expect(Value.Check(PublicIpResult, { family: "ipv4", ip: "203.0.113.7" })).toBe(true);
    expect(Value.Check(PublicIpResult, { family: "ipv4", ip: "203.0.113.256" })).toBe(false);
  });
});
