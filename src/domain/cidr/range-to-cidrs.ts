/**
 * range-to-cidrs (spec §2.6, §2.7, §4.3; CONTRACT §3): an inclusive address range as the minimal
 * CIDR list.
 */
import { DomainError, type Issue } from "../errors.ts";
import { type IpAddr, parseAddr, quoteEntry, trimAsciiWhitespace } from "../ip/addr.ts";
import { PrefixList } from "../ip/prefix-list.ts";
import { IpRange, splitRange } from "../ip/range.ts";
import { resultWith } from "../list-fields.ts";
import {
  entryBoundsProblem,
  type FamilyName,
  familyName,
  invalidEntries,
  issueAt,
  mixedFamilies,
} from "./entries.ts";

/** The result of range-to-cidrs, field for field and in the order of spec §2.7. */
export interface RangeToCidrsResult {
  family: FamilyName;
  /** Canonical start and end addresses. */
  range: { first: string; last: string };
  /** 1 to 254 canonical CIDRs, by network address, covering exactly the range. */
  cidrs: string[];
  /** Number of entries in `cidrs`. */
  cidrCount: number;
  /** Addresses in the range, `end − start + 1`, decimal. */
  addressCount: string;
}

/**
 * The minimal CIDR list covering exactly `start`–`end`, both included. Endpoints are bare addresses
 * (a prefix is invalid) and are never swapped.
 *
 * Throws `DomainError`: `INVALID_INPUT` with an issue per invalid endpoint (path `[field]`, `field`),
 * or one at `start` when `start` is after `end`; `MIXED_ADDRESS_FAMILIES` with an issue at `end`.
 */
export function rangeToCidrs(start: string, end: string): RangeToCidrsResult {
  const issues: Issue[] = [];
  const first = parseEndpoint(start, "start", issues);
  const last = parseEndpoint(end, "end", issues);
  if (first === null || last === null) throw invalidEntries(issues);
  if (first.family !== last.family) {
    throw mixedFamilies(end, last.family, "start", start, first.family, { path: ["end"], field: "end" });
  }
  if (first.compare(last) > 0) {
    const message =
      `start ${quoteEntry(trimAsciiWhitespace(start))} is after end ${quoteEntry(trimAsciiWhitespace(end))}; ` +
      "the range must run upwards from start to end and is never swapped";
    throw new DomainError("INVALID_INPUT", message, [issueAt(message, { path: ["start"], field: "start" })]);
  }
  const range = IpRange.of(first, last);
  const family = familyName(first.family);
  const ends = { first: first.toString(), last: last.toString() };
  const addressCount = range.addressCount().toString();
  const prefixes = new PrefixList(first.family === 6 ? 254 : 62);
  splitRange(range, (w0, w1, w2, w3, bits) => {
    prefixes.add(first.family, w0, w1, w2, w3, bits);
    return true;
  });
  const cidrCount = prefixes.length;
  // A long list stays the prefixes' words until read (list-fields.ts): a writer of JSON writes
  // them straight as bytes. A short one is made into its texts now: for a few CIDRs the deferred
  // field costs more than the strings it saves (docs/performance.md, "Where the time goes").
  if (cidrCount <= DEFERRED_FROM) {
    return { family, range: ends, cidrs: prefixes.toArray(), cidrCount, addressCount };
  }
  return resultWith<RangeToCidrsResult>({ family, range: ends, cidrs: prefixes, cidrCount, addressCount });
}

/** Lists longer than this are returned deferred (a {@link PrefixList}), shorter ones as texts. */
const DEFERRED_FROM = 32;

function parseEndpoint(raw: string, field: "start" | "end", issues: Issue[]): IpAddr | null {
  const at = { path: [field], field };
  const bounds = entryBoundsProblem(raw, field);
  if (bounds !== null) {
    issues.push(issueAt(bounds, at));
    return null;
  }
  const parsed = parseAddr(raw);
  if (parsed.ok) return parsed.value;
  issues.push(issueAt(parsed.message, at));
  return null;
}
