/**
 * The OpenAPI 3.1 operation object of each row of the operations table, built once when its route
 * is declared (src/adapters/http/api-routes.ts puts it in the route's `detail`, and
 * @elysiajs/openapi writes the document from the routes; docs/decisions/0004-openapi.md), and the
 * components every operation refers to: the row's request and result schemas by name, the one
 * error envelope, the response headers. Facts come from the row (method, path, schemas, policy:
 * no-store, rate limit, admission, representation); the prose and examples from its docs entry.
 * The schemas themselves are never rewritten, only named and referenced.
 */

import { envelopeOf } from "../../contract/envelope.ts";
import { INTERNAL_ERROR, STATUS_OF, type WireErrorCode } from "../../contract/errors.ts";
import { type Operation, type OperationId, schemaNamesOf } from "../../contract/operations.ts";
import { ErrorResponse } from "../../contract/schemas.ts";
import { MAX_BODY_BYTES, MAX_RESULT_CIDRS } from "../../domain/limits.ts";
import { busyRefusal, DEFAULT_ADMISSION, loopBusyRefusal } from "./admission.ts";

type JsonObject = Record<string, unknown>;

/** An OpenAPI operation object (or any other part of the document), as plain JSON. */
export type OpenApiOperation = JsonObject;

/** One documented exchange: an optional request example and the response it gets. */
export interface ExampleExchange {
  summary: string;
  /** The JSON request body, shown as a request example (operations with a body). */
  request?: unknown;
  status: number;
  /** The response body: a JSON value, or the exact text of a text/plain response. */
  response: unknown;
  /** Media type of the response; JSON unless stated. */
  mediaType?: "application/json" | "text/plain";
}

/**
 * The prose of one operation: what the operations table (src/contract/operations.ts) does not
 * say. Every fact (id, method, path, schemas and their names, no-store, rate limit, text
 * representation) is read from the operation's row.
 */
export interface OperationDoc {
  summary: string;
  description?: string;
  tag: "CIDR" | "Certificates" | "Diagnostics" | "Platform";
  resultDescription: string;
  /** Error codes by status, in addition to those every operation of its kind can answer. */
  errors?: Partial<Record<number, WireErrorCode[]>>;
  /** Prose for the text/plain representation, for operations whose row has one. */
  textDescription?: string;
  /** Named examples; a request example and its response share the name. */
  examples: Record<string, ExampleExchange>;
}

/** Operation id → its prose; a missing entry does not compile. */
export type OperationDocs = Readonly<Record<OperationId, OperationDoc>>;

/** The schema of a text/plain answer: one address and a line feed. */
const TEXT_ADDRESS_SCHEMA = { type: "string", pattern: "^[0-9A-Fa-f:.]+\\n$" };

const JSON_MEDIA_TYPE = "application/json";
const TEXT_MEDIA_TYPE = "text/plain";
const ERROR_COMPONENT = "ErrorResponse";

const REASONS: Record<number, string> = {
  400: "Bad request",
  404: "Not found",
  405: "Method not allowed",
  413: "Payload too large",
  415: "Unsupported media type",
  429: "Too many requests",
  500: "Internal error",
  503: "Service unavailable",
};

/** When each error code is answered, one phrase each (spec part 7, CONTRACT §1, §3, §5). */
const CODE_CONDITIONS: Record<WireErrorCode, string> = {
  INVALID_JSON: "the body is not UTF-8 JSON (an empty body included)",
  INVALID_INPUT:
    "the body is not an object, or a field is missing, of the wrong type, out of bounds or unknown; `issues` lists every problem (up to 100), each with its `path`",
  MIXED_ADDRESS_FAMILIES: "IPv4 and IPv6 are mixed; the issue points at the first entry of the other family",
  RESULT_TOO_LARGE: `the result would hold more than ${MAX_RESULT_CIDRS} CIDRs; no partial list is returned`,
  INSUFFICIENT_SPACE:
    "fewer free blocks of the requested length exist than were asked for; the message says how many fit",
  PAYLOAD_TOO_LARGE: `the body is larger than ${MAX_BODY_BYTES} bytes (decided from Content-Length when declared, else while reading)`,
  UNSUPPORTED_MEDIA_TYPE: "the Content-Type media type is not application/json (a missing header included)",
  METHOD_NOT_ALLOWED:
    "the path exists but does not accept this method; the `Allow` header lists the methods it does",
  NOT_FOUND: "no endpoint exists at the path",
  CLIENT_IP_UNAVAILABLE:
    "no client address can be observed: the connection has no socket address, or a trusted proxy sent no usable forwarding header",
  RATE_LIMITED:
    "only when the operator sets RATE_LIMIT_PER_MINUTE: this client address has used its requests for now; retry after `Retry-After` seconds",
  OVERLOADED:
    "the certificate inspection could not start within its bounded wait (other inspections hold the queue), or could not finish within the request deadline; retry after `Retry-After` seconds",
  INTERNAL_ERROR: "an unexpected failure; the message is generic and the server keeps serving",
};

