/**
 * `--at TIME` of `cert` and `chain` (CONTRACT §9.1): the instant the certificates are judged at,
 * as RFC 3339 or as `@SECONDS` since the epoch (how `openssl verify -attime` and `date -d @N` take
 * it). Read here, before any file or connection, so that a mistyped instant is a usage error (exit
 * 2) whether the operation then runs in this process, against a live server's certificates or on
 * `--server`; what is sent is always RFC 3339.
 */
import { readInstant } from "../domain/certificates/instant.ts";
import { UsageError } from "./io.ts";

/** The option, declared by its lines in `cert`'s and `chain`'s help (src/cli/command.ts). */
export const AT_OPTION = {
  "--at TIME": `judge the certificates at TIME instead of now: RFC 3339
                        (2026-03-15T12:00:00Z, or with an offset such as +02:00) or @SECONDS
                        since the epoch (as openssl verify -attime takes it), from 1950 to 9999`,
};

const EPOCH_SECONDS = /^@(-?\d{1,15})$/;

/**
 * The request's `at` for `--at TIME`, or undefined when the option is absent.
 *
 * @throws UsageError when TIME is neither an RFC 3339 date-time nor `@SECONDS`, or lies outside
 *   1950-01-01T00:00:00Z … 9999-12-31T23:59:59Z.
 */
export function atFromOption(time: string | undefined): string | undefined {
  if (time === undefined) return undefined;
  const seconds = EPOCH_SECONDS.exec(time);
  const text = seconds ? secondsToRfc3339(Number(seconds[1])) : time;
  if (text !== null && readInstant(text).ok) return text;
  throw new UsageError(
    `--at must be an RFC 3339 date-time (e.g. 2026-03-15T12:00:00Z) or @SECONDS since the epoch, from 1950-01-01T00:00:00Z to 9999-12-31T23:59:59Z, not "${time}"`,
  );
}

/** `@SECONDS` as RFC 3339 in UTC, or null when no Date can hold it. */
function secondsToRfc3339(seconds: number): string | null {
  const date = new Date(seconds * 1000);
  if (Number.isNaN(date.getTime())) return null;
  return `${date.toISOString().slice(0, 19)}Z`;
}
