/**
 * Builds every response the API sends, with the headers CONTRACT §1.2–1.3 puts on them:
 * `X-Request-Id`, `X-Content-Type-Options: nosniff`, CORS, exactly `application/json` on JSON
 * bodies, `Cache-Control: no-store` and `Vary` where the operation's policy says so.
 *
 * Everything that does not depend on the request is computed once, as one header object per
 * policy; per request only the id (and, with an origin list, the CORS origin) is added.
 */

import { envelopeOf } from "../../contract/envelope.ts";
import { HttpError, INTERNAL_ERROR, type Rejection, STATUS_OF } from "../../contract/errors.ts";
import type { OperationPolicy } from "../../contract/operations.ts";
import { DomainError } from "../../domain/errors.ts";

/** Who may call the API from a browser on another origin (CONTRACT §1.3). */
export type CorsPolicy = { kind: "any" } | { kind: "list"; origins: ReadonlySet<string> } | { kind: "off" };

type Headers = Record<string, string>;

/** Where a request's decided id is kept, on the request (see {@link Responder.requestIdOf}). */
const REQUEST_ID: unique symbol = Symbol("requestId");
interface IdHolder {
  [REQUEST_ID]?: string;
}

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;
const JSON_TYPE = "application/json";
const TEXT_TYPE = "text/plain; charset=utf-8";
export const PREFLIGHT_ALLOW_HEADERS = "Content-Type, X-Request-Id";
export const PREFLIGHT_MAX_AGE = "86400";

/** The response headers a path's policy adds to every answer, success or error. */
export interface ResponseTemplate {
  /** `Cache-Control` on every answer, or none. */
  readonly cacheControl: "no-store" | null;
  /** `Vary: Accept` on every answer. */
  readonly varyAccept: boolean;
}

/** The template of a path that is not an API operation (the page, the docs, an unknown path). */
export const PLAIN_TEMPLATE: ResponseTemplate = { cacheControl: null, varyAccept: false };

/** The headers an operation's policy puts on every answer, errors included. */
export function templateOf(policy: OperationPolicy): ResponseTemplate {
  return {
    cacheControl: policy.noStore ? "no-store" : null,
    varyAccept: policy.representation === "json-or-text",
  };
}

export class Responder {
  private readonly newRequestId: () => string;
  private readonly cors: CorsPolicy;
  /** Static header objects by template and media type, built once. */
  private readonly cache = new Map<ResponseTemplate, Map<string | null, Headers>>();

  constructor(cors: CorsPolicy, newRequestId: () => string) {
    this.cors = cors;
    this.newRequestId = newRequestId;
  }

  /**
   * The caller's `X-Request-Id` when well-formed, otherwise a new one (CONTRACT §1.2); decided once
   * per request, so that every part of one request's handling uses the same one. The id is kept on
   * the request itself, under a symbol of this module (ADR 60: a property read, where a `WeakMap`
   * cost a set and two look-ups per request).
   */
  requestIdOf(request: Request): string {
    const held = request as Request & IdHolder;
    let id = held[REQUEST_ID];
    if (id === undefined) {
      const given = request.headers.get("x-request-id");
      id = given !== null && REQUEST_ID_PATTERN.test(given) ? given : this.newRequestId();
      held[REQUEST_ID] = id;
    }
    return id;
  }

  /** Gives `to` (a request rebuilt from `from`) the id already decided for `from`. */
  shareRequestId(from: Request, to: Request): void {
    (to as Request & IdHolder)[REQUEST_ID] = this.requestIdOf(from);
  }

  private staticHeaders(template: ResponseTemplate, contentType: string | null): Headers {
    let byType = this.cache.get(template);
    if (byType === undefined) {
      byType = new Map();
      this.cache.set(template, byType);
    }
    let headers = byType.get(contentType);
    if (headers === undefined) {
      headers = { "x-content-type-options": "nosniff" };
      if (contentType !== null) headers["content-type"] = contentType;
      if (this.cors.kind === "any") headers["access-control-allow-origin"] = "*";
      const vary = [this.cors.kind === "list" ? "Origin" : "", template.varyAccept ? "Accept" : ""].filter(
        Boolean,
      );
      if (vary.length > 0) headers.vary = vary.join(", ");
      if (template.cacheControl !== null) headers["cache-control"] = template.cacheControl;
      byType.set(contentType, headers);
    }
    return headers;
  }

  /** The common headers for one request: the static ones plus the request id and CORS origin. */
  headersFor(request: Request, template: ResponseTemplate, contentType: string | null): Headers {
    const headers: Headers = {
      ...this.staticHeaders(template, contentType),
      "x-request-id": this.requestIdOf(request),
    };
    if (this.cors.kind === "list") {
      const origin = request.headers.get("origin");
      if (origin !== null && this.cors.origins.has(origin)) headers["access-control-allow-origin"] = origin;
    }
    return headers;
  }

