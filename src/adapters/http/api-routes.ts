/**
 * The API's request handlers, one per row of the operations table (src/contract/operations.ts):
 * each reads and validates its body (size, media type, UTF-8 JSON, then the request schema,
 * stopping at 101 problems), runs the bound use case (through the admission queue when the row
 * says `queued`), and answers in the row's representation. Every answer, errors included, is built
 * by the Responder with the row's headers; a handler never throws, so it needs no framework hook.
 *
 * The same table declares the routes on the Elysia application (`apiRouteDeclarations`), which is
 * what @elysiajs/openapi documents; the serving edge hands these handlers to Bun's router itself.
 */
import type { TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { Value } from "@sinclair/typebox/value";
import { Elysia } from "elysia";
import { schemaRejection } from "../../contract/envelope.ts";
import { OPERATION_LIST, type Operation, type OperationId, textBodyOf } from "../../contract/operations.ts";
import type { UseCaseContext, UseCases } from "../../use-cases.ts";
import { negotiate } from "./accept.ts";
import type { Admission, JobClock } from "./admission.ts";
import { readJsonBody } from "./json-body.ts";
import { type Responder, type ResponseTemplate, templateOf } from "./responder.ts";

/**
 * The admission a `queued` request goes through, chosen (and sized) from its validated input;
 * `deadlineMs` is the request deadline (IDLE_TIMEOUT_SECONDS), which also bounds a body's arrival.
 */
export type AdmissionLanes = ((input: unknown) => Admission) & { readonly deadlineMs: number };

/**
 * How long a POST body may take to arrive: the request deadline less a quarter of it, at most
 * 250 ms. Bun closes a connection whose request has not been answered after IDLE_TIMEOUT_SECONDS
 * (a body arriving steadily does not reset its timer), so a slower body is answered before that:
 * 400 INVALID_JSON and `Connection: close` (docs/decisions/0019-slow-bodies.md).
 */
export function bodyTimeLimitMs(deadlineMs: number): number {
  return deadlineMs - Math.min(250, deadlineMs / 4);
}

/** A request handler of the edge: a Fetch request in, a response out, never a rejection. */
export type RequestHandler = (request: Request) => Response | Promise<Response>;

/** What each run needs from the edge: the context of one request, given its deadline clock. */
export type ContextOf = (request: Request, clock: JobClock | null) => UseCaseContext;

/** The one error mapper: a rejection to its envelope, anything else to a logged 500. */
export type FailureMapper = (request: Request, template: ResponseTemplate, error: unknown) => Response;

/** One operation, ready to serve: its row and its handler. */
export interface ApiRoute {
  readonly operation: Operation<OperationId>;
  readonly template: ResponseTemplate;
  readonly handle: RequestHandler;
}

/** Reads the body under CONTRACT §1 and checks it against the operation's request schema. */
export function bodyReader(
  schema: TSchema,
  {
    legacyLocators = true,
    timeLimitMs = Number.POSITIVE_INFINITY,
  }: { legacyLocators?: boolean; timeLimitMs?: number } = {},
): (request: Request) => Promise<unknown> {
  const checker = TypeCompiler.Compile(schema);
  const options = { opaqueBeyond: inspectedDepth(schema), timeLimitMs };
  return async (request) => {
    const value: unknown = await readJsonBody(request, options);
    if (!checker.Check(value)) throw schemaRejection(checker.Errors(value), legacyLocators);
    return value;
  };
}

const messagesOf = (schema: TSchema, value: unknown): string =>
  [...Value.Errors(schema, value)].map((error) => `${error.path} ${error.message}`).join("\n");

/**
 * The deepest level at which `schema` looks inside a container (1: the body object, 2: arrays in
 * it), so that the body reader may read any container nested deeper as `null`: at such a position
 * the schema expects a scalar (or nothing: an unknown field), and validation reports a container
 * there exactly as it reports `null`. Checked here for every such position of the schema, not
 * assumed: where the two would differ (a schema that accepts null, or looks deeper than it can be
 * measured), every container is built, as `Infinity` says.
 */
export function inspectedDepth(schema: TSchema): number {
  const depth = containerDepth(schema);
  if (!Number.isFinite(depth)) return depth;
  const scalarPositions: TSchema[] = [];
  const collect = (node: TSchema, level: number): void => {
    if (Array.isArray(node.anyOf)) for (const branch of node.anyOf as TSchema[]) collect(branch, level);
    else if (level === depth) scalarPositions.push(...childSchemas(node));
    else for (const child of childSchemas(node)) collect(child, level + 1);
  };
  collect(schema, 1);
  const transparent = scalarPositions.every(
    (position) =>
      messagesOf(position, null) === messagesOf(position, {}) &&
      messagesOf(position, null) === messagesOf(position, []) &&
      messagesOf(position, null) !== "",
  );
  return transparent ? depth : Number.POSITIVE_INFINITY;
}

/** The schemas of a container schema's members (properties, additional properties, items). */
function childSchemas(node: TSchema): TSchema[] {
  const children: TSchema[] = [];
  if (node.type === "object") {
    children.push(...Object.values((node.properties ?? {}) as Record<string, TSchema>));
    if (typeof node.additionalProperties === "object") children.push(node.additionalProperties as TSchema);
  } else if (node.type === "array" && typeof node.items === "object") children.push(node.items as TSchema);
  return children;
}

const SCALAR_TYPES = new Set(["string", "integer", "number", "boolean", "null"]);

/** Levels of containers a value of `schema` can have; Infinity when the schema does not say. */
function containerDepth(node: TSchema): number {
  if (Array.isArray(node.anyOf)) return Math.max(0, ...(node.anyOf as TSchema[]).map(containerDepth));
  if (node.type === "object") {
    if (node.additionalProperties !== false) return Number.POSITIVE_INFINITY;
    return 1 + Math.max(0, ...childSchemas(node).map(containerDepth));
  }
  if (node.type === "array")
    return typeof node.items === "object"
      ? 1 + containerDepth(node.items as TSchema)
      : Number.POSITIVE_INFINITY;
  if (typeof node.type === "string" && SCALAR_TYPES.has(node.type)) return 0;
  if (node.const !== undefined) return 0;
  return Number.POSITIVE_INFINITY;
}

function handlerFor(
  operation: Operation<OperationId>,
  template: ResponseTemplate,
  run: (input: unknown, context: UseCaseContext) => unknown,
  contextOf: ContextOf,
  responder: Responder,
  admission: AdmissionLanes,
  fail: FailureMapper,
): RequestHandler {
  const representation = operation.policy.representation;
  const respond = (request: Request, result: unknown): Response =>
    representation === "text" ||
    (representation === "json-or-text" && negotiate(request.headers.get("accept")) === "text")
      ? responder.text(request, template, textBodyOf(result))
      : responder.json(request, template, result);
  const read =
    operation.request === null
      ? null
      : bodyReader(operation.request, {
          legacyLocators: operation.legacyLocators === true,
          timeLimitMs: bodyTimeLimitMs(admission.deadlineMs),
        });
  const queued = operation.policy.admission === "queued";
  if (read === null && !queued) {
    // A GET answered on the request's own turn: no promise unless the use case makes one.
    return (request) => {
      try {
        const result = run(undefined, contextOf(request, null));
        if (!(result instanceof Promise)) return respond(request, result);
        return result.then(
          (value) => respond(request, value),
          (error: unknown) => fail(request, template, error),
        );
      } catch (error) {
        return fail(request, template, error);
      }
    };
  }
  return async (request) => {
    const arrival = performance.now();
    try {
      const input = read === null ? undefined : await read(request);
      let result = queued
        ? admission(input).run(
            (clock) => Promise.resolve(run(input, contextOf(request, clock))),
            performance.now() - arrival,
          )
        : run(input, contextOf(request, null));
      if (result instanceof Promise) result = await result; // no extra turn for a synchronous use case
      return respond(request, result);
    } catch (error) {
      return fail(request, template, error);
    }
  };
}

/** The handler of every operation of the table, in table order. */
export function apiRoutes(
  useCases: UseCases,
  contextOf: ContextOf,
  responder: Responder,
  admission: AdmissionLanes,
  fail: FailureMapper,
): readonly ApiRoute[] {
  return OPERATION_LIST.map((operation) => {
    const template = templateOf(operation.policy);
    const run = useCases[operation.id] as (input: unknown, context: UseCaseContext) => unknown;
    return {
      operation,
      template,
      handle: handlerFor(operation, template, run, contextOf, responder, admission, fail),
    };
  });
}

/**
 * The API's routes declared on an Elysia instance, so that @elysiajs/openapi documents them (the
 * schemas, examples and prose are completed from the table and the docs table). Each declared
 * route answers through its handler, so `app.handle` on the Elysia instance agrees with the edge.
 */
export function apiRouteDeclarations(routes: readonly ApiRoute[]) {
  const app = new Elysia({ name: "api-routes", normalize: false });
  for (const { operation, handle } of routes) {
    app.route(operation.method, operation.path, ({ request }: { request: Request }) => handle(request), {
      detail: { operationId: operation.id },
    });
  }
  return app;
}
