/**
 * Builds the client package (packages/client, `network-tools-api-client`, issue 19): the typed
 * client of src/client/index.ts as one ESM file for browsers, Node ≥ 20 and Bun, with no
 * dependency at run time or in its types. Run by `npm run pack:client`, which then packs it.
 *
 * - TypeBox is replaced at build time. The client's three contract imports (the operations
 *   table, the error envelope's schema and the checker module) resolve to one generated module
 *   holding each result schema as plain JSON Schema, its checker emitted by
 *   `TypeCompiler.Code` (standalone JavaScript; its only free function, `format`, is
 *   src/client/formats.ts) and the issues finder src/client/schema-mismatch.ts. No code is
 *   compiled at run time, so it also runs under a CSP without `unsafe-eval`.
 * - The declarations (index.d.ts) are written from the same table: each request and result
 *   schema becomes a plain TypeScript type, so a consumer needs no TypeBox to type-check.
 *
 * See docs/decisions/0025-lean-client-package.md.
 */
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import type { BunPlugin } from "bun";
import { STATUS_OF } from "../src/contract/errors.ts";
import { OPERATION_LIST } from "../src/contract/operations.ts";
import { ErrorResponse } from "../src/contract/schemas.ts";

const ROOT = resolve(import.meta.dir, "..");
const PACKAGE = join(ROOT, "packages/client");

/** Keywords that change neither the check, the issues nor the type: left out of the bundle. */
const PROSE = new Set(["description", "default", "examples", "title"]);

/** The schema as plain JSON (TypeBox's symbols dropped), without its prose. */
function plain(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema), (key, value) => (PROSE.has(key) ? undefined : value));
}

