/**
 * Admission of expensive work (CONTRACT §1.7): a bounded queue in front of the certificate
 * use case, whose signature checks can cost hundreds of milliseconds of CPU on the runtime's
 * crypto threads (16 self-issued P-521 CAs sharing a name: 256 ECDSA verifies, ~0.4 s).
 *
 * - At most `concurrency` jobs run at once; others wait in FIFO order.
 * - A job that cannot start within `maxWaitMs` (or when `maxQueued` jobs already wait) is refused
 *   with 503 `OVERLOADED` and `Retry-After`, quickly, instead of answering many seconds late.
 * - Every job has a deadline, counted from its arrival; the answer is due a small margin before
 *   it ({@link answerMarginMs}). Nothing is started that cannot end by then: each queue measures
 *   what a unit of work (one signature check) costs, on this machine and under its present load,
 *   and a job whose worst case (`units`) would not fit in the time left is refused before it
 *   starts, or while it waits; inside a job, a check that would end past the deadline is not
 *   started (the job's {@link CheckBudget}, the one budgeted verifier the CLI uses too; ADR 49),
 *   which fails the job.
 * - Whatever the estimate, the refusal is sent when the answer is due: a job still running then
 *   is answered `OVERLOADED` and finishes in the background, holding its slot until it does.
 * The work every request with a body does on the event loop (reading and parsing it; the CIDR
 * operations' own work) is admitted by the same rule in another form: {@link LoopBudget} lets one
 * turn of the loop take on at most `turnMs` of it, weighing each request on arrival (before its
 * body is read), with its bytes (before they are parsed) and by its row's cost (before the work);
 * what a turn has no room for waits for a later turn within a bounded backlog, and the rest is
 * refused at once (CONTRACT §1.7, ADRs 37, 48 and 66). Health and public-ip never pass through here.
 */
import { HttpError } from "../../contract/errors.ts";
import { CheckBudget } from "../../domain/check-budget.ts";
import { WorkAbandoned } from "../../domain/errors.ts";
import type { SignatureVerifier, WorkBudget } from "../../domain/ports.ts";

export interface AdmissionOptions {
  /** Jobs running at once. */
  concurrency: number;
  /** Longest a job may wait for a slot before it is refused. */
  maxWaitMs: number;
  /** Most jobs waiting at once; one more is refused at once. */
  maxQueued: number;
  /** Longest a job may run once started. */
  deadlineMs: number;
  /** Milliseconds on a monotonic clock; `performance.now` by default (tests drive it). */
  now?: () => number;
  /** Told of queue depth changes and OVERLOADED refusals (the metrics, when METRICS_PORT is set). */
  observer?: AdmissionObserver;
}

/** What the queue reports as it works; every lane reports to the same one. */
export interface AdmissionObserver {
  /** Jobs waiting for a slot went up (+1) or down (−1). */
  waitingChanged(delta: number): void;
  /** A job was refused with OVERLOADED: it could not start in time, or ran past its deadline. */
  overloaded(): void;
}

/**
 * What an admitted certificate job works with, built from the {@link CheckBudget} the queue makes
 * for it: a verifier that starts no check past the deadline and the same deadline as a budget for
 * the path search around the checks (it throws WorkAbandoned when the budget is out).
 */
export interface AdmittedWork {
  readonly verifier: SignatureVerifier;
  readonly budget: WorkBudget;
}

/** Whatever runs admitted work: a lane that knows its job's size. */
export interface Admission {
  /** Runs `job`; `elapsedMs` is how long the request had already taken (reading its body). */
  run<T>(job: (work: AdmittedWork) => Promise<T>, elapsedMs?: number): Promise<T>;
}

/**
 * How long before its deadline an answer is due: a tenth of the deadline, at most 100 ms. It
 * covers writing the answer out and a busy event loop firing the due timer late (measured: up to
 * ~150 ms with 40 clients sending the worst bundle to a 2-core machine already under load).
 */
export function answerMarginMs(deadlineMs: number): number {
  return Math.min(100, deadlineMs * 0.1);
}

