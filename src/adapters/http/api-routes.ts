/**
 * The API's routes, one per row of the operations table (src/contract/operations.ts). Each route
 * is declared on the Elysia application (application.ts) with its handler and its complete OpenAPI
 * operation (`detail`, built here from the row and its prose), so @elysiajs/openapi writes the
 * whole document from the routes. The handler reads and validates the body (size, media type,
 * UTF-8 JSON, then the request schema, stopping at 101 problems; `parse: "none"` leaves the body
 * to it), runs the bound use case (through the admission lanes when the row says `queued`, within
 * the event loop's work budget when it says `metered`: both by the row's `cost`), and
 * answers in the row's representation. Every answer, errors included, is built by the Responder
 * with the row's headers; failures go to the one failure mapper beside it, so a handler never
 * throws.
 */
import type { TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { Value } from "@sinclair/typebox/value";
import { schemaRejection } from "../../contract/envelope.ts";
import { OPERATION_LIST, type Operation, type OperationId } from "../../contract/operations.ts";
import type { ClientAddressSource, SignatureVerifier } from "../../domain/ports.ts";
import type { UseCaseContext, UseCases } from "../../operations/use-cases.ts";
import { negotiate } from "./accept.ts";
import type { CertificateLanes, LoopBudget } from "./admission.ts";
import { encoderNamed } from "./encoders/index.ts";
import { declaredBodyBytes, readBodyBytes, readJsonBytes } from "./json-body.ts";
import { type OpenApiOperation, type OperationDocs, operationObjectOf } from "./openapi-document.ts";
import { type FailureMapper, type Responder, type ResponseTemplate, templateOf } from "./responder.ts";

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

/** What the API's handlers are built from, once, by the composition root. */
export interface ApiRouteDeps {
  readonly useCases: UseCases;
  readonly docs: OperationDocs;
  readonly responder: Responder;
  readonly fail: FailureMapper;
  /** The admission lanes of `queued` operations; their deadline also bounds a body's arrival. */
  readonly lanes: CertificateLanes;
  /** The event loop's budget for `metered` operations (CONTRACT §1.7, ADR 37). */
  readonly loopBudget: LoopBudget;
  /** The port the public-ip operations observe the client through. */
  readonly clientAddress: ClientAddressSource;
  /** The verifier of work that is not queued (queued work gets a deadline-aware one from its lane). */
  readonly verifier: SignatureVerifier;
}

/** One operation, ready to declare: its row, its handler and its OpenAPI operation. */
export interface ApiRoute {
  readonly operation: Operation<OperationId>;
  readonly template: ResponseTemplate;
  readonly handle: RequestHandler;
  /** The complete OpenAPI operation object of the row, for the route's `detail`. */
  readonly detail: OpenApiOperation;
}

/** Reads the body under CONTRACT §1 and checks it against the operation's request schema. */
export function bodyReader(
  schema: TSchema,
  {
    legacyLocators = true,
    timeLimitMs = Number.POSITIVE_INFINITY,
  }: { legacyLocators?: boolean; timeLimitMs?: number } = {},
): (request: Request) => Promise<unknown> {
  const parse = bodyParser(schema, { legacyLocators });
  return async (request) => parse(await readBodyBytes(request, timeLimitMs));
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

/**
 * Parses and validates a body's bytes (read by {@link readBodyBytes}) against the operation's
 * request schema: the part of {@link bodyReader} that admission weighs before paying for it.
 */
export function bodyParser(
  schema: TSchema,
  { legacyLocators = true }: { legacyLocators?: boolean } = {},
): (bytes: Uint8Array) => unknown {
  const checker = TypeCompiler.Compile(schema);
  const opaqueBeyond = inspectedDepth(schema);
  return (bytes) => {
    const value: unknown = readJsonBytes(bytes, opaqueBeyond);
    if (!checker.Check(value)) throw schemaRejection(checker.Errors(value), legacyLocators);
    return value;
  };
}

function handlerFor<Id extends OperationId>(
  operation: Operation<Id>,
  template: ResponseTemplate,
  deps: ApiRouteDeps,
): RequestHandler {
  const { responder, fail, lanes, clientAddress, verifier } = deps;
  const run = deps.useCases[operation.id] as (input: unknown, context: UseCaseContext) => unknown;
  // Like `run`, the row's cost takes the row's request type (CostMismatches checks it), which the
  // body has been validated against when it is called.
  const cost = (operation.cost ?? (() => 1)) as (input: unknown) => number;
  // Likewise the row's text, from its result type (TextMismatches checks it; text rows only).
  const text = operation.text as ((result: unknown) => string) | undefined;
  const representation = operation.policy.representation;
  const encode = encoderNamed(operation.encoder);
  const respond = (request: Request, result: unknown): Response =>
    text !== undefined && (representation === "text" || negotiate(request.headers.get("accept")) === "text")
      ? responder.text(request, template, text(result))
      : responder.json(request, template, encode(result));
  const contextOf = (request: Request): UseCaseContext => ({
    observeClient: () => clientAddress.clientAddress(request),
    verifier,
  });
  if (operation.request === null) {
    // A GET answered on the request's own turn: no promise unless the use case makes one.
    return (request) => {
      try {
        const result = run(undefined, contextOf(request));
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
  // Every request with a body is weighed by the event loop's budget before its body is read, again
  // before it is parsed, and (metered work) before its work runs (ADRs 37 and 48).
  const budget = deps.loopBudget;
  const meter = budget.meter();
  const timeLimitMs = bodyTimeLimitMs(lanes.deadlineMs);
  const parse = bodyParser(operation.request, { legacyLocators: operation.legacyLocators === true });
  const metered = operation.policy.admission === "metered";
  const queued = operation.policy.admission === "queued";
  const admitted = async (request: Request, promised: number, turn: number): Promise<Response> => {
    // Only a queued job's lane needs its arrival time (how long it has waited already).
    const arrival = queued ? performance.now() : 0;
    try {
      const bytes = await readBodyBytes(request, timeLimitMs);
      const usedBefore = meter.read(bytes.byteLength, promised, turn);
      const startedAt = budget.now();
      let workStartedAt = Number.NaN;
      let units = 0;
      let input: unknown;
      let result: unknown;
      let answer: Response | undefined;
      try {
        input = parse(bytes);
        units = cost(input);
        if (metered) {
          workStartedAt = meter.work(units, usedBefore, startedAt);
          result = run(input, contextOf(request));
          // Writing the answer is the work's too (a 10,000-subnet split is 200 kB of JSON):
          // charged and learned with it, when the use case answers synchronously.
          if (!(result instanceof Promise)) answer = respond(request, result);
        }
      } finally {
        meter.end(startedAt, bytes.byteLength, workStartedAt, units);
      }
      if (answer !== undefined) return answer;
      if (queued)
        result = await lanes
          .laneOf(units)
          .run(async (work) => run(input, { ...contextOf(request), ...work }), performance.now() - arrival);
      else if (!metered) result = run(input, contextOf(request));
      if (result instanceof Promise) result = await result; // no extra turn for a synchronous use case
      return respond(request, result);
    } catch (error) {
      return fail(request, template, error);
    }
  };
  return (request) => {
    // Refused before anything is read: the shed path makes no promise and no error.
    const promised = meter.arrive(declaredBodyBytes(request));
    if (promised < 0) return fail(request, template, budget.refused());
    return admitted(request, promised, budget.turn);
  };
}

/** Every operation of the table, in table order, with its handler and its OpenAPI operation. */
export function apiRoutes(deps: ApiRouteDeps): readonly ApiRoute[] {
  return OPERATION_LIST.map((operation) => {
    const template = templateOf(operation.policy);
    return {
      operation,
      template,
      handle: handlerFor(operation, template, deps),
      detail: operationObjectOf(operation, deps.docs[operation.id]),
    };
  });
}
