/**
 * Admission for all work (CONTRACT §1.7, ADR 37): the event loop's budget for the CIDR operations,
 * their costs, and the same rules seen through `app.handle`.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { LoopBudget, RECENT_SAMPLES, RecentLow, WAIT_FOR_TURN } from "../../src/adapters/http/admission.ts";
import { splitAnswerSize } from "../../src/contract/costs.ts";
import { HttpError } from "../../src/contract/errors.ts";
import { OPERATION_LIST, OPERATIONS } from "../../src/contract/operations.ts";
import { errorOf, testApp } from "./helpers.ts";

/** A clock the test moves by hand, and turns of the event loop the test ends by hand. */
function manualLoop() {
  let now = 0;
  let pending: (() => void) | undefined;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
    afterTurn: (callback: () => void) => {
      pending = callback;
    },
    /** Ends the turn; true when the budget had asked to hear of it (its account is then closed). */
    endTurn: (): boolean => {
      const callback = pending;
      pending = undefined;
      callback?.();
      return callback !== undefined;
    },
  };
}

/**
 * One request through a meter's three gates, as the route runs it: arrival (declared size), read
 * (the bytes), work (units); `parseMs` and `workMs` pass on the clock. Returns where it stopped.
 */
function passGates(
  loop: ReturnType<typeof manualLoop>,
  budget: LoopBudget,
  meter: ReturnType<LoopBudget["meter"]>,
  job: { bytes: number; parseMs: number; units: number; workMs: number },
): "refused unread" | "refused unparsed" | "refused parsed" | "done" {
  const promised = meter.arrive(job.bytes);
  if (promised < 0) return "refused unread";
  return readAndWork(loop, meter, job, promised, budget.turn);
}

/** The second and third gates of {@link passGates}, for a request admitted in turn `turn`. */
function readAndWork(
  loop: ReturnType<typeof manualLoop>,
  meter: ReturnType<LoopBudget["meter"]>,
  job: { bytes: number; parseMs: number; units: number; workMs: number },
  promised: number,
  turn: number,
): "refused unparsed" | "refused parsed" | "done" {
  let usedBefore: number;
  try {
    const taken = meter.read(job.bytes, promised, turn);
    if (typeof taken !== "number") throw new Error("a job waited where nothing may wait");
    usedBefore = taken;
  } catch (error) {
    expect((error as HttpError).code).toBe("OVERLOADED");
    return "refused unparsed";
  }
  const startedAt = loop.now();
  loop.advance(job.parseMs);
  let workStartedAt = Number.NaN;
  try {
    workStartedAt = meter.work(job.units, usedBefore, startedAt);
    loop.advance(job.workMs);
    return "done";
  } catch (error) {
    expect((error as HttpError).code).toBe("OVERLOADED");
    return "refused parsed";
  } finally {
    meter.end(startedAt, job.bytes, workStartedAt, job.units);
  }
}

