/**
 * Composition root: binds each operation of the wire contract to its use case, mounts the
 * inbound adapters (API, docs, page) on one Elysia instance with one error mapper, and hands
 * the compiled routes to the serving edge. No rule lives here: the shared HTTP rules are in
 * src/adapters/http/ (edge, responder, json-body), the wire contract in src/contract/.
 */
import { Elysia } from "elysia";
import {
  type AdmissionOptions,
  certificateLanes,
  DEFAULT_ADMISSION,
  lateAnswer,
  withDeadline,
} from "./adapters/http/admission.ts";
import { apiRoutes, TEMPLATE_BY_PATH, type UseCases } from "./adapters/http/api-routes.ts";
import { docsRoutes } from "./adapters/http/docs.ts";
import { Edge } from "./adapters/http/edge.ts";
import type { RateLimiter } from "./adapters/http/rate-limit.ts";
import {
  type CorsPolicy,
  PLAIN_TEMPLATE,
  Responder,
  type ResponseTemplate,
} from "./adapters/http/responder.ts";
import { webRoutes } from "./adapters/http/web.ts";
import type { Logger } from "./adapters/system/logger.ts";
import { INTERNAL_ERROR } from "./contract/envelope.ts";
import { OPERATIONS } from "./contract/operations.ts";
import { inspectCertificateBundle } from "./domain/certificates/inspect.ts";
import { coverCidrs } from "./domain/cidr/cover.ts";
import { rangeToCidrs } from "./domain/cidr/range-to-cidrs.ts";
import { subtractCidrs } from "./domain/cidr/subtract.ts";
import { DomainError } from "./domain/errors.ts";
import type {
  CertificateDecoder,
  ClientAddressSource,
  Clock,
  RootStore,
  SignatureVerifier,
} from "./domain/ports.ts";
import { observePublicIp } from "./domain/public-ip.ts";

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
  /** Makes a fresh request id; injectable for deterministic tests. */
  newRequestId?: () => string;
  /** Per-client limit (RATE_LIMIT_PER_MINUTE); absent or null means no limit (CONTRACT §1.5). */
  rateLimiter?: RateLimiter | null;
  /** The certificate admission queue's settings; the longest a request may take is `deadlineMs`. */
  admission?: Partial<AdmissionOptions>;
}

const HEALTHY = { status: "ok" as const };
/** Ten seconds: the default IDLE_TIMEOUT_SECONDS, which docs promise bounds a request. */
const DEFAULT_DEADLINE_MS = 10_000;

/**
 * Builds the whole application. Tests call `buildApp(fakes).handle(new Request(...))`;
 * `main.ts` serves `edge.routes` and `edge.fallback` with Bun.serve.
 */
export function buildApp(deps: AppDeps) {
  const responder = new Responder(deps.cors, deps.newRequestId ?? (() => crypto.randomUUID()));
  const admissionOptions: AdmissionOptions = {
    ...DEFAULT_ADMISSION,
    deadlineMs: DEFAULT_DEADLINE_MS,
    ...deps.admission,
  };
  const lanes = certificateLanes(admissionOptions);
  const useCases: UseCases = {
    health: () => HEALTHY,
    cidrCover: (body) => coverCidrs(body.inputs),
    cidrSubtract: (body) => subtractCidrs(body.include, body.exclude),
    rangeToCidrs: (body) => rangeToCidrs(body.start, body.end),
    certificateBundle: async (body, { clock }) => {
      const result = await inspectCertificateBundle(body, {
        clock: deps.clock,
        decoder: deps.decoder,
        roots: deps.roots,
        verifier: withDeadline(deps.verifier, clock),
      });
      if (clock.expired()) throw lateAnswer(admissionOptions.deadlineMs);
      return result;
    },
    publicIp: (_, { request }) => observePublicIp(deps.clientAddress, request),
  };

  /** The one error mapper (CONTRACT §1.1): envelopes for DomainErrors, a logged generic 500 otherwise. */
  const fail = (request: Request, template: ResponseTemplate, error: unknown): Response => {
    if (error instanceof DomainError) return responder.error(request, template, error);
    const response = responder.error(request, template, INTERNAL_ERROR);
    deps.logger.log({
      level: "error",
      msg: "unexpected error",
      requestId: response.headers.get("x-request-id") ?? "",
      errorName: error instanceof Error ? error.name : typeof error,
    });
    return response;
  };

  // The docs and the page are Elysia plugins with handlers of their own: their failures reach
  // the same mapper through an error hook that only their routes carry.
  const pages = new Elysia({ name: "pages", normalize: false })
    .onError(({ error, request }) => fail(request, PLAIN_TEMPLATE, error))
    .use(docsRoutes())
    .use(webRoutes());
  const app = new Elysia({ normalize: false })
    .use(apiRoutes(useCases, responder, lanes.laneOf, fail))
    .use(pages);

  const edge = new Edge({
    app,
    responder,
    logger: deps.logger,
    clientAddress: deps.clientAddress,
    rateLimiter: deps.rateLimiter ?? null,
    notRateLimited: new Set([OPERATIONS.health.path]),
    templates: TEMPLATE_BY_PATH,
  });
  /** Every method and path served (HEAD implied by GET), for tests that walk the routes. */
  const routes = [...edge.paths].flatMap(([path, methods]) =>
    methods.filter((method) => method !== "HEAD").map((method) => ({ path, method })),
  );
  return { handle: edge.handle, edge, routes };
}

export type App = ReturnType<typeof buildApp>;
