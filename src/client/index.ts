/**
 * Typed client of the Network Tools API (issue 8), for Bun, Node ≥ 20 and browsers.
 *
 *   import { createClient } from "network-tools-api/client";
 *   const api = createClient({ baseUrl: "http://localhost:3000" });
 *   const result = await api.cidrSubtract({ include: ["10.0.0.0/8"], exclude: ["10.1.0.0/16"] });
 *   if (result.ok) console.log(result.value.cidrs);
 *   else console.error(result.error.code, result.error.message);
 *
 * Request and result types are `Static<typeof Schema>` of the schemas the server validates
 * with, and every response is checked against them before it is returned:
 * - 2xx whose body matches → `{ ok: true, value }`;
 * - an error status with a valid error envelope → `{ ok: false, status, error }`, the server's own
 *   `error` object;
 * - any body that does not match (wrong shape, not JSON, wrong media type, an error status without
 *   a valid envelope) → `INVALID_RESPONSE`, whose `issues` say what did not match and where;
 * - no response at all (refused connection, DNS failure, timeout, abort) → `NETWORK_ERROR`.
 * Expected failures are values, never exceptions (CONTRACT §5: these two codes are the client's).
 *
 * This module imports only TypeBox, the wire contract (src/contract/: schemas and the operations
 * table, which gives every call its method and path) and the pure domain they use: no Elysia, no
 * server module, nothing from Bun or Node, so it bundles for the browser.
 */
import type { Static, TSchema } from "@sinclair/typebox";
import type { CertificateBundleRequest, CertificateBundleResult } from "../contract/certificate-schemas.ts";
import { OPERATIONS, type OperationId, type Operations } from "../contract/operations.ts";
import {
  type CidrCoverRequest,
  type CidrCoverResult,
  type CidrSubtractRequest,
  type CidrSubtractResult,
  ErrorResponse,
  type HealthResult,
  type PublicIpResult,
  type RangeToCidrsRequest,
  type RangeToCidrsResult,
} from "../contract/schemas.ts";
import type { ErrorCode } from "../domain/errors.ts";
import { type Checker, lazyChecker, type MismatchIssue } from "./validate.ts";

export type { MismatchIssue } from "./validate.ts";

export type HealthResultType = Static<typeof HealthResult>;
export type CidrCoverRequestType = Static<typeof CidrCoverRequest>;
export type CidrCoverResultType = Static<typeof CidrCoverResult>;
export type CidrSubtractRequestType = Static<typeof CidrSubtractRequest>;
export type CidrSubtractResultType = Static<typeof CidrSubtractResult>;
export type RangeToCidrsRequestType = Static<typeof RangeToCidrsRequest>;
export type RangeToCidrsResultType = Static<typeof RangeToCidrsResult>;
export type CertificateBundleRequestType = Static<typeof CertificateBundleRequest>;
export type CertificateBundleResultType = Static<typeof CertificateBundleResult>;
export type PublicIpResultType = Static<typeof PublicIpResult>;
/** The error envelope's `error` object, as the server sends it (spec part 7). */
export type ServerError = Static<typeof ErrorResponse>["error"];
export type ErrorIssue = NonNullable<ServerError["issues"]>[number];
export type Finding = CertificateBundleResultType["findings"][number];
export type CertificateEntry = CertificateBundleResultType["certificates"][number];

/** Codes the server sends (spec part 7, CONTRACT §1, §3, §5): the domain's closed set. The envelope's `code` is any string. */
export type ServerErrorCode = ErrorCode;

/** No response arrived: connection refused or reset, DNS failure, timeout, abort. */
export interface NetworkError {
  code: "NETWORK_ERROR";
  message: string;
  /** Never present: declared so that `error.issues` reads the same on every kind of failure. */
  issues?: undefined;
}

/** A response arrived but did not match the API's schemas; `issues` say what and where. */
export interface InvalidResponseError {
  code: "INVALID_RESPONSE";
  message: string;
  /** Shaped like the server's issues (`message`, `path`), so one renderer serves both. */
  issues: (ErrorIssue & MismatchIssue)[];
}

export type ClientError = NetworkError | InvalidResponseError;

/** Outcome of one call. `status` is absent only when no response arrived (NETWORK_ERROR). */
export type ApiResult<T> =
  | { ok: true; status: number; value: T; requestId?: string }
  | { ok: false; status: number; error: ServerError; requestId?: string }
  | { ok: false; status: number; error: InvalidResponseError; requestId?: string }
  | { ok: false; status?: undefined; error: NetworkError };

