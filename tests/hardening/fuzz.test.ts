/**
 * HTTP fuzzing through `buildApp(fakes).handle` (issue 7, CONTRACT §1): arbitrary JSON values,
 * near-valid request objects, arbitrary bytes (invalid UTF-8, NUL, BOM), wrong and duplicated
 * headers, every endpoint with every method, and mutated certificates through the real decoder.
 *
 * Properties, for every generated request: never a 500; an error is exactly the envelope with
 * spec-shaped issues and the status of its code; a success matches the endpoint's schema; PEM
 * locations are sane and PEM text is never echoed; and the very next normal request is answered
 * 200. One app serves the whole file, as one process serves all traffic, and it must not have
 * logged a single unexpected error at the end.
 *
 * Runs: FUZZ_RUNS (default 100 per property) and FUZZ_SEED. A long opt-in run is
 * `bash scripts/fuzz-long.sh` (FUZZ_RUNS=5000).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { DerCertificateDecoder } from "../../src/adapters/crypto/decoder.ts";
import { NodeSignatureVerifier } from "../../src/adapters/crypto/verifier.ts";
import { MAX_BODY_BYTES } from "../../src/domain/limits.ts";
import { chain } from "../domain/certificate-helpers.ts";
import { type RunningServer, startServer } from "../e2e/server.ts";
import { bundleOf, fakeDecoder } from "../fakes/certificates.ts";
import { chainDers } from "../fixtures/fixtures.ts";
import { testApp } from "../http/helpers.ts";
import { endpointsOf, lineAt, NORMAL_BODIES, POST_PATHS, problemsOf } from "./shapes.ts";

const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const FC_OPTIONS = { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) };
/** Long runs need more than the 30 s default per test. */
const TIMEOUT = Math.max(30_000, RUNS * 300);

const certs = chain();
const fakes = testApp({ decoder: fakeDecoder([certs.root, certs.intermediate, certs.leaf]) });
const app = fakes.app;
/** The API endpoints plus whatever else the app serves (docs, web page and assets). */
const ENDPOINTS = endpointsOf(app);
const VALID_PEM = bundleOf([certs.leaf, certs.intermediate, certs.root]);
const CANARY = "zqcanaryxj";

type Sendable = { method: string; path: string; headers?: HeadersInit; body?: BodyInit | null };

/** Sends one request; null when the Request itself cannot be built (a client-side refusal). */
async function send(
  target: typeof app,
  request: Sendable,
): Promise<{ response: Response; text: string; method: string; path: string } | null> {
  let built: Request;
  try {
    built = new Request(`http://localhost${request.path}`, {
      method: request.method,
      headers: request.headers,
      body: request.body ?? null,
    });
  } catch {
    return null;
  }
  const response = await target.handle(built);
  // Bun's Request turns a method it does not know into GET; its HTTP parser refuses such
  // methods on the wire (see slow-clients/real-process tests), so GET is what the app sees.
  return { response, text: await response.text(), method: built.method, path: new URL(built.url).pathname };
}

let normalTurn = 0;
/** The next normal request, rotating over the endpoints: it must be a 200. */
async function expectNormalRequestServed(): Promise<void> {
  const paths = [...Object.keys(NORMAL_BODIES), "/v1/health", "/v1/certificate-bundle"];
  const path = paths[normalTurn++ % paths.length]!;
  const body = path === "/v1/certificate-bundle" ? { pem: VALID_PEM } : NORMAL_BODIES[path];
  const result = await send(
    app,
    body === undefined
      ? { method: "GET", path }
      : { method: "POST", path, headers: { "content-type": "application/json" }, body: JSON.stringify(body) },
  );
  if (result?.response.status !== 200) {
    throw new Error(`normal ${path} after a hostile request: ${result?.response.status} ${result?.text}`);
  }
}

/** Sends, checks the answer, then checks the next normal request. */
async function hostile(request: Sendable, extra: (text: string) => string[] = () => []): Promise<void> {
  const result = await send(app, request);
  if (result === null) return;
  // The URL parser has already resolved dot segments (`/%2e%2e/v1/health` is `/v1/health`).
  const problems = [...problemsOf(result.method, result.path, result.response, result.text, ENDPOINTS)];
  problems.push(...extra(result.text));
  if (problems.length > 0) throw new Error(problems.join("\n"));
  await expectNormalRequestServed();
}

