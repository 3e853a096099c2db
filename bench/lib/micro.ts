/**
 * The runner the in-process micro-benchmarks share (domain-micro, cidr-lists-micro, handler-micro):
 * each case is warmed up, then timed in `rounds` rounds of about `roundMs` each, and the median
 * round's time per call is printed with the fastest and slowest round.
 */

/** How a micro-benchmark is timed. */
export interface MicroOptions {
  rounds: number;
  roundMs: number;
  warmupMs: number;
  /**
   * `cpu`: this process's user + system time (time spent descheduled on a shared machine is not the
   * case's cost); `wall`: elapsed time.
   */
  clock: "cpu" | "wall";
  /** What one call is, for the printed line: `call`, `request`. */
  unit: string;
}

/** The chosen clock, in microseconds. */
function nowMicros(clock: MicroOptions["clock"]): number {
  if (clock === "wall") return performance.now() * 1000;
  const { user, system } = process.cpuUsage();
  return user + system;
}

/** Calls `call` repeatedly for about `ms`; returns microseconds per call. Awaits only promises. */
async function timeFor(call: () => unknown, ms: number, clock: MicroOptions["clock"]): Promise<number> {
  let calls = 0;
  const start = nowMicros(clock);
  let now = start;
  while (now - start < ms * 1000) {
    for (let i = 0; i < 16; i++) {
      const result = call();
      if (result instanceof Promise) await result;
    }
    calls += 16;
    now = nowMicros(clock);
  }
  return (now - start) / calls;
}

/** Times every case whose name contains `only` (all when undefined) and prints one line each. */
export async function runMicro(
  cases: Record<string, () => unknown>,
  options: MicroOptions,
  only: string | undefined = process.argv[2],
): Promise<void> {
  const fmt = (us: number) => (us >= 100 ? us.toFixed(0) : us.toFixed(2));
  for (const [name, call] of Object.entries(cases)) {
    if (only !== undefined && !name.includes(only)) continue;
    await timeFor(call, options.warmupMs, options.clock);
    const rounds: number[] = [];
    for (let r = 0; r < options.rounds; r++) rounds.push(await timeFor(call, options.roundMs, options.clock));
    rounds.sort((x, y) => x - y);
    const median = rounds[Math.floor(options.rounds / 2)]!;
    console.log(
      `${name.padEnd(18)} median ${fmt(median).padStart(8)} µs/${options.unit}  (min ${fmt(rounds[0]!)}, max ${fmt(rounds[rounds.length - 1]!)})`,
    );
  }
}
