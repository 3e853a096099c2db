/**
 * Signature checks within a budget: the one place that bounds certificate work by a deadline, a
 * count and a concurrency (CONTRACT §1.7 for the API, §7.3 for `nettools`; ADR 49). The server's
 * admission queue makes one per admitted request (its deadline the answer's due time, each check
 * expected to take what the queue has measured); the CLI's `Deadline` makes one per command (its
 * `--timeout`, its memory ceiling, a few checks at once). Both hand {@link CheckBudget.verifier} to
 * the domain as its `SignatureVerifier`, and the budget itself as the path search's `WorkBudget`.
 *
 * - **Deadline:** a check starts only while the budget holds and would end by `endsAt` at its
 *   expected cost; the first refused check stops the budget for good (`exhausted()` is true from
 *   then on), and so does the time passing `endsAt` or the owner's own limit (`stopsWhen`).
 * - **Count:** checks asked for, started and finished, for the owner's words ("after 12 of 40
 *   signature checks") and for learning what a check costs (`busyMs`, the time during which at
 *   least one ran, waiting in the verifier's line for a turn included (ADR 68): what a check costs
 *   the job now; the search between checks is not theirs).
 * - **Concurrency:** at most `concurrency` checks run at once; the others wait in order, and are
 *   dropped when the budget stops.
 * A refused check either answers at once with an `unavailable` outcome (the server: the job has
 * failed and its owner refuses to answer) or never answers (the CLI: its owner stops the command
 * with one line, and the pending work is left to the garbage collector).
 */
import type { SignatureCheck, SignatureVerifier, WorkBudget } from "./ports.ts";

/** How a budget refuses a check once it has stopped. */
export type CheckRefusal = "unavailable" | "unanswered";

/** Why a budget stopped: its time passed, the owner's limit (`stopsWhen`), or a check that would not fit. */
export type StopCause = "time" | "limit" | "check";

export interface CheckBudgetOptions {
  /** The deadline, on the `now` clock. */
  readonly endsAt: number;
  /** Milliseconds on a monotonic clock. */
  readonly now: () => number;
  /** Checks running at once (default: no bound). */
  readonly concurrency?: number;
  /** What one check is expected to take now, in ms (default 0): none starts that would end past `endsAt`. */
  readonly expectedCheckMs?: () => number;
  /** The owner's other limit (a memory ceiling), asked whenever the time is. */
  readonly stopsWhen?: () => boolean;
  /** What a refused check answers (see the module's comment). */
  readonly refusal: CheckRefusal;
  /** Told once, when the budget stops, why. */
  readonly onStop?: (cause: StopCause) => void;
}

const UNAVAILABLE: SignatureCheck = { outcome: "unavailable", reason: "the request deadline passed" };

/** One piece of work's budget for signature checks; also its `WorkBudget`. */
export class CheckBudget implements WorkBudget {
  private stoppedBy: StopCause | null = null;
  private asked = 0;
  private begun = 0;
  private ended = 0;
  private running = 0;
  private busySince = 0;
  private busyTotal = 0;
  /** Checks not started yet, from `next` on (a queue without `shift`, which copies). */
  private waiting: (() => void)[] = [];
  private next = 0;
  private readonly concurrency: number;

  constructor(private readonly options: CheckBudgetOptions) {
    this.concurrency = options.concurrency ?? Number.POSITIVE_INFINITY;
    if (!(this.concurrency >= 1)) throw new RangeError("concurrency must be at least 1");
  }

  /** Checks asked for so far. */
  get requested(): number {
    return this.asked;
  }

  /** Checks started so far. */
  get started(): number {
    return this.begun;
  }

  /** Checks that have answered so far. */
  get finished(): number {
    return this.ended;
  }

  /** Why the budget stopped, or null while it holds. */
  get stopCause(): StopCause | null {
    return this.stoppedBy;
  }

  /** Milliseconds left before the deadline, at least 0. */
  remainingMs(): number {
    return Math.max(0, this.options.endsAt - this.options.now());
  }

  /** The domain's `WorkBudget`: true once the budget has stopped (the time, the owner's limit, or a refused check). */
  exhausted(): boolean {
    if (this.stoppedBy === null) {
      if (this.options.now() >= this.options.endsAt) this.stop("time");
      else if (this.options.stopsWhen?.() === true) this.stop("limit");
    }
    return this.stoppedBy !== null;
  }

  /** Stops the budget: no check starts from now on, and the waiting ones are dropped. */
  stop(cause: StopCause = "time"): void {
    if (this.stoppedBy !== null) return;
    this.stoppedBy = cause;
    const dropped = this.waiting.slice(this.next);
    this.waiting = [];
    this.next = 0;
    if (this.options.refusal === "unavailable") for (const refuse of dropped) refuse();
    this.options.onStop?.(cause);
  }

  /** Time during which at least one check ran (up to now, for checks still running), in ms. */
  busyMs(): number {
    return this.busyTotal + (this.running > 0 ? this.options.now() - this.busySince : 0);
  }

  /** `inner` within this budget: counted, at most `concurrency` at once, none started once it has stopped. */
  verifier(inner: SignatureVerifier): SignatureVerifier {
    return {
      verify: (child, issuer) => {
        this.asked++;
        if (this.stoppedBy !== null) return this.refused();
        return new Promise<SignatureCheck>((resolve) => {
          this.waiting.push(() => {
            // Called to start the check, or (stopped, refusal "unavailable") to refuse it.
            if (this.stoppedBy !== null || !this.mayStart()) {
              if (this.options.refusal === "unavailable") resolve(UNAVAILABLE);
              return;
            }
            this.begin();
            inner.verify(child, issuer).then(
              (check) => this.finish(() => resolve(check)),
              () => this.finish(() => resolve({ outcome: "unavailable", reason: "the verifier failed" })),
            );
          });
          this.startWaiting();
        });
      },
    };
  }

  /** Whether one more check may start now: the budget holds and the check would end in time. */
  private mayStart(): boolean {
    if (this.exhausted()) return false;
    const expected = this.options.expectedCheckMs?.() ?? 0;
    if (this.options.now() + expected > this.options.endsAt) {
      this.stop("check");
      return false;
    }
    return true;
  }

  private refused(): Promise<SignatureCheck> {
    return this.options.refusal === "unavailable" ? Promise.resolve(UNAVAILABLE) : new Promise(() => {});
  }

  private begin(): void {
    this.begun++;
    if (this.running++ === 0) this.busySince = this.options.now();
  }

  private finish(answer: () => void): void {
    if (--this.running === 0) this.busyTotal += this.options.now() - this.busySince;
    this.ended++;
    answer();
    this.startWaiting();
  }

  private startWaiting(): void {
    while (this.running < this.concurrency && this.next < this.waiting.length) {
      const start = this.waiting[this.next] as () => void;
      this.waiting[this.next++] = NOTHING;
      start();
      if (this.stoppedBy !== null) {
        // The refused check stopped the budget, which dropped the rest.
        return;
      }
    }
  }
}

const NOTHING = (): void => {};