describe("the event loop's work budget", () => {
  test("the first job of a turn always runs whole, even one larger than the turn's budget; then the turn refuses unread", () => {
    const loop = manualLoop();
    const budget = new LoopBudget({ turnMs: 10, now: loop.now, afterTurn: loop.afterTurn });
    const meter = budget.meter();
    const big = { bytes: 60_000, parseMs: 5, units: 1000, workMs: 45 };
    expect(passGates(loop, budget, meter, big)).toBe("done");
    expect(budget.spent).toBe(50);
    expect(passGates(loop, budget, meter, { bytes: 10, parseMs: 0, units: 1, workMs: 0 })).toBe(
      "refused unread",
    );
    // A new turn: one client sending one large request after another is never refused.
    loop.endTurn();
    expect(budget.used).toBe(0);
    expect(passGates(loop, budget, meter, big)).toBe("done");
    expect(budget.spent).toBe(50);
  });

  test("arrivals promise the turn their expected cost, and later arrivals that do not fit are refused unread", () => {
    const loop = manualLoop();
    const budget = new LoopBudget({ turnMs: 10, now: loop.now, afterTurn: loop.afterTurn });
    const meter = budget.meter();
    // Learn: 1,000 bytes cost 4 ms whole (1 parsing, 3 working on 100 units).
    expect(passGates(loop, budget, meter, { bytes: 1000, parseMs: 1, units: 100, workMs: 3 })).toBe("done");
    loop.endTurn();
    expect(meter.estimateBody(1000)).toBeCloseTo(4);
    expect(meter.estimate(100)).toBeCloseTo(3);
    // 150 arrivals in one turn, before any body is read (the loop calls every handler first):
    const promises = Array.from({ length: 150 }, () => meter.arrive(1000));
    const admitted = promises.filter((promised) => promised >= 0);
    expect(admitted).toHaveLength(2); // the first (always) and one more: 4 + 4 ≤ 10; a third would not fit
    expect(budget.promised).toBeCloseTo(8);
    // The admitted bodies are read in the next turn: the arrival's promise has lapsed with its turn.
    const turn = budget.turn;
    loop.endTurn();
    expect(budget.turn).toBe(turn + 1);
    for (const promised of admitted)
      expect(
        readAndWork(loop, meter, { bytes: 1000, parseMs: 1, units: 100, workMs: 3 }, promised, turn),
      ).toBe("done");
    expect(budget.spent).toBeCloseTo(8);
  });

  test("a body read in the turn it arrived gives back its promise; one that does not fit is refused before it is parsed", () => {
    const loop = manualLoop();
    const budget = new LoopBudget({ turnMs: 10, now: loop.now, afterTurn: loop.afterTurn });
    const meter = budget.meter();
    expect(passGates(loop, budget, meter, { bytes: 1000, parseMs: 2, units: 10, workMs: 4 })).toBe("done");
    loop.endTurn();
    const turn = budget.turn;
    const first = meter.arrive(1000); // 6 ms promised
    const second = meter.arrive(600); // 3.6: 6 + 3.6 ≤ 10
    expect(first).toBeCloseTo(6);
    expect(second).toBeCloseTo(3.6);
    expect(readAndWork(loop, meter, { bytes: 1000, parseMs: 2, units: 10, workMs: 4 }, first, turn)).toBe(
      "done",
    );
    expect(budget.promised).toBeCloseTo(3.6);
    expect(budget.spent).toBeCloseTo(6);
    // The second's body turns out larger than it said (a chunked body, weighed at the most): not parsed.
    expect(readAndWork(loop, meter, { bytes: 60_000, parseMs: 99, units: 1, workMs: 0 }, second, turn)).toBe(
      "refused unparsed",
    );
    expect(budget.spent).toBeCloseTo(6); // nothing parsed, nothing charged
    expect(budget.promised).toBe(0);
  });

  test("work whose exact cost does not fit is refused once parsed, and the parsing is charged", () => {
    const loop = manualLoop();
    const budget = new LoopBudget({ turnMs: 10, now: loop.now, afterTurn: loop.afterTurn });
    const meter = budget.meter();
    // Learn: 50 bytes cost 1 ms whole, 0.9 of it the work of 10 units.
    expect(passGates(loop, budget, meter, { bytes: 50, parseMs: 0.1, units: 10, workMs: 0.9 })).toBe("done");
    // A small body whose answer is large (a split): the bytes fit (1 + 1 ≤ 10), the units do not (90 ms).
    expect(passGates(loop, budget, meter, { bytes: 50, parseMs: 0.1, units: 1000, workMs: 8 })).toBe(
      "refused parsed",
    );
    expect(budget.spent).toBeCloseTo(1.1);
  });

  test("the refusal is OVERLOADED with Retry-After 1, one error for every refusal, and the observer counts each", () => {
    const loop = manualLoop();
    let refusals = 0;
    const budget = new LoopBudget({
      turnMs: 1,
      now: loop.now,
      afterTurn: loop.afterTurn,
      observer: { overloaded: () => refusals++ },
    });
    const meter = budget.meter();
    expect(passGates(loop, budget, meter, { bytes: 10, parseMs: 1, units: 1, workMs: 9 })).toBe("done");
    expect(meter.arrive(10)).toBe(-1);
    const first = budget.refused();
    const second = budget.refused();
    expect(first).toBeInstanceOf(HttpError);
    expect(first.code).toBe("OVERLOADED");
    expect(first.status).toBe(503);
    expect(first.headers).toEqual({ "retry-after": "1" });
    expect(second).toBe(first);
    expect(refusals).toBe(2);
  });

  test("an account under carryMs is carried to the next turns without a turn end of its own; reaching it closes the turn as before", () => {
    const loop = manualLoop();
    let turnEnds = 0;
    const budget = new LoopBudget({
      turnMs: 10,
      now: loop.now,
      afterTurn: (callback) => {
        turnEnds++;
        loop.afterTurn(callback);
      },
    });
    const meter = budget.meter();
    const small = { bytes: 40, parseMs: 0.01, units: 1, workMs: 0.02 };
    // 30 small requests, each in a turn of its own: 0.9 ms in all, under the default 1 ms.
    for (let i = 0; i < 30; i++) {
      expect(passGates(loop, budget, meter, small)).toBe("done");
      expect(loop.endTurn()).toBe(false);
    }
    expect(turnEnds).toBe(0);
    expect(budget.spent).toBeCloseTo(0.9);
    // A carried account still admits any job (here one far larger than the turn's budget)...
    const big = { bytes: 60_000, parseMs: 5, units: 1000, workMs: 45 };
    expect(passGates(loop, budget, meter, big)).toBe("done");
    // ...and having reached carryMs the turn is closed at its end, as every turn was before.
    expect(turnEnds).toBe(1);
    expect(passGates(loop, budget, meter, small)).toBe("refused unread");
    expect(loop.endTurn()).toBe(true);
    expect(budget.used).toBe(0);
  });

  test("carryMs 0 closes every turn that used anything, and carryMs is at most turnMs", () => {
    const loop = manualLoop();
    const budget = new LoopBudget({ turnMs: 10, now: loop.now, afterTurn: loop.afterTurn, carryMs: 0 });
    const meter = budget.meter();
    expect(passGates(loop, budget, meter, { bytes: 40, parseMs: 0.01, units: 1, workMs: 0.02 })).toBe("done");
    expect(loop.endTurn()).toBe(true);
    expect(budget.used).toBe(0);
    const capped = new LoopBudget({ turnMs: 2, now: loop.now, afterTurn: loop.afterTurn, carryMs: 50 });
    expect(capped.fits(1.9, 100)).toBe(true); // under carryMs (capped at 2): admitted whatever its size
    expect(capped.fits(2, 0.5)).toBe(false);
    expect(() => new LoopBudget({ turnMs: 10, carryMs: -1 })).toThrow(RangeError);
  });

  test("in any turn, work taken on stays within the budget plus one job, whatever arrives when (the model: a sum per turn)", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: 50, noNaN: true }),
        fc.array(
          fc.record({
            endsTurn: fc.boolean(),
            // Read in the turn it arrived, or left to be read later (after other arrivals).
            readNow: fc.boolean(),
            bytes: fc.integer({ min: 0, max: 65_536 }),
            parseMs: fc.double({ min: 0, max: 5, noNaN: true }),
            workMs: fc.double({ min: 0, max: 30, noNaN: true }),
            units: fc.integer({ min: 1, max: 1000 }),
          }),
          { maxLength: 200 },
        ),
        (turnMs, jobs) => {
          const loop = manualLoop();
          const budget = new LoopBudget({ turnMs, now: loop.now, afterTurn: loop.afterTurn });
          const meter = budget.meter();
          // The model: what each turn did, and its largest single job.
          let turnWork = 0;
          let turnBiggest = 0;
          let done = 0;
          let unread: { job: (typeof jobs)[number]; promised: number; turn: number }[] = [];
          const account = (ms: number) => {
            turnWork += ms;
            turnBiggest = Math.max(turnBiggest, ms);
            expect(turnWork).toBeLessThanOrEqual(turnMs + turnBiggest + 1e-9);
            expect(budget.spent).toBeCloseTo(turnWork);
          };
          const readOne = (pending: (typeof unread)[number]) => {
            const before = loop.now();
            const usedBefore = budget.used;
            const outcome = readAndWork(loop, meter, pending.job, pending.promised, pending.turn);
            if (outcome === "done") done++;
            // The first job of a turn is never refused once read.
            if (outcome !== "done")
              expect(
                usedBefore - (pending.turn === budget.turn ? pending.promised : 0),
              ).toBeGreaterThanOrEqual(turnMs / 10);
            account(loop.now() - before);
          };
          for (const job of jobs) {
            if (job.endsTurn) {
              // The next turn reads what was left unread, first. An account under `carryMs` is
              // carried on (never closed), and the model carries it likewise.
              if (loop.endTurn()) {
                turnWork = 0;
                turnBiggest = 0;
              }
              const left = unread;
              unread = [];
              for (const pending of left) readOne(pending);
            }
            const usedBefore = budget.used;
            const promised = meter.arrive(job.bytes);
            if (promised < 0) {
              expect(usedBefore).toBeGreaterThanOrEqual(turnMs / 10); // an account under carryMs refuses nothing
              continue;
            }
            const pending = { job, promised, turn: budget.turn };
            if (job.readNow) readOne(pending);
            else unread.push(pending);
          }
          if (jobs.length > 0 && jobs[0]?.readNow) expect(done).toBeGreaterThan(0);
        },
      ),
    );
  });
});