const ref = (kind: "schemas" | "headers", name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** Response headers, as components. */
const HEADERS: JsonObject = {
  "X-Request-Id": {
    description:
      "The caller's `X-Request-Id` when it is 1 to 128 characters of `[A-Za-z0-9._-]`, otherwise a new random id. Also in the server's log line for the request.",
    required: true,
    schema: { type: "string", pattern: "^[A-Za-z0-9._-]{1,128}$" },
  },
  Allow: {
    description: "The methods the path accepts.",
    required: true,
    schema: { type: "string", minLength: 1 },
    example: "POST, OPTIONS",
  },
  "Cache-Control": {
    description: "This response must not be stored by any cache.",
    required: true,
    schema: { type: "string", const: "no-store" },
  },
  "Retry-After": {
    description: "Whole seconds until the client may send its next request.",
    required: true,
    schema: { type: "string", pattern: "^[1-9][0-9]*$" },
  },
  Vary: {
    description: "The representation depends on the `Accept` request header.",
    required: true,
    schema: { type: "string", const: "Accept" },
  },
};

/** A TypeBox schema as plain JSON Schema (its symbol-keyed metadata dropped), literal unions folded. */
function jsonSchemaOf(schema: unknown): JsonObject {
  return foldLiteralUnions(JSON.parse(JSON.stringify(schema))) as JsonObject;
}

/**
 * `anyOf` of string constants (TypeBox's union of literals), optionally with `null`, as the
 * plainer `{type: "string", enum: [...]}` that readers and code generators expect.
 */
function foldLiteralUnions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(foldLiteralUnions);
  if (value === null || typeof value !== "object") return value;
  const node: JsonObject = {};
  for (const [key, child] of Object.entries(value)) node[key] = foldLiteralUnions(child);
  const members = node.anyOf;
  if (!Array.isArray(members) || members.length === 0) return node;
  const literals: (string | null)[] = [];
  for (const member of members as JsonObject[]) {
    if (typeof member.const === "string") literals.push(member.const);
    else if (member.type === "null" && Object.keys(member).length === 1) literals.push(null);
    else return node;
  }
  const { anyOf: _folded, ...rest } = node;
  const hasNull = literals.includes(null);
  return { ...rest, type: hasNull ? ["string", "null"] : "string", enum: literals };
}

/** Every error status of an operation with the codes it can carry there, in status order. */
export function errorCodesOf(row: Operation, doc: OperationDoc): Map<number, WireErrorCode[]> {
  const codes = new Map<number, WireErrorCode[]>();
  const add = (code: WireErrorCode) => {
    const status = STATUS_OF[code];
    const list = codes.get(status) ?? [];
    if (!list.includes(code)) list.push(code);
    codes.set(status, list);
  };
  if (row.request !== null) {
    for (const code of [
      "INVALID_JSON",
      "INVALID_INPUT",
      "PAYLOAD_TOO_LARGE",
      "UNSUPPORTED_MEDIA_TYPE",
    ] as const) {
      add(code);
    }
  }
  add("METHOD_NOT_ALLOWED");
  if (row.policy.rateLimited) add("RATE_LIMITED");
  add("INTERNAL_ERROR");
  for (const [status, extra] of Object.entries(doc.errors ?? {})) {
    for (const code of extra ?? []) {
      if (STATUS_OF[code] !== Number(status)) {
        throw new Error(`${doc.summary}: ${code} is answered with ${STATUS_OF[code]}, not ${status}`);
      }
      add(code);
    }
  }
  if (row.policy.admission !== "immediate") add("OVERLOADED");
  return new Map([...codes].sort(([a], [b]) => a - b));
}

