/**
 * The service's one Elysia application (ADR 13): it serves every request, through Elysia's public
 * API only.
 *
 * - One route per row of the operations table, declared with the row's method, path, handler and
 *   complete OpenAPI operation (`detail`; api-routes.ts), and `parse: "none"`: the body is read by
 *   our reader, in CONTRACT §1's order. The page and the docs are plugins of the same application.
 * - Around every request, one higher-order function (`wrap`, which Elysia applies to the routes it
 *   hands to Bun's native router and to its own router alike) does what every request shares: the
 *   request id, the optional rate limit (from the row's policy; never for a CORS preflight), the
 *   in-flight count the drain waits on, `Connection: close` once a stop has begun (CONTRACT §6) and
 *   the access-log line (buffered by the logger, one write per event-loop turn).
 * - What no route matches reaches the error hook as NOT_FOUND, and is answered from the path alone
 *   (CONTRACT §1.6): 404 for an unknown path, 405 with `Allow` for another method, 204 for a CORS
 *   preflight, all from the routes' table.
 *
 * Two documented workarounds, both tested (docs/upstream/elysia-routing.md is the report):
 * - Elysia reads the path from the URL assuming a host of at least four characters;
 *   `handler.standardHostname: false`, a public setting, makes it read any host (`api`, `a`).
 * - A request without a usable `Host` (none on HTTP/1.0, an empty one) reaches the application with
 *   its raw target as the URL, dot segments unresolved (`/v1/x/../health`). Bun's router and
 *   Elysia's do not match it; the error hook resolves the path as the WHATWG parser would have with
 *   a host ({@link pathOf}) and serves the route it names, so routing does not depend on `Host`.
 */
import { type AnyElysia, Elysia } from "elysia";
import { HttpError } from "../../contract/errors.ts";
import { SITE_POLICY } from "../../contract/operations.ts";
import type { ClientAddressSource } from "../../domain/ports.ts";
import type { ApiRoute, RequestHandler } from "./api-routes.ts";
import { elysiaRoute, type RouteNaming } from "./elysia-route.ts";
import { clientKey, type RateDecision, type RequestLimiter } from "./rate-limit.ts";
import {
  type FailureLog,
  type FailureMapper,
  PLAIN_TEMPLATE,
  type Responder,
  type ResponseTemplate,
} from "./responder.ts";

/** What the application writes: one access-log line per request (no bodies, ever), and failures. */
export interface EdgeLog extends FailureLog {
  /** `unmatchedPath`: the path (no query) of a request no route matched; the logger cuts and escapes it. */
  access(
    requestId: string,
    method: string,
    route: string | null,
    status: number,
    durationMs: number,
    unmatchedPath?: string,
    clientAddress?: string | null,
  ): void;
}

export interface ApplicationOptions {
  /** The API's operations, one route each, with their rows' policies. */
  readonly api: readonly ApiRoute[];
  /** The page and the docs: Elysia plugins whose routes are hidden from the OpenAPI document. */
  readonly plugins: readonly AnyElysia[];
  readonly responder: Responder;
  readonly fail: FailureMapper;
  readonly log: EdgeLog;
  readonly clientAddress: ClientAddressSource;
  readonly rateLimiter: RequestLimiter | null;
  /** Every access-log line carries the client's address (LOG_CLIENT_ADDRESS; CONTRACT §6). */
  readonly logClientAddress: boolean;
}