describe("waiting for a turn with room (maxBacklogMs, ADR 66)", () => {
  /** A budget with a backlog, on a manual loop, that has learned: 1,000 bytes cost 4 ms whole. */
  function learned(maxBacklogMs: number, observer?: { overloaded: () => void }) {
    const loop = manualLoop();
    const budget = new LoopBudget({
      turnMs: 10,
      maxBacklogMs,
      now: loop.now,
      afterTurn: loop.afterTurn,
      ...(observer === undefined ? {} : { observer }),
    });
    const meter = budget.meter();
    expect(passGates(loop, budget, meter, { bytes: 1000, parseMs: 1, units: 100, workMs: 3 })).toBe("done");
    loop.endTurn();
    return { loop, budget, meter };
  }
  const job = { bytes: 1000, parseMs: 1, units: 100, workMs: 3 };
  /** Lets every promise settled so far run its reactions (the turn's microtasks). */
  const microtasks = () => Bun.sleep(0);

  /**
   * One request read now, as the route runs it: the work runs at once or once a turn takes it on.
   * `done` lists the ids in the order their work ran; `refused` those refused after waiting.
   */
  function readLater(
    context: ReturnType<typeof learned>,
    id: number,
    promised: number,
    turn: number,
    log: { done: number[]; refused: number[] },
    maxWaitMs = 1000,
    workMs = job.workMs,
  ): void {
    const { loop, meter } = context;
    if (promised === WAIT_FOR_TURN) {
      // Admitted to wait, unread: read once a turn has taken it on, with the room held for it.
      meter.waitForTurn(job.bytes, maxWaitMs).then(
        (taken) => readLater(context, id, taken.held, taken.turn, log, maxWaitMs, workMs),
        (error: unknown) => {
          expect((error as HttpError).code).toBe("OVERLOADED");
          log.refused.push(id);
        },
      );
      return;
    }
    const run = (usedBefore: number) => {
      const startedAt = loop.now();
      loop.advance(job.parseMs);
      const workStartedAt = meter.work(job.units, usedBefore, startedAt);
      loop.advance(workMs);
      meter.end(startedAt, job.bytes, workStartedAt, job.units);
      log.done.push(id);
    };
    const taken = meter.read(job.bytes, promised, turn, maxWaitMs);
    if (typeof taken === "number") run(taken);
    else
      taken.then(run, (error: unknown) => {
        expect((error as HttpError).code).toBe("OVERLOADED");
        log.refused.push(id);
      });
  }

  test("arrivals the turn has no room for wait, and later turns take them on in arrival order, a turn's worth each", async () => {
    const context = learned(100);
    const { loop, budget, meter } = context;
    const turn = budget.turn;
    const promises = Array.from({ length: 10 }, () => meter.arrive(job.bytes));
    // Two fit this turn (4 + 4 ≤ 10) and hold their room; eight are admitted to wait (32 ms ≤ 100).
    expect(promises).toEqual([4, 4, ...Array(8).fill(WAIT_FOR_TURN)]);
    const log = { done: [] as number[], refused: [] as number[] };
    for (const [id, promised] of promises.entries()) readLater(context, id, promised, turn, log);
    expect(log.done).toEqual([0, 1]);
    expect(budget.waiting).toEqual({ jobs: 8, ms: 32 });
    // Each later turn takes on what fits (the first always), oldest first.
    for (const expected of [
      [0, 1, 2, 3],
      [0, 1, 2, 3, 4, 5],
      [0, 1, 2, 3, 4, 5, 6, 7],
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    ]) {
      expect(loop.endTurn()).toBe(true);
      await microtasks();
      expect(log.done).toEqual(expected);
      expect(budget.spent).toBeCloseTo(8);
    }
    expect(budget.waiting).toEqual({ jobs: 0, ms: 0 });
    expect(log.refused).toEqual([]);
  });

  test("waiting jobs are taken on one at a time, by what the turn has really spent: jobs slower than their estimate fill a turn sooner", async () => {
    const context = learned(100);
    const { loop, budget, meter } = context;
    const turn = budget.turn;
    const promises = Array.from({ length: 6 }, () => meter.arrive(job.bytes));
    const log = { done: [] as number[], refused: [] as number[] };
    // Each job's work now takes 8 ms where 3 were learned (a slower moment): 9 ms whole, not 4.
    for (const [id, promised] of promises.entries()) readLater(context, id, promised, turn, log, 1000, 8);
    // This turn: the first (always), then 9 ms spent leaves no room for a 4 ms estimate.
    expect(log.done).toEqual([0]);
    for (const expected of [
      [0, 1],
      [0, 1, 2],
      [0, 1, 2, 3],
    ]) {
      expect(loop.endTurn()).toBe(true);
      await microtasks();
      expect(log.done).toEqual(expected); // taken by estimates (4 + 4 ≤ 10) it would be two a turn: 18 ms
      expect(budget.spent).toBeCloseTo(9);
    }
  });

  test("the backlog is bounded: an arrival past maxBacklogMs is refused unread, and a read past it unparsed", () => {
    const { budget, meter } = learned(10);
    // Each arrival as the route answers it: one admitted to wait joins the line at once, unread.
    const promises = Array.from({ length: 8 }, () => {
      const promised = meter.arrive(job.bytes);
      if (promised === WAIT_FOR_TURN) void meter.waitForTurn(job.bytes, 1000);
      return promised;
    });
    // Two fit the turn; two more may wait (8 ms of the 10 the backlog holds); the rest are refused.
    expect(promises).toEqual([4, 4, WAIT_FOR_TURN, WAIT_FOR_TURN, -1, -1, -1, -1]);
    expect(budget.waiting).toEqual({ jobs: 2, ms: 8 });
    // A body that turns out larger than the turn and the backlog can hold (20 ms) is refused unparsed.
    expect(() => meter.read(5000, 0, budget.turn, 1000)).toThrow(HttpError);
    expect(budget.waiting).toEqual({ jobs: 2, ms: 8 });
  });

  test("while jobs wait, a newcomer that would fit waits behind them", async () => {
    const context = learned(100);
    const { loop, budget, meter } = context;
    const log = { done: [] as number[], refused: [] as number[] };
    const turn = budget.turn;
    const promises = Array.from({ length: 3 }, () => meter.arrive(job.bytes));
    for (const [id, promised] of promises.entries()) readLater(context, id, promised, turn, log);
    expect(log.done).toEqual([0, 1]);
    expect(loop.endTurn()).toBe(true); // job 2 is taken on, holding 4 ms of the new turn
    // Before job 2 runs, a newcomer in the same turn: room for it (4 + 4 ≤ 10), but it is not first.
    const late = meter.arrive(job.bytes);
    expect(late).toBe(4);
    await microtasks();
    readLater(context, 3, late, budget.turn, log);
    expect(log.done).toEqual([0, 1, 2, 3]);
    // And with a job still waiting, an arrival that fits waits all the same.
    const busy = learned(100);
    const turnB = busy.budget.turn;
    const logB = { done: [] as number[], refused: [] as number[] };
    const arrivals = Array.from({ length: 3 }, () => busy.meter.arrive(job.bytes));
    for (const [id, promised] of arrivals.entries()) readLater(busy, id, promised, turnB, logB);
    expect(busy.budget.waiting.jobs).toBe(1);
    expect(busy.meter.arrive(1)).toBe(WAIT_FOR_TURN);
  });

  test("a job that has waited past its time is refused when a turn comes, and counted", async () => {
    let refusals = 0;
    const context = learned(100, { overloaded: () => refusals++ });
    const { loop, budget, meter } = context;
    const log = { done: [] as number[], refused: [] as number[] };
    const turn = budget.turn;
    const promises = Array.from({ length: 4 }, () => meter.arrive(job.bytes));
    for (const [id, promised] of promises.entries()) readLater(context, id, promised, turn, log, 50);
    expect(log.done).toEqual([0, 1]);
    loop.advance(51);
    expect(loop.endTurn()).toBe(true);
    await microtasks();
    expect(log.refused).toEqual([2, 3]);
    expect(refusals).toBe(2);
    expect(budget.waiting).toEqual({ jobs: 0, ms: 0 });
    expect(budget.used).toBe(0);
  });

  test("without maxBacklogMs nothing waits: a job without room is refused at once", () => {
    const context = learned(0);
    const promises = Array.from({ length: 4 }, () => context.meter.arrive(job.bytes));
    expect(promises).toEqual([4, 4, -1, -1]);
    expect(context.budget.waiting).toEqual({ jobs: 0, ms: 0 });
    expect(() => new LoopBudget({ turnMs: 10, maxBacklogMs: -1 })).toThrow(RangeError);
  });

  test("in any turn, work taken on stays within the budget plus one job, and the waiting work within the backlog", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.double({ min: 0, max: 60, noNaN: true }),
        fc.array(fc.boolean(), { maxLength: 120 }),
        async (maxBacklogMs, arrivals) => {
          const context = learned(maxBacklogMs);
          const { loop, budget, meter } = context;
          const log = { done: [] as number[], refused: [] as number[] };
          let turnWork = 0;
          let biggest = 0;
          let doneBefore = 0;
          const closeTurn = async () => {
            // What the turn did: each job done since the last close costs 4 ms (1 + 3).
            turnWork = (log.done.length - doneBefore) * 4;
            biggest = turnWork > 0 ? 4 : 0;
            expect(turnWork).toBeLessThanOrEqual(10 + biggest);
            doneBefore = log.done.length;
            loop.endTurn();
            await microtasks();
          };
          for (const [id, endsTurn] of arrivals.entries()) {
            if (endsTurn) await closeTurn();
            const promised = meter.arrive(job.bytes);
            if (promised < 0) continue;
            try {
              readLater(context, id, promised, budget.turn, log);
            } catch (error) {
              expect((error as HttpError).code).toBe("OVERLOADED");
            }
            expect(budget.waiting.ms).toBeLessThanOrEqual(maxBacklogMs + 1e-9);
          }
          for (let i = 0; i < arrivals.length + 1 && budget.waiting.jobs > 0; i++) await closeTurn();
          // Everything admitted was done in the end (nothing waited past its 1 s), in arrival order.
          expect(budget.waiting.jobs).toBe(0);
          expect(log.done).toEqual([...log.done].sort((a, b) => a - b));
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("what a byte and a unit cost, learned", () => {
  /** A meter on a manual loop with the server's 10 ms turn, and one request per turn of `job`. */
  function servedOneByOne(
    job: { bytes: number; parseMs: number; units: number; workMs: number },
    times: number,
  ) {
    const loop = manualLoop();
    const budget = new LoopBudget({ turnMs: 10, now: loop.now, afterTurn: loop.afterTurn });
    const meter = budget.meter();
    const one = (request = job) => {
      expect(passGates(loop, budget, meter, request)).toBe("done");
      loop.endTurn();
    };
    for (let i = 0; i < times; i++) one();
    /** Two clients' requests arriving together, as wrk -c2 sends them: what became of each. */
    const pair = (first = job, second = first) => {
      const requests = [first, second];
      const outcomes = requests
        .map((request) => meter.arrive(request.bytes))
        .map((promised, i) =>
          promised < 0
            ? "refused unread"
            : readAndWork(loop, meter, requests[i] ?? first, promised, budget.turn),
        );
      loop.endTurn();
      return outcomes;
    };
    return { meter, one, pair };
  }
  // subtract-1000 as a 2-core machine serves it: 24 kB, 3 ms whole (0.5 parsing, 2.5 the work).
  const subtract = { bytes: 24_000, parseMs: 0.5, units: 1000, workMs: 2.5 };

  test("one request that ran through a collection pause does not make two ordinary requests of a turn too many", () => {
    const { meter, one, pair } = servedOneByOne(subtract, 20);
    expect(pair()).toEqual(["done", "done"]); // 3 + 3 ≤ 10
    one({ ...subtract, workMs: 37.5 }); // a 35 ms pause inside the work: 40 ms whole
    expect(pair()).toEqual(["done", "done"]);
    expect(meter.estimateBody(subtract.bytes)).toBeCloseTo(3);
    // Three pauses in a row change nothing either.
    for (let i = 0; i < 3; i++) one({ ...subtract, workMs: 37.5 });
    expect(pair()).toEqual(["done", "done"]);
  });

  test("the first request's cold start (code not yet compiled) does not refuse the requests after it", () => {
    const { meter, one, pair } = servedOneByOne(subtract, 0);
    one({ ...subtract, parseMs: 5, workMs: 15 }); // 20 ms: the first run of everything
    one();
    expect(meter.estimateBody(subtract.bytes)).toBeCloseTo(3);
    expect(meter.estimate(subtract.units)).toBeCloseTo(2.5);
    expect(pair()).toEqual(["done", "done"]);
  });

  test("a cost that has really grown is followed after four requests, and a fall at once", () => {
    const { meter, one, pair } = servedOneByOne(subtract, 10);
    const costly = { ...subtract, parseMs: 1, workMs: 5 }; // 6 ms whole: two of them are 12 ms
    for (let i = 0; i < RECENT_SAMPLES - 1; i++) one(costly);
    expect(meter.estimateBody(subtract.bytes)).toBeCloseTo(3); // not yet: three could be pauses
    one(costly);
    expect(meter.estimateBody(subtract.bytes)).toBeCloseTo(6);
    expect(meter.estimate(subtract.units)).toBeCloseTo(5);
    expect(pair(costly)).toEqual(["done", "refused unread"]); // 6 + 6 > 10: the second is shed unread
    one();
    expect(meter.estimateBody(subtract.bytes)).toBeCloseTo(3);
  });

  test("a request refused at the work gate, only parsed, teaches nothing of what a whole request costs", () => {
    const { meter, one, pair } = servedOneByOne(subtract, 10);
    // The second of a pair asks for four times the work: its bytes fit beside the first (3 + 3),
    // its units do not (3 + 0.5 parsing + 10): refused once parsed, 0.5 ms for 24 kB.
    const large = { ...subtract, units: 4000, workMs: 10 };
    for (let i = 0; i < RECENT_SAMPLES; i++)
      expect(pair(subtract, large)).toEqual(["done", "refused parsed"]);
    expect(meter.estimateBody(subtract.bytes)).toBeCloseTo(3); // the parse-only 0.5 ms never counted
    one({ ...subtract, parseMs: 0.2, workMs: 0.1 }); // a request that really is cheap whole counts at once
    expect(meter.estimateBody(subtract.bytes)).toBeCloseTo(0.3);
  });

  test("the estimate is the least of the last four samples, 0 before the first", () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1e6, noNaN: true }), { maxLength: 40 }), (samples) => {
        const cost = new RecentLow();
        samples.forEach((sample, i) => {
          cost.add(sample);
          expect(cost.value).toBe(Math.min(...samples.slice(Math.max(0, i + 1 - RECENT_SAMPLES), i + 1)));
        });
        if (samples.length === 0) expect(cost.value).toBe(0);
      }),
    );
  });
});

