/**
 * The API's Elysia routes, derived from the operations table (src/contract/operations.ts): one
 * route per operation, each with only the hooks it needs, so a GET such as the health probe
 * runs no hook at all. POST routes read and validate their body in a route-local `parse` hook
 * (size, media type, UTF-8 JSON, then the request schema, stopping at 101 problems); `queued`
 * operations run through the admission queue; every answer is built by the Responder.
 */
import type { TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
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
import type { AdmissionQueue, JobClock } from "./admission.ts";
import { readJsonBody } from "./json-body.ts";
import { type Responder, type ResponseTemplate, templateOf } from "./responder.ts";

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

const NEVER_EXPIRES: JobClock = { expired: () => false };

/** Reads the body under CONTRACT §1 and checks it against the operation's request schema. */
function bodyReader(schema: TSchema): (request: Request) => Promise<unknown> {
  const checker = TypeCompiler.Compile(schema);
  return async (request) => {
    const value = await readJsonBody(request);
    if (!checker.Check(value)) throw schemaRejection(checker.Errors(value));
    return value;
  };
}

type Handler = (input: unknown, request: Request) => Response | Promise<Response>;

function handlerFor(
  operation: Operation,
  run: (input: unknown, context: UseCaseContext) => unknown,
  responder: Responder,
  admission: AdmissionQueue,
): Handler {
  const template = templateOf(operation.policy);
  const respond = (request: Request, result: unknown): Response =>
    operation.policy.textAlternative && negotiate(request.headers.get("accept")) === "text"
      ? responder.text(request, template, `${(result as { ip: string }).ip}\n`)
      : responder.json(request, template, result);
  if (operation.policy.cost === "queued") {
    return async (input, request) => {
      const result = await admission.run(async (clock) => run(input, { request, clock }));
      return respond(request, result);
    };
  }
  return (input, request) => {
    const result = run(input, { request, clock: NEVER_EXPIRES });
    return result instanceof Promise
      ? result.then((value) => respond(request, value))
      : respond(request, result);
  };
}

/** Path → the response template its errors carry (no-store, Vary), for the error mapper. */
export const TEMPLATE_BY_PATH: ReadonlyMap<string, ResponseTemplate> = new Map(
  OPERATION_LIST.map((operation) => [operation.path, templateOf(operation.policy)]),
);

/** One Elysia route per operation of the table. */
export function apiRoutes(useCases: UseCases, responder: Responder, admission: AdmissionQueue) {
  const app = new Elysia({ name: "api-routes", normalize: false });
  for (const operation of OPERATION_LIST) {
    const run = useCases[operation.id as OperationId] as (input: unknown, context: UseCaseContext) => unknown;
    const handle = handlerFor(operation, run, responder, admission);
    const detail = {
      summary: operation.summary,
      ...(operation.description === undefined ? {} : { description: operation.description }),
      tags: [operation.tag],
      operationId: operation.id,
    };
    if (operation.request === null) {
      app.route(operation.method, operation.path, ({ request }) => handle(undefined, request), { detail });
    } else {
      const read = bodyReader(operation.request);
      app.route(operation.method, operation.path, ({ body, request }) => handle(body, request), {
        parse: ({ request }) => read(request),
        detail,
      });
    }
  }
  return app;
}
