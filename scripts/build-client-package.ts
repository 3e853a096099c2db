/**
 * Builds the client package (packages/client, `network-tools-api-client`, issue 19): the typed
 * client of src/client/index.ts as one ESM file for browsers, Node ≥ 20 and Bun, with no
 * dependency at run time or in its types. Run by `npm run pack:client`, which then packs it.
 *
 * - TypeBox is replaced at build time by src/web/generated-contract.ts (the page's bundle
 *   uses the same plugin): checkers emitted by `TypeCompiler.Code`, nothing compiled at run time.
 * - The declarations (index.d.ts) are written from the same table: each request and result
 *   schema becomes a plain TypeScript type, so a consumer needs no TypeBox to type-check.
 *
 * See docs/decisions/0025-lean-client-package.md.
 */
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { TSchema } from "@sinclair/typebox";
import { STATUS_OF } from "../src/contract/errors.ts";
import { OPERATION_LIST } from "../src/contract/operations.ts";
import { ErrorResponse } from "../src/contract/schemas.ts";
import { OPERATION_DOCS } from "../src/operations/docs.ts";
import { withGeneratedContract } from "../src/web/generated-contract.ts";

const ROOT = resolve(import.meta.dir, "..");
const PACKAGE = join(ROOT, "packages/client");

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
  patternProperties?: Record<string, Schema>;
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
      for (const property of Object.values(schema.patternProperties ?? {})) {
        members.push(`${inner}[name: string]: ${typeOf(property, inner)};`);
      }
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
/** The schema as plain JSON, descriptions kept (they become the declarations' comments). */
const json = (schema: TSchema) => JSON.parse(JSON.stringify(schema)) as Schema;

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
  // The operation's summary from its docs prose, as the method's JSDoc (what an editor shows).
  const about = `${OPERATION_DOCS[id].summary.replaceAll("*/", "* /")}: \`${operation.method} ${operation.path}\``;
  methods.push(`  /** ${about}. */`);
  methods.push(`  ${id}(${parameters}): Promise<ApiResult<${value}>>;`);
  if (representation === "json-or-text") {
    methods.push(`  /** ${about}, the answer as text. */`);
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
  /** The longest response body read, in bytes; past it reading stops and the call is INVALID_RESPONSE. 4194304 (4 MiB) by default. */
  maxResponseBytes?: number;
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
/** The default of \`ClientOptions.maxResponseBytes\`: 4 MiB. */
export declare const DEFAULT_MAX_RESPONSE_BYTES: number;
/** Creates a client; it holds no connection or state besides its options. */
export declare function createClient(options: ClientOptions): Client;
/**
 * True when the failure came from the client side: no response, or one that broke the schema or
 * the protocol. Never true of a server's own envelope (one carrying these codes is INVALID_RESPONSE).
 */
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