const json = (path: string, body: string, contentType = "application/json"): Sendable => ({
  method: "POST",
  path,
  headers: { "content-type": contentType },
  body,
});

// ---------------------------------------------------------------------------------------------
// Generators

/** UTF-16 text including lone surrogates, NUL and controls. */
const anyUnits = (maxLength: number) =>
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength });

/** Strings an address parser has to think about. */
const addressish = fc.oneof(
  fc.ipV4(),
  fc.ipV6(),
  fc.ipV4Extended(),
  fc.tuple(fc.oneof(fc.ipV4(), fc.ipV6()), fc.integer({ min: -1, max: 140 })).map(([a, p]) => `${a}/${p}`),
  fc.tuple(fc.ipV6(), fc.string({ maxLength: 8 })).map(([a, z]) => `${a}%${z}`),
  fc.ipV6().map((a) => `[${a}]`),
  fc.stringMatching(/^[0-9a-fA-F:./% \t\r\n]{0,70}$/),
  fc.constantFrom(
    "",
    " ",
    "0",
    "::",
    "::/0",
    "0.0.0.0/0",
    "255.255.255.255",
    "010.0.0.1",
    "1.2.3",
    "::ffff:1.2.3.4",
  ),
  anyUnits(70),
);

const hostileKeys = fc.constantFrom(
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "",
);

/** Objects built from the endpoints' own field names with values of any type. */
const nearRequest = fc.dictionary(
  fc.oneof(
    fc.constantFrom("inputs", "include", "exclude", "start", "end", "pem", "hostname", "leafIndex"),
    hostileKeys,
    fc.string({ maxLength: 8 }),
  ),
  fc.oneof(
    addressish,
    fc.array(addressish, { maxLength: 24 }),
    fc.integer({ min: -5, max: 40 }),
    fc.double(),
    fc.constantFrom(null, true, false, {}, [], [[]], { __proto__: null }),
  ),
  { maxKeys: 4 },
);

const validFor: Record<string, fc.Arbitrary<unknown>> = {
  "/v1/cidr-cover": fc.record({ inputs: fc.array(addressish, { minLength: 1, maxLength: 24 }) }),
  "/v1/cidr-subtract": fc.record({
    include: fc.array(addressish, { minLength: 1, maxLength: 12 }),
    exclude: fc.array(addressish, { maxLength: 12 }),
  }),
  "/v1/range-to-cidrs": fc.record({ start: addressish, end: addressish }),
};

/** Well-formed families on purpose: these reach the arithmetic, not just the parser. */
const v4cidr = fc.tuple(fc.ipV4(), fc.integer({ min: 0, max: 32 })).map(([a, p]) => `${a}/${p}`);
const v6cidr = fc.tuple(fc.ipV6(), fc.integer({ min: 0, max: 128 })).map(([a, p]) => `${a}/${p}`);
const oneFamily = fc.oneof(
  fc.record({
    include: fc.array(v4cidr, { minLength: 1, maxLength: 10 }),
    exclude: fc.array(v4cidr, { maxLength: 30 }),
  }),
  fc.record({
    include: fc.array(v6cidr, { minLength: 1, maxLength: 10 }),
    exclude: fc.array(v6cidr, { maxLength: 30 }),
  }),
);

const bom = new Uint8Array([0xef, 0xbb, 0xbf]);
const INVALID_UTF8 = [
  [0xc0, 0x80], // overlong NUL
  [0xed, 0xa0, 0x80], // encoded surrogate
  [0xff],
  [0xe2, 0x82], // truncated sequence
  [0xf4, 0x90, 0x80, 0x80], // above U+10FFFF
  [0x00],
].map((b) => new Uint8Array(b));

/** Bytes: raw noise, or a valid body with a BOM, a NUL or invalid UTF-8 spliced in. */
const byteBodies = fc.oneof(
  fc.uint8Array({ maxLength: 512 }),
  fc
    .tuple(fc.constantFrom(...POST_PATHS), fc.constantFrom(bom, ...INVALID_UTF8), fc.nat(), fc.boolean())
    .map(([path, splice, at, prefix]) => {
      const text = new TextEncoder().encode(
        JSON.stringify(path === "/v1/certificate-bundle" ? { pem: VALID_PEM } : NORMAL_BODIES[path]),
      );
      const position = prefix ? 0 : at % (text.length + 1);
      const out = new Uint8Array(text.length + splice.length);
      out.set(text.subarray(0, position));
      out.set(splice, position);
      out.set(text.subarray(position), position + splice.length);
      return out;
    }),
);

