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
import { unreadListsOf, type WrittenList } from "../../domain/list-fields.ts";

/** Who may call the API from a browser on another origin (CONTRACT §1.3). */
export type CorsPolicy = { kind: "any" } | { kind: "list"; origins: ReadonlySet<string> } | { kind: "off" };

type Headers = Record<string, string>;

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
  /** The last frozen JSON body serialized, by identity: constant results (health) serialize once. */
  private lastBody: object | undefined = undefined;
  private lastJson = "";

  constructor(cors: CorsPolicy, newRequestId: () => string) {
    this.cors = cors;
    this.newRequestId = newRequestId;
  }

  /** Ids already decided, so that every part of one request's handling uses the same one. */
  private readonly ids = new WeakMap<Request, string>();

  /** The caller's `X-Request-Id` when well-formed, otherwise a new one (CONTRACT §1.2); decided once per request. */
  requestIdOf(request: Request): string {
    let id = this.ids.get(request);
    if (id === undefined) {
      const given = request.headers.get("x-request-id");
      id = given !== null && REQUEST_ID_PATTERN.test(given) ? given : this.newRequestId();
      this.ids.set(request, id);
    }
    return id;
  }

  /** Gives `to` (a request rebuilt from `from`) the id already decided for `from`. */
  shareRequestId(from: Request, to: Request): void {
    this.ids.set(to, this.requestIdOf(from));
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

  /**
   * A JSON answer. A frozen body that is the last one serialized (a constant result, such as
   * health's) is not serialized again: it cannot have changed since.
   */
  json(request: Request, template: ResponseTemplate, body: unknown, status = 200): Response {
    let json: string | Uint8Array<ArrayBuffer>;
    if (body === this.lastBody) json = this.lastJson;
    else {
      json = jsonBodyOf(body);
      if (Object.isFrozen(body) && typeof body === "object" && body !== null && typeof json === "string") {
        this.lastBody = body;
        this.lastJson = json;
      }
    }
    return new Response(json, { status, headers: this.headersFor(request, template, JSON_TYPE) });
  }

  text(request: Request, template: ResponseTemplate, body: string): Response {
    return new Response(body, { headers: this.headersFor(request, template, TEXT_TYPE) });
  }

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

/**
 * `JSON.stringify(body)`, byte for byte, with every list field nobody has read yet taken from the
 * JSON its maker wrote (src/domain/list-fields.ts, `resultWith`): a 1024-CIDR split is one text
 * spliced in, not 1024 serialized, and its 1024 strings are never made. Only objects made by
 * `resultWith` are looked into (and objects made so inside them); anything else goes to
 * `JSON.stringify` whole. Fields whose value JSON.stringify omits (undefined, functions) are
 * omitted the same way, since each field's value is passed to it.
 */
export function jsonOf(body: unknown): string {
  let out = "";
  writeJson(body, {
    text: (text) => {
      out += text;
    },
    list: (list) => {
      out += list.json;
    },
  });
  return out;
}

/**
 * {@link jsonOf}'s answer as a response body: its UTF-8 bytes when a list was written as bytes
 * (they go out as they are, never decoded to text and encoded again), else the text.
 */
export function jsonBodyOf(body: unknown): string | Uint8Array<ArrayBuffer> {
  const parts: (string | Uint8Array)[] = [];
  let run = "";
  let hasBytes = false;
  writeJson(body, {
    text: (text) => {
      run += text;
    },
    list: (list) => {
      if (list.bytes === undefined) run += list.json;
      else {
        parts.push(run, list.bytes);
        run = "";
        hasBytes = true;
      }
    },
  });
  if (!hasBytes) return run;
  parts.push(run);
  const encoded = parts.map((part) => (typeof part === "string" ? utf8.encode(part) : part));
  const bytes = new Uint8Array(encoded.reduce((total, part) => total + part.length, 0));
  let at = 0;
  for (const part of encoded) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}

const utf8 = new TextEncoder();

/** Where {@link writeJson} writes: JSON text, and the lists whose JSON was written beforehand. */
interface JsonSink {
  text(text: string): void;
  list(list: WrittenList<unknown>): void;
}

function writeJson(value: unknown, sink: JsonSink): void {
  const unread = value !== null && typeof value === "object" ? unreadListsOf(value) : undefined;
  if (unread === undefined || unread.size === 0) {
    const text = JSON.stringify(value);
    if (text !== undefined) sink.text(text);
    return;
  }
  const fields = value as Record<string, unknown>;
  let first = true;
  sink.text("{");
  for (const key of Object.keys(fields)) {
    const written = unread.get(key);
    // A list nobody has read: its JSON; a nested result: asked in turn (its own lists unread or not).
    if (written === undefined) {
      const text = JSON.stringify(fields[key]);
      if (text === undefined) continue; // undefined, a function or a symbol: JSON.stringify leaves the field out
      sink.text(`${first ? "" : ","}${JSON.stringify(key)}:${text}`);
    } else {
      sink.text(`${first ? "" : ","}${JSON.stringify(key)}:`);
      if (written === null) writeJson(fields[key], sink);
      else sink.list(written);
    }
    first = false;
  }
  sink.text("}");
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
