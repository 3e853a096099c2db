/**
 * List inputs as every local program reads them (CONTRACT §7.6): one entry a line, each with the
 * place it came from (`addresses.txt:1203`, `stdin:7`), so that an input error names the place the
 * user can open, not an index into a request body (issue 13); and the accepted spellings of a
 * range (`a b`, `a-b`, `a - b`, whois's `NetRange: a - b` value). The CLI's commands and the page's
 * list fields read through here.
 */

/**
 * The places of a list's entries by position (`addresses.txt:1203`, `stdin:7`, `arg 2`): an array
 * of texts is one, and so is a {@link PlaceList}, which keeps a line number per entry and makes the
 * text only when a message needs it.
 */
export interface Places {
  readonly length: number;
  at(index: number): string | undefined;
}

/** Entries in order, each with the place it came from (same positions). */
export interface Sourced {
  entries: string[];
  origins: Places;
}

/** A {@link Sourced} being read: its places can be added to. */
export interface SourcedList extends Sourced {
  origins: PlaceList;
}

/**
 * The places of a list read from files, stdin and arguments, compactly: a line number per entry
 * (four bytes) and, per run of entries from one source, the source's name; `at(i)` writes
 * `NAME:LINE` when asked. A million entries keep 4 MB here rather than a million strings (issue 30:
 * CONTRACT §7.3's 384 MB budget).
 */
export class PlaceList implements Places {
  /** The line of each entry; 0 for an entry whose place is a text of its own (`arg 2`). */
  private lines = new Uint32Array(16);
  /** Where each run of one source starts (an entry index), ascending. */
  private readonly runStarts: number[] = [];
  /** Each run's source name (`NAME:LINE`), or its one entry's whole place (`arg 2`). */
  private readonly runNames: string[] = [];
  length = 0;

  /** Adds the place of the next entry: line `line` of the source `name`. */
  addLine(name: string, line: number): void {
    if (this.runNames[this.runNames.length - 1] !== name || this.lastRunIsText()) this.startRun(name);
    this.append(line);
  }

  /** Adds the place of the next entry as a text of its own (`arg 2`). */
  addText(place: string): void {
    this.startRun(place);
    this.append(0);
  }

  at(index: number): string | undefined {
    if (!(index >= 0 && index < this.length)) return undefined;
    const run = this.runOf(index);
    const line = this.lines[index]!;
    const name = this.runNames[run]!;
    return line === 0 ? name : `${name}:${line}`;
  }

  private lastRunIsText(): boolean {
    const last = this.length - 1;
    return last >= 0 && this.lines[last] === 0;
  }

  private startRun(name: string): void {
    this.runStarts.push(this.length);
    this.runNames.push(name);
  }

  private append(line: number): void {
    if (this.length === this.lines.length) {
      const bigger = new Uint32Array(this.lines.length * 2);
      bigger.set(this.lines);
      this.lines = bigger;
    }
    this.lines[this.length++] = line;
  }

  /** The run holding entry `index`: the last run starting at or before it. */
  private runOf(index: number): number {
    let low = 0;
    let high = this.runStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.runStarts[middle]! <= index) low = middle;
      else high = middle - 1;
    }
    return low;
  }
}

/**
 * The places of some entries of a list, by their positions in it (what `--skip-invalid` kept); an
 * entry the list has no place for is `entry N`, N its position in the list from 1.
 */
export class PlacesPicked implements Places {
  constructor(
    private readonly from: Places,
    private readonly positions: readonly number[],
  ) {}

  get length(): number {
    return this.positions.length;
  }

  at(index: number): string | undefined {
    const position = this.positions[index];
    return position === undefined ? undefined : (this.from.at(position) ?? `entry ${position + 1}`);
  }
}

/** The places of several lists one after another, as the places of the lists joined. */
export class PlacesJoined implements Places {
  readonly length: number;

  constructor(private readonly parts: readonly Places[]) {
    this.length = parts.reduce((sum, part) => sum + part.length, 0);
  }

  at(index: number): string | undefined {
    let rest = index;
    for (const part of this.parts) {
      if (rest < part.length) return rest >= 0 ? part.at(rest) : undefined;
      rest -= part.length;
    }
    return undefined;
  }
}

export function emptySourced(): SourcedList {
  return { entries: [], origins: new PlaceList() };
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
 *
 * The text is scanned, not split: only the entries become strings (each a slice of `text`), and a
 * place is a line number until it is printed ({@link PlaceList}).
 */
export function linesOf(text: string, name: string, into: SourcedList = emptySourced()): SourcedList {
  const body = withoutBom(text);
  const end = body.length;
  let start = 0;
  for (let line = 1; start <= end; line++) {
    let stop = start;
    let comment = -1;
    while (stop < end) {
      const code = body.charCodeAt(stop);
      if (code === 10 || code === 13) break;
      if (code === 35 && comment < 0) comment = stop; // "#"
      stop++;
    }
    const entryEnd = comment < 0 ? stop : comment;
    if (!isBlank(body, start, entryEnd)) {
      into.entries.push(body.slice(start, entryEnd));
      into.origins.addLine(name, line);
    }
    // CRLF is one line end; a lone CR or LF is one too.
    start = stop + (body.charCodeAt(stop) === 13 && body.charCodeAt(stop + 1) === 10 ? 2 : 1);
  }
  return into;
}

/**
 * Whether `text` from `start` to `end` is empty or whitespace only, as `String.prototype.trim`
 * sees whitespace (the old reader's test: `line.trim() === ""`).
 */
function isBlank(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code === 32 || code === 9) continue;
    if (code < 128 && !(code >= 10 && code <= 13)) return false;
    if (text.slice(i, i + 1).trim() !== "") return false;
  }
  return true;
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

/** The endpoints words stand for: a range ({@link rangeEndpoints}), or one address as a one-address range. */
export function rangeOrAddress(words: readonly string[]): [string, string] | null {
  const pair = rangeEndpoints(words);
  if (pair !== null) return pair;
  const text = words.join(" ").trim();
  return text !== "" && !/[\s-]/.test(text) ? [text, text] : null;
}

/** One line of a file of ranges: its place, its text, and its endpoints (null: no range or address). */
export interface RangeLine {
  origin: string;
  text: string;
  endpoints: [string, string] | null;
}

/**
 * The ranges of `text` read from `source`, one a line in any form {@link rangeOrAddress} takes;
 * blank lines and `# comments` skipped, each line with its place (`ranges.txt:3`).
 */
export function rangeLinesOf(text: string, source: string): RangeLine[] {
  const lines = text.split(/\r\n|\r|\n/);
  const ranges: RangeLine[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i]!.split("#")[0] ?? "").trim();
    if (line !== "")
      ranges.push({ origin: `${source}:${i + 1}`, text: line, endpoints: rangeOrAddress([line]) });
  }
  return ranges;
}