/**
 * The measured wall time of one unit of work in a queue, as a moving average over finished jobs
 * (each weighs 30 %): with other jobs sharing the crypto threads, it is what a unit costs now.
 * A job's sample is the time during which at least one of its units was running, divided by its
 * units: the work around them (the path search between checks) is not a unit's cost, or an idle
 * server would refuse a search-heavy request it had just answered (CONTRACT §1.7).
 * Unknown (an estimate of 0) until the first job that did any work has finished. An estimate ages:
 * it halves for every second without a new measurement, so that a queue which refuses every job
 * as too slow for the time left admits one again, and measures anew, once the load has passed.
 */
export class UnitCost {
  private msPerUnit = Number.NaN;
  private measuredAt = 0;

  constructor(private readonly now: () => number) {}

  /** Records a finished job: its wall time and the units it did. */
  record(ms: number, units: number): void {
    if (units <= 0) return;
    const sample = ms / units;
    const current = this.perUnit();
    this.msPerUnit = current === 0 ? sample : 0.7 * current + 0.3 * sample;
    this.measuredAt = this.now();
  }

  private perUnit(): number {
    if (Number.isNaN(this.msPerUnit)) return 0;
    return this.msPerUnit * 0.5 ** ((this.now() - this.measuredAt) / 1000);
  }

  /** The expected wall time of `units` units, 0 while nothing has been measured. */
  estimate(units: number): number {
    return this.perUnit() * units;
  }
}

/** The defaults the server uses; docs/operations.md explains them. */
export const DEFAULT_ADMISSION: Omit<AdmissionOptions, "deadlineMs"> = {
  concurrency: 2,
  maxWaitMs: 1000,
  maxQueued: 64,
};

export function overloaded(message: string, retryAfterSeconds: number): HttpError {
  return HttpError.retryAfter("OVERLOADED", message, retryAfterSeconds);
}

/** The refusal of a job that could not get a slot within `maxWaitMs` (also the docs' example). */
export function busyRefusal(maxWaitMs: number): HttpError {
  const seconds = Math.max(1, Math.ceil(maxWaitMs / 1000));
  return overloaded(
    `The service is busy with other certificate inspections and could not start this one in time; retry after ${seconds} s.`,
    seconds,
  );
}

interface Waiter {
  start: () => void;
  timer: ReturnType<typeof setTimeout>;
}

/** A counting semaphore with a bounded, time-limited FIFO queue, and a deadline per job. */
export class AdmissionQueue {
  private running = 0;
  private readonly waiting: Waiter[] = [];
  private readonly now: () => number;
  /** What one unit of work costs in this queue now (see {@link UnitCost}). */
  readonly unitCost: UnitCost;

  constructor(private readonly options: AdmissionOptions) {
    this.now = options.now ?? (() => performance.now());
    this.unitCost = new UnitCost(this.now);
  }

  /** Jobs running and waiting now (for tests and diagnostics). */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  private busy(): HttpError {
    return busyRefusal(this.options.maxWaitMs);
  }

  /**
   * Runs `job` when a slot is free, if its worst case of `units` units can end before its answer
   * is due; its promise settles by then in any case. The deadline counts from the request's
   * arrival, `elapsedMs` before this call.
   * @throws HttpError OVERLOADED when it cannot start within `maxWaitMs`, when it could not
   * finish in the time left, when the answer falls due while it runs, or when it failed its
   * deadline (it ran past it, or was refused a unit of work: its result is then never sent).
   */
  async run<T>(job: (checks: CheckBudget) => Promise<T>, units = 1, elapsedMs = 0): Promise<T> {
    const observer = this.options.observer;
    if (observer === undefined) return this.admit(job, units, elapsedMs);
    try {
      return await this.admit(job, units, elapsedMs);
    } catch (error) {
      if (error instanceof HttpError && error.code === "OVERLOADED") observer.overloaded();
      throw error;
    }
  }

