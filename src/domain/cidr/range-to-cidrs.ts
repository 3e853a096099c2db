/**
 * range-to-cidrs (spec §2.6, §2.7, §4.3; CONTRACT §3): an inclusive address range as the minimal
 * CIDR list.
 */
import { DomainError, type Issue } from "../errors.ts";
import { type IpAddr, parseAddr, quoteEntry, trimAsciiWhitespace } from "../ip/addr.ts";
import { PrefixList } from "../ip/prefix-list.ts";
import { countRangePrefixes, IpRange, RangePrefixes, splitRange } from "../ip/range.ts";
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
  const addressCount = range.addressCountText();
  // The two ends, as addresses, then the CIDRs, as long as they are few: a short list is made
  // into its texts now, in one decoding step with the ends' (each text alone was a `TextDecoder`
  // call of its own); for a few CIDRs the deferred field costs more than the strings it saves
  // (docs/performance.md, "Where the time goes").
  const words = scratch;
  words.clear();
  words.add(first.family, first.w0, first.w1, first.w2, first.w3);
  words.add(last.family, last.w0, last.w1, last.w2, last.w3);
  const short = splitRange(range, (w0, w1, w2, w3, bits) => {
    words.add(first.family, w0, w1, w2, w3, bits);
    return words.length - 2 <= DEFERRED_FROM;
  });
  if (short) {
    const texts = words.toArray();
    const ends = { first: texts[0]!, last: texts[1]! };
    return { family, range: ends, cidrs: texts.slice(2), cidrCount: words.length - 2, addressCount };
  }
  // A long list (the walk stopped past DEFERRED_FROM) stays the range until read
  // (list-fields.ts), counted without listing: a writer of JSON walks the range as it writes the
  // CIDRs' bytes, and they are never stored.
  const cidrCount = countRangePrefixes(range);
  const ends = { first: first.toString(), last: last.toString() };
  const cidrs = new RangePrefixes(range, cidrCount);
  return resultWith<RangeToCidrsResult>({ family, range: ends, cidrs, cidrCount, addressCount });
}

/** Lists longer than this are returned deferred (the range's {@link RangePrefixes}), shorter ones as texts. */
const DEFERRED_FROM = 32;

/**
 * Where a range's ends and its first CIDRs are collected (2 + at most 33 entries: the walk stops
 * past {@link DEFERRED_FROM}), reused from call to call: a short list is handed out as texts.
 */
const scratch = new PrefixList(2 + DEFERRED_FROM + 1);

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
