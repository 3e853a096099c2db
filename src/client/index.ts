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
 * - an envelope carrying `NETWORK_ERROR` or `INVALID_RESPONSE` → `INVALID_RESPONSE`: those codes
 *   are the client's own (CONTRACT §5), so a server sending one breaks the protocol, and
 *   `isClientError()` is never true of anything a server sent;
 * - a body longer than `maxResponseBytes` (4 MiB by default; the largest legitimate answer, a list
 *   of 10000 IPv6 CIDRs, is about 460 KB) → `INVALID_RESPONSE`; reading stops at the limit;
 * - no response at all (refused connection, DNS failure, timeout, abort) → `NETWORK_ERROR`.
 * Expected failures are values, never exceptions (CONTRACT §5: these two codes are the client's).
 *
 * This module imports only TypeBox, the wire contract (src/contract/: schemas and the operations
 * table, which gives every call its method and path) and the pure domain they use: no Elysia, no
 * server module, nothing from Bun or Node, so it bundles for the browser.
 */
import type { Static, TSchema } from "@sinclair/typebox";
import type { WireErrorCode } from "../contract/errors.ts";
import {
  type BodylessOperationId,
  OPERATION_LIST,
  OPERATIONS,
  type OperationId,
  type OperationIdWith,
  type RequestOf,
  type ResultOf,
} from "../contract/operations.ts";
import { ErrorResponse } from "../contract/schemas.ts";
import { type Checker, lazyChecker, type MismatchIssue } from "./validate.ts";

export type { OperationId, RequestOf, ResultOf } from "../contract/operations.ts";
export type { MismatchIssue } from "./validate.ts";

export type HealthResultType = ResultOf<"health">;
export type CidrCoverRequestType = RequestOf<"cidrCover">;
export type CidrCoverResultType = ResultOf<"cidrCover">;
export type CidrSubtractRequestType = RequestOf<"cidrSubtract">;
export type CidrSubtractResultType = ResultOf<"cidrSubtract">;
export type RangeToCidrsRequestType = RequestOf<"rangeToCidrs">;
export type RangeToCidrsResultType = ResultOf<"rangeToCidrs">;
export type CertificateBundleRequestType = RequestOf<"certificateBundle">;
export type CertificateChainRequestType = RequestOf<"certificateChain">;
export type CertificateChainResultType = ResultOf<"certificateChain">;
export type CertificateBundleResultType = ResultOf<"certificateBundle">;
export type PublicIpResultType = ResultOf<"publicIp">;
export type PublicIpDatabasesResultType = ResultOf<"publicIpDatabases">;
/** The error envelope's `error` object, as the server sends it (spec part 7). */
export type ServerError = Static<typeof ErrorResponse>["error"];
export type ErrorIssue = NonNullable<ServerError["issues"]>[number];
export type Finding = CertificateBundleResultType["findings"][number];
export type CertificateEntry = CertificateBundleResultType["certificates"][number];

/** Codes the server sends (spec part 7, CONTRACT §1, §3, §5, §7), from the wire contract. The envelope's `code` is any string. */
export type ServerErrorCode = WireErrorCode;

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
  /**
   * The longest response body read, in bytes; past it reading stops and the call is
   * INVALID_RESPONSE. 4194304 (4 MiB) by default, about nine times the API's largest answer.
   */
  maxResponseBytes?: number;
  /** The fetch to use (a test double, an instrumented or proxied fetch); globalThis.fetch by default. */
  fetch?: (input: Request) => Promise<Response>;
}

export interface CallOptions {
  /** Aborts the call (reported as NETWORK_ERROR). */
  signal?: AbortSignal;
  /** Sent as `X-Request-Id`; the server echoes it when it is 1–128 characters of `[A-Za-z0-9._-]`. */
  requestId?: string;
}

/** The operations answered in text only: their call returns the text, without its final line feed. */
type TextOperationId = OperationIdWith<"text">;
/** The operations that can also answer in text: they get a second method, `<id>Text`. */
type NegotiatedOperationId = OperationIdWith<"json-or-text">;
type ValueOf<Id extends OperationId> = Id extends TextOperationId ? string : ResultOf<Id>;

/** One call of an operation: its request body first when it has one. */
type Call<Id extends OperationId> = Id extends BodylessOperationId
  ? (options?: CallOptions) => Promise<ApiResult<ValueOf<Id>>>
  : (request: RequestOf<Id>, options?: CallOptions) => Promise<ApiResult<ValueOf<Id>>>;

/**
 * One method per operation of the table, named by its id, plus `<id>Text` for operations that can
 * answer in text (`publicIpText`: the address, without the trailing line feed).
 */
export type Client = { [Id in OperationId]: Call<Id> } & {
  [Id in NegotiatedOperationId as `${Id}Text`]: (options?: CallOptions) => Promise<ApiResult<string>>;
};

