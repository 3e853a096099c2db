/**
 * The serving edge: how a request reaches its handler, and what every request shares.
 *
 * - Routing depends on the path alone (CONTRACT §1.6). The API's handlers (one per row of the
 *   operations table, src/adapters/http/api-routes.ts) and a handler per route of the page and the
 *   docs (through Elysia's public `handle`) are handed to `Bun.serve({ routes })`, so Bun matches
 *   the path in native code; whatever Bun does not match (an unknown path, a method the path does
 *   not take, OPTIONS) reaches `fallback`, which works from the path alone, whatever the `Host`
 *   header says or whether there is one. `handle` (tests) dispatches through the very same table.
 * - Per request, only what cannot be done once: the request id, the optional rate limit (from
 *   each row's policy; never for a CORS preflight), the access-log line (buffered by the logger, one write per event-loop
 *   turn), and while the server drains, `Connection: close` (CONTRACT §6).
 * - Elysia is used through its public API only (`routes`, `handle`; ADR 13).
 */
import type { Server } from "bun";
import type { AnyElysia } from "elysia";
import { HttpError, INTERNAL_ERROR } from "../../contract/errors.ts";
import { SITE_POLICY } from "../../contract/operations.ts";
import type { ClientAddressSource } from "../../domain/ports.ts";
import type { ApiRoute, RequestHandler } from "./api-routes.ts";
import { clientKey, type RateLimiter } from "./rate-limit.ts";
import { PLAIN_TEMPLATE, type Responder, type ResponseTemplate } from "./responder.ts";

type BunHandler = (request: Request, server: Server<undefined>) => Response | Promise<Response>;

/** What the edge writes: one access-log line per request (no bodies, ever). */
export interface EdgeLog {
  /** `unmatchedPath`: the path (no query) of a request no route matched; the logger cuts and escapes it. */
  access(
    requestId: string,
    method: string,
    route: string | null,
    status: number,
    durationMs: number,
    unmatchedPath?: string,
  ): void;
}

interface PathEntry {
  /** Method → handler, `HEAD` answered by the GET handler. */
  readonly methods: ReadonlyMap<string, RequestHandler>;
  /** The methods it takes, for `Allow` (GET routes also allow HEAD). */
  readonly allow: string;
  /** The same, without OPTIONS, for the 405 message. */
  readonly allowedList: readonly string[];
  /** Requests to it spend a token of the optional rate limit (from the operation's row). */
  readonly rateLimited: boolean;
  /** Headers its policy puts on every answer (no-store, Vary), errors included. */
  readonly template: ResponseTemplate;
  /** Its answers already carry every common header (API operations); the page's get them added. */
  readonly builtByResponder: boolean;
}

export interface EdgeOptions {
  /** The API's operations, one handler each, with their rows' policies. */
  api: readonly ApiRoute[];
  /**
   * The Elysia application of the page and the docs; its routes (`app.routes`) are served through
   * `app.handle`. Routes it declares for API paths are left to `api`.
   */
  site: AnyElysia;
  responder: Responder;
  logger: EdgeLog;
  clientAddress: ClientAddressSource;
  rateLimiter: RateLimiter | null;
}

/**
 * The request's path: `/…` up to `?`, from an absolute URL whatever its host (`http://a/x`,
 * `http://api:80/x`) or from the raw request target Bun hands over when a request has no usable
 * `Host` (an empty one, or none on HTTP/1.0).
 *
 * With a `Host`, Bun builds the URL by parsing `http://<host><target>` with the WHATWG URL
 * parser, which resolves dot segments (`/v1/x/../health`, `/v1/./health`, and their
 * percent-encoded forms `%2e`, `.%2E` …), turns `\` into `/` and percent-encodes what needs it.
 * A raw target is parsed the same way here, under a fixed host, so that routing does not depend
 * on whether the client sent a `Host` (CONTRACT §1.6).
 */
export function pathOf(url: string): string {
  const absolute = url.charCodeAt(0) === 47 /* "/" */ ? resolveTarget(url) : url;
  const scheme = absolute.indexOf("://");
  const start = scheme === -1 ? -1 : absolute.indexOf("/", scheme + 3);
  if (start === -1) return "/";
  const query = absolute.indexOf("?", start);
  return query === -1 ? absolute.slice(start) : absolute.slice(start, query);
}

/** An origin-form target as Bun would have resolved it, had the request named a host. */
function resolveTarget(target: string): string {
  try {
    return new URL(`http://localhost${target}`).href;
  } catch {
    return `http://localhost${target}`;
  }
}

