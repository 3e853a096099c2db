/**
 * What the three CIDR use cases share about their input: entry bounds, collecting every invalid
 * entry as an issue, the one-family rule, and the errors those produce (CONTRACT §1.1, §2).
 */
import { DomainError, type Issue, invalidInput } from "../errors.ts";
import { type IpFamily, quoteEntry, trimAsciiWhitespace } from "../ip/addr.ts";
import { parsePrefix, scanPrefixWords } from "../ip/prefix.ts";
import { PrefixList } from "../ip/prefix-list.ts";
import { RangeList } from "../ip/range-list.ts";
import { MAX_ENTRY_LENGTH, MAX_VALIDATION_PROBLEMS, MIN_ENTRY_LENGTH } from "../limits.ts";

/** The family as the results spell it. */
export type FamilyName = "ipv4" | "ipv6";

/** `ipv4` or `ipv6`. */
export function familyName(family: IpFamily): FamilyName {
  return family === 4 ? "ipv4" : "ipv6";
}

/** Where an issue points: its `path` and the endpoint's legacy locator fields. */
export type Locator = Omit<Issue, "message">;

/**
 * Why `raw` cannot be an address entry before it is parsed — not a string, or outside 1–64
 * characters measured on the raw text, before trimming (spec §2.1) — or `null`. `name` is the
 * noun for the message (`entry`, `start`, `end`). Over-long text is not quoted.
 */
export function entryBoundsProblem(raw: unknown, name: string): string | null {
  if (typeof raw !== "string") return `${name} must be a string`;
  if (raw.length < MIN_ENTRY_LENGTH) return `${name} is empty; expected an IP address`;
  if (raw.length > MAX_ENTRY_LENGTH) {
    return `${name} is ${raw.length} characters long; at most ${MAX_ENTRY_LENGTH} are allowed`;
  }
  return null;
}

/** An issue: `message`, then `path`, then the locator fields in `at`'s order. */
export function issueAt(message: string, at: Locator): Issue {
  return { message, ...at };
}

/** Words of the entry being read: the network address in 0–3, the family in 4. */
const entryWords = new Uint32Array(5);

/**
 * Reads entry `i` of a list into `entryWords` and returns its prefix length; for an invalid entry,
 * adds its issue (located by `locate(i)`) and returns -1.
 */
function readEntry(raw: unknown, i: number, locate: (index: number) => Locator, issues: Issue[]): number {
  const bounds = entryBoundsProblem(raw, "entry");
  if (bounds !== null) {
    issues.push(issueAt(bounds, locate(i)));
    return -1;
  }
  const bits = scanPrefixWords(raw as string, entryWords);
  if (bits < 0) {
    const parsed = parsePrefix(raw as string);
    if (!parsed.ok) issues.push(issueAt(parsed.message, locate(i)));
  }
  return bits;
}

/**
 * Reads a list of address-or-CIDR entries into range lists without making an object per entry:
 * each valid entry's block is appended to `v4` or `v6` by its family, in input order, and its
 * family is written to `families[offset + i]` when `families` is given; each invalid entry adds an
 * issue located by `locate(i)`. Stops once `issues` holds MAX_VALIDATION_PROBLEMS (past 101
 * problems the answer is an error that lists 100 and says "more": reading on changes nothing).
 */
export function readPrefixLists(
  entries: readonly string[],
  locate: (index: number) => Locator,
  issues: Issue[],
  v4: RangeList,
  v6: RangeList,
  families: Uint8Array | null = null,
  offset = 0,
): void {
  const w = entryWords;
  for (let i = 0; i < entries.length; i++) {
    if (issues.length >= MAX_VALIDATION_PROBLEMS) break;
    const bits = readEntry(entries[i], i, locate, issues);
    if (bits < 0) continue;
    const family = w[4] === 4 ? 4 : 6;
    if (families !== null) families[offset + i] = family;
    (family === 4 ? v4 : v6).pushPrefix(w[0]!, w[1]!, w[2]!, w[3]!, bits);
  }
}

/**
 * Valid entries of a list as words, in input order: entry `i`'s network address is
 * `words[4i … 4i+3]` (an IPv4 address in the last), its family `families[i]`, its prefix length
 * `lengths[i]`. Positions match the list's when no issue was found.
 */
export interface PrefixWords {
  /** Number of valid entries read. */
  readonly count: number;
  readonly words: Uint32Array;
  readonly families: Uint8Array;
  readonly lengths: Uint8Array;
}

/**
 * Reads a list of address-or-CIDR entries as {@link PrefixWords}, without an object per entry,
 * adding an issue located by `locate(i)` for each invalid one, until `issues` holds
 * MAX_VALIDATION_PROBLEMS.
 */