  private async admit<T>(
    job: (checks: CheckBudget) => Promise<T>,
    units: number,
    elapsedMs: number,
  ): Promise<T> {
    // The deadline counts from arrival: reading the body and waiting for a slot are part of it.
    const arrival = this.now() - elapsedMs;
    const deadline = arrival + this.options.deadlineMs;
    const answerBy = deadline - answerMarginMs(this.options.deadlineMs);
    const fits = () => this.now() + this.unitCost.estimate(units) <= answerBy;
    if (!fits()) throw lateAnswer(this.options.deadlineMs);
    if (this.running < this.options.concurrency) this.running += 1;
    else {
      // Resolves holding the slot its predecessor handed over; waits no longer than can still pay off.
      await this.waitForSlot(
        Math.min(this.options.maxWaitMs, answerBy - this.unitCost.estimate(units) - this.now()),
      );
      if (!fits()) {
        this.release();
        throw lateAnswer(this.options.deadlineMs);
      }
    }
    // The job's signature checks: none starts that would end after the answer is due (ADR 49).
    const checks = new CheckBudget({
      endsAt: answerBy,
      now: this.now,
      // One check in hand per job: the checks run on the loop in slices (ADR 68), and a job that
      // asked for all of its checks at once would queue them ahead of every later request's.
      concurrency: 1,
      expectedCheckMs: () => this.unitCost.estimate(1),
      refusal: "unavailable",
    });
    const work = (async () => {
      let result: T;
      try {
        result = await job(checks);
      } catch (error) {
        // A search that stopped at its deadline (WorkBudget) is the same late answer.
        if (error instanceof WorkAbandoned) throw lateAnswer(this.options.deadlineMs);
        throw error;
      }
      // Work that failed its deadline is refused, never answered late or partial (CONTRACT §1.7).
      if (checks.exhausted()) throw lateAnswer(this.options.deadlineMs);
      return result;
    })();
    // The slot is held until the job really ends, even after its refusal has been sent.
    void work.then(
      () => {
        this.unitCost.record(checks.busyMs(), checks.started);
        this.release();
      },
      () => {
        // A job refused a check stopped part-way: its time says nothing of a check's cost.
        if (checks.stopCause === "time") this.unitCost.record(checks.busyMs(), checks.started);
        this.release();
      },
    );
    return dueBy(work, answerBy - this.now(), () => lateAnswer(this.options.deadlineMs));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next === undefined) this.running -= 1;
    else {
      this.options.observer?.waitingChanged(-1);
      next.start();
    }
  }

  private waitForSlot(limitMs: number): Promise<void> {
    if (this.waiting.length >= this.options.maxQueued || limitMs <= 0) {
      return Promise.reject(this.busy());
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        start: () => {
          clearTimeout(waiter.timer);
          resolve();
        },
        timer: setTimeout(() => {
          const at = this.waiting.indexOf(waiter);
          if (at !== -1) {
            this.waiting.splice(at, 1);
            this.options.observer?.waitingChanged(-1);
          }
          reject(this.busy());
        }, limitMs),
      };
      this.waiting.push(waiter);
      this.options.observer?.waitingChanged(1);
    });
  }
}

/** `work`, or the error `late()` makes once `withinMs` have passed, whichever comes first. */
function dueBy<T>(work: Promise<T>, withinMs: number, late: () => HttpError): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const due = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(late()), Math.max(0, withinMs));
  });
  return Promise.race([work, due]).finally(() => clearTimeout(timer));
}

/** Bundles of at most this many blocks go through the small lane: at most 4 × 4 signature checks. */
export const SMALL_BUNDLE_BLOCKS = 4;

/**
 * The two admission lanes of certificate inspections: a small bundle (at most SMALL_BUNDLE_BLOCKS
 * blocks) has one slot of its own, so an ordinary chain never waits behind the costliest bundles;
 * larger ones share `options.concurrency` slots. A bundle of n blocks is admitted for its worst
 * case, n² signature checks (n self-checks and n·(n−1) candidate links).
 */
