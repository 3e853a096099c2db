/**
 * The build-time validators (issue 19) against TypeBox, the slow obvious model: for every result
 * schema of the operations table and the error envelope, the standalone checker that
 * `TypeCompiler.Code` emits (given only src/contract/formats.ts) and the mismatch finder
 * (src/client/schema-mismatch.ts) must accept exactly what TypeBox's `Value.Check` accepts.
 * Values are drawn from the schema itself, each part sometimes swapped for a wrong one, so both
 * matching and nearly matching bodies are tried.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import type { TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { Value } from "@sinclair/typebox/value";
import fc from "fast-check";
import { type JsonSchema, mismatchesOf } from "../../src/client/schema-mismatch.ts";
import { hasFormat } from "../../src/contract/formats.ts";
import "../../src/client/validate.ts"; // registers the formats with TypeBox
import { readFileSync } from "node:fs";
import { DerCertificateDecoder } from "../../src/adapters/crypto/decoder.ts";
import { mozillaRootStore } from "../../src/adapters/crypto/root-store.ts";
import { NodeSignatureVerifier } from "../../src/adapters/crypto/verifier.ts";
import { MaxMindNetworkFacts } from "../../src/adapters/geoip/maxmind-databases.ts";
import { OPERATION_LIST } from "../../src/contract/operations.ts";
import { ErrorResponse } from "../../src/contract/schemas.ts";
import { fixedClientAddress } from "../fakes/client-address.ts";
import { chainPem } from "../fixtures/fixtures.ts";
import { DBIP_FILES } from "../fixtures/geoip/expected.ts";
import { keyFixture } from "../fixtures/key-fixtures.ts";
import { call, testApp } from "../http/helpers.ts";
import { makeCa } from "../support/openssl-ca.ts";

/** Real answers of the app (through `app.handle`), by operation id: the matching seeds. */
const answers = new Map<string, unknown[]>();
beforeAll(async () => {
  const { app } = testApp({
    decoder: new DerCertificateDecoder(),
    verifier: new NodeSignatureVerifier(),
  });
  const post = async (id: string, path: string, json: unknown) => {
    const response = await call(app, "POST", path, { json });
    if (response.status !== 200 && id !== "error envelope")
      throw new Error(`${path} answered ${response.status}`);
    answers.set(id, [...(answers.get(id) ?? []), await response.json()]);
  };
  for (const [id, path] of [
    ["health", "/v1/health"],
    ["publicIp", "/v1/public-ip"],
  ] as const) {
    answers.set(id, [await (await call(app, "GET", path)).json()]);
  }
  // With the GeoIP test databases: enriched public-ip answers and the databases list.
  const geoip = testApp({
    clientAddress: fixedClientAddress("2001:db8:a::9"),
    networkFacts: await MaxMindNetworkFacts.open(DBIP_FILES),
  }).app;
  answers.get("publicIp")?.push(await (await call(geoip, "GET", "/v1/public-ip")).json());
  answers.set("publicIpDatabases", [
    await (await call(geoip, "GET", "/v1/public-ip/databases")).json(),
    await (await call(app, "GET", "/v1/public-ip/databases")).json(),
  ]);
  const builtInRoots = testApp({ roots: mozillaRootStore() }).app;
  answers.set("referenceRoots", [await (await call(builtInRoots, "GET", "/v1/reference-roots")).json()]);
  // The `ip` operation answers in text; its result schema is the value that text is made of.
  answers.set("ip", answers.get("publicIp") ?? []);
  await post("cidrMerge", "/v1/cidr-merge", { inputs: ["10.0.0.0/25", "10.0.0.128/25", "2001:db8::/33"] });
  await post("cidrMerge", "/v1/cidr-merge", {
    inputs: ["10.0.0.0/7", "2001:db8::/31"],
    excludeSpecial: true,
  });
  await post("cidrCompare", "/v1/cidr-compare", {
    a: ["10.0.0.0/24", "2001:db8::/32"],
    b: ["10.0.0.128/25"],
  });
  await post("cidrSplit", "/v1/cidr-split", { cidr: "10.0.0.0/24", prefixLength: 26 });
  await post("cidrContains", "/v1/cidr-contains", {
    cidrs: ["10.0.0.0/8"],
    entries: ["10.1.2.3", "11.0.0.0/8"],
  });
  await post("cidrAllocate", "/v1/cidr-allocate", {
    within: ["10.0.0.0/16"],
    used: ["10.0.0.0/24"],
    prefixLength: 24,
    count: 2,
  });
  await post("cidrUsage", "/v1/cidr-usage", { pool: ["10.0.0.0/22"], used: ["10.0.0.0/24", "192.0.2.0/24"] });
  await post("cidrUsage", "/v1/cidr-usage", { pool: ["10.0.0.0/24"], used: ["10.0.0.0/24"] });
  await post("cidrContains", "/v1/cidr-contains", {
    cidrs: [{ cidr: "10.0.0.0/8", label: "ten" }],
    entries: ["10.1.2.3"],
  });
  await post("reverseZones", "/v1/reverse-zones", { cidr: "100.64.0.0/14" });
  await post("reverseZones", "/v1/reverse-zones", { cidr: "2001:db8::/30" });
  await post("cidrSubnets", "/v1/cidr-subnets", { prefix: "10.1.0.0/16", newbits: [4, 4, 8, 4] });
  await post("cidrSubnets", "/v1/cidr-subnets", { prefix: "2001:db8::/56", newbits: [] });
  await post("cidrCover", "/v1/cidr-cover", { inputs: ["10.0.0.0/24", "10.0.1.7"] });
  await post("rangeToCidrs", "/v1/range-to-cidrs", { start: "10.0.0.1", end: "10.0.0.9" });
  await post("cidrSubtract", "/v1/cidr-subtract", { include: ["10.0.0.0/8"], exclude: ["10.1.0.0/16"] });
  await post("cidrSubtract", "/v1/cidr-subtract", { include: ["2001:db8::/32"], exclude: [] });
  await post("certificateBundle", "/v1/certificate-bundle", { pem: chainPem("rsa-sha256") });
  await post("certificateChain", "/v1/certificate-chain", { pem: chainPem("rsa-sha256") });
  await post("csr", "/v1/csr", { pem: keyFixture("requests/rsa-1024-nosan-sha1.pem") });
  await post("csr", "/v1/csr", {
    pem: keyFixture("requests/p256.pem"),
    certificatePem: keyFixture("certs/p256.pem") + keyFixture("certs/ca.pem"),
  });
  // A CRL made by `openssl ca -gencrl`, one serial revoked: looked up with and without its issuer.
  const ca = makeCa("Generated validators CA");
  const revoked = ca.issue("revoked.example", "0A11");
  ca.revoke(revoked, "keyCompromise");
  const crl = readFileSync(ca.gencrl(), "utf8");
  await post("crl", "/v1/crl", { crl, issuerPem: ca.caPem, certificatePem: readFileSync(revoked, "utf8") });
  await post("crl", "/v1/crl", { crl });
  await post("error envelope", "/v1/cidr-cover", { inputs: ["10.0.0.256"] });
}, 60_000);

