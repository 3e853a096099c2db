/**
 * The error envelope (spec part 7, CONTRACT §1.1), the code → status table, and the one mapping
 * from schema failures to issues. Part of the wire contract: the server, the client and the CLI
 * all read it from here.
 */
import { type DomainError, type Issue, invalidInput } from "../domain/errors.ts";
import { MAX_ISSUES, MAX_VALIDATION_PROBLEMS } from "../domain/limits.ts";
import type { Rejection, WireErrorCode } from "./errors.ts";

export { INTERNAL_ERROR, STATUS_OF } from "./errors.ts";

export interface ErrorEnvelope {
  error: { code: WireErrorCode; message: string; issues?: Issue[] };
}

/**
 * The one sentence for a list cut at {@link MAX_ISSUES}. Checks stop at
 * {@link MAX_VALIDATION_PROBLEMS} (CONTRACT §1.7), so the total is not counted: it is "more".
 */
export const MORE_ISSUES_OMITTED = `The request has more than ${MAX_ISSUES} problems; the first ${MAX_ISSUES} are listed and the rest were omitted.`;

/**
 * Builds the envelope of a rejection. This is the one place that caps issues at MAX_ISSUES;
 * past it the message is {@link MORE_ISSUES_OMITTED}.
 */
export function envelopeOf(rejection: Rejection): ErrorEnvelope {
  const { code, issues } = rejection;
  if (issues.length === 0) return { error: { code, message: rejection.message } };
  const message = issues.length > MAX_ISSUES ? MORE_ISSUES_OMITTED : rejection.message;
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

/**
 * Turns schema failures (TypeBox's error iterator, read lazily) into INVALID_INPUT issues with
 * clear sentences, and stops reading once MAX_VALIDATION_PROBLEMS distinct issues are found.
 * TypeBox reports a missing field twice ("required", then "expected string" at the same path):
 * only "required" is kept.
 */
export function issuesFromSchemaFailures(failures: Iterable<SchemaFailure>, legacy = true): Issue[] {
  const issues: Issue[] = [];
  const seen = new Set<string>();
  const missing = new Set<string>();
  for (const failure of failures) {
    const required = failure.message.startsWith("Expected required property");
    if (required) missing.add(failure.path);
    else if (missing.has(failure.path)) continue;
    const path = pointerToPath(failure.path);
    let message: string;
    if (failure.message === "Unexpected property") {
      message = `Unknown field ${describePath(path)} is not allowed.`;
    } else if (required) {
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
    issues.push(
      legacy ? { message, path: issuePath, ...legacyLocators(issuePath) } : { message, path: issuePath },
    );
    if (issues.length >= MAX_VALIDATION_PROBLEMS) return issues;
  }
  return issues;
}

/**
 * INVALID_INPUT for schema failures, read no further than MAX_VALIDATION_PROBLEMS issues; `legacy`
 * adds the spec's legacy locators (the operation row's `legacyLocators`).
 */
export function schemaRejection(failures: Iterable<SchemaFailure>, legacy = true): DomainError {
  return invalidInput(issuesFromSchemaFailures(failures, legacy));
}