export function certificateLanes(options: AdmissionOptions, verifier: SignatureVerifier) {
  const small = new AdmissionQueue({ ...options, concurrency: Math.min(1, options.concurrency) });
  const large = new AdmissionQueue(options);
  const admitted =
    <T>(job: (work: AdmittedWork) => Promise<T>) =>
    (checks: CheckBudget) =>
      job({ verifier: checks.verifier(verifier), budget: checks });
  /** The lane of a request of `blocks` PEM blocks (its row's cost), sized for it. */
  const laneOf = (blocks: number): Admission => {
    const lane = blocks <= SMALL_BUNDLE_BLOCKS ? small : large;
    return {
      run: (job, elapsedMs) => lane.run(admitted(job), Math.max(1, blocks * blocks), elapsedMs),
    };
  };
  return { small, large, laneOf, deadlineMs: options.deadlineMs };
}

/** The admission lanes of the certificate operations, as {@link certificateLanes} builds them. */
export type CertificateLanes = ReturnType<typeof certificateLanes>;

/** The refusal of work that could not finish within its deadline. */
export function lateAnswer(deadlineMs: number): HttpError {
  return overloaded(
    `The certificate inspection could not be finished within ${deadlineMs} ms; retry shortly.`,
    1,
  );
}

export interface LoopBudgetOptions {
  /** The most metered work, in ms, that one turn of the event loop takes on (the first job always runs). */
  turnMs: number;
  /** Milliseconds on a monotonic clock; `performance.now` by default (tests drive it). */
  now?: () => number;
  /** Runs a callback once the present turn of the event loop is over; `setImmediate` by default. */
  afterTurn?: (callback: () => void) => void;
  /**
   * Work below this many ms is carried on the account to later turns instead of ending the turn
   * (a tenth of `turnMs` by default; at most `turnMs`): see {@link LoopBudget}.
   */
  carryMs?: number;
  /**
   * The most metered work, in ms of its estimates, that may wait for a later turn when its own turn
   * has no room, in order of arrival (ADR 66); what would take the backlog past it is refused at
   * once. 0 (the default here): nothing waits, every job without room is refused at once.
   */
  maxBacklogMs?: number;
  /** Told of OVERLOADED refusals (the metrics). */
  observer?: Pick<AdmissionObserver, "overloaded">;
}

/**
 * The defaults the server uses; docs/operations.md and ADRs 37, 48 and 66 explain them. Waiting for
 * a later turn (`maxBacklogMs`) is built but off: with it on, a request that waited on a pipelined
 * keep-alive connection was not answered under load (tests/e2e/keepalive-drain.test.ts; ADR 66).
 */
export const DEFAULT_LOOP_BUDGET: Pick<LoopBudgetOptions, "turnMs" | "maxBacklogMs"> = {
  turnMs: 10,
  maxBacklogMs: 0,
};

/** What a job that waited is given when a turn takes it on: the room held for it in that turn. */
export interface Taken {
  readonly usedBefore: number;
  readonly held: number;
  readonly turn: number;
}

/** A job waiting for a turn with room for its estimate, until `notAfter` on the budget's clock. */
interface LoopWaiter {
  readonly estimateMs: number;
  readonly notAfter: number;
  readonly take: (taken: Taken) => void;
  readonly refuse: (refusal: HttpError) => void;
}

/** The refusal of metered work the event loop has no room for now. */
export function loopBusyRefusal(): HttpError {
  return overloaded(
    "The service is busy with other requests' work and cannot take this one now; retry after 1 s.",
    1,
  );
}

