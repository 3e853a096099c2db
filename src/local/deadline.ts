/**
 * The work budget of one certificate command (CONTRACT §7.3 "Local work is bounded too"): the
 * API bounds its work by a request deadline and a 16-certificate limit; a `nettools` run has the
 * larger local limits (500 certificates), so it brings its own bound. One `Deadline` per command,
 * started when the command starts, covers the whole run: reading the input, connecting
 * (`--connect` takes `signal` or `remainingMs()`), the signature checks and the path search.
 *
 * - The signature checks go through {@link Deadline.verifier}: a few at a time, counted, and none
 *   started once the budget is spent (the rest are dropped, never answered, so the operation
 *   simply never finishes and is left to the garbage collector). The deadline, the count and the
 *   concurrency are the domain's one budgeted verifier, `CheckBudget` (ADR 49), which the
 *   server's admission composes too; this class adds what a command needs around it: the timer,
 *   the abort signal for a connection, and the one line.
 * - The path search asks {@link Deadline.exhausted} at its pauses (the domain's `WorkBudget`) and
 *   stops with `WorkAbandoned`.
 * - {@link Deadline.run} waits for the command's work or the budget, whichever ends first; a spent
 *   budget is one line saying how far the work got ({@link Deadline.stoppedLine}), exit 3.
 *
 * The budget is time (`--timeout SECONDS`, default 10) and memory: the process's resident size
 * (read through the ResidentMemory port, src/local/ports.ts) may not pass {@link MEMORY_CEILING_BYTES}, so that no input of the local limits takes more than
 * 512 MB (a search's memo grows with the time it runs).
 */
import { CheckBudget } from "../domain/check-budget.ts";
import { WorkAbandoned } from "../domain/errors.ts";
import type { SignatureVerifier, WorkBudget } from "../domain/ports.ts";

/** `--timeout` when not given: the whole command, connection included (CONTRACT §7.3). */
export const DEFAULT_TIMEOUT_SECONDS = 10;
/** The longest `--timeout`: a day (a timer cannot be set much further: 2³¹ ms is 24.8 days). */
export const MAX_TIMEOUT_SECONDS = 86_400;
/**
 * Resident size at which the work stops: the contract's 512 MB less room for what the stop
 * itself and the runtime still allocate (the check runs at pauses, not at every allocation).
 */
export const MEMORY_CEILING_BYTES = 384 * 1024 * 1024;
/**
 * Signature checks asked for at once. The checks themselves run one after another on the event
 * loop (node:crypto, ADR 68); a few in hand keep the path search from waiting on each answer, and
 * few enough that stopping leaves almost nothing in flight.
 */
export const CONCURRENT_CHECKS = 8;

/** The budget was spent: why, for the one line. */
type StopReason = "time" | "memory";

/** What the command was doing when the budget ran out, besides the counted signature checks. */
export type Stage = { doing: string } | { afterChecks: string };

/** The outcome of {@link Deadline.run}: the work's value, or the line saying where it stopped. */
export type Bounded<T> = { done: true; value: T } | { done: false; line: string };

export class Deadline implements WorkBudget {
  private readonly endsAt: number;
  private readonly controller = new AbortController();
  /** The command's signature checks, deadline and memory ceiling: the one budgeted verifier (ADR 49). */
  private readonly checks: CheckBudget;
  private stopped: StopReason | null = null;
  /** Work that keeps the same time limit itself (a connection), and says so in its own line. */
  private selfTimed = 0;
  private onStop: (() => void) | null = null;
  private stage = "reading the input";
  private afterChecks = "before the verdict was ready";

  /**
   * @param seconds the budget (`--timeout`), from now.
   * @param memory the process's resident size in bytes: the ResidentMemory port of the user's
   *   machine (src/local/ports.ts), or a test's own.
   * @param now a monotonic clock in milliseconds (tests pass their own).
   */
  constructor(
    readonly seconds: number,
    memory: () => number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.endsAt = now() + seconds * 1000;
    this.checks = new CheckBudget({
      endsAt: this.endsAt,
      now,
      concurrency: CONCURRENT_CHECKS,
      stopsWhen: () => memory() > MEMORY_CEILING_BYTES,
      refusal: "unanswered",
      onStop: (cause) => this.stopped === null && this.stop(cause === "limit" ? "memory" : "time"),
    });
  }

