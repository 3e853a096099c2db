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
import { Elysia } from "elysia";
import { schemaRejection } from "../../contract/envelope.ts";
import { OPERATION_LIST, type Operation, type OperationId, textBodyOf } from "../../contract/operations.ts";
import type { UseCaseContext, UseCases } from "../../use-cases.ts";
import { negotiate } from "./accept.ts";
import type { AdmissionQueue, JobClock } from "./admission.ts";
import { readJsonBody } from "./json-body.ts";
import { type Responder, type ResponseTemplate, templateOf } from "./responder.ts";

/** The admission queue a `queued` request waits in, chosen from its validated input. */
export type AdmissionLanes = (input: unknown) => AdmissionQueue;

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
function bodyReader(schema: TSchema, legacyLocators: boolean): (request: Request) => Promise<unknown> {
  const checker = TypeCompiler.Compile(schema);
  return async (request) => {
    const value: unknown = await readJsonBody(request);
    if (!checker.Check(value)) throw schemaRejection(checker.Errors(value), legacyLocators);
    return value;
  };
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
    operation.request === null ? null : bodyReader(operation.request, operation.legacyLocators === true);
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
    try {
      const input = read === null ? undefined : await read(request);
      let result = queued
        ? admission(input).run((clock) => Promise.resolve(run(input, contextOf(request, clock))))
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