const printable = (maxLength: number) =>
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength });

const contentTypes = fc.oneof(
  fc.constantFrom(
    "application/json",
    "APPLICATION/JSON; charset=utf-8",
    "application/json;charset=latin1",
    "application/json;;;",
    " application/json ",
    "application/jsonx",
    "application/json-patch+json",
    "text/json",
    "text/plain",
    "multipart/form-data; boundary=x",
    "application/x-www-form-urlencoded",
    "",
    ";",
  ),
  printable(40),
);

const headerPairs = fc.array(
  fc.oneof(
    fc.tuple(fc.constant("content-type"), contentTypes),
    fc.tuple(
      fc.constant("content-length"),
      fc.constantFrom("0", "-1", "abc", "1e5", "65537", "99999999999999999999", "10, 10", ""),
    ),
    fc.tuple(fc.constant("x-request-id"), printable(200)),
    fc.tuple(fc.constant("accept"), fc.oneof(printable(40), fc.constantFrom("text/plain", "*/*;q=0"))),
    fc.tuple(fc.constant("origin"), printable(40)),
    fc.tuple(fc.constantFrom("x-forwarded-for", "forwarded"), printable(60)),
    fc.tuple(fc.constantFrom("content-encoding", "transfer-encoding", "expect"), printable(20)),
    fc.tuple(fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/), printable(60)),
  ),
  { maxLength: 8 },
);

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "PROPFIND"];
const pathVariants = fc.oneof(
  fc.constantFrom(...ENDPOINTS.map((e) => e.path)),
  fc
    .tuple(
      fc.constantFrom(...ENDPOINTS.map((e) => e.path)),
      fc.constantFrom("/", "//", "?", "?a=1&a=2", "%00", "/..", "/.%2e", "#x", ".json", "%2F", "/extra"),
    )
    .map(([p, s]) => p + s),
  fc.constantFrom(
    "/",
    "//v1/health",
    "/V1/HEALTH",
    "/v1",
    "/v1/",
    "/%2e%2e/v1/health",
    `/${"a".repeat(4000)}`,
  ),
  fc.stringMatching(/^\/[A-Za-z0-9._~%/-]{0,60}$/),
);

// ---------------------------------------------------------------------------------------------
// PEM text: pieces that a PEM scanner must place correctly

const PEM_PIECES = [
  "-----BEGIN CERTIFICATE-----",
  "-----END CERTIFICATE-----",
  "-----BEGIN PRIVATE KEY-----",
  "-----END PRIVATE KEY-----",
  "-----BEGIN X509 CRL-----",
  "-----BEGIN ",
  "-----",
  "MIIB",
  "AAAA",
  "====",
  "\n",
  "\r\n",
  "\r",
  " ",
  "\t",
  "\uD800",
  "\uDC00",
  "\u00e9",
  "\u0000",
  CANARY,
];
const pemText = fc.oneof(
  fc.array(fc.constantFrom(...PEM_PIECES), { maxLength: 40 }).map((parts) => parts.join("")),
  fc
    .tuple(fc.nat(VALID_PEM.length), fc.constantFrom(...PEM_PIECES), fc.nat(3))
    .map(([at, piece, drop]) => VALID_PEM.slice(0, at) + piece + VALID_PEM.slice(at + drop)),
);

