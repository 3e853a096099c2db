/**
 * The wire's error codes: the domain's codes plus the ones the transport answers with, each with
 * its HTTP status. The domain throws DomainError (src/domain/errors.ts); the edge throws
 * HttpError, which carries what HTTP needs besides the envelope (`Allow`, `Retry-After`). The
 * client reads the code union from here.
 */
import type { DomainErrorCode, Issue } from "../domain/errors.ts";

/**
 * Refusals that are about the request's transport, not its content:
 * - `NOT_FOUND`: no endpoint at the path (404);
 * - `METHOD_NOT_ALLOWED`: the path takes other methods, listed in `Allow` (405);
 * - `PAYLOAD_TOO_LARGE`: the body exceeds 65536 bytes, declared or read (413);
 * - `UNSUPPORTED_MEDIA_TYPE`: the body is not sent as `application/json` (415);
 * - `INVALID_JSON`: the body is not UTF-8 JSON, or did not arrive in full in time (400);
 * - `RATE_LIMITED`: the optional per-client limit is spent; `Retry-After` says when to retry (429);
 * - `OVERLOADED`: the work cannot start, or finish, within its bounded wait (503, `Retry-After`);
 * - `INTERNAL_ERROR`: anything unexpected; the message is generic (500).
 */
export type TransportErrorCode =
  | "NOT_FOUND"
  | "METHOD_NOT_ALLOWED"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "INVALID_JSON"
  | "RATE_LIMITED"
  | "OVERLOADED"
  | "INTERNAL_ERROR";

/** Every code the server sends in an error envelope. */
export type WireErrorCode = DomainErrorCode | TransportErrorCode;

/** HTTP status of each code. */
export const STATUS_OF: Readonly<Record<WireErrorCode, number>> = {
  INVALID_JSON: 400,
  INVALID_INPUT: 400,
  MIXED_ADDRESS_FAMILIES: 400,
  RESULT_TOO_LARGE: 400,
  INSUFFICIENT_SPACE: 400,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  CLIENT_IP_UNAVAILABLE: 503,
  OVERLOADED: 503,
};

/** Anything that becomes an error envelope: a DomainError or an HttpError. */
export interface Rejection {
  readonly code: WireErrorCode;
  readonly message: string;
  readonly issues: readonly Issue[];
}

/** A refusal by the transport, with the headers HTTP adds to it. */
export class HttpError extends Error implements Rejection {
  readonly status: number;
  readonly issues: readonly Issue[] = [];
  constructor(
    readonly code: TransportErrorCode,
    message: string,
    /**
     * Extra headers: `Allow` on a 405, `Retry-After` on a 429 or an OVERLOADED 503,
     * `Connection: close` when the request's body was left unread (a body too slow to arrive).
     */
    readonly headers: Readonly<{ allow?: string; "retry-after"?: string; connection?: "close" }> = {},
  ) {
    super(message);
    this.name = "HttpError";
    this.status = STATUS_OF[code];
  }

  /** A refusal the client may retry after `seconds` (RATE_LIMITED, OVERLOADED). */
  static retryAfter(code: "RATE_LIMITED" | "OVERLOADED", message: string, seconds: number): HttpError {
    return new HttpError(code, message, { "retry-after": String(seconds) });
  }

  /** Whole seconds after which a retry may succeed, when the refusal says so. */
  get retryAfterSeconds(): number | undefined {
    const value = this.headers["retry-after"];
    return value === undefined ? undefined : Number(value);
  }
}

/** The generic 500: no detail of what went wrong reaches the client. */
export const INTERNAL_ERROR = new HttpError(
  "INTERNAL_ERROR",
  "The server failed unexpectedly while handling the request; it has been logged.",
);