export const DEFAULT_TIMEOUT_MS = 10_000;
/** The default of `ClientOptions.maxResponseBytes`: 4 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
/** The codes only the client itself uses (CONTRACT §5): a server never sends them. */
const CLIENT_CODES: ReadonlySet<string> = new Set(["NETWORK_ERROR", "INVALID_RESPONSE"]);

/** One result checker per operation of the wire contract's table, plus the error envelope's. */
const checkers = Object.fromEntries(
  OPERATION_LIST.map((operation) => [operation.id, lazyChecker(operation.result)]),
) as { [Id in OperationId]: Checker<(typeof OPERATIONS)[Id]["result"]> };
const errorChecker = lazyChecker(ErrorResponse);

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

/** A body that outgrew the limit: reading stopped there. */
class ResponseTooLarge {
  constructor(readonly declared: boolean) {}
}

/**
 * The body as text, read no further than `limit` bytes: a declared `Content-Length` over it is
 * refused before reading, and an undeclared body is cut (its stream cancelled) once it passes it.
 */
async function readBounded(response: Response, limit: number): Promise<string | ResponseTooLarge> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (declared > limit) {
    await response.body?.cancel().catch(() => {});
    return new ResponseTooLarge(true);
  }
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    length += value.byteLength;
    if (length > limit) {
      await reader.cancel().catch(() => {});
      return new ResponseTooLarge(false);
    }
    text += decoder.decode(value, { stream: true });
  }
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
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const doFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));

  /** Sends one request and reads the whole body, within the time limit and the size limit. */
  async function exchange(
    method: "GET" | "POST",
    path: string,
    accept: string,
    body: unknown,
    call: CallOptions | undefined,
  ): Promise<
    | { ok: true; response: Response; text: string; requestId?: string }
    | { ok: false; status?: undefined; error: NetworkError }
    | ReturnType<typeof invalid>
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
      const requestId = response.headers.get("x-request-id") ?? undefined;
      const text = await readBounded(response, maxResponseBytes);
      if (text instanceof ResponseTooLarge) {
        const what = text.declared ? "declares a body" : "sent a body";
        return invalid(
          response.status,
          requestId,
          `The server ${what} larger than the client's limit of ${maxResponseBytes} bytes (maxResponseBytes); reading stopped there.`,
          [{ message: `body: longer than ${maxResponseBytes} bytes`, path: [] }],
        );
      }
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
    if (!errorChecker.check(parsed.value)) {
      return invalid(
        status,
        requestId,
        `The server answered ${status} with a body that is not the API's error envelope.`,
        errorChecker.issues(parsed.value),
      );
    }
    const { code } = parsed.value.error;
    if (CLIENT_CODES.has(code)) {
      return invalid(
        status,
        requestId,
        `The server answered ${status} with the code ${code}, which only the client itself reports: the answer breaks the protocol.`,
        [
          {
            message: `/error/code: ${code} is the client's own code; a server never sends it`,
            path: ["error", "code"],
          },
        ],
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

  /** A text answer of `id`: the body must be one address and a line feed, as the result schema says. */
  async function callText(id: OperationId, call: CallOptions | undefined): Promise<ApiResult<string>> {
    const { method, path } = OPERATIONS[id];
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
    if (!text.endsWith("\n") || !(checkers[id] as Checker<TSchema>).check({ family, ip })) {
      return invalid(status, requestId, "The text body is not one IP address followed by a line feed.", [
        { message: "body: expected an IPv4 or IPv6 address and a line feed", path: [] },
      ]);
    }
    return { ok: true, status, value: ip, ...(requestId === undefined ? {} : { requestId }) };
  }

  // One method per row: method, path and result schema all come from the operations table.
  const client: Record<string, unknown> = {};
  for (const operation of OPERATION_LIST) {
    const { id, method, path, request } = operation;
    const checker = checkers[id] as Checker<TSchema>;
    const representation = operation.policy.representation;
    if (representation === "text") {
      client[id] = (call?: CallOptions) => callText(id, call);
      continue;
    }
    client[id] =
      request === null
        ? (call?: CallOptions) => callJson(method, path, checker, undefined, call)
        : (body: unknown, call?: CallOptions) => callJson(method, path, checker, body, call);
    if (representation === "json-or-text") client[`${id}Text`] = (call?: CallOptions) => callText(id, call);
  }
  return client as Client;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * True when the failure came from the client side: no response, or one that broke the schema or
 * the protocol. Never true of a server's own envelope (the client turns one carrying these codes
 * into INVALID_RESPONSE).
 */
export function isClientError(error: { code: string }): error is ClientError {
  return error.code === "NETWORK_ERROR" || error.code === "INVALID_RESPONSE";
}

/** The INVALID_RESPONSE error of a result, or null when the result is anything else. */
export function invalidResponseOf(result: ApiResult<unknown>): InvalidResponseError | null {
  return !result.ok && result.error.code === "INVALID_RESPONSE"
    ? (result.error as InvalidResponseError)
    : null;
}
