/**
 * Composition root: binds each operation of the wire contract to its use case (src/use-cases.ts,
 * with the API's limits), builds the API's handlers from the operations table, declares them with
 * the page and the docs on one Elysia application, and hands everything to the serving edge. It
 * wires; the rules live in the modules it wires: the shared HTTP rules in src/adapters/http/
 * (edge, responder, json-body, admission with its deadline), the wire contract in src/contract/.
 */
import { Elysia } from "elysia";
import {
  type AdmissionOptions,
  certificateLanes,
  DEFAULT_ADMISSION,
  withDeadline,
} from "./adapters/http/admission.ts";
import { apiRouteDeclarations, apiRoutes, type ContextOf } from "./adapters/http/api-routes.ts";
import { docsRoutes } from "./adapters/http/docs.ts";
import { Edge } from "./adapters/http/edge.ts";
import { DEFAULT_DEADLINE_MS } from "./adapters/http/limits.ts";
import type { RateLimiter } from "./adapters/http/rate-limit.ts";
import {
  type CorsPolicy,
  PLAIN_TEMPLATE,
  Responder,
  type ResponseTemplate,
} from "./adapters/http/responder.ts";
import { webRoutes } from "./adapters/http/web.ts";
import { HttpError, INTERNAL_ERROR } from "./contract/errors.ts";
import { DomainError } from "./domain/errors.ts";
import type {
  CertificateDecoder,
  ClientAddressSource,
  Clock,
  NetworkFacts,
  RootStore,
  SignatureVerifier,
} from "./domain/ports.ts";
import type { Logger } from "./process/logger.ts";
import { bindUseCases } from "./use-cases.ts";

export type { CorsPolicy } from "./adapters/http/responder.ts";

/** Everything the application needs from the outside world. */
export interface AppDeps {
  logger: Logger;
  cors: CorsPolicy;
  clientAddress: ClientAddressSource;
  clock: Clock;
  decoder: CertificateDecoder;
  verifier: SignatureVerifier;
  roots: RootStore;
  /** The GeoIP databases behind public-ip's network facts (CONTRACT §8.10); none when absent. */
  networkFacts?: NetworkFacts;
  /** Makes a fresh request id; injectable for deterministic tests. */
  newRequestId?: () => string;
  /** Per-client limit (RATE_LIMIT_PER_MINUTE); absent or null means no limit (CONTRACT §1.5). */
  rateLimiter?: RateLimiter | null;
  /** The certificate admission queue's settings; the longest a request may take is `deadlineMs`. */
  admission?: Partial<AdmissionOptions>;
}

/**
 * Builds the whole application. Tests call `buildApp(fakes).handle(new Request(...))`;
 * `server.ts` serves `edge.routes` and `edge.fallback` with Bun.serve.
 */
export function buildApp(deps: AppDeps) {
  const responder = new Responder(deps.cors, deps.newRequestId ?? (() => crypto.randomUUID()));
  const admission: AdmissionOptions = {
    ...DEFAULT_ADMISSION,
    deadlineMs: DEFAULT_DEADLINE_MS,
    ...deps.admission,
  };
  const lanes = certificateLanes(admission);
  const useCases = bindUseCases(
    { clock: deps.clock, decoder: deps.decoder, roots: deps.roots, networkFacts: deps.networkFacts },
    "api",
  );
  const contextOf: ContextOf = (request, clock) =>
    clock === null
      ? { observeClient: () => deps.clientAddress.clientAddress(request), verifier: deps.verifier }
      : {
          observeClient: () => deps.clientAddress.clientAddress(request),
          verifier: withDeadline(deps.verifier, clock),
          budget: { exhausted: () => clock.expired() },
        };

  /** The one error mapper (CONTRACT §1.1): envelopes for rejections, a logged generic 500 otherwise. */
  const fail = (request: Request, template: ResponseTemplate, error: unknown): Response => {
    if (error instanceof DomainError || error instanceof HttpError)
      return responder.error(request, template, error);
    const response = responder.error(request, template, INTERNAL_ERROR);
    deps.logger.log({
      level: "error",
      msg: "unexpected error",
      requestId: response.headers.get("x-request-id") ?? "",
      errorName: error instanceof Error ? error.name : typeof error,
    });
    return response;
  };

  const api = apiRoutes(useCases, contextOf, responder, lanes.laneOf, fail);
  // The docs and the page are Elysia plugins with handlers of their own: their failures reach
  // the same mapper through an error hook that only their routes carry.
  const pages = new Elysia({ name: "pages", normalize: false })
    .onError(({ error, request }) => fail(request, PLAIN_TEMPLATE, error))
    .use(docsRoutes())
    .use(webRoutes());
  const site = new Elysia({ normalize: false }).use(apiRouteDeclarations(api)).use(pages);

  const edge = new Edge({
    api,
    site,
    responder,
    logger: deps.logger,
    clientAddress: deps.clientAddress,
    rateLimiter: deps.rateLimiter ?? null,
  });
  /** Every method and path served (HEAD implied by GET), for tests that walk the routes. */
  const routes = [...edge.paths].flatMap(([path, methods]) =>
    methods.filter((method) => method !== "HEAD").map((method) => ({ path, method })),
  );
  return { handle: edge.handle, edge, routes };
}

export type App = ReturnType<typeof buildApp>;