/** One path of the application, as the traffic wrapper and the NOT_FOUND answers see it. */
interface PathEntry {
  /** Method → how a request the routers could not match is served (HEAD by the GET route). */
  readonly methods: ReadonlyMap<string, RequestHandler>;
  /** The methods it takes, for `Allow` (GET routes also allow HEAD). */
  readonly allow: string;
  /** The same, without OPTIONS, for the 405 message. */
  readonly allowedList: readonly string[];
  /** Requests to it spend a token of the optional rate limit (from the operation's row). */
  readonly rateLimited: boolean;
  /** Headers its policy puts on every answer (no-store, Vary), errors included. */
  readonly template: ResponseTemplate;
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

/**
 * Builds the application. `app.handle` answers a request exactly as the server does (the tests
 * use it); `app.listen` serves (src/server.ts). `traffic` is what the graceful stop reads and sets.
 */
export function httpApplication(options: ApplicationOptions) {
  const traffic = new Traffic(options);
  const app = new Elysia({
    name: "network-tools-api",
    normalize: false,
    strictPath: true,
    handler: { standardHostname: false },
  })
    // Elysia types the wrapped handler loosely (`(...arg: unknown[]) => Function`); it is the
    // route's (or the router's) handler of one request.
    .wrap((next) => (request: Request) => traffic.serve(next as unknown as RequestHandler, request))
    // What no route matches (an unknown path, another method, a preflight, a raw target)
    // reaches this catch-all route, which Elysia's own router tries last.
    .all(
      "/*",
      traffic.route(null, (request) => traffic.unrouted(request)),
      { parse: "none", detail: { hide: true } },
    );
  for (const { operation, handle, detail } of options.api) {
    app.route(operation.method, operation.path, traffic.route(operation.path, handle), {
      ...(operation.request === null ? {} : { parse: "none" as const }),
      detail,
    });
  }
  for (const plugin of options.plugins) app.use(plugin);
  traffic.learn(app, options.api);
  return { app, traffic };
}

/** The per-request bookkeeping of the application: everything its `wrap` and catch-all route do. */
export class Traffic implements RouteNaming {
  private readonly table = new Map<string, PathEntry>();
  private readonly responder: Responder;
  private readonly fail: FailureMapper;
  private readonly log: EdgeLog;
  private readonly limiter: RequestLimiter | null;
  private readonly clientAddress: ClientAddressSource;
  private readonly logClientAddress: boolean;
  /**
   * The route that named itself while the request being served ran (null: none matched); read
   * right after the route's handler returns, which it does on the request's own turn
   * (elysia-route.ts).
   */
  named: string | null | undefined = undefined;
  /** Requests re-entering the application to be routed by their resolved path (no `Host`). */
  private readonly rerouted = new WeakSet<Request>();
  /** Set once shutdown begins: every answer then says `Connection: close`. */
  private closing = false;
  private inFlight = 0;
  private lastArrival = 0;

  constructor(options: ApplicationOptions) {
    this.responder = options.responder;
    this.fail = options.fail;
    this.log = options.log;
    this.limiter = options.rateLimiter;
    this.clientAddress = options.clientAddress;
    this.logClientAddress = options.logClientAddress;
  }

  /** Reads the application's routes (rows first, then the plugins') into the path table. */
  learn(app: AnyElysia, api: readonly ApiRoute[]): void {
    const byPath = new Map<
      string,
      { methods: Map<string, RequestHandler>; rateLimited: boolean; template: ResponseTemplate }
    >();
    for (const { operation, template, handle } of api) {
      const entry = byPath.get(operation.path) ?? {
        methods: new Map<string, RequestHandler>(),
        rateLimited: operation.policy.rateLimited,
        template,
      };
      entry.methods.set(operation.method, handle);
      byPath.set(operation.path, entry);
    }
    for (const route of app.routes) {
      if (route.path === "/*") continue;
      const entry = byPath.get(route.path) ?? {
        methods: new Map<string, RequestHandler>(),
        rateLimited: SITE_POLICY.rateLimited,
        template: PLAIN_TEMPLATE,
      };
      if (!entry.methods.has(route.method)) entry.methods.set(route.method, this.reroute(app, route.path));
      byPath.set(route.path, entry);
    }
    for (const [path, { methods, rateLimited, template }] of byPath) {
      const allowedList = [...methods.keys()].flatMap((method) =>
        method === "GET" ? ["GET", "HEAD"] : [method],
      );
      const get = methods.get("GET");
      if (get !== undefined) methods.set("HEAD", get);
      this.table.set(path, {
        methods,
        allow: [...allowedList, "OPTIONS"].join(", "),
        allowedList,
        rateLimited: this.limiter !== null && rateLimited,
        template,
      });
    }
  }

  /** Every path served, with the methods it takes (for tests and the OpenAPI completeness check). */
  get paths(): ReadonlyMap<string, readonly string[]> {
    return new Map([...this.table].map(([path, entry]) => [path, entry.allowedList]));
  }

  /** The Elysia handler of a route (`path` null: the catch-all), shaped by elysia-route.ts. */
  route(
    path: string | null,
    handle: RequestHandler,
  ): (context: { request: Request }) => Response | Promise<Response> {
    return elysiaRoute(path, handle, this);
  }

  /** What every request shares, around the route (or Elysia's router) that answers it. */
  serve(next: RequestHandler, request: Request): Response | Promise<Response> {
    if (this.rerouted.has(request)) return next(request);
    const start = performance.now();
    this.inFlight += 1;
    this.lastArrival = start;
    const requestId = this.responder.requestIdOf(request);
    // CORS preflights never spend a token (CONTRACT §1.5); an unknown path does.
    if (this.limiter !== null && request.method !== "OPTIONS") {
      const path = pathOf(request.url);
      const entry = this.table.get(path);
      if (entry === undefined ? SITE_POLICY.rateLimited : entry.rateLimited) {
        const decision = this.limiter.take(clientKey(this.clientAddress.clientAddress(request)));
        const route = entry === undefined ? null : path;
        // A shared store answers after a round trip (RATE_LIMIT_STORE; CONTRACT §11).
        if (decision instanceof Promise)
          return decision.then((settled) =>
            settled.ok
              ? this.pass(next, request, start, requestId)
              : this.finish(request, this.refuse(request, entry, settled), start, requestId, route),
          );
        if (!decision.ok)
          return this.finish(request, this.refuse(request, entry, decision), start, requestId, route);
      }
    }
    return this.pass(next, request, start, requestId);
  }