export interface ClientOptions {
  /**
   * Where the API lives, e.g. `http://localhost:3000` or `https://tools.example/net` (a path
   * prefix is kept). An empty string means the current origin (in a browser page).
   */
  baseUrl: string;
  /** Per-call limit for the whole exchange, body included; 10000 ms by default. */
  timeoutMs?: number;
  /** The fetch to use (a test double, an instrumented or proxied fetch); globalThis.fetch by default. */
  fetch?: (input: Request) => Promise<Response>;
}

export interface CallOptions {
  /** Aborts the call (reported as NETWORK_ERROR). */
  signal?: AbortSignal;
  /** Sent as `X-Request-Id`; the server echoes it when it is 1–128 characters of `[A-Za-z0-9._-]`. */
  requestId?: string;
}

export interface Client {
  health(options?: CallOptions): Promise<ApiResult<HealthResultType>>;
  cidrCover(request: CidrCoverRequestType, options?: CallOptions): Promise<ApiResult<CidrCoverResultType>>;
  cidrSubtract(
    request: CidrSubtractRequestType,
    options?: CallOptions,
  ): Promise<ApiResult<CidrSubtractResultType>>;
  rangeToCidrs(
    request: RangeToCidrsRequestType,
    options?: CallOptions,
  ): Promise<ApiResult<RangeToCidrsResultType>>;
  certificateBundle(
    request: CertificateBundleRequestType,
    options?: CallOptions,
  ): Promise<ApiResult<CertificateBundleResultType>>;
  /** GET /v1/public-ip as JSON: `{ family, ip }`. */
  publicIp(options?: CallOptions): Promise<ApiResult<PublicIpResultType>>;
  /** GET /v1/public-ip as `text/plain`: the address, without the trailing line feed. */
  publicIpText(options?: CallOptions): Promise<ApiResult<string>>;
}

export const DEFAULT_TIMEOUT_MS = 10_000;

/** One result checker per operation of the wire contract's table, plus the error envelope's. */
const checkers = {
  health: lazyChecker(OPERATIONS.health.result),
  cidrCover: lazyChecker(OPERATIONS.cidrCover.result),
  cidrSubtract: lazyChecker(OPERATIONS.cidrSubtract.result),
  rangeToCidrs: lazyChecker(OPERATIONS.rangeToCidrs.result),
  certificateBundle: lazyChecker(OPERATIONS.certificateBundle.result),
  publicIp: lazyChecker(OPERATIONS.publicIp.result),
  error: lazyChecker(ErrorResponse),
};

const JSON_MEDIA = /^application\/json\s*(;|$)/i;
const TEXT_MEDIA = /^text\/plain\s*(;|$)/i;

function invalid(status: number, requestId: string | undefined, message: string, issues: MismatchIssue[]) {
  return {
    ok: false as const,
    status,
    error: { code: "INVALID_RESPONSE" as const, message, issues },
    ...(requestId === undefined ? {} : { requestId }),
  };
}

function describeNetworkFailure(error: unknown, timedOut: boolean, url: string): string {
  if (timedOut) return `No complete response from ${url} within the time limit.`;
  const name = error instanceof Error ? error.name : "";
  if (name === "AbortError") return `The request to ${url} was aborted.`;
  const detail = error instanceof Error && error.message ? `: ${error.message}` : "";
  return `Could not reach ${url}${detail.replace(/\.$/, "")}.`;
}

