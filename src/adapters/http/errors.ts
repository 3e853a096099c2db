/**
 * The error envelope (spec part 7, CONTRACT §1.1) and the one mapping from failures to it.
 */
import { DomainError, type ErrorCode, type Issue } from "../../domain/errors.ts";
import { MAX_ISSUES } from "../../domain/limits.ts";

/** HTTP status of each error code. */
export const STATUS_OF: Record<ErrorCode, number> = {
  INVALID_JSON: 400,
  INVALID_INPUT: 400,
  MIXED_ADDRESS_FAMILIES: 400,
  RESULT_TOO_LARGE: 400,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  CLIENT_IP_UNAVAILABLE: 503,
};

export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string; issues?: Issue[] };
}

/** Builds the envelope, capping issues at MAX_ISSUES and saying how many were left out. */
export function envelopeOf(error: DomainError): ErrorEnvelope {
  const { code, issues } = error;
  let message = error.message;
  if (issues.length === 0) return { error: { code, message } };
  if (issues.length > MAX_ISSUES) {
    const omitted = issues.length - MAX_ISSUES;
    message = `The request has ${issues.length} problems; the first ${MAX_ISSUES} are listed and ${omitted} more were omitted.`;
  }
  return { error: { code, message, issues: issues.slice(0, MAX_ISSUES).map(orderIssueFields) } };
}

/** Issue objects with a stable field order: message, path, then the legacy locators. */
function orderIssueFields(issue: Issue): Issue {
  const ordered: Issue = { message: issue.message, path: issue.path };
  if (issue.list !== undefined) ordered.list = issue.list;
  if (issue.index !== undefined) ordered.index = issue.index;
  if (issue.field !== undefined) ordered.field = issue.field;
  if (issue.location !== undefined) ordered.location = issue.location;
  return ordered;
}

/** The spec's legacy locators for an issue at `path` (CONTRACT §1.1). */
export function legacyLocators(path: (string | number)[]): Pick<Issue, "index" | "list" | "field"> {
  const [head, position] = path;
  if (path.length === 2 && typeof position === "number") {
    if (head === "inputs") return { index: position };
    if (head === "include" || head === "exclude") return { list: head, index: position };
  }
  if (path.length === 1 && (head === "start" || head === "end")) return { field: head };
  return {};
}

/** One validation failure as Elysia/TypeBox reports it (only the parts we read). */
export interface SchemaFailure {
  path: string;
  message: string;
  value?: unknown;
}

/** Most schema failures read from one validation error; a 64 KiB body cannot hold more values. */
const MAX_SCHEMA_FAILURES = 100_000;

/**
 * Every schema failure of an Elysia validation error. Elysia's own `error.all` stops at 64, which
 * would make the envelope claim "64 invalid values" for a list of 20000 bad entries; the
 * validator's iterator gives them all, so the envelope can count what it leaves out (CONTRACT §1.1).
 */
export function schemaFailuresOf(error: {
  validator?: unknown;
  value?: unknown;
  all?: unknown;
}): SchemaFailure[] {
  const validator = error.validator as { Errors?: (value: unknown) => Iterable<SchemaFailure> } | undefined;
  if (typeof validator?.Errors !== "function") return (error.all as SchemaFailure[] | undefined) ?? [];
  const failures: SchemaFailure[] = [];
  for (const failure of validator.Errors(error.value)) {
    failures.push(failure);
    if (failures.length >= MAX_SCHEMA_FAILURES) break;
  }
  return failures;
}

/** Converts a JSON Pointer (`/inputs/3`) into an issue path (`["inputs", 3]`). */
export function pointerToPath(pointer: string): (string | number)[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((token) => {
      const name = token.replaceAll("~1", "/").replaceAll("~0", "~");
      return /^(0|[1-9][0-9]*)$/.test(name) ? Number(name) : name;
    });
}

function describePath(path: (string | number)[]): string {
  if (path.length === 0) return "The request body";
  let text = "";
  for (const part of path) text += typeof part === "number" ? `[${part}]` : text ? `.${part}` : part;
  return `"${text}"`;
}

/** Turns schema failures into INVALID_INPUT issues with clear sentences. */
export function issuesFromSchemaFailures(failures: readonly SchemaFailure[]): Issue[] {
  const issues: Issue[] = [];
  const seen = new Set<string>();
  // A missing field is also reported as "expected string" at the same path: keep only "required".
  const missing = new Set(
    failures.filter((failure) => failure.message.startsWith("Expected required property")).map((f) => f.path),
  );
  for (const failure of failures) {
    if (missing.has(failure.path) && !failure.message.startsWith("Expected required property")) continue;
    const path = pointerToPath(failure.path);
    let message: string;
    if (failure.message === "Unexpected property") {
      message = `Unknown field ${describePath(path)} is not allowed.`;
    } else if (failure.message.startsWith("Expected required property")) {
      message = `${describePath(path)} is required.`;
    } else {
      message = `${describePath(path)}: ${failure.message.replace(/\.$/, "")}.`;
    }
    const key = `${failure.path}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    // Spec part 7: path elements are non-empty strings. An empty field name ("") cannot be
    // named in a path, so the issue points at the object that holds it.
    const empty = path.indexOf("");
    const issuePath = empty === -1 ? path : path.slice(0, empty);
    issues.push({ message, path: issuePath, ...legacyLocators(issuePath) });
  }
  return issues;
}

/** The generic 500 envelope: no detail of what went wrong reaches the client. */
export const INTERNAL_ERROR = new DomainError(
  "INTERNAL_ERROR",
  "The server failed unexpectedly while handling the request; it has been logged.",
);