export function readPrefixWords(
  entries: readonly string[],
  locate: (index: number) => Locator,
  issues: Issue[],
): PrefixWords {
  const n = entries.length;
  const words = new Uint32Array(4 * n);
  const families = new Uint8Array(n);
  const lengths = new Uint8Array(n);
  const w = entryWords;
  let count = 0;
  for (let i = 0; i < n; i++) {
    if (issues.length >= MAX_VALIDATION_PROBLEMS) break;
    const bits = readEntry(entries[i], i, locate, issues);
    if (bits < 0) continue;
    const at = 4 * count;
    words[at] = w[0]!;
    words[at + 1] = w[1]!;
    words[at + 2] = w[2]!;
    words[at + 3] = w[3]!;
    families[count] = w[4]!;
    lengths[count] = bits;
    count++;
  }
  return { count, words, families, lengths };
}

/** Position of the first prefix read whose family is not `family`, or -1 when all are. */
export function otherFamilyAt(read: PrefixWords, family: IpFamily): number {
  for (let i = 0; i < read.count; i++) if (read.families[i] !== family) return i;
  return -1;
}
/** The ranges of the prefixes read (all of `family`), in order. */
export function rangeListOfWords(family: 4 | 6, read: PrefixWords): RangeList {
  const list = new RangeList(family, read.count);
  const { words, lengths } = read;
  for (let i = 0; i < read.count; i++) {
    list.pushPrefix(words[4 * i]!, words[4 * i + 1]!, words[4 * i + 2]!, words[4 * i + 3]!, lengths[i]!);
  }
  return list;
}

/** The prefixes read (all of `family`) as canonical CIDRs, in order, made when read. */
export function prefixListOfWords(family: 4 | 6, read: PrefixWords): PrefixList {
  const list = new PrefixList(read.count);
  const { words, lengths } = read;
  for (let i = 0; i < read.count; i++) {
    list.add(family, words[4 * i]!, words[4 * i + 1]!, words[4 * i + 2]!, words[4 * i + 3]!, lengths[i]!);
  }
  return list;
}

/**
 * `INVALID_INPUT` for the invalid entries found. Issue-finding may stop early (the wire
 * contract lists at most 100 and says when more exist); the envelope owns that sentence.
 */
export function invalidEntries(issues: Issue[]): DomainError {
  return invalidInput(
    issues.length > MAX_VALIDATION_PROBLEMS ? issues.slice(0, MAX_VALIDATION_PROBLEMS) : issues,
  );
}

/**
 * `MIXED_ADDRESS_FAMILIES` with one issue at the entry whose family differs (CONTRACT §2).
 * `firstName` names the entry it is compared with (`the first entry`, `start`).
 */
export function mixedFamilies(
  text: string,
  family: IpFamily,
  firstName: string,
  firstText: string,
  firstFamily: IpFamily,
  at: Locator,
): DomainError {
  const message =
    `${quoteEntry(trimAsciiWhitespace(text))} is IPv${family}, but ${firstName} ` +
    `${quoteEntry(trimAsciiWhitespace(firstText))} is IPv${firstFamily}; all addresses must be of one family`;
  return new DomainError("MIXED_ADDRESS_FAMILIES", "IPv4 and IPv6 cannot be mixed in one request.", [
    issueAt(message, at),
  ]);
}

/** `INVALID_INPUT` for a list whose length is out of bounds; the issue's path is the list itself. */
export function listLengthProblem(
  list: readonly unknown[],
  name: string,
  min: number,
  max: number,
): Issue | null {
  if (!Array.isArray(list)) return { message: `${name} must be an array of strings`, path: [name] };
  if (list.length < min || list.length > max) {
    const bounds = min === 0 ? `at most ${max}` : `${min} to ${max}`;
    return { message: `${name} must have ${bounds} entries; it has ${list.length}`, path: [name] };
  }
  return null;
}

/** One list of a request, for {@link listsShapeIssues}. */
export interface NamedList {
  readonly name: string;
  readonly list: readonly unknown[];
  /** Fewest entries allowed: 1 for a required list, 0 for an optional one. */
  readonly min: number;
}

/**
 * The length issues of a request's lists (CONTRACT §7.4): each list within `min`–`max` entries
 * (issue at `[name]`), and, when each is, all of them together at most `max` (one issue at `[]`,
 * since no single list is at fault).
 */
export function listsShapeIssues(lists: readonly NamedList[], max: number): Issue[] {
  const issues: Issue[] = [];
  for (const { name, list, min } of lists) {
    const issue = listLengthProblem(list, name, min, max);
    if (issue !== null) issues.push(issue);
  }
  if (issues.length > 0 || lists.length < 2) return issues;
  const total = lists.reduce((sum, { list }) => sum + list.length, 0);
  if (total > max) {
    const names = lists.map(({ name }) => name).join(" and ");
    issues.push({
      message: `${names} together must have at most ${max} entries; they have ${total}`,
      path: [],
    });
  }
  return issues;
}