/**
 * The event loop's budget for the work of requests with a body (CONTRACT §1.7, ADRs 37 and 48).
 * The loop answers what arrived together in one turn, one request after another, and a health
 * probe that arrived with them waits for the whole turn: so one turn takes on at most `turnMs` of
 * such work — reading and parsing a body, validating it, and the CIDR operations' own work, all
 * synchronous. A turn's account holds the work done in it (`spent`) and the work it has admitted
 * unread (`promised`: requests whose bodies have yet to be parsed). Work is admitted when the turn
 * has used nothing yet (the first job of a turn always runs, whatever its size: an idle server, or
 * one client sending one request after another, is never refused) or when it fits beside what the
 * turn has used; anything else waits for a later turn, in arrival order, while the work waiting
 * stays within `maxBacklogMs` and for a bounded time (ADR 66), and is refused with OVERLOADED
 * otherwise (at once when `maxBacklogMs` is 0). Each {@link WorkMeter} asks
 * three times, each time knowing more, and never after paying for what it would have avoided:
 * on arrival (Content-Length; nothing read), with the body's bytes (nothing parsed), and with the
 * validated body's cost (nothing computed).
 *
 * Nothing is allocated for a request that does not wait: the account is arithmetic on clock
 * readings; the refusal is one error made once; the end of a turn is one `setImmediate` per turn
 * that used `carryMs` or more (or had jobs waiting). A waiting job is one entry and one promise.
 *
 * Ending a turn costs a turn of the loop of its own (the `setImmediate`): 4–6 µs of CPU on this
 * machine, more than a small request's whole work (issue 30's measurement, docs/performance.md).
 * So an account that holds less than `carryMs` (1 ms by default) is not closed: it is carried into
 * the next turns until it reaches `carryMs`, and then closed at the end of that turn. A job is
 * admitted when the account holds less than `carryMs` (so the first job of every turn still runs,
 * whatever its size) or when it fits beside it. Carrying only ever overstates a turn's use, by less
 * than `carryMs`, and since `carryMs ≤ turnMs` a turn still takes on at most `turnMs` plus one job.
 */
export class LoopBudget {
  private spentMs = 0;
  private promisedMs = 0;
  private turnNumber = 0;
  private turnEndScheduled = false;
  /** Jobs waiting for a turn with room, oldest first from `head`; their estimates' sum. */
  private readonly waiters: LoopWaiter[] = [];
  private head = 0;
  private waitingMs = 0;
  /** Jobs taken from the queue whose work has not yet started (one at a time: see takeWaiting). */
  private taking = 0;
  readonly now: () => number;
  private readonly turnMs: number;
  private readonly carryMs: number;
  private readonly maxBacklogMs: number;
  private readonly afterTurn: (callback: () => void) => void;
  private readonly refusal = loopBusyRefusal();
  private readonly endTurn = (): void => {
    this.spentMs = 0;
    this.promisedMs = 0;
    this.turnNumber++;
    this.turnEndScheduled = false;
    this.taking = 0;
    if (this.head < this.waiters.length) this.takeWaiting();
  };

  constructor(private readonly options: LoopBudgetOptions) {
    if (!(options.turnMs > 0)) throw new RangeError("turnMs must be positive");
    this.turnMs = options.turnMs;
    this.carryMs = Math.min(options.carryMs ?? options.turnMs / 10, options.turnMs);
    if (!(this.carryMs >= 0)) throw new RangeError("carryMs must not be negative");
    this.maxBacklogMs = options.maxBacklogMs ?? 0;
    if (!(this.maxBacklogMs >= 0)) throw new RangeError("maxBacklogMs must not be negative");
    this.now = options.now ?? (() => performance.now());
    this.afterTurn = options.afterTurn ?? setImmediate;
  }

  /** Work done in this turn so far, in ms. */
  get spent(): number {
    return this.spentMs;
  }

  /** Work this turn has admitted and not yet seen done (bodies admitted unread), in ms. */
  get promised(): number {
    return this.promisedMs;
  }

  /** What this turn has used: done and promised. */
  get used(): number {
    return this.spentMs + this.promisedMs;
  }

  /** Which turn this is (it counts up): a promise made in an earlier turn has lapsed with it. */
  get turn(): number {
    return this.turnNumber;
  }

  /** A meter for one operation: it learns what that operation's work costs. */
  meter(): WorkMeter {
    return new WorkMeter(this);
  }

  /** Whether work expected to take `estimateMs` may start in a turn that had used `usedMs` before it. */
  fits(usedMs: number, estimateMs: number): boolean {
    return usedMs === 0 || usedMs < this.carryMs || usedMs + estimateMs <= this.turnMs;
  }

  /** Counts a refusal and returns it (the same error every time: nothing is made per refusal). */
  refused(): HttpError {
    this.options.observer?.overloaded();
    return this.refusal;
  }

  /** Holds `ms` of this turn for work admitted unread. */
  promise(ms: number): void {
    this.promisedMs += ms;
    this.scheduleTurnEnd();
  }

