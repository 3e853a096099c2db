/**
 * The one error type the domain throws. It carries a closed set of codes and the
 * precise issues found; the HTTP adapter maps it to the error envelope once.
 */

/** Every error code the service can answer with (spec part 7 and CONTRACT §1, §3, §5). */
export type ErrorCode =
  | "INVALID_JSON"
  | "INVALID_INPUT"
  | "MIXED_ADDRESS_FAMILIES"
  | "RESULT_TOO_LARGE"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "METHOD_NOT_ALLOWED"
  | "NOT_FOUND"
  | "CLIENT_IP_UNAVAILABLE"
  | "RATE_LIMITED"
  | "OVERLOADED"
  | "INTERNAL_ERROR";

/** Where in a text (the certificate `pem` field) a problem lies. */
export interface TextLocation {
  /** One-based line number. */
  line: number;
  /** Zero-based UTF-16 start offset into the original string. */
  offset: number;
  /** Zero-based UTF-16 end offset, exclusive. */
  end: number;
}

/** One problem with the request. `path` is always present; the locators are the spec's legacy fields. */
export interface Issue {
  message: string;
  path: (string | number)[];
  index?: number;
  list?: "include" | "exclude";
  field?: string;
  location?: TextLocation;
}

/** A rejection of the request with a code, one human sentence, and the issues behind it. */
export class DomainError extends Error {
  /** Set when issue-finding stopped early: more problems exist than `issues` holds (CONTRACT §1.7). */
  issuesTruncated = false;
  /** For RATE_LIMITED and OVERLOADED: whole seconds after which a retry may succeed. */
  retryAfterSeconds: number | undefined = undefined;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly issues: Issue[] = [],
  ) {
    super(message);
    this.name = "DomainError";
  }
}

/** Shorthand for the most common rejection: `INVALID_INPUT` with its issues. */
export function invalidInput(issues: Issue[]): DomainError {
  const first = issues[0];
  const message =
    issues.length === 1 && first ? first.message : `The request has ${issues.length} invalid values.`;
  return new DomainError("INVALID_INPUT", message, issues);
}