/** Every place in a JSON value, as the path to it. */
function placesOf(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  const inner =
    typeof value === "object" && value !== null
      ? Object.entries(value).flatMap(([key, item]) =>
          placesOf(item, [...path, Array.isArray(value) ? Number(key) : key]),
        )
      : [];
  return [path, ...inner];
}

/** `value` with the place numbered `which` (modulo their count) replaced by `replacement`. */
function mutated(value: unknown, which: number, replacement: unknown): unknown {
  const copy = structuredClone(value);
  const places = placesOf(copy).filter((path) => path.length > 0);
  const path = places[which % Math.max(places.length, 1)];
  if (path === undefined) return replacement;
  let parent = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  parent[path[path.length - 1] as string | number] = replacement;
  return copy;
}

/** Wrong or borderline values for any place in a body. */
const junk = fc.constantFrom<unknown>(
  null,
  0,
  -1,
  1.5,
  "",
  "x",
  "01",
  "10",
  "ipv4",
  "ipv6",
  "10.0.0.0/8",
  "1.2.3.4",
  "::1",
  "2001:db8::1",
  "300.1.1.1",
  "2026-11-24T04:00:00Z",
  "2026-13-01T00:00:00Z",
  true,
  [],
  {},
  ["a"],
  { extra: 1 },
);

