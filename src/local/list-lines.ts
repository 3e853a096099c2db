/**
 * List inputs as every local program reads them (CONTRACT §7.6): one entry a line, each with the
 * place it came from (`addresses.txt:1203`, `stdin:7`), so that an input error names the place the
 * user can open, not an index into a request body (issue 13); and the accepted spellings of a
 * range (`a b`, `a-b`, `a - b`, whois's `NetRange: a - b` value). The CLI's commands and the page's
 * list fields read through here.
 */

/** Entries in order, each with the place it came from (same positions). */
export interface Sourced {
  entries: string[];
  origins: string[];
}

export function emptySourced(): Sourced {
  return { entries: [], origins: [] };
}

/** `text` without a UTF-8 byte-order mark at its start (Windows editors write one; CONTRACT §7.6). */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * The entries of a text, one a line: the one reader of every local list input (CONTRACT §7.6), so
 * every command and the page read a list the same way. A byte-order mark at the start is ignored; lines
 * end at LF, CRLF or a lone CR; blank lines and lines starting with `#` are skipped but counted,
 * so `name:line` is the line an editor shows. A `#` ends the entry and starts a comment
 * (`10.0.0.0/8  # office`), as in the lists aggregate6, grepcidr and iprange read: no address or
 * CIDR contains `#`. Surrounding whitespace is kept (the domain trims it, as the API does).
 */
export function linesOf(text: string, name: string, into: Sourced = emptySourced()): Sourced {
  const lines = withoutBom(text).split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    const comment = line.indexOf("#");
    if (comment >= 0) line = line.slice(0, comment);
    if (line.trim() === "") continue;
    into.entries.push(line);
    into.origins.push(`${name}:${i + 1}`);
  }
  return into;
}

/**
 * The two endpoints of a range written as `START END`, `START-END` or `START - END` (whois prints
 * `NetRange: 192.0.2.0 - 192.0.2.255`), across one or several words; `null` when the words are not
 * exactly two endpoints. Addresses never contain `-`, so a single `-` is always the separator.
 */
export function rangeEndpoints(words: readonly string[]): [string, string] | null {
  const text = words.join(" ").trim();
  const dashes = text.split("-").length - 1;
  let parts: string[];
  if (dashes === 1) parts = text.split("-").map((part) => part.trim());
  else if (dashes === 0) parts = text.split(/\s+/);
  else return null;
  if (parts.length !== 2 || parts.some((part) => part === "" || /\s/.test(part))) return null;
  return [parts[0]!, parts[1]!];
}