/** Creates a client; it holds no connection or state besides its options. */
export function createClient(options: ClientOptions): Client {
  const base = options.baseUrl.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const doFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));

  /** Sends one request and reads the whole body, within the time limit. */
  async function exchange(
    method: "GET" | "POST",
    path: string,
    accept: string,
    body: unknown,
    call: CallOptions | undefined,
  ): Promise<
    | { ok: true; response: Response; text: string; requestId?: string }
    | { ok: false; status?: undefined; error: NetworkError }
  > {
    const url = `${base}${path}`;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort();
    call?.signal?.addEventListener("abort", onAbort, { once: true });
    if (call?.signal?.aborted) controller.abort();
    try {
      const headers: Record<string, string> = { accept };
      if (body !== undefined) headers["content-type"] = "application/json";
      if (call?.requestId !== undefined) headers["x-request-id"] = call.requestId;
      const init: RequestInit = { method, headers, signal: controller.signal };
      if (body !== undefined) init.body = JSON.stringify(body);
      // A relative URL (empty baseUrl) is resolved against the page, as fetch(url) would.
      const absolute = typeof location === "undefined" ? url : new URL(url, location.href).href;
      const response = await doFetch(new Request(absolute, init));
      const text = await response.text();
      const requestId = response.headers.get("x-request-id") ?? undefined;
      return { ok: true, response, text, ...(requestId === undefined ? {} : { requestId }) };
    } catch (error) {
      return {
        ok: false,
        error: { code: "NETWORK_ERROR", message: describeNetworkFailure(error, timedOut, url) },
      };
    } finally {
      clearTimeout(timer);
      call?.signal?.removeEventListener("abort", onAbort);
    }
  }

  /** Decodes an error status: the server's envelope when it is one, else INVALID_RESPONSE. */
  function failure(status: number, contentType: string, text: string, requestId: string | undefined) {
    const parsed = parseJson(text);
    if (!JSON_MEDIA.test(contentType) || !parsed.ok) {
      return invalid(
        status,
        requestId,
        `The server answered ${status} without a JSON error envelope (Content-Type "${contentType}").`,
        [],
      );
    }
    if (!checkers.error.check(parsed.value)) {
      return invalid(
        status,
        requestId,
        `The server answered ${status} with a body that is not the API's error envelope.`,
        checkers.error.issues(parsed.value),
      );
    }
    return {
      ok: false as const,
      status,
      error: parsed.value.error,
      ...(requestId === undefined ? {} : { requestId }),
    };
  }

  async function callJson<S extends TSchema>(
    method: "GET" | "POST",
    path: string,
    checker: Checker<S>,
    body: unknown,
    call: CallOptions | undefined,
  ): Promise<ApiResult<Static<S>>> {
    const sent = await exchange(method, path, "application/json", body, call);
    if (!sent.ok) return sent;
    const { response, text, requestId } = sent;
    const status = response.status;
    const contentType = response.headers.get("content-type") ?? "";
    if (status < 200 || status > 299) return failure(status, contentType, text, requestId);
    if (!JSON_MEDIA.test(contentType)) {
      return invalid(status, requestId, `Expected an application/json body, got "${contentType}".`, []);
    }
    const parsed = parseJson(text);
    if (!parsed.ok) return invalid(status, requestId, "The response body is not valid JSON.", []);
    if (!checker.check(parsed.value)) {
      const issues = checker.issues(parsed.value);
      return invalid(
        status,
        requestId,
        `The response body does not match the API schema for ${path}.`,
        issues,
      );
    }
    return { ok: true, status, value: parsed.value, ...(requestId === undefined ? {} : { requestId }) };
  }

  /** One JSON call of an operation of the table, its result checked against the table's schema. */
  function send<Id extends keyof typeof checkers & OperationId>(
    id: Id,
    body: unknown,
    call: CallOptions | undefined,
  ): Promise<ApiResult<Static<Operations[Id]["result"]>>> {
    const { method, path } = OPERATIONS[id];
    return callJson(method, path, checkers[id] as Checker<Operations[Id]["result"]>, body, call);
  }

  return {
    // Method and path of every call come from the operations table (src/contract/operations.ts).
    health: (call) => send("health", undefined, call),
    cidrCover: (request, call) => send("cidrCover", request, call),
    cidrSubtract: (request, call) => send("cidrSubtract", request, call),
    rangeToCidrs: (request, call) => send("rangeToCidrs", request, call),
    certificateBundle: (request, call) => send("certificateBundle", request, call),
    publicIp: (call) => send("publicIp", undefined, call),
    async publicIpText(call) {
      const { method, path } = OPERATIONS.publicIp;
      const sent = await exchange(method, path, "text/plain", undefined, call);
      if (!sent.ok) return sent;
      const { response, text, requestId } = sent;
      const status = response.status;
      const contentType = response.headers.get("content-type") ?? "";
      if (status < 200 || status > 299) return failure(status, contentType, text, requestId);
      if (!TEXT_MEDIA.test(contentType)) {
        return invalid(status, requestId, `Expected a text/plain body, got "${contentType}".`, []);
      }
      const ip = text.endsWith("\n") ? text.slice(0, -1) : text;
      const family = ip.includes(":") ? "ipv6" : "ipv4";
      if (!text.endsWith("\n") || !checkers.publicIp.check({ family, ip })) {
        return invalid(status, requestId, "The text body is not one IP address followed by a line feed.", [
          { message: "body: expected an IPv4 or IPv6 address and a line feed", path: [] },
        ]);
      }
      return { ok: true, status, value: ip, ...(requestId === undefined ? {} : { requestId }) };
    },
  };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** True when the failure came from the client side (no response, or one that broke the schema). */
export function isClientError(error: { code: string }): error is ClientError {
  return error.code === "NETWORK_ERROR" || error.code === "INVALID_RESPONSE";
}

/** The INVALID_RESPONSE error of a result, or null when the result is anything else. */
export function invalidResponseOf(result: ApiResult<unknown>): InvalidResponseError | null {
  return !result.ok && result.error.code === "INVALID_RESPONSE"
    ? (result.error as InvalidResponseError)
    : null;
}
