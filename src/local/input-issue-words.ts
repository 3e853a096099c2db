/**
 * Input errors of the list commands in plain words (issue 13). The API points at an entry by its
 * place in the request body (`["include", 1203]`) and, for a body that breaks its schema, says so
 * in the schema's words (`"include": Expected array length to be less or equal to 1000.`). A
 * person gave arguments, files and stdin, so each issue is said at the place its entry came from
 * (`addresses.txt:1203: "10.0.0.256" is not a valid IPv4 address: octet 256 is above 255`) and
 * schema phrases are said plainly. The CLI prints these sentences (src/cli/input-errors.ts); `--json`
 * output is not affected: it stays the API's envelope.
 */
import type { Places } from "./list-lines.ts";
import type { Operand } from "./list-sources.ts";

/** One list of the request as the user gave it: what to call it and where each entry came from. */
export interface GivenList {
  /** How the list is named in a sentence: `the address list`, `the exclusion list`. */
  noun: string;
  entries: readonly string[];
  origins: Places;
}

/** The lists of one command, by their name in the request body (`inputs`, `include`, `exclude`). */
export type GivenLists = Readonly<Record<string, GivenList>>;

/** An issue of the error envelope, as far as its words need it. */
export interface EnvelopeIssue {
  message: string;
  path?: readonly (string | number)[] | undefined;
}

/** An operand of `diff` and `common` (src/local/list-sources.ts) as a sentence names it. */
export function givenList(operand: Operand, label: string): GivenList {
  return { noun: `${label} (${operand.name})`, entries: operand.entries, origins: operand.origins };
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

/**
 * `addresses.txt:12: <sentence>` for one issue of `lists`; `remote` when a server answered (its
 * limits are not the local ones).
 */
export function describeIssue(issue: EnvelopeIssue, lists: GivenLists, remote: boolean): string {
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
