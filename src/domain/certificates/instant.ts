/**
 * The instant of evaluation (CONTRACT §9.1): the request's optional `at`, an RFC 3339 date-time
 * read strictly, and the fixed clock built from it for one request. Without `at` the use case's
 * own clock is used unchanged.
 */
import type { Issue } from "../errors.ts";
import type { Clock } from "../ports.ts";

/** The earliest instant `at` may name: 1950-01-01T00:00:00Z (RFC 5280's UTCTime starts there). */
export const EARLIEST_INSTANT = new Date(Date.UTC(1950, 0, 1, 0, 0, 0));
/** The latest instant `at` may name: 9999-12-31T23:59:59Z (GeneralizedTime's last second). */
export const LATEST_INSTANT = new Date(Date.UTC(9999, 11, 31, 23, 59, 59));

/** Longest `at` text read: a date-time with a long fraction still fits; anything longer is refused. */
export const MAX_INSTANT_LENGTH = 64;

/** The sentence of every `at` issue: what is accepted, never the text received. */
export const INSTANT_MESSAGE =
  "at must be an RFC 3339 date-time with Z or a numeric offset (e.g. 2026-03-15T12:00:00Z), from 1950-01-01T00:00:00Z to 9999-12-31T23:59:59Z";

/** RFC 3339 §5.6 `date-time`: `T` (or `t`), then `Z` (or `z`) or `±hh:mm`; a fraction of any length. */
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/** The outcome of reading `at`: the instant (to the second, UTC), or the issue that refuses it. */
export type InstantReading = { ok: true; instant: Date } | { ok: false; issue: Issue };

/**
 * Reads an RFC 3339 date-time (CONTRACT §9.1) into the instant it names, to the second: fractional
 * seconds are dropped, the offset is applied, and the result must lie from 1950-01-01T00:00:00Z to
 * 9999-12-31T23:59:59Z. Calendar fields are checked (month 1–12, the month's days with leap years,
 * hour 0–23, minute 0–59, offset hours 0–23 and minutes 0–59); a leap second (`:60`, which RFC 3339
 * allows) is read as the second that follows it, as POSIX time counts it. `-00:00` is read as UTC.
 *
 * @param text the request's `at` field, already known to be a string.
 */
export function readInstant(text: string): InstantReading {
  const refused: InstantReading = { ok: false, issue: { message: INSTANT_MESSAGE, path: ["at"] } };
  if (text.length > MAX_INSTANT_LENGTH) return refused;
  const match = DATE_TIME.exec(text);
  if (!match) return refused;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return refused;
  if (hour > 23 || minute > 59 || second > 60) return refused;
  let offsetMinutes = 0;
  if (match[7] === undefined) {
    const offsetHours = Number(match[9]);
    const offsetRest = Number(match[10]);
    if (offsetHours > 23 || offsetRest > 59) return refused;
    offsetMinutes = (match[8] === "-" ? -1 : 1) * (offsetHours * 60 + offsetRest);
  }
  const local = new Date(0);
  local.setUTCFullYear(year, month - 1, day);
  local.setUTCHours(hour, minute, second, 0);
  const instant = new Date(local.getTime() - offsetMinutes * 60_000);
  if (instant < EARLIEST_INSTANT || instant > LATEST_INSTANT) return refused;
  return { ok: true, instant };
}

/** The request's `at` as issues (none when absent or valid), for the use cases' issue lists. */
export function instantIssues(text: string | undefined): Issue[] {
  if (text === undefined) return [];
  const reading = readInstant(text);
  return reading.ok ? [] : [reading.issue];
}

/**
 * The clock one request is evaluated with: a clock that always answers `at`'s instant when `at` is
 * given and valid, else `clock` itself (an invalid `at` is refused before the clock is read).
 */
export function clockAt(text: string | undefined, clock: Clock): Clock {
  if (text === undefined) return clock;
  const reading = readInstant(text);
  if (!reading.ok) return clock;
  const instant = reading.instant.getTime();
  return { now: () => new Date(instant) };
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