/** Strings likely to meet a string schema's pattern, format or length, or to just miss it. */
const strings = fc.constantFrom(
  "0",
  "1",
  "255",
  "01",
  "10.0.0.0",
  "10.0.0.0/8",
  "10.0.0.1",
  "::",
  "2001:db8::/32",
  "fe80::1",
  "1.2.3.4",
  "2026-11-24T04:00:00Z",
  "2026-11-24T04:00:00.5+01:00",
  "not a date",
  "AB:CD",
  "ab".repeat(32),
  "AB".repeat(32),
  "a",
  "ok",
  "warning",
  "error",
  "",
);

function arbitraryOf(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const exact = ((): fc.Arbitrary<unknown> => {
    if (schema.anyOf !== undefined) return fc.oneof(...schema.anyOf.map((item) => arbitraryOf(item, depth)));
    if (schema.const !== undefined) return fc.constant(schema.const);
    switch (schema.type) {
      case "string":
        return strings;
      case "integer":
      case "number":
        return fc.integer({ min: -2, max: 300 });
      case "boolean":
        return fc.boolean();
      case "array":
        return fc.array(arbitraryOf(schema.items ?? {}, depth + 1), { maxLength: depth > 2 ? 1 : 3 });
      case "object": {
        const properties = Object.entries(schema.properties ?? {});
        const required = new Set(schema.required ?? []);
        return fc
          .tuple(
            ...properties.map(([name, property]) =>
              fc.option(arbitraryOf(property, depth + 1), { freq: required.has(name) ? 20 : 3 }),
            ),
          )
          .map((values) => {
            const record: Record<string, unknown> = {};
            properties.forEach(([name], index) => {
              const value = values[index];
              if (value !== null) record[name] = value;
            });
            return record;
          });
      }
      default:
        return junk;
    }
  })();
  return fc.oneof({ arbitrary: exact, weight: 12 }, { arbitrary: junk, weight: 1 });
}

const schemas: [string, TSchema][] = [
  ...OPERATION_LIST.map((operation): [string, TSchema] => [operation.id, operation.result]),
  ["error envelope", ErrorResponse],
];

describe("generated checkers and the mismatch finder agree with TypeBox", () => {
  for (const [name, schema] of schemas) {
    test(name, () => {
      const code = TypeCompiler.Code(schema, [], { language: "javascript" });
      const generated = new Function("format", code)(hasFormat) as (value: unknown) => boolean;
      const plain = JSON.parse(JSON.stringify(schema)) as JsonSchema;
      const seeds = answers.get(name) ?? [];
      const draws =
        seeds.length === 0
          ? arbitraryOf(plain)
          : fc.oneof(
              arbitraryOf(plain),
              fc.constantFrom(...seeds),
              fc
                .tuple(fc.constantFrom(...seeds), fc.nat(), junk)
                .map(([seed, which, replacement]) => mutated(seed, which, replacement)),
            );
      let accepted = 0;
      fc.assert(
        fc.property(draws, (value) => {
          const expected = Value.Check(schema, value);
          if (expected) accepted++;
          expect(generated(value)).toBe(expected);
          expect(mismatchesOf(plain, value).length === 0).toBe(expected);
        }),
        { numRuns: 400 },
      );
      // Every schema is seeded with real answers, so the draws include matching bodies.
      expect(seeds.length).toBeGreaterThan(0);
      expect(accepted).toBeGreaterThan(0);
    });
  }
});