  /** Serves a request the rate limit let through (or that it does not apply to). */
  private pass(
    next: RequestHandler,
    request: Request,
    start: number,
    requestId: string,
  ): Response | Promise<Response> {
    // Routes answer every failure; this is a last line of defence, so that a request is always
    // answered and always leaves the in-flight count (the drain waits on it).
    let response: Response | Promise<Response>;
    this.named = undefined;
    try {
      response = next(request);
    } catch (error) {
      response = this.fail(request, PLAIN_TEMPLATE, error);
    }
    const route = this.named;
    if (response instanceof Promise) {
      return response.then(
        (done) => this.finish(request, done, start, requestId, route),
        (error: unknown) =>
          this.finish(request, this.fail(request, PLAIN_TEMPLATE, error), start, requestId, route),
      );
    }
    return this.finish(request, response, start, requestId, route);
  }

  /**
   * A request no router matched: an unknown path (404), another method (405 with `Allow`), a CORS
   * preflight (204), or a raw target whose resolved path names a route, which is served.
   */
  unrouted(request: Request): Response | Promise<Response> {
    const path = pathOf(request.url);
    const entry = this.table.get(path);
    this.named = entry === undefined ? null : path;
    if (entry === undefined) {
      return this.responder.error(
        request,
        PLAIN_TEMPLATE,
        new HttpError("NOT_FOUND", `No endpoint exists at ${path}.`),
      );
    }
    const served = entry.methods.get(request.method);
    if (served !== undefined) return served(request);
    if (request.method === "OPTIONS") return this.responder.preflight(request, entry.template, entry.allow);
    return this.responder.error(
      request,
      entry.template,
      new HttpError(
        "METHOD_NOT_ALLOWED",
        `${path} does not accept ${request.method}; use ${entry.allowedList.join(" or ")}.`,
        { allow: entry.allow },
      ),
    );
  }

  /** From now on every answer carries `Connection: close` (the start of a graceful stop). */
  beginClosing(): void {
    this.closing = true;
  }

  /** Requests being answered now, and when (performance.now) the last one arrived. */
  get activity(): { inFlight: number; lastArrival: number } {
    return { inFlight: this.inFlight, lastArrival: this.lastArrival };
  }

  /**
   * A route of a plugin (the page, the docs), served for a raw target that resolves to it: the
   * request re-enters the application under its resolved path, keeping its id, and passes the
   * traffic wrapper untouched (it was counted, limited and will be logged once, as itself).
   */
  private reroute(app: AnyElysia, path: string): RequestHandler {
    return (request) => {
      const url = request.url;
      const query = url.indexOf("?");
      const resolved = new Request(`http://localhost${path}${query === -1 ? "" : url.slice(query)}`, request);
      this.responder.shareRequestId(request, resolved);
      this.rerouted.add(resolved);
      return app.handle(resolved);
    };
  }

  private refuse(
    request: Request,
    entry: PathEntry | undefined,
    decision: RateDecision & { ok: false },
  ): Response {
    const perMinute = this.limiter?.perMinute ?? 0;
    const refusal = HttpError.retryAfter(
      "RATE_LIMITED",
      `Too many requests from this address: the limit is ${perMinute} per minute; retry after ${decision.retryAfterSeconds} s.`,
      decision.retryAfterSeconds,
    );
    return this.responder.error(request, entry?.template ?? PLAIN_TEMPLATE, refusal);
  }

  /** The address CONTRACT §5 observes for the request (trusted proxies' rules), or null. */
  private clientAddressText(request: Request): string | null {
    const observed = this.clientAddress.clientAddress(request);
    return observed.ok ? observed.address.toString() : null;
  }

  private finish(
    request: Request,
    response: Response,
    start: number,
    requestId: string,
    named: string | null | undefined,
  ): Response {
    this.inFlight -= 1;
    if (this.closing) response.headers.set("connection", "close");
    // A route of a plugin (the page, the docs) does not name itself: its path is the route.
    let route = named;
    let unmatchedPath: string | undefined;
    if (route === undefined) route = pathOf(request.url);
    else if (route === null) unmatchedPath = pathOf(request.url);
    this.log.access(
      requestId,
      request.method,
      route,
      response.status,
      Math.round((performance.now() - start) * 1000) / 1000,
      unmatchedPath,
      this.logClientAddress ? this.clientAddressText(request) : undefined,
    );
    return response;
  }
}