/** The checker of `schema`: TypeBox's generated code, which refers to nothing but `format`. */
function checkerCode(schema: TSchema): string {
  const code = TypeCompiler.Code(schema, [], { language: "javascript" });
  if (/\b(kind|hash)\(/.test(code)) throw new Error("generated checker needs TypeBox's kind/hash");
  return `(function () {\n${code}\n})()`;
}

// ---- the generated module that stands in for the operations table, schemas.ts and validate.ts

function generatedContract(): string {
  const schemas = new Map<TSchema, string>();
  const lines: string[] = [
    `import { hasFormat as format } from ${JSON.stringify(join(ROOT, "src/client/formats.ts"))};`,
    `import { mismatchesOf } from ${JSON.stringify(join(ROOT, "src/client/schema-mismatch.ts"))};`,
  ];
  const nameOf = (schema: TSchema): string => {
    let name = schemas.get(schema);
    if (name === undefined) {
      name = `schema${schemas.size}`;
      schemas.set(schema, name);
      lines.push(`const ${name} = ${JSON.stringify(plain(schema))};`);
      lines.push(`const ${name}Check = ${checkerCode(schema)};`);
    }
    return name;
  };
  const rows = OPERATION_LIST.map(
    (operation) =>
      `  { id: ${JSON.stringify(operation.id)}, method: ${JSON.stringify(operation.method)}, path: ${JSON.stringify(operation.path)}, request: ${operation.request === null ? "null" : "{}"}, result: ${nameOf(operation.result)}, policy: { representation: ${JSON.stringify(operation.policy.representation)} } },`,
  );
  const errorName = nameOf(ErrorResponse);
  lines.push(
    `export const ErrorResponse = ${errorName};`,
    `export const OPERATION_LIST = [\n${rows.join("\n")}\n];`,
    "export const OPERATIONS = Object.fromEntries(OPERATION_LIST.map((operation) => [operation.id, operation]));",
    `const CHECKS = new Map([${[...schemas.values()].map((name) => `[${name}, ${name}Check]`).join(", ")}]);`,
    "export function checkerOf(schema) {",
    "  const check = CHECKS.get(schema);",
    '  if (check === undefined) throw new Error("no generated checker for this schema");',
    "  return { check, issues: (value) => mismatchesOf(schema, value) };",
    "}",
    "export const lazyChecker = checkerOf;",
  );
  return lines.join("\n");
}

/** The client's imports that carry TypeBox, and the one generated module that replaces them. */
const REPLACED = /^(\.\.\/contract\/operations\.ts|\.\.\/contract\/schemas\.ts|\.\/validate\.ts)$/;
const withGeneratedContract: BunPlugin = {
  name: "generated-contract",
  setup(build) {
    build.onResolve({ filter: REPLACED }, (args) =>
      args.importer.endsWith(join("src", "client", "index.ts"))
        ? { path: "client-contract", namespace: "generated" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "generated" }, () => ({
      loader: "js",
      contents: generatedContract(),
    }));
  },
};

const build = await Bun.build({
  entrypoints: [join(ROOT, "src/client/index.ts")],
  target: "browser",
  format: "esm",
  minify: { whitespace: false, syntax: true, identifiers: false },
  plugins: [withGeneratedContract],
});
if (!build.success) {
  for (const log of build.logs) console.error(log);
  process.exit(1);
}
const [output] = build.outputs;
if (output === undefined || build.outputs.length !== 1) {
  console.error(`build-client-package: expected one output file, got ${build.outputs.length}`);
  process.exit(1);
}
const bundle = await output.text();
if (/@sinclair|typebox/i.test(bundle)) {
  console.error("build-client-package: TypeBox is still in the bundle");
  process.exit(1);
}
writeFileSync(join(PACKAGE, "index.js"), bundle);

// ---- the declarations

interface Schema {
  type?: string;
  const?: unknown;
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  description?: string;
}

/** The TypeScript type of a JSON Schema, as `Static` of its TypeBox schema reads. */
function typeOf(schema: Schema, indent: string): string {
  if (schema.anyOf !== undefined) return schema.anyOf.map((item) => typeOf(item, indent)).join(" | ");
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  switch (schema.type) {
    case "string":
      return "string";
    case "integer":
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array": {
      const item = typeOf(schema.items ?? {}, indent);
      return /[|\s]/.test(item) && !item.startsWith("{") ? `(${item})[]` : `${item}[]`;
    }
    case "object": {
      const inner = `${indent}  `;
      const required = new Set(schema.required ?? []);
      const members = Object.entries(schema.properties ?? {}).map(([name, property]) => {
        const doc =
          property.description === undefined
            ? ""
            : `${inner}/** ${property.description.replaceAll("*/", "*\\/")} */\n`;
        const key = /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
        return `${doc}${inner}${key}${required.has(name) ? "" : "?"}: ${typeOf(property, inner)};`;
      });
      if (typeof schema.additionalProperties === "object") {
        members.push(`${inner}[name: string]: ${typeOf(schema.additionalProperties, inner)};`);
      }
      return members.length === 0 ? "{}" : `{\n${members.join("\n")}\n${indent}}`;
    }
    default:
      return "unknown";
  }
}

const pascal = (id: string) => `${id[0]?.toUpperCase() ?? ""}${id.slice(1)}`;
const json = (schema: TSchema) => plainWithProse(schema) as Schema;
function plainWithProse(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema));
}

const typeLines: string[] = [];
const methods: string[] = [];
for (const operation of OPERATION_LIST) {
  const { id, request, result } = operation;
  const name = pascal(id);
  const representation = operation.policy.representation;
  if (request !== null) typeLines.push(`export type ${name}RequestType = ${typeOf(json(request), "")};`);
  typeLines.push(`export type ${name}ResultType = ${typeOf(json(result), "")};`);
  const value = representation === "text" ? "string" : `${name}ResultType`;
  const parameters =
    request === null ? "options?: CallOptions" : `request: ${name}RequestType, options?: CallOptions`;
  methods.push(`  ${id}(${parameters}): Promise<ApiResult<${value}>>;`);
  if (representation === "json-or-text") {
    methods.push(`  ${id}Text(options?: CallOptions): Promise<ApiResult<string>>;`);
  }
}
const ids = OPERATION_LIST.map((operation) => JSON.stringify(operation.id));
const withRequest = OPERATION_LIST.filter((operation) => operation.request !== null);