  /**
   * The answer of the page, the docs or an asset: its own headers (lower-case names), then every
   * common one (CONTRACT §1.2–1.3), a common `Vary` (CORS `Origin`) merged into its own.
   */
  page(request: Request, body: BodyInit | null, own: Readonly<Record<string, string>>): Response {
    const headers: Headers = { ...own };
    for (const [name, value] of Object.entries(this.headersFor(request, PLAIN_TEMPLATE, null))) {
      const mine = headers[name];
      if (mine === undefined) headers[name] = value;
      else if (name === "vary") headers.vary = `${mine}, ${value}`;
    }
    return new Response(body, { headers });
  }

  /** A JSON answer: `json` is the body an encoder wrote (src/adapters/http/encoders/). */
  json(
    request: Request,
    template: ResponseTemplate,
    json: string | Uint8Array<ArrayBuffer>,
    status = 200,
  ): Response {
    return this.answer(request, json, this.answerInit(template, JSON_TYPE, status));
  }

  text(request: Request, template: ResponseTemplate, body: string): Response {
    return this.answer(request, body, this.answerInit(template, TEXT_TYPE, 200));
  }

  /**
   * An answer with the common headers: the response is made from an init (status and a `Headers`
   * of the static ones) made once per template, media type and status, which the `Response`
   * constructor copies; the request id and the CORS origin are then set on the response's own
   * headers. Measured cheaper than cloning the `Headers` first and handing the clone over (ADR 64);
   * Bun writes the headers in the same order either way.
   */
  private answer(request: Request, body: string | Uint8Array<ArrayBuffer>, init: ResponseInit): Response {
    const response = new Response(body, init);
    const headers = response.headers;
    headers.set("x-request-id", this.requestIdOf(request));
    if (this.cors.kind === "list") {
      const origin = request.headers.get("origin");
      if (origin !== null && this.cors.origins.has(origin))
        headers.set("access-control-allow-origin", origin);
    }
    return response;
  }

  /** The init of an answer of this template, media type and status (made once, then reused). */
  private answerInit(template: ResponseTemplate, contentType: string, status: number): ResponseInit {
    const fixed = this.staticHeaders(template, contentType);
    let byStatus = this.inits.get(fixed);
    if (byStatus === undefined) {
      byStatus = new Map();
      this.inits.set(fixed, byStatus);
    }
    let init = byStatus.get(status);
    if (init === undefined) {
      init = { status, headers: new globalThis.Headers(fixed) };
      byStatus.set(status, init);
    }
    return init;
  }

  /** The inits made for each static header object, by status. */
  private readonly inits = new WeakMap<Headers, Map<number, ResponseInit>>();

  /** The error envelope with its status, plus the headers an HttpError carries (`Allow`, `Retry-After`). */
  error(request: Request, template: ResponseTemplate, rejection: Rejection): Response {
    const headers = this.headersFor(request, template, JSON_TYPE);
    if (rejection instanceof HttpError) Object.assign(headers, rejection.headers);
    return new Response(JSON.stringify(envelopeOf(rejection)), {
      status: STATUS_OF[rejection.code],
      headers,
    });
  }

  /** CORS preflight for a known path (CONTRACT §1.3): 204 with the methods it allows. */
  preflight(request: Request, template: ResponseTemplate, allow: string): Response {
    const headers = this.headersFor(request, template, null);
    headers.allow = allow;
    if (this.cors.kind !== "off") {
      headers["access-control-allow-methods"] = allow;
      headers["access-control-allow-headers"] = PREFLIGHT_ALLOW_HEADERS;
      headers["access-control-max-age"] = PREFLIGHT_MAX_AGE;
    }
    return new Response(null, { status: 204, headers });
  }
}

/** The one error mapper: a rejection to its envelope, anything else to a logged generic 500. */
export type FailureMapper = (request: Request, template: ResponseTemplate, error: unknown) => Response;

/** Where the failure mapper reports an unexpected error: its class name only, never its message. */
export interface FailureLog {
  log(record: { level: "error"; msg: string; requestId: string; errorName: string }): void;
}

/**
 * The failure mapper of CONTRACT §1.1 and the spec's part 7: a DomainError or HttpError becomes its
 * envelope; anything else a generic INTERNAL_ERROR, logged by class name (its message may quote
 * input, CONTRACT §4.4). Every handler and the application's error hook answer through it.
 */
export function failureMapper(responder: Responder, log: FailureLog): FailureMapper {
  return (request, template, error) => {
    if (error instanceof DomainError || error instanceof HttpError)
      return responder.error(request, template, error);
    const response = responder.error(request, template, INTERNAL_ERROR);
    log.log({
      level: "error",
      msg: "unexpected error",
      requestId: responder.requestIdOf(request),
      errorName: error instanceof Error ? error.name : typeof error,
    });
    return response;
  };
}
