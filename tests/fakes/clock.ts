/** A clock fixed at one instant, typed against the Clock port; it counts how often it is read. */
import type { Clock } from "../../src/domain/ports.ts";

/** A clock that always answers `instant` (RFC 3339 text or a Date); every read returns a fresh Date. */
export function fixedClock(instant: string | Date) {
  const ms = typeof instant === "string" ? Date.parse(instant) : instant.getTime();
  if (!Number.isFinite(ms)) throw new Error(`fixedClock: not an instant: ${String(instant)}`);
  let reads = 0;
  return {
    now(): Date {
      reads++;
      return new Date(ms);
    },
    /** How many times `now()` was called. */
    get reads(): number {
      return reads;
    },
  } satisfies Clock & { readonly reads: number };
}
