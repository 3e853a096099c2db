/**
 * The API's Elysia routes, derived from the operations table (src/contract/operations.ts): one
 * route per operation and no lifecycle hook, so Elysia compiles each into a plain call (the
 * health probe's is synchronous). POST handlers read and validate their body first (size,
 * media type, UTF-8 JSON, then the request schema, stopping at 101 problems); `queued`
 * operations run through the admission queue; every answer, errors included, is built by the
 * Responder.
 */
import type { TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { Value } from "@sinclair/typebox/value";
import { Elysia } from "elysia";
import { schemaRejection } from "../../contract/envelope.ts";
import {
  OPERATION_LIST,
  type Operation,
  type OperationId,
  type RequestOf,
  type ResultOf,
} from "../../contract/operations.ts";
import { negotiate } from "./accept.ts";
import type { Admission, JobClock } from "./admission.ts";
import { BodyTimeout, readJsonBody } from "./json-body.ts";
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

/** What a use case gets besides its validated input. */
export interface UseCaseContext {
  readonly request: Request;
  /** For `queued` operations: whether the request's deadline has passed (CONTRACT §1.7). */
  readonly clock: JobClock;
}

/** The use case bound to each operation (the composition root fills this in). */
export type UseCases = {
  [Id in OperationId]: (
    input: RequestOf<Id>,
    context: UseCaseContext,
  ) => ResultOf<Id> | Promise<ResultOf<Id>>;
};

const NEVER_EXPIRES: JobClock = { expired: () => false, startUnit: () => true };

/** Reads the body under CONTRACT §1 and checks it against the operation's request schema. */
export function bodyReader(
  schema: TSchema,
  timeLimitMs = Number.POSITIVE_INFINITY,
): (request: Request) => Promise<unknown> {
  const checker = TypeCompiler.Compile(schema);
  const options = { opaqueBeyond: inspectedDepth(schema), timeLimitMs };
  return async (request) => {
    const value: unknown = await readJsonBody(request, options);
    if (!checker.Check(value)) throw schemaRejection(checker.Errors(value));
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

/** The one error mapper: a DomainError to its envelope, anything else to a logged 500. */
export type FailureMapper = (request: Request, template: ResponseTemplate, error: unknown) => Response;

type Handler = (request: Request) => Response | Promise<Response>;

/**
 * The route handler of one operation. It never throws: every failure, from the body rules to
 * the use case, becomes an answer here, so the route needs no Elysia error hook and a GET
 * route stays synchronous (no promise per request).
 */
function handlerFor(
  operation: Operation,
  run: (input: unknown, context: UseCaseContext) => unknown,
  responder: Responder,
  admission: AdmissionLanes,
  fail: FailureMapper,
): Handler {
  const template = TEMPLATE_BY_PATH.get(operation.path) ?? templateOf(operation.policy);
  const respond = (request: Request, result: unknown): Response =>
    operation.policy.textAlternative && negotiate(request.headers.get("accept")) === "text"
      ? responder.text(request, template, `${(result as { ip: string }).ip}\n`)
      : responder.json(request, template, result);
  const read =
    operation.request === null ? null : bodyReader(operation.request, bodyTimeLimitMs(admission.deadlineMs));
  const queued = operation.policy.cost === "queued";
  if (read === null && !queued) {
    return (request) => {
      try {
        const result = run(undefined, { request, clock: NEVER_EXPIRES });
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
        ? admission(input).run(async (clock) => run(input, { request, clock }), performance.now() - arrival)
        : run(input, { request, clock: NEVER_EXPIRES });
      if (result instanceof Promise) result = await result; // no extra turn for a synchronous use case
      return respond(request, result);
    } catch (error) {
      const response = fail(request, template, error);
      // The rest of a body that came too slowly is never read: the connection cannot be reused.
      if (error instanceof BodyTimeout) response.headers.set("connection", "close");
      return response;
    }
  };
}

/** Path → the response template its errors carry (no-store, Vary), for the error mapper. */
export const TEMPLATE_BY_PATH: ReadonlyMap<string, ResponseTemplate> = new Map(
  OPERATION_LIST.map((operation) => [operation.path, templateOf(operation.policy)]),
);

/** One Elysia route per operation of the table, none with a lifecycle hook. */
export function apiRoutes(
  useCases: UseCases,
  responder: Responder,
  admission: AdmissionLanes,
  fail: FailureMapper,
) {
  const app = new Elysia({ name: "api-routes", normalize: false });
  for (const operation of OPERATION_LIST) {
    const run = useCases[operation.id as OperationId] as (input: unknown, context: UseCaseContext) => unknown;
    const handle = handlerFor(operation, run, responder, admission, fail);
    const route = ({ request }: { request: Request }) => handle(request);
    // Elysia decides from a handler's source text whether it may be async (`=> call(` counts),
    // and then awaits it on every request. A light GET handler is synchronous; its source as
    // Elysia reads it says so, which keeps the health probe free of a promise per request.
    if (operation.request === null && operation.policy.cost === "light") {
      route.toString = () => "({ request }) => response";
    }
    app.route(operation.method, operation.path, route, {
      detail: {
        summary: operation.summary,
        ...(operation.description === undefined ? {} : { description: operation.description }),
        tags: [operation.tag],
        operationId: operation.id,
      },
    });
  }
  return app;
}
