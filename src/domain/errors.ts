/**
 * The one error type the domain throws. It speaks the domain's language only: a closed set of
 * codes about the request's content and the precise issues found. It knows nothing of HTTP —
 * statuses, headers and the cap on listed issues belong to the wire contract
 * (src/contract/errors.ts, src/contract/envelope.ts).
 */

/**
 * Why the domain refuses a request:
 * - `INVALID_INPUT`: an entry or field is malformed or out of bounds; `issues` locate each one.
 * - `MIXED_ADDRESS_FAMILIES`: IPv4 and IPv6 where one family is required (CONTRACT §2).
 * - `RESULT_TOO_LARGE`: the answer would exceed the result limit; no partial answer (CONTRACT §3).
 * - `INSUFFICIENT_SPACE`: fewer free blocks than asked for in an allocation (CONTRACT §7.4), or no
 *   room left for the next block of Terraform's `cidrsubnets` (§8.9).
 * - `CLIENT_IP_UNAVAILABLE`: no client address can be observed (CONTRACT §5).
 */
export type DomainErrorCode =
  | "INVALID_INPUT"
  | "MIXED_ADDRESS_FAMILIES"
  | "RESULT_TOO_LARGE"
  | "INSUFFICIENT_SPACE"
  | "CLIENT_IP_UNAVAILABLE";

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
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly issues: Issue[] = [],
  ) {
    super(message);
    this.name = "DomainError";
  }
}

/**
 * Work stopped because its {@link WorkBudget} was exhausted: not a verdict on the input, and never
 * an answer of its own (the edge has already refused the request, or refuses it as late).
 */
export class WorkAbandoned extends Error {
  constructor() {
    super("the work was stopped: its request's deadline passed");
    this.name = "WorkAbandoned";
  }
}

/** Shorthand for the most common rejection: `INVALID_INPUT` with its issues. */
export function invalidInput(issues: Issue[]): DomainError {
  const first = issues[0];
  const message =
    issues.length === 1 && first ? first.message : `The request has ${issues.length} invalid values.`;
  return new DomainError("INVALID_INPUT", message, issues);
}