describe("costs from the body", () => {
  test("a split costs the subnets it will answer, at most its page", () => {
    const cases: [Parameters<typeof splitAnswerSize>[0], number][] = [
      [{ cidr: "10.0.0.0/8", prefixLength: 24 }, 10_000], // 65,536: past the bound (RESULT_TOO_LARGE)
      [{ cidr: "10.0.0.0/8", prefixLength: 24, limit: 500 }, 500],
      [{ cidr: "10.0.0.0/16", prefixLength: 20 }, 16],
      [{ cidr: "10.0.0.1", prefixLength: 32 }, 1],
      [{ cidr: "2001:db8::/32", prefixLength: 48 }, 10_000],
      [{ cidr: "2001:db8::/120", prefixLength: 128 }, 256],
      [{ cidr: "10.0.0.0/24", prefixLength: 16 }, 1], // shorter than the block: refused at once
      [{ cidr: "nonsense/x", prefixLength: 24 }, 1],
      [{ cidr: "::/0", prefixLength: 128, limit: 3 }, 3],
    ];
    for (const [input, cost] of cases)
      expect({ input, cost: splitAnswerSize(input) }).toEqual({ input, cost });
  });

  test("lists cost their entries, both lists together", () => {
    const list = (n: number) => Array.from({ length: n }, (_, i) => `10.0.${i >> 8}.${i & 255}`);
    expect(OPERATIONS.cidrMerge.cost({ inputs: list(1000) })).toBe(1000);
    expect(OPERATIONS.cidrCompare.cost({ a: list(600), b: list(400) })).toBe(1000);
    expect(OPERATIONS.cidrCompare.cost({ a: [], b: [] })).toBe(1);
    expect(OPERATIONS.cidrContains.cost({ cidrs: list(3), entries: list(7) })).toBe(10);
    expect(
      OPERATIONS.cidrAllocate.cost({ within: list(2), used: list(5), prefixLength: 24, count: 100 }),
    ).toBe(107);
    expect(OPERATIONS.cidrSubnets.cost({ prefix: "10.0.0.0/8", newbits: [8, 8, 8] })).toBe(3);
    expect(OPERATIONS.certificateBundle.cost({ pem: "-----BEGIN X-----\n-----BEGIN Y-----" })).toBe(2);
  });

  test("every operation with a body is admitted by its cost; health and public-ip never are", () => {
    for (const operation of OPERATION_LIST) {
      const admitted = operation.policy.admission !== "immediate";
      expect({ id: operation.id, admitted }).toEqual({
        id: operation.id,
        admitted: operation.request !== null,
      });
      expect({ id: operation.id, cost: typeof operation.cost }).toEqual({
        id: operation.id,
        cost: admitted ? "function" : "undefined",
      });
    }
  });
});