  /** Gives back a promise of `ms` made in turn `turn` (nothing, if that turn is over). */
  release(ms: number, turn: number): void {
    if (turn === this.turnNumber) this.promisedMs = Math.max(0, this.promisedMs - ms);
  }

  /** Charges `ms` of work done in this turn; a job waiting is then taken on if the turn has room. */
  charge(ms: number): void {
    this.spentMs += ms;
    this.scheduleTurnEnd();
    if (this.taking === 0 && this.head < this.waiters.length) this.takeWaiting();
  }

  private scheduleTurnEnd(): void {
    if (!this.turnEndScheduled && this.spentMs + this.promisedMs >= this.carryMs) this.endTurnLater();
  }

  private endTurnLater(): void {
    if (this.turnEndScheduled) return;
    this.turnEndScheduled = true;
    this.afterTurn(this.endTurn);
  }

  /** How many jobs wait for a turn with room, and their estimates' sum in ms. */
  get waiting(): { readonly jobs: number; readonly ms: number } {
    return { jobs: this.waiters.length - this.head, ms: this.waitingMs };
  }

  /** Whether a job must queue behind others: jobs are taken on in the order they came. */
  get hasWaiting(): boolean {
    return this.head < this.waiters.length;
  }

  /** Whether a job of `estimateMs` may join the jobs waiting (the backlog has room for it). */
  mayWait(estimateMs: number): boolean {
    return this.maxBacklogMs > 0 && this.waitingMs + estimateMs <= this.maxBacklogMs;
  }

  /**
   * Puts a job of `estimateMs` in line for a later turn with room for it, waiting at most
   * `maxWaitMs` (`first`: at the head of the line, for a job admitted before those waiting);
   * refused at once (thrown) when the waiting work would pass `maxBacklogMs`.
   * @returns the room a turn has taken it on with, once it has (to give back with
   * {@link release} when its work starts); rejects with the refusal when its time ran out
   */
  wait(estimateMs: number, maxWaitMs: number, first = false): Promise<Taken> {
    if (!this.mayWait(estimateMs)) throw this.refused();
    this.waitingMs += estimateMs;
    const notAfter = this.now() + maxWaitMs;
    const taken = new Promise<Taken>((take, refuse) => {
      const waiter = { estimateMs, notAfter, take, refuse };
      if (!first) this.waiters.push(waiter);
      else if (this.head > 0) this.waiters[--this.head] = waiter;
      else this.waiters.unshift(waiter);
    });
    this.endTurnLater();
    return taken.then((room) => {
      if (room.turn === this.turnNumber) this.taking = Math.max(0, this.taking - 1);
      return room;
    });
  }

  /**
   * Takes on the oldest waiting job if the turn has room for it (the first of a turn always),
   * holding its estimate as a promise, and refuses those past their time. One at a time: the next
   * is taken when this one's work has been charged ({@link charge}), so a turn takes on waiting work
   * by what it really cost, not by estimates that may be low (ADR 61: the least of recent samples).
   */
  private takeWaiting(): void {
    const now = this.now();
    const waiters = this.waiters;
    while (this.head < waiters.length) {
      const waiter = waiters[this.head] as LoopWaiter;
      if (now > waiter.notAfter) {
        this.dequeue(waiter);
        waiter.refuse(this.refused());
        continue;
      }
      const used = this.used;
      if (!this.fits(used, waiter.estimateMs)) break;
      this.dequeue(waiter);
      this.promise(waiter.estimateMs);
      this.taking++;
      waiter.take({ usedBefore: used, held: waiter.estimateMs, turn: this.turnNumber });
      break;
    }
    if (this.head === waiters.length) {
      waiters.length = 0;
      this.head = 0;
      this.waitingMs = 0; // no drift from sums of floating-point estimates
    } else {
      if (this.head > 1024) {
        waiters.splice(0, this.head);
        this.head = 0;
      }
      this.endTurnLater();
    }
  }

  private dequeue(waiter: LoopWaiter): void {
    this.head++;
    this.waitingMs -= waiter.estimateMs;
  }
}

