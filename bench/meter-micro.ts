/**
 * The work meter alone, in process, in two parts: one request's passage through a WorkMeter's
 * gates (arrive, read, the clock reading the route takes, work, end; each request its own turn),
 * with the server's clock and with a frozen one (the difference is its three clock readings); and
 * the setImmediate with which the meter ends each turn that used it (a turn of the event loop with
 * one more immediate, less one without). CPU ns per request, the median of alternated rounds. ROOT is a checkout whose src/adapters/http/admission.ts is
 * measured (this one by default), to compare two versions of the meter:
 *   node_modules/.bin/bun bench/meter-micro.ts [ROOT] [ROUNDS]
 */
const root = process.argv[2] ?? new URL("..", import.meta.url).pathname;
const rounds = Number(process.argv[3] ?? "15");
const { LoopBudget } = (await import(
  `${root}/src/adapters/http/admission.ts`
)) as typeof import("../src/adapters/http/admission.ts");

const cpuNanos = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) * 1000;
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] as number;

/** The gates of `SYNC` requests, each its own turn (the turn's end called at once): ns a request. */
function gatesRound(now: () => number): number {
  let endTurn: (() => void) | undefined;
  const budget = new LoopBudget({
    turnMs: 10,
    now,
    afterTurn: (callback) => {
      endTurn = callback;
    },
  });
  const meter = budget.meter();
  const start = cpuNanos();
  for (let i = 0; i < SYNC; i++) {
    const promised = meter.arrive(40);
    const taken = meter.read(40, promised, budget.turn);
    if (typeof taken !== "number") throw new Error("a request waited on an idle budget");
    const usedBefore = taken;
    const startedAt = budget.now();
    const workStartedAt = meter.work(8, usedBefore, startedAt);
    meter.end(startedAt, 40, workStartedAt, 8);
    endTurn?.();
  }
  return (cpuNanos() - start) / SYNC;
}

/** `TURNS` turns of the event loop, with or without one more setImmediate each (the meter's). */
async function turnsRound(withTurnEnd: boolean): Promise<number> {
  const nothing = () => {};
  const start = cpuNanos();
  for (let i = 0; i < TURNS; i++) {
    if (withTurnEnd) setImmediate(nothing);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return (cpuNanos() - start) / TURNS;
}

const SYNC = 1_000_000;
const TURNS = 100_000;
let frozen = 0;
const results: Record<string, number[]> = {
  "gates, clock as the server's": [],
  "gates, a frozen clock": [],
  "the turn's end (setImmediate)": [],
};
for (let round = 0; round < rounds; round++) {
  results["gates, clock as the server's"]?.push(gatesRound(() => performance.now()));
  results["gates, a frozen clock"]?.push(gatesRound(() => frozen));
  const order = round % 2 === 0 ? [false, true] : [true, false];
  const turns = { with: 0, without: 0 };
  for (const withTurnEnd of order) turns[withTurnEnd ? "with" : "without"] = await turnsRound(withTurnEnd);
  results["the turn's end (setImmediate)"]?.push(turns.with - turns.without);
  frozen += 1;
}
console.log(`${root}: ${rounds} alternated rounds; CPU ns per request (a turn each)`);
for (const [name, values] of Object.entries(results))
  console.log(
    `${name.padEnd(30)} median ${median(values).toFixed(0).padStart(5)} ns  (min ${Math.min(...values).toFixed(0)}, max ${Math.max(...values).toFixed(0)})`,
  );
