/** The real Clock: the system time. */
import type { Clock } from "../../domain/ports.ts";

export const systemClock = { now: () => new Date() } satisfies Clock;