/**
 * One operation's view of the {@link LoopBudget}, and what it has learned: the time per byte of
 * body a request costs whole (reading, parsing, validating and the work), and the time per unit of
 * its row's `cost` the work alone takes, each the least of the last few finished requests'
 * ({@link RecentLow}), so a byte and a unit are what they cost on this machine now, without the
 * pauses that happened to fall into one request. Unknown (0) until its first request has run. A
 * request passes three gates, in order:
 * 1. {@link arrive}, before anything is read: the body weighed at its declared size;
 * 2. {@link read}, with the body's bytes in hand and nothing parsed: weighed at its real size;
 * 3. {@link work}, with the validated body's cost in units: the work weighed exactly;
 * then {@link end}, always, charges what it took. Between the second gate and the end everything
 * runs synchronously, so a job admitted whole by its turn (the first) runs whole.
 */
/** What {@link WorkMeter.arrive} answers for a request refused unread. */
export const ARRIVAL_REFUSED = -1;
/** What {@link WorkMeter.arrive} answers for a request admitted to wait, unread ({@link WorkMeter.waitForTurn}). */
export const WAIT_FOR_TURN = -2;

export class WorkMeter {
  private readonly perByte = new RecentLow();
  private readonly perUnit = new RecentLow();
  /** The `startedAt` of the last request refused at {@link work}: its time is no whole request's. */
  private refusedWorkOf = Number.NaN;

  constructor(private readonly budget: LoopBudget) {}

  /** The expected time of `units` units of this operation's work, in ms (0 while unmeasured). */
  estimate(units: number): number {
    return this.perUnit.value * units;
  }

  /** The expected time of a whole request of `bytes` bytes of body, in ms (0 while unmeasured). */
  estimateBody(bytes: number): number {
    return this.perByte.value * bytes;
  }

  /**
   * Gate 1, before the body is read: admits a request whose body is said to be `bytes` long
   * ({@link declaredBodyBytes}) when the turn has room for it, and holds that room for it; when it
   * has none (or others wait already), admits it to wait, unread, if the backlog has room for it.
   * @returns the ms promised (≥ 0), to hand to {@link read} with the turn it was made in;
   * {@link WAIT_FOR_TURN} for a request to wait ({@link waitForTurn}); or {@link ARRIVAL_REFUSED}
   * when the request is refused (answer {@link LoopBudget.refused}, unread).
   */
  arrive(bytes: number): number {
    const budget = this.budget;
    const estimate = this.perByte.value * bytes;
    if (budget.hasWaiting || !budget.fits(budget.used, estimate))
      return budget.mayWait(estimate) ? WAIT_FOR_TURN : ARRIVAL_REFUSED;
    budget.promise(estimate);
    return estimate;
  }

  /**
   * For a request {@link arrive} answered {@link WAIT_FOR_TURN}: waits, unread, up to `maxWaitMs`
   * for a turn with room for a body of `bytes`, in arrival order.
   * @returns the room and turn it was taken on with, to hand to {@link read} as an arrival's
   * promise; rejects with OVERLOADED when its time ran out
   */
  waitForTurn(bytes: number, maxWaitMs: number): Promise<Taken> {
    return this.budget.wait(this.perByte.value * bytes, maxWaitMs);
  }

  /**
   * Gate 2, with the body's `bytes` read and nothing parsed: gives back arrival's promise
   * (`promised`, made in turn `turn`) and admits the request if the turn has room for it now and
   * nothing waits before it; otherwise it waits, up to `maxWaitMs`, for a turn with room
   * ({@link LoopBudget.wait}).
   * @returns what the turn had used before this request, to hand to {@link work}: at once, or
   * (having waited) a promise of it, rejected with OVERLOADED when the wait ran out
   * @throws HttpError OVERLOADED when it may not wait (the backlog is full, or nothing may wait)
   */
  read(bytes: number, promised: number, turn: number, maxWaitMs = 0): number | Promise<number> {
    const budget = this.budget;
    budget.release(promised, turn);
    const used = budget.used;
    const estimate = this.perByte.value * bytes;
    if (budget.fits(used, estimate)) return used;
    // Admitted before anything now waiting (on arrival, with room held for it): first in line.
    return budget.wait(estimate, maxWaitMs, true).then(({ usedBefore, held, turn: takenIn }) => {
      budget.release(held, takenIn); // its work starts now and is charged by end
      return usedBefore;
    });
  }

