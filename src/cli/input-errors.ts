/**
 * Input errors of the CIDR commands for a terminal (issue 13): each issue at the place its entry
 * came from, in the words of src/local/input-issue-words.ts. `--json` output is not affected: it
 * stays the API's envelope.
 */
import type { ErrorIssue } from "../client/index.ts";
import { MORE_ISSUES_OMITTED } from "../contract/envelope.ts";
import { describeIssue, type GivenLists } from "../local/input-issue-words.ts";
import type { Style } from "./render.ts";

interface InputError {
  code: string;
  message: string;
  issues?: readonly ErrorIssue[] | undefined;
}

/**
 * An error of a CIDR command for a terminal: one line when there is one issue, else a count and
 * one line per issue (the API lists at most 100 and says when there were more).
 */
export function renderInputError(
  error: InputError,
  lists: GivenLists,
  style: Style,
  remote: boolean,
): string {
  const head = `${style.red(style.bold("error"))} ${style.bold(error.code)}`;
  const issues = error.issues ?? [];
  if (issues.length === 0) return `${head}: ${error.message}\n`;
  const lines = issues.map((issue) => describeIssue(issue, lists, remote));
  if (lines.length === 1) return `${head}: ${lines[0]}\n`;
  // The envelope lists at most 100 issues; past that, checking stopped and its message says so.
  const more = error.message === MORE_ISSUES_OMITTED;
  let out = `${head}: ${more ? `more than ${lines.length}` : lines.length} problems in the input\n`;
  for (const line of lines) out += `  - ${line}\n`;
  if (more) out += "  … and more, not listed\n";
  return out;
}