describe("through the application", () => {
  const merge = (inputs: string[]) => {
    const body = JSON.stringify({ inputs });
    return new Request("http://localhost/v1/cidr-merge", {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) },
      body,
    });
  };

  test("a loop in debt refuses CIDR work with 503 OVERLOADED and Retry-After; health and public-ip are answered", async () => {
    let now = 0;
    // Each clock reading is a second later and the turn never ends: the first merge is admitted
    // and spends the turn's budget.
    const { app } = testApp({ loopBudget: { turnMs: 10, now: () => (now += 1000), afterTurn: () => {} } });
    expect((await app.handle(merge(["10.0.0.0/25", "10.0.0.128/25"]))).status).toBe(200);
    const refused = await app.handle(merge(["10.0.0.0/25"]));
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect((await errorOf(refused)).code).toBe("OVERLOADED");
    expect((await app.handle(new Request("http://localhost/v1/health"))).status).toBe(200);
    expect((await app.handle(new Request("http://localhost/v1/public-ip"))).status).toBe(200);
  });

  test("requests a busy turn has no room for wait and are answered 200 by later turns, in arrival order (ADR 66)", async () => {
    let now = 0;
    let turnEnd: (() => void) | undefined;
    // Every clock reading is 1 ms later: a merge costs 2 ms whole, so five fill a 10 ms turn.
    const { app } = testApp({
      loopBudget: {
        turnMs: 10,
        maxBacklogMs: 100,
        now: () => (now += 1),
        afterTurn: (end) => (turnEnd = end),
      },
    });
    const endTurn = () => {
      const end = turnEnd;
      turnEnd = undefined;
      end?.();
    };
    expect((await app.handle(merge(["10.0.0.0/25", "10.0.0.128/25"]))).status).toBe(200);
    endTurn();
    const answered: number[] = [];
    const answers = Array.from({ length: 12 }, (_, i) =>
      app.handle(merge(["10.0.0.0/25", "10.0.0.128/25"])).then((response) => {
        answered.push(i);
        return response.status;
      }),
    );
    await Bun.sleep(0);
    const inFirstTurn = answered.length;
    let turns = 0;
    while (answered.length < 12 && turns < 20) {
      endTurn();
      turns++;
      await Bun.sleep(0);
    }
    expect(await Promise.all(answers)).toEqual(Array(12).fill(200));
    expect(inFirstTurn).toBeGreaterThan(0);
    expect(inFirstTurn).toBeLessThan(12);
    expect(turns).toBeGreaterThan(1);
    expect(answered).toEqual([...answered].sort((a, b) => a - b));
  });

  test("an invalid body is refused for what it is (400), not for load: validation comes first", async () => {
    // A turn that has spent part of its budget: a request is read, and found invalid.
    let now = 0;
    const { app } = testApp({
      loopBudget: { turnMs: 10_000, now: () => (now += 1000), afterTurn: () => {} },
    });
    expect((await app.handle(merge(["10.0.0.0/25"]))).status).toBe(200);
    const invalid = await app.handle(merge([]));
    expect(invalid.status).toBe(400);
  });

  test("one request after another, each of the largest size, is never refused", async () => {
    const { app } = testApp();
    const inputs = Array.from({ length: 1000 }, (_, i) => `10.${i >> 8}.${i & 255}.0/24`);
    for (let i = 0; i < 5; i++) {
      expect((await app.handle(merge(inputs))).status).toBe(200);
      await new Promise((resolve) => setImmediate(resolve)); // the next request comes in a later turn
    }
  });
});