  /**
   * Gate 3, with the validated body's cost known (`units`) and nothing computed: admits the work
   * if what the turn had used before this request (`usedBefore`, from {@link read}), plus the
   * reading so far (since `startedAt`), plus the work's estimate fits.
   * @returns the clock reading at which the work starts, to hand to {@link end}
   * @throws HttpError OVERLOADED when it does not fit
   */
  work(units: number, usedBefore: number, startedAt: number): number {
    const now = this.budget.now();
    if (!this.budget.fits(usedBefore, now - startedAt + this.perUnit.value * units)) {
      this.refusedWorkOf = startedAt;
      throw this.budget.refused();
    }
    return now;
  }

  /**
   * The request read since `startedAt` is over (answered, refused or found invalid): charges its
   * time to the turn and learns from it; `workStartedAt` is {@link work}'s reading (NaN when the
   * work never started) and `units` its size.
   */
  end(startedAt: number, bytes: number, workStartedAt: number, units: number): void {
    const now = this.budget.now();
    const ms = now - startedAt;
    this.budget.charge(ms);
    // A request refused at the work gate was only parsed: its time per byte is not what a request
    // costs whole, and under a flood it would set the least sample (ADR 61).
    const refusedWork = startedAt === this.refusedWorkOf;
    this.refusedWorkOf = Number.NaN;
    if (bytes > 0 && !refusedWork) this.perByte.add(ms / bytes);
    if (!Number.isNaN(workStartedAt)) this.perUnit.add((now - workStartedAt) / Math.max(1, units));
  }
}

/** How many of the latest samples {@link RecentLow} remembers. */
export const RECENT_SAMPLES = 4; // RecentLow's four fields

/**
 * A cost learned from measurements of wall time: the least of the last {@link RECENT_SAMPLES}
 * samples (0 before the first). A request's wall time is its cost plus whatever else happened to
 * the thread meanwhile — a garbage collection, the first run of code not yet compiled, the machine
 * running another process — never less, so the noise only ever adds and the least of a few recent
 * samples is the closest to what the next request will cost. One slow sample, or three in a row,
 * changes nothing (a moving average let one collection pause double the estimate and the first
 * request's cold start set it, and a turn then refused the second of two ordinary requests: ADR
 * 61); a cost that has really grown is followed fully after four requests, and a fall at once.
 * Erring low is safe for the loop's budget: every gate weighs the estimate beside the turn's real
 * spending, so a low estimate lets a turn run past `turnMs` by at most one job, as the first job of
 * a turn always may.
 */
export class RecentLow {
  // The four samples in plain fields (a ring: `next` is the oldest), no array to index.
  private s0 = Number.POSITIVE_INFINITY;
  private s1 = Number.POSITIVE_INFINITY;
  private s2 = Number.POSITIVE_INFINITY;
  private s3 = Number.POSITIVE_INFINITY;
  private next = 0;
  private low = Number.POSITIVE_INFINITY;

  /** The learned cost: the least of the samples kept (0 before the first). */
  get value(): number {
    return this.low === Number.POSITIVE_INFINITY ? 0 : this.low;
  }

  /** Records a sample (a non-negative number) in place of the oldest. */
  add(sample: number): void {
    let oldest: number;
    const next = this.next;
    if (next === 0) {
      oldest = this.s0;
      this.s0 = sample;
    } else if (next === 1) {
      oldest = this.s1;
      this.s1 = sample;
    } else if (next === 2) {
      oldest = this.s2;
      this.s2 = sample;
    } else {
      oldest = this.s3;
      this.s3 = sample;
    }
    this.next = (next + 1) & 3;
    // The least changes only when the new sample is below it or the oldest was it.
    if (sample <= this.low) this.low = sample;
    else if (oldest === this.low) this.low = Math.min(this.s0, this.s1, this.s2, this.s3);
  }
}
