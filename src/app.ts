/**
 * Composition root: wires the inbound HTTP adapters to the domain and the outbound
 * adapters given in `deps`, and applies the rules every endpoint shares (CONTRACT §1):
 * 404/405/OPTIONS, body limits and media type, the error envelope, common headers, CORS,
 * and one access-log line per request (wrapped around `handle`).
 */
import { Elysia } from "elysia";
import { certificateRoutes } from "./adapters/http/certificates.ts";
import { cidrRoutes } from "./adapters/http/cidr.ts";
import { docsRoutes } from "./adapters/http/docs.ts";
import {
  envelopeOf,
  INTERNAL_ERROR,
  issuesFromSchemaFailures,
  STATUS_OF,
  schemaFailuresOf,
} from "./adapters/http/errors.ts";
import { healthRoutes } from "./adapters/http/health.ts";
import { readJsonBody } from "./adapters/http/json-body.ts";
import { publicIpRoutes } from "./adapters/http/public-ip.ts";
import { clientKey, type RateLimiter } from "./adapters/http/rate-limit.ts";
import { webRoutes } from "./adapters/http/web.ts";
import type { Logger } from "./adapters/system/logger.ts";
import { DomainError, invalidInput } from "./domain/errors.ts";
import type {
  CertificateDecoder,
  ClientAddressSource,
  Clock,
  RootStore,
  SignatureVerifier,
} from "./domain/ports.ts";

/** Who may call the API from a browser on another origin (CONTRACT §1.3). */
export type CorsPolicy = { kind: "any" } | { kind: "list"; origins: ReadonlySet<string> } | { kind: "off" };

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
}

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;
/** Paths whose responses, success or error, must never be cached. */
const NO_STORE_PATHS = new Set(["/v1/certificate-bundle", "/v1/public-ip"]);
const PREFLIGHT_ALLOW_HEADERS = "Content-Type, X-Request-Id";
const PREFLIGHT_MAX_AGE = "86400";
/** Never rate limited: a platform probing once a second must not be refused (ADR 0006). */
const HEALTH_PATH = "/v1/health";

function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start === -1) return "/";
  const query = url.indexOf("?", start);
  return query === -1 ? url.slice(start) : url.slice(start, query);
}

/**
 * Builds the whole application. Tests call `buildApp(fakes).handle(new Request(...))`;
 * `main.ts` builds it with real adapters and listens.
 */