/**
 * The examples every operation of its kind gets: 405 and 500; 429 when it is rate-limited; 503
 * when its work is queued or metered; for a JSON body 400, 413 and 415.
 */
export function commonExamples(row: Operation): Record<string, ExampleExchange> {
  const { method, path } = row;
  const allowed = method === "GET" ? "GET or HEAD" : method;
  const other = method === "GET" ? "POST" : "GET";
  const examples: Record<string, ExampleExchange> = {
    ...(row.policy.admission === "queued"
      ? {
          overloaded: {
            summary: "Other inspections hold the queue",
            status: 503,
            response: envelopeOf(busyRefusal(DEFAULT_ADMISSION.maxWaitMs)),
          },
        }
      : row.policy.admission === "metered"
        ? {
            overloaded: {
              summary: "Other requests' work fills the service",
              status: 503,
              response: envelopeOf(loopBusyRefusal()),
            },
          }
        : {}),
    methodNotAllowed: {
      summary: `${other} instead of ${method}`,
      status: 405,
      response: {
        error: { code: "METHOD_NOT_ALLOWED", message: `${path} does not accept ${other}; use ${allowed}.` },
      },
    },
    ...(row.policy.rateLimited
      ? {
          rateLimited: {
            summary: "Over RATE_LIMIT_PER_MINUTE=60",
            status: 429,
            response: {
              error: {
                code: "RATE_LIMITED",
                message: "Too many requests from this address: the limit is 60 per minute; retry after 1 s.",
              },
            },
          },
        }
      : {}),
    internalError: {
      summary: "Unexpected failure",
      status: 500,
      response: envelopeOf(INTERNAL_ERROR),
    },
  };
  if (row.request === null) return examples;
  return {
    invalidJson: {
      summary: "Body cut short",
      status: 400,
      response: { error: { code: "INVALID_JSON", message: "The request body is not valid JSON." } },
    },
    payloadTooLarge: {
      summary: `Body over ${MAX_BODY_BYTES} bytes`,
      status: 413,
      response: {
        error: {
          code: "PAYLOAD_TOO_LARGE",
          message: `The request body is larger than the limit of ${MAX_BODY_BYTES} bytes.`,
        },
      },
    },
    unsupportedMediaType: {
      summary: "Sent as text/plain",
      status: 415,
      response: {
        error: {
          code: "UNSUPPORTED_MEDIA_TYPE",
          message: "The request body must be sent as Content-Type: application/json.",
        },
      },
    },
    ...examples,
  };
}

function examplesFor(
  exchanges: Record<string, ExampleExchange>,
  status: number,
  mediaType: string,
): JsonObject | undefined {
  const selected: JsonObject = {};
  for (const [name, exchange] of Object.entries(exchanges)) {
    if (exchange.status === status && (exchange.mediaType ?? JSON_MEDIA_TYPE) === mediaType) {
      selected[name] = { summary: exchange.summary, value: exchange.response };
    }
  }
  return Object.keys(selected).length === 0 ? undefined : selected;
}

function describeErrors(status: number, codes: readonly WireErrorCode[]): string {
  const lines = codes.map((code) => `- \`${code}\`: ${CODE_CONDITIONS[code]}.`);
  return `${REASONS[status] ?? `Status ${status}`}, with the error envelope.\n\n${lines.join("\n")}`;
}

/**
 * The complete OpenAPI operation of one row: id, prose and tag; the request body and the 200
 * answer by their components' names, each with its examples; every error status the row can
 * answer, with the codes and the headers it carries (`Allow`, `Retry-After`, no-store, `Vary`).
 */