export class Edge {
  /** Bun.serve `routes`: path → method → handler, for Bun's native router. */
  readonly routes: Record<string, Record<string, BunHandler>> = {};
  private readonly table = new Map<string, PathEntry>();
  private readonly responder: Responder;
  private readonly logger: EdgeLog;
  private readonly limiter: RateLimiter | null;
  private readonly clientAddress: ClientAddressSource;
  /** Set once shutdown begins: every answer then says `Connection: close`. */
  private closing = false;
  private inFlight = 0;
  private lastArrival = 0;

  constructor(options: EdgeOptions) {
    this.responder = options.responder;
    this.logger = options.logger;
    this.limiter = options.rateLimiter;
    this.clientAddress = options.clientAddress;
    const byPath = new Map<
      string,
      {
        methods: Map<string, RequestHandler>;
        rateLimited: boolean;
        template: ResponseTemplate;
        builtByResponder: boolean;
      }
    >();
    for (const { operation, template, handle } of options.api) {
      const entry = byPath.get(operation.path) ?? {
        methods: new Map<string, RequestHandler>(),
        rateLimited: operation.policy.rateLimited,
        template,
        builtByResponder: true,
      };
      entry.methods.set(operation.method, handle);
      byPath.set(operation.path, entry);
    }
    const site = options.site;
    for (const route of site.routes) {
      if (byPath.get(route.path)?.builtByResponder) continue;
      const entry = byPath.get(route.path) ?? {
        methods: new Map<string, RequestHandler>(),
        rateLimited: SITE_POLICY.rateLimited,
        template: PLAIN_TEMPLATE,
        builtByResponder: false,
      };
      entry.methods.set(route.method, siteHandler(site, route.path));
      byPath.set(route.path, entry);
    }
    for (const [path, { methods, rateLimited, template, builtByResponder }] of byPath) {
      const allowedList = [...methods.keys()].flatMap((method) =>
        method === "GET" ? ["GET", "HEAD"] : [method],
      );
      const get = methods.get("GET");
      if (get !== undefined) methods.set("HEAD", get);
      const limited = this.limiter !== null && rateLimited;
      this.table.set(path, {
        methods,
        allow: [...allowedList, "OPTIONS"].join(", "),
        allowedList,
        rateLimited: limited,
        template,
        builtByResponder,
      });
      const bunMethods: Record<string, BunHandler> = {};
      for (const [method, handler] of methods) {
        // Bun answers HEAD from the GET handler itself.
        if (method !== "HEAD") bunMethods[method] = this.served(path, handler, limited, builtByResponder);
      }
      this.routes[path] = bunMethods;
    }
  }

  /** Every path served, with the methods it takes (for tests and the OpenAPI completeness check). */
  get paths(): ReadonlyMap<string, readonly string[]> {
    return new Map([...this.table].map(([path, entry]) => [path, entry.allowedList]));
  }

  /** Wraps one route handler with what every request shares. */
  private served(
    path: string,
    handler: RequestHandler,
    rateLimited: boolean,
    builtByResponder: boolean,
  ): BunHandler {
    return (request) => {
      const start = performance.now();
      this.inFlight += 1;
      this.lastArrival = start;
      const requestId = this.responder.requestIdOf(request);
      if (rateLimited) {
        const refusal = this.rateLimit(request, path);
        if (refusal !== null) return this.finish(request, refusal, path, start, requestId, true);
      }
      // Handlers map their own failures; this is only a last line of defence, so that a request
      // is always answered and always leaves the in-flight count (the drain waits on it).
      let response: Response | Promise<Response>;
      try {
        response = handler(request);
      } catch {
        response = this.internalError(request, path);
      }
      if (response instanceof Promise) {
        return response.then(
          (done) => this.finish(request, done, path, start, requestId, builtByResponder),
          () => this.finish(request, this.internalError(request, path), path, start, requestId, true),
        );
      }
      return this.finish(request, response, path, start, requestId, builtByResponder);
    };
  }

  private internalError(request: Request, path: string): Response {
    return this.responder.error(request, this.templateOf(path), INTERNAL_ERROR);
  }

  private templateOf(path: string): ResponseTemplate {
    return this.table.get(path)?.template ?? PLAIN_TEMPLATE;
  }

  private rateLimit(request: Request, path: string): Response | null {
    const limiter = this.limiter;
    if (limiter === null) return null;
    const decision = limiter.take(clientKey(this.clientAddress.clientAddress(request)));
    if (decision.ok) return null;
    const refusal = HttpError.retryAfter(
      "RATE_LIMITED",
      `Too many requests from this address: the limit is ${limiter.perMinute} per minute; retry after ${decision.retryAfterSeconds} s.`,
      decision.retryAfterSeconds,
    );
    return this.responder.error(request, this.templateOf(path), refusal);
  }