export function buildApp(deps: AppDeps) {
  const newRequestId = deps.newRequestId ?? (() => crypto.randomUUID());
  /** Known path → allowed methods; filled once the routes are mounted (and again if one is added). */
  const allowed = new Map<string, string[]>();
  let routes: () => readonly { path: string; method: string }[] = () => [];
  let routeCount = -1;
  const refreshAllowed = (): void => {
    const all = routes();
    if (all.length === routeCount) return;
    routeCount = all.length;
    allowed.clear();
    for (const route of all) {
      const methods = allowed.get(route.path) ?? [];
      if (!methods.includes(route.method)) methods.push(route.method);
      if (route.method === "GET" && !methods.includes("HEAD")) methods.push("HEAD");
      allowed.set(route.path, methods);
    }
  };

  const corsHeaders = (request: Request, headers: Record<string, string | number>): void => {
    const policy = deps.cors;
    if (policy.kind === "any") headers["access-control-allow-origin"] = "*";
    else if (policy.kind === "list") {
      headers.vary = "Origin";
      const origin = request.headers.get("origin");
      if (origin !== null && policy.origins.has(origin)) headers["access-control-allow-origin"] = origin;
    }
  };

  const methodNotAllowed = (
    path: string,
    method: string,
    methods: readonly string[],
    headers: Record<string, string | number>,
  ): DomainError => {
    headers.allow = [...methods, "OPTIONS"].join(", ");
    return new DomainError(
      "METHOD_NOT_ALLOWED",
      `${path} does not accept ${method}; use ${methods.join(" or ")}.`,
    );
  };

  const fail = (error: DomainError, set: { status?: unknown; headers: Record<string, string | number> }) => {
    set.status = STATUS_OF[error.code];
    set.headers["content-type"] = "application/json";
    return envelopeOf(error);
  };

  const app = new Elysia({ normalize: false })
    .onRequest(({ request, set }) => {
      const given = request.headers.get("x-request-id");
      const headers = set.headers;
      headers["x-request-id"] = given !== null && REQUEST_ID_PATTERN.test(given) ? given : newRequestId();
      headers["x-content-type-options"] = "nosniff";
      corsHeaders(request, headers);
      const path = pathOf(request.url);
      if (NO_STORE_PATHS.has(path)) headers["cache-control"] = "no-store";
      const limiter = deps.rateLimiter;
      if (limiter && path !== HEALTH_PATH) {
        const decision = limiter.take(clientKey(deps.clientAddress.clientAddress(request)));
        if (!decision.ok) {
          headers["retry-after"] = String(decision.retryAfterSeconds);
          throw new DomainError(
            "RATE_LIMITED",
            `Too many requests from this address: the limit is ${limiter.perMinute} per minute; retry after ${decision.retryAfterSeconds} s.`,
          );
        }
      }
      // Paths are exact (no trailing-slash or case aliases), and a known path answers only its
      // methods: decided here, for every method, so no alias escapes the rules above.
      refreshAllowed();
      const methods = allowed.get(path);
      if (methods === undefined) throw new DomainError("NOT_FOUND", `No endpoint exists at ${path}.`);
      if (request.method === "OPTIONS") {
        headers.allow = [...methods, "OPTIONS"].join(", ");
        if (deps.cors.kind !== "off") {
          headers["access-control-allow-methods"] = headers.allow;
          headers["access-control-allow-headers"] = PREFLIGHT_ALLOW_HEADERS;
          headers["access-control-max-age"] = PREFLIGHT_MAX_AGE;
        }
        set.status = 204;
        return new Response(null, { status: 204, headers: headers as Record<string, string> });
      }
      if (!methods.includes(request.method)) throw methodNotAllowed(path, request.method, methods, headers);
      // CONTRACT §1.2: JSON answers say exactly `application/json` (Elysia would add a charset).
      // The text form of public-ip and the docs and page routes set their own type.
      if (path.startsWith("/v1/")) headers["content-type"] = "application/json";
    })
    .onParse(({ request }) => readJsonBody(request))
    .onError(({ code, error, request, set }) => {
      if (error instanceof DomainError) return fail(error, set);
      if (code === "PARSE" && error.cause instanceof DomainError) return fail(error.cause, set);
      if (code === "VALIDATION" && error.type !== "response") {
        return fail(invalidInput(issuesFromSchemaFailures(schemaFailuresOf(error))), set);
      }
      if (code === "NOT_FOUND") {
        const path = pathOf(request.url);
        const methods = allowed.get(path);
        if (methods === undefined) {
          return fail(new DomainError("NOT_FOUND", `No endpoint exists at ${path}.`), set);
        }
        return fail(methodNotAllowed(path, request.method, methods, set.headers), set);
      }
      deps.logger.log({
        level: "error",
        msg: code === "VALIDATION" ? "response failed its own schema" : "unexpected error",
        requestId: String(set.headers["x-request-id"] ?? ""),
        errorName: error instanceof Error ? error.name : typeof error,
      });
      return fail(INTERNAL_ERROR, set);
    })
    .use(healthRoutes())
    .use(cidrRoutes())
    .use(publicIpRoutes(deps.clientAddress))
    .use(
      certificateRoutes({
        clock: deps.clock,
        decoder: deps.decoder,
        verifier: deps.verifier,
        roots: deps.roots,
      }),
    )
    .use(docsRoutes())
    .use(webRoutes());

  routes = () => app.routes;
  refreshAllowed();

  // One access-log line per request (CONTRACT §6), written around the whole app rather than
  // from an Elysia `onAfterResponse` hook (ADR 0003): one lifecycle hook fewer on every
  // request, and nothing escapes it — tests and the server in main.ts both answer through
  // `handle`, preflights and errors included.
  const answer = app.handle;
  app.handle = async (request: Request): Promise<Response> => {
    const start = performance.now();
    const response = await answer(request);
    refreshAllowed();
    const path = pathOf(request.url);
    deps.logger.log({
      level: "info",
      msg: "request",
      requestId: response.headers.get("x-request-id") ?? "",
      method: request.method,
      route: allowed.has(path) ? path : null,
      status: response.status,
      durationMs: Math.round((performance.now() - start) * 1000) / 1000,
    });
    return response;
  };
  return app;
}

export type App = ReturnType<typeof buildApp>;
