/**
 * Input errors of the CIDR commands in plain words (issue 13). The API points at an entry by its
 * place in the request body (`["include", 1203]`) and, for a body that breaks its schema, says so
 * in the schema's words (`"include": Expected array length to be less or equal to 1000.`). A
 * person at a terminal gave arguments, files and stdin, so each issue is shown at the place its
 * entry came from (`addresses.txt:1203: "10.0.0.256" is not a valid IPv4 address: octet 256 is
 * above 255`) and schema phrases are said plainly. `--json` output is not affected: it stays the
 * API's envelope.
 */
import type { ErrorIssue } from "../client/index.ts";
import { MORE_ISSUES_OMITTED } from "../contract/envelope.ts";
import type { Places } from "../local/list-lines.ts";
import type { Style } from "./render.ts";

/** One list of the request as the user gave it: what to call it and where each entry came from. */
export interface GivenList {
  /** How the list is named in a sentence: `the address list`, `the exclusion list`. */
  noun: string;
  entries: readonly string[];
  origins: Places;
}

/** The lists of one command, by their name in the request body (`inputs`, `include`, `exclude`). */
export type GivenLists = Readonly<Record<string, GivenList>>;

interface InputError {
  code: string;
  message: string;
  issues?: readonly ErrorIssue[] | undefined;
}

/** How a schema complaint reads to a person; `null` for a sentence that needs no translation. */
function plainSchemaPhrase(phrase: string, list: GivenList | undefined, remote: boolean): string | null {
  let match = /^Expected array length to be less or equal to (\d+)$/.exec(phrase);
  if (match) {
    const has = list ? `; it has ${list.entries.length}` : "";
    const hint = remote ? " (the server's limit; run without --server to use the local limits)" : "";
    return `${list?.noun ?? "the list"} may have at most ${match[1]} entries${has}${hint}`;
  }
  match = /^Expected array length to be greater or equal to (\d+)$/.exec(phrase);
  if (match) return `${list?.noun ?? "the list"} needs at least ${match[1]} entry`;
  match = /^Expected string length less or equal to (\d+)$/.exec(phrase);
  if (match) return `the entry is longer than ${match[1]} characters, too long for any address or CIDR`;
  if (/^Expected string length greater or equal to 1$/.test(phrase)) return "the entry is empty";
  return null;
}

/** `addresses.txt:12: <sentence>` for one issue. */
function describeIssue(issue: ErrorIssue, lists: GivenLists, remote: boolean): string {
  const [head, position] = issue.path ?? [];
  const list = typeof head === "string" ? lists[head] : undefined;
  const where = list && typeof position === "number" ? list.origins.at(position) : undefined;
  let message = issue.message;
  const schema = /^"[^"]*": (Expected .*?)\.?$/.exec(message);
  if (schema) message = plainSchemaPhrase(schema[1]!, list, remote) ?? message;
  // The domain names a list by its body field ("include must have …", "include and exclude together …").
  message = message.replace(/^include and exclude together /, "the include and exclude lists together ");
  for (const [name, given] of Object.entries(lists)) {
    if (message.startsWith(`${name} must `)) message = `${given.noun}${message.slice(name.length)}`;
  }
  const first = Object.values(lists)[0]?.origins.at(0);
  if (first !== undefined) {
    message = message.replace(
      /the first entry ("(?:[^"\\]|\\.)*")/,
      (_, quoted) => `the first entry ${quoted} (${first})`,
    );
  }
  return where === undefined ? message : `${where}: ${message}`;
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