  private finish(
    request: Request,
    response: Response,
    route: string | null,
    start: number,
    requestId: string,
    builtByResponder: boolean,
    unmatchedPath?: string,
  ): Response {
    this.inFlight -= 1;
    if (!builtByResponder) this.responder.decorate(request, response.headers);
    if (this.closing) response.headers.set("connection", "close");
    this.logger.access(
      requestId,
      request.method,
      route,
      response.status,
      Math.round((performance.now() - start) * 1000) / 1000,
      unmatchedPath,
    );
    return response;
  }

  /**
   * Everything Bun's router did not match, and every request sent through `handle`: unknown
   * paths (404), known paths with another method (405 with `Allow`), and CORS preflights (204).
   */
  readonly fallback = (request: Request, server: Server<undefined>): Response | Promise<Response> => {
    const path = pathOf(request.url);
    const entry = this.table.get(path);
    // Bun's router matches the raw request target, but the path routed here has its dot
    // segments resolved (`/v1/x/../health`, `/v1/./health`), by Bun when there is a `Host` and
    // by `pathOf` when there is none: a route that takes the method is served, as `handle`
    // does, rather than refused with a 405 naming that very method.
    const served = entry?.methods.has(request.method)
      ? this.routes[path]?.[request.method === "HEAD" ? "GET" : request.method]
      : undefined;
    if (served !== undefined) return served(request, server);
    const start = performance.now();
    this.inFlight += 1;
    this.lastArrival = start;
    const requestId = this.responder.requestIdOf(request);
    // CORS preflights never spend a token (CONTRACT §1.5); an unknown path does.
    if (
      request.method !== "OPTIONS" &&
      (entry?.rateLimited ?? (this.limiter !== null && SITE_POLICY.rateLimited))
    ) {
      const refusal = this.rateLimit(request, path);
      if (refusal !== null) {
        return entry === undefined
          ? this.finish(request, refusal, null, start, requestId, true, path)
          : this.finish(request, refusal, path, start, requestId, true);
      }
    }
    let response: Response;
    if (entry === undefined) {
      response = this.responder.error(
        request,
        PLAIN_TEMPLATE,
        new HttpError("NOT_FOUND", `No endpoint exists at ${path}.`),
      );
      return this.finish(request, response, null, start, requestId, true, path);
    }
    if (request.method === "OPTIONS")
      response = this.responder.preflight(request, entry.template, entry.allow);
    else {
      response = this.responder.error(
        request,
        entry.template,
        new HttpError(
          "METHOD_NOT_ALLOWED",
          `${path} does not accept ${request.method}; use ${entry.allowedList.join(" or ")}.`,
          { allow: entry.allow },
        ),
      );
    }
    return this.finish(request, response, path, start, requestId, true);
  };

  /** Answers one request exactly as the server would (tests call this through `app.handle`). */
  readonly handle = async (request: Request): Promise<Response> => {
    const path = pathOf(request.url);
    const handler = this.table.get(path)?.methods.get(request.method);
    const noServer = undefined as unknown as Server<undefined>;
    if (handler === undefined) return this.fallback(request, noServer);
    const route = this.routes[path];
    const served = route?.[request.method === "HEAD" ? "GET" : request.method];
    if (served === undefined) return this.fallback(request, noServer);
    const response = await served(request, noServer);
    if (request.method !== "HEAD") return response;
    return new Response(null, { status: response.status, headers: response.headers });
  };

  /** From now on every answer carries `Connection: close` (the start of a graceful stop). */
  beginClosing(): void {
    this.closing = true;
  }

  /** Requests being answered now, and when (performance.now) the last one arrived. */
  get activity(): { inFlight: number; lastArrival: number } {
    return { inFlight: this.inFlight, lastArrival: this.lastArrival };
  }
}

/**
 * A handler for a route of the page or the docs, through Elysia's public `handle`. Elysia reads
 * the path from the URL assuming a host of at least four characters, so the request is handed
 * over with the path the edge routed on and a fixed origin: whatever `Host` said (`api`, none),
 * the page answers the same (CONTRACT §1.6).
 */
function siteHandler(site: AnyElysia, path: string): RequestHandler {
  return (request) => {
    const url = request.url;
    const query = url.indexOf("?");
    const target = `http://localhost${path}${query === -1 ? "" : url.slice(query)}`;
    return site.handle(new Request(target, request));
  };
}
