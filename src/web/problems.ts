/**
 * Failures as the page shows them: the code, the message and every issue, each placed where the
 * user can find it (a PEM line, or a list field's label and line), and list fields read the way
 * the CLI reads list files.
 */

import type { ApiResult, ErrorIssue } from "../client/index.ts";
import { linesOf } from "../local/list-lines.ts";
import { byId, type Child, h } from "./dom.ts";

/** The entries of a list field, and the field's label and line of each, to place the API's issues. */
export interface ListInput {
  field: string;
  label: string;
  entries: string[];
  lines: number[];
}

/**
 * Reads a list field with the CLI's own list reader (CONTRACT §7.6): a byte-order mark, blank
 * lines, whole-line and trailing `#` comments and CRLF are dropped here, so the API, whose lists
 * stay strict, gets only the entries.
 */
export function listInput(id: string, field: string): ListInput {
  const box = byId<HTMLTextAreaElement>(id);
  const { entries, origins } = linesOf(box.value, "");
  return {
    field,
    label: document.querySelector(`label[for="${id}"]`)?.textContent ?? field,
    entries: entries.map((entry) => entry.trim()),
    lines: entries.map((_, i) => Number(origins.at(i)?.slice(1))),
  };
}

function describePath(path: readonly (string | number)[] | undefined): string {
  if (path === undefined || path.length === 0) return "";
  let text = "";
  for (const part of path) text += typeof part === "number" ? `[${part}]` : text ? `.${part}` : part;
  return text;
}

/** A failure to show: a call's result, or a refusal made on this page without calling anything. */
export interface Failure {
  status?: number | undefined;
  error: { code: string; message: string; issues?: readonly ErrorIssue[] | undefined };
}

const HEADLINES: Record<string, string> = {
  NETWORK_ERROR: "Network error: the service could not be reached",
  INVALID_RESPONSE: "Invalid response: the service's answer did not match the API",
};

/**
 * A failed call: the code, the message and every issue. `onLocation` renders issues that point
 * into the PEM text (certificate form only).
 */
export function problem(
  result: Failure,
  onLocation?: (issue: ErrorIssue, location: NonNullable<ErrorIssue["location"]>) => Node | null,
  headlineOverride?: string,
  lists: readonly ListInput[] = [],
): HTMLElement {
  const { error } = result;
  const headline = headlineOverride ?? HEADLINES[error.code] ?? "The request was not accepted";
  const status = result.status === undefined ? "" : ` (HTTP ${result.status})`;
  const items = (error.issues ?? []).map((issue: ErrorIssue) => {
    const path = describePath(issue.path);
    const list = lists.find((input) => input.field === issue.path?.[0]);
    const index = issue.path?.[1];
    const line = list && typeof index === "number" ? list.lines[index] : undefined;
    const where = issue.location
      ? `Line ${issue.location.line}: `
      : list && line !== undefined
        ? `${list.label}, line ${line}: `
        : path
          ? h("code", {}, `${path}: `)
          : "";
    const located = issue.location && onLocation ? onLocation(issue, issue.location) : null;
    return h("li", {}, where, issue.message, located);
  });
  return h(
    "div",
    { class: "problem", role: "alert" },
    h("h3", {}, headline),
    h("p", {}, h("code", {}, error.code), `${status}: ${error.message}`),
    items.length ? h("ul", {}, ...items) : null,
  );
}

/** A call's result as page content: what `render` makes of its value, or its problem. */
export function outcome<T>(
  result: ApiResult<T>,
  render: (value: T) => Child[],
  lists: readonly ListInput[] = [],
): Child[] {
  return result.ok ? render(result.value) : [problem(result, undefined, undefined, lists)];
}