/** Problems with the PEM locations in an answer: inside the text, ordered, on the right line. */
function locationProblems(pem: string, text: string): string[] {
  const problems: string[] = [];
  // CONTRACT §4.1: a block's label may be named in a message; any other PEM text never is.
  const inLabel = pem.split(/\r\n|\r|\n/).some((line) => line.includes("-----") && line.includes(CANARY));
  if (!inLabel && text.includes(CANARY)) problems.push("PEM text echoed in the response");
  let body: { error?: { issues?: { location?: { line: number; offset: number; end: number } }[] } };
  try {
    body = JSON.parse(text);
  } catch {
    return problems;
  }
  for (const issue of body.error?.issues ?? []) {
    const l = issue.location;
    if (l === undefined) continue;
    if (!(l.offset <= l.end && l.end <= pem.length))
      problems.push(`location ${JSON.stringify(l)} outside the text`);
    else if (lineAt(pem, l.offset) !== l.line)
      problems.push(`location ${JSON.stringify(l)} on the wrong line`);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------

afterAll(() => {
  const unexpected = fakes.logger.records.filter((record) => record.level === "error");
  expect(unexpected).toEqual([]);
});

describe("fuzzing every endpoint through app.handle", () => {
  test(
    "arbitrary JSON values",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...POST_PATHS),
          fc.jsonValue({ maxDepth: 6 }),
          async (path, value) => {
            await hostile(json(path, JSON.stringify(value) ?? "null"));
          },
        ),
        FC_OPTIONS,
      );
    },
    TIMEOUT,
  );

  test(
    "near-valid request objects, hostile keys included",
    async () => {
      const arbitrary = fc.oneof(
        fc.tuple(fc.constantFrom(...POST_PATHS), nearRequest),
        ...Object.entries(validFor).map(([path, a]) => fc.tuple(fc.constant(path), a)),
        fc.tuple(fc.constant("/v1/cidr-subtract"), oneFamily),
      );
      await fc.assert(
        fc.asyncProperty(arbitrary, async ([path, value]) => {
          await hostile(json(path, JSON.stringify(value)));
        }),
        FC_OPTIONS,
      );
    },
    TIMEOUT,
  );

  test(
    "arbitrary bytes: noise, BOM, NUL and invalid UTF-8",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...POST_PATHS),
          byteBodies,
          contentTypes,
          async (path, bytes, type) => {
            await hostile({ method: "POST", path, headers: { "content-type": type }, body: bytes });
          },
        ),
        FC_OPTIONS,
      );
    },
    TIMEOUT,
  );

  test(
    "wrong and duplicated headers",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...ENDPOINTS.map((e) => e.path)),
          fc.constantFrom("GET", "POST", "OPTIONS"),
          headerPairs,
          async (path, method, pairs) => {
            const headers = new Headers();
            for (const [name, value] of pairs) {
              try {
                headers.append(name, value);
              } catch {
                // a value the Headers class refuses never reaches a server either
              }
            }
            const body = method === "POST" ? JSON.stringify(NORMAL_BODIES[path] ?? { pem: VALID_PEM }) : null;
            await hostile({ method, path, headers, body });
          },
        ),
        FC_OPTIONS,
      );
    },
    TIMEOUT,
  );

  test(
    "every path with every method",
    async () => {
      const method = fc.oneof(fc.constantFrom(...METHODS), fc.stringMatching(/^[A-Z]{1,10}$/));
      await fc.assert(
        fc.asyncProperty(method, pathVariants, fc.option(printable(64)), async (m, path, body) => {
          const withBody = m !== "GET" && m !== "HEAD" && body !== null;
          await hostile({
            method: m,
            path,
            headers: withBody ? { "content-type": "application/json" } : {},
            body: withBody ? body : null,
          });
        }),
        FC_OPTIONS,
      );
    },
    TIMEOUT,
  );

  test(
    "PEM text: locations stay inside the text and on the right line, nothing is echoed",
    async () => {
      const hostname = fc.option(fc.oneof(printable(30), fc.domain()), { nil: undefined });
      await fc.assert(
        fc.asyncProperty(pemText, hostname, async (pem, host) => {
          const body = host === undefined ? { pem } : { pem, hostname: host };
          await hostile(json("/v1/certificate-bundle", JSON.stringify(body)), (text) =>
            locationProblems(pem, text),
          );
        }),
        FC_OPTIONS,
      );
    },
    TIMEOUT,
  );

  test("every request, whatever its method and path, writes exactly one access-log line", async () => {
    const ids: string[] = [];
    for (const method of METHODS) {
      for (const path of [...ENDPOINTS.map((e) => e.path), "/nowhere", "/v1/health/"]) {
        const id = `access-${ids.length}`;
        ids.push(id);
        const body = method === "POST" ? JSON.stringify(NORMAL_BODIES[path] ?? {}) : null;
        const headers = { "x-request-id": id, "content-type": "application/json" };
        await (await app.handle(new Request(`http://localhost${path}`, { method, headers, body }))).text();
      }
    }
    await Bun.sleep(50); // access lines are written after the response
    const lines = fakes.logger.records.filter(
      (r) => r.msg === "request" && r.requestId?.startsWith("access-"),
    );
    expect(lines.map((r) => r.requestId).sort()).toEqual([...ids].sort());
  });

  test("a body just over the limit, chunked with no length, is 413 and the app carries on", async () => {
    const chunk = new Uint8Array(4096).fill(0x20);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > MAX_BODY_BYTES) controller.close();
        else {
          sent += chunk.length;
          controller.enqueue(chunk);
        }
      },
    });
    const response = await app.handle(
      new Request("http://localhost/v1/cidr-cover", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: stream,
        // @ts-expect-error Bun and undici need this for a streamed request body
        duplex: "half",
      }),
    );
    expect(response.status).toBe(413);
    await expectNormalRequestServed();
  });
});