export function operationObjectOf(row: Operation, doc: OperationDoc): OpenApiOperation {
  const names = schemaNamesOf(row.id);
  const { noStore, representation } = row.policy;
  // The operation's own examples first (Swagger UI shows the first), then the common ones.
  const exchanges: Record<string, ExampleExchange> = { ...doc.examples };
  for (const [name, exchange] of Object.entries(commonExamples(row))) exchanges[name] ??= exchange;

  const operation: OpenApiOperation = { operationId: row.id, summary: doc.summary };
  if (doc.description !== undefined) operation.description = doc.description;
  operation.tags = [doc.tag];
  if (row.request !== null) {
    const requests: JsonObject = {};
    for (const [name, exchange] of Object.entries(exchanges)) {
      if (exchange.request !== undefined)
        requests[name] = { summary: exchange.summary, value: exchange.request };
    }
    operation.requestBody = {
      required: true,
      content: {
        [JSON_MEDIA_TYPE]: {
          schema: ref("schemas", names.request),
          ...(Object.keys(requests).length > 0 ? { examples: requests } : {}),
        },
      },
    };
  }

  const common = (): JsonObject => ({
    "X-Request-Id": ref("headers", "X-Request-Id"),
    ...(noStore ? { "Cache-Control": ref("headers", "Cache-Control") } : {}),
  });
  const content: Record<string, JsonObject> = {};
  // A text-only answer has no JSON representation at all.
  if (representation !== "text") {
    const examples = examplesFor(exchanges, 200, JSON_MEDIA_TYPE);
    content[JSON_MEDIA_TYPE] = {
      schema: ref("schemas", names.result),
      ...(examples === undefined ? {} : { examples }),
    };
  }
  if (representation !== "json") {
    const examples = examplesFor(exchanges, 200, TEXT_MEDIA_TYPE);
    content[TEXT_MEDIA_TYPE] = {
      schema: {
        ...TEXT_ADDRESS_SCHEMA,
        ...(doc.textDescription ? { description: doc.textDescription } : {}),
      },
      ...(examples === undefined ? {} : { examples }),
    };
  }
  const responses: Record<string, JsonObject> = {
    "200": {
      description: doc.resultDescription,
      content,
      headers: {
        ...common(),
        ...(representation === "json-or-text" ? { Vary: ref("headers", "Vary") } : {}),
      },
    },
  };
  for (const [status, codes] of errorCodesOf(row, doc)) {
    const examples = examplesFor(exchanges, status, JSON_MEDIA_TYPE);
    responses[String(status)] = {
      description: describeErrors(status, codes),
      headers: {
        ...common(),
        ...(status === 405 ? { Allow: ref("headers", "Allow") } : {}),
        ...(status === 429 || codes.includes("OVERLOADED")
          ? { "Retry-After": ref("headers", "Retry-After") }
          : {}),
      },
      content: {
        [JSON_MEDIA_TYPE]: {
          schema: {
            allOf: [
              ref("schemas", ERROR_COMPONENT),
              {
                type: "object",
                properties: {
                  error: { type: "object", properties: { code: { type: "string", enum: codes } } },
                },
              },
            ],
          },
          ...(examples === undefined ? {} : { examples }),
        },
      },
    };
  }
  operation.responses = responses;
  return operation;
}

/**
 * The components the operations refer to: each row's request and result schemas under their names
 * (`CidrCoverRequest`, `CidrCoverResult`), the error envelope, the 404 answer of an unknown path and
 * the response headers.
 */
export function documentComponents(rows: readonly Operation[]): JsonObject {
  const schemas: JsonObject = {};
  for (const row of rows) {
    const names = schemaNamesOf(row.id);
    if (row.request !== null) schemas[names.request] = jsonSchemaOf(row.request);
    schemas[names.result] = jsonSchemaOf(row.result);
  }
  const errorResponse = jsonSchemaOf(ErrorResponse);
  errorResponse.description =
    "The one error envelope of every operation: `error.code` says what went wrong, `error.message` is one human sentence, `error.issues` (validation errors) locates each problem.";
  return {
    schemas: { ...schemas, [ERROR_COMPONENT]: errorResponse },
    responses: {
      NotFound: {
        description: describeErrors(404, ["NOT_FOUND"]),
        headers: { "X-Request-Id": ref("headers", "X-Request-Id") },
        content: {
          [JSON_MEDIA_TYPE]: {
            schema: ref("schemas", ERROR_COMPONENT),
            example: { error: { code: "NOT_FOUND", message: "No endpoint exists at /v1/cidr-cvoer." } },
          },
        },
      },
    },
    headers: HEADERS,
  };
}