  /** Aborted once the budget is spent: for work that takes a signal (a connection). */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Milliseconds left, at least 0. */
  remainingMs(): number {
    return this.checks.remainingMs();
  }

  /** The domain's `WorkBudget`: true once the time is up or memory has passed its ceiling. */
  exhausted(): boolean {
    return this.checks.exhausted();
  }

  /**
   * Throws `WorkAbandoned` once the budget is spent: called by the command after each step that
   * may end past it, so that nothing is printed or written after the one line.
   */
  check(): void {
    if (this.exhausted()) throw new WorkAbandoned();
  }

  /**
   * Runs `work`, which is given this budget's end and keeps it itself, naming the cause when it
   * fails (a connection that times out says so, CONTRACT §7.3): while it runs, the budget's timer
   * does not stop the command with a second line. What follows it is bounded again.
   */
  async timedBy<T>(work: () => Promise<T>): Promise<T> {
    this.selfTimed++;
    try {
      return await work();
    } finally {
      this.selfTimed--;
    }
  }

  /** Says what the command is doing now (`connecting to example.com:443`), for the stop line. */
  doing(stage: Stage): void {
    if ("doing" in stage) this.stage = stage.doing;
    else this.afterChecks = stage.afterChecks;
  }

  /**
   * `inner` with the budget applied: at most {@link CONCURRENT_CHECKS} checks at once, counted for
   * the stop line; once the budget is spent no check starts, and its promise is never settled.
   */
  verifier(inner: SignatureVerifier): SignatureVerifier {
    return this.checks.verifier(inner);
  }

  /**
   * Runs the command's work within the budget: its value, or, once the budget is spent (the
   * timer, the memory ceiling, or the work's own `WorkAbandoned`), the line saying how far it got.
   * Any other failure of the work is thrown as is.
   */
  async run<T>(work: () => Promise<T>): Promise<Bounded<T>> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const spent = new Promise<Bounded<T>>((resolve) => {
      const give = () => resolve({ done: false, line: this.stoppedLine() });
      if (this.stopped !== null) return give();
      this.onStop = give;
      const timeUp = (): void => {
        // Work that keeps the limit itself ends on time and says why; the check after it stops.
        if (this.selfTimed > 0) timer = setTimeout(timeUp, 50);
        else this.stop("time");
      };
      timer = setTimeout(timeUp, this.remainingMs());
    });
    const finished = work().then(
      (value): Bounded<T> => ({ done: true, value }),
      (error: unknown): Bounded<T> | Promise<Bounded<T>> => {
        if (!(error instanceof WorkAbandoned)) throw error;
        if (this.stopped === null) this.stop(this.now() >= this.endsAt ? "time" : "memory");
        return spent;
      },
    );
    try {
      return await Promise.race([finished, spent]);
    } finally {
      clearTimeout(timer);
      this.onStop = null;
    }
  }

  /** The one line for a spent budget: which limit, and how far the work got. */
  stoppedLine(): string {
    const limit =
      this.stopped === "memory"
        ? `stopped at the memory limit (${MEMORY_CEILING_BYTES / 1024 / 1024} MB)`
        : `stopped at the time limit (${this.seconds} s; --timeout SECONDS sets it)`;
    const requested = this.checks.requested;
    const done = this.checks.finished;
    let where: string;
    if (requested === 0) where = `while ${this.stage}`;
    else if (done < requested) {
      where = `after ${done} of ${requested} signature checks`;
    } else {
      const all = requested === 1 ? "the only signature check" : `all ${requested} signature checks`;
      where = `after ${all}, ${this.afterChecks}`;
    }
    return `${limit} ${where}; no verdict`;
  }

  private stop(reason: StopReason): void {
    if (this.stopped !== null) return;
    this.stopped = reason;
    this.checks.stop(reason === "memory" ? "limit" : "time");
    this.controller.abort(new WorkAbandoned());
    this.onStop?.();
  }
}