describe("mutated real certificates through the real decoder and verifier", () => {
  const real = testApp({
    decoder: new DerCertificateDecoder(),
    verifier: new NodeSignatureVerifier(),
  });
  const ders = ["rsa-sha256", "ec-p256", "ed25519", "rsa-pss"].flatMap((name) => chainDers(name));

  afterAll(() => {
    expect(real.logger.records.filter((record) => record.level === "error")).toEqual([]);
  });

  test(
    "flipped, truncated and extended DER never breaks the service",
    async () => {
      const mutation = fc.record({
        which: fc.nat(ders.length - 1),
        edits: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }),
        cut: fc.option(fc.nat()),
        tail: fc.uint8Array({ maxLength: 4 }),
      });
      await fc.assert(
        fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 3 }), async (mutations) => {
          const blocks = mutations.map(({ which, edits, cut, tail }) => {
            const original = ders[which]!;
            let der = new Uint8Array(original);
            for (const [at, value] of edits) der[at % der.length] = value;
            if (cut !== null) der = der.subarray(0, cut % (der.length + 1));
            const out = new Uint8Array(der.length + tail.length);
            out.set(der);
            out.set(tail, der.length);
            const lines =
              Buffer.from(out)
                .toString("base64")
                .match(/.{1,64}/g) ?? [];
            return ["-----BEGIN CERTIFICATE-----", ...lines, "-----END CERTIFICATE-----", ""].join("\n");
          });
          const path = "/v1/certificate-bundle";
          const result = await send(real.app, json(path, JSON.stringify({ pem: blocks.join("") })));
          if (result === null) return;
          const problems = problemsOf("POST", path, result.response, result.text);
          if (problems.length > 0) throw new Error(problems.join("\n"));
          const next = await send(real.app, json(path, JSON.stringify({ pem: VALID_PEM })));
          // The fake chain is not real DER: the real decoder must reject it as input, not fail.
          expect(next?.response.status).toBe(400);
        }),
        { ...FC_OPTIONS, numRuns: Math.max(10, Math.round(RUNS / 2)) },
      );
    },
    TIMEOUT,
  );
});

describe("a handful of generated hostile requests against the real process", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
    expect(server.lines.filter((line) => line.includes('"level":"error"'))).toEqual([]);
  });

  test(
    "bytes, near-valid objects and odd headers over sockets; the next normal request is served",
    async () => {
      const request = fc.oneof(
        fc.tuple(fc.constantFrom(...POST_PATHS), byteBodies, contentTypes),
        fc.tuple(
          fc.constantFrom(...POST_PATHS),
          nearRequest.map((v) => new TextEncoder().encode(JSON.stringify(v))),
          fc.constant("application/json"),
        ),
      );
      await fc.assert(
        fc.asyncProperty(request, async ([path, bytes, type]) => {
          const response = await fetch(`${server.url}${path}`, {
            method: "POST",
            headers: { "content-type": type },
            body: bytes,
          });
          const text = await response.text();
          const problems = problemsOf("POST", path, response, text);
          if (problems.length > 0) throw new Error(problems.join("\n"));
          const next = await fetch(`${server.url}/v1/cidr-cover`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(NORMAL_BODIES["/v1/cidr-cover"]),
          });
          expect(next.status).toBe(200);
          await next.arrayBuffer();
        }),
        { ...FC_OPTIONS, numRuns: Math.max(10, Math.round(RUNS / 4)) },
      );
    },
    TIMEOUT,
  );
});