const declarations = `/**
 * Types of network-tools-api-client, generated by scripts/build-client-package.ts from the API's
 * operations table: every request and result type is written out, so nothing else is needed to
 * type-check against them.
 */

${typeLines.join("\n\n")}

export type OperationId = ${ids.join(" | ")};
export interface RequestTypes {
${withRequest.map((operation) => `  ${operation.id}: ${pascal(operation.id)}RequestType;`).join("\n")}
}
export interface ResultTypes {
${OPERATION_LIST.map((operation) => `  ${operation.id}: ${pascal(operation.id)}ResultType;`).join("\n")}
}
export type RequestOf<Id extends keyof RequestTypes> = RequestTypes[Id];
export type ResultOf<Id extends OperationId> = ResultTypes[Id];

/** The error envelope's \`error\` object, as the server sends it. */
export type ServerError = ${typeOf(json(ErrorResponse), "")}["error"];
export type ErrorIssue = NonNullable<ServerError["issues"]>[number];
export type Finding = CertificateBundleResultType["findings"][number];
export type CertificateEntry = CertificateBundleResultType["certificates"][number];
/** The codes the server sends; the envelope's \`code\` itself is typed as any string. */
export type ServerErrorCode = ${Object.keys(STATUS_OF)
  .map((code) => JSON.stringify(code))
  .join(" | ")};

/** What did not match: a sentence and where (a path from the body's root, like the server's issues). */
export interface MismatchIssue {
  message: string;
  path: (string | number)[];
}

/** No response arrived: connection refused or reset, DNS failure, timeout, abort. */
export interface NetworkError {
  code: "NETWORK_ERROR";
  message: string;
  /** Never present: declared so that \`error.issues\` reads the same on every kind of failure. */
  issues?: undefined;
}

/** A response arrived but did not match the API's schemas; \`issues\` say what and where. */
export interface InvalidResponseError {
  code: "INVALID_RESPONSE";
  message: string;
  issues: (ErrorIssue & MismatchIssue)[];
}

export type ClientError = NetworkError | InvalidResponseError;

/** Outcome of one call. \`status\` is absent only when no response arrived (NETWORK_ERROR). */
export type ApiResult<T> =
  | { ok: true; status: number; value: T; requestId?: string }
  | { ok: false; status: number; error: ServerError; requestId?: string }
  | { ok: false; status: number; error: InvalidResponseError; requestId?: string }
  | { ok: false; status?: undefined; error: NetworkError };

export interface ClientOptions {
  /** Where the API lives, e.g. \`http://localhost:3000\`; a path prefix is kept; "" is the page's origin. */
  baseUrl: string;
  /** Per-call limit for the whole exchange, body included; 10000 ms by default. */
  timeoutMs?: number;
  /** The fetch to use; globalThis.fetch by default. */
  fetch?: (input: Request) => Promise<Response>;
}

export interface CallOptions {
  /** Aborts the call (reported as NETWORK_ERROR). */
  signal?: AbortSignal;
  /** Sent as \`X-Request-Id\`; the server echoes it when it is 1–128 characters of \`[A-Za-z0-9._-]\`. */
  requestId?: string;
}

/** One method per operation, named by its id, plus \`<id>Text\` where the answer can be text. */
export interface Client {
${methods.join("\n")}
}

export declare const DEFAULT_TIMEOUT_MS: number;
/** Creates a client; it holds no connection or state besides its options. */
export declare function createClient(options: ClientOptions): Client;
/** True when the failure came from the client side (no response, or one that broke the schema). */
export declare function isClientError(error: { code: string }): error is ClientError;
/** The INVALID_RESPONSE error of a result, or null when the result is anything else. */
export declare function invalidResponseOf(result: ApiResult<unknown>): InvalidResponseError | null;
`;
writeFileSync(join(PACKAGE, "index.d.ts"), declarations);

// The package's version follows the project's.
const rootVersion = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string })
  .version;
const manifestPath = join(PACKAGE, "package.json");
const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { version: string };
if (manifest.version !== rootVersion) {
  manifest.version = rootVersion;
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
}
for (const file of ["index.js", "index.d.ts"]) {
  console.log(`build-client-package: packages/client/${file} (${statSync(join(PACKAGE, file)).size} bytes)`);
}
