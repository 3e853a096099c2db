/**
 * Admission of expensive work (CONTRACT §1.7): a bounded queue in front of the certificate
 * use case, whose signature checks can cost hundreds of milliseconds of CPU on the runtime's
 * crypto threads (16 self-issued P-521 CAs sharing a name: 256 ECDSA verifies, ~0.4 s).
 *
 * - At most `concurrency` jobs run at once; others wait in FIFO order.
 * - A job that cannot start within `maxWaitMs` (or when `maxQueued` jobs already wait) is refused
 *   with 503 `OVERLOADED` and `Retry-After`, quickly, instead of answering many seconds late.
 * - A job that has started gets a deadline; work that checks `expired()` between steps (the
 *   signature verifier does, before every check) stops with `OVERLOADED` once it passes, so no
 *   request outlives the limit the docs promise.
 * Cheap requests (health, public-ip, CIDR) never pass through here.
 */
import { HttpError } from "../../contract/errors.ts";
import type { SignatureVerifier } from "../../domain/ports.ts";

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

/** What a running job can ask: whether its time is up. */
export interface JobClock {
  expired(): boolean;
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

interface Waiter {
  start: () => void;
  timer: ReturnType<typeof setTimeout>;
}

/** A counting semaphore with a bounded, time-limited FIFO queue. */
export class AdmissionQueue {
  private running = 0;
  private readonly waiting: Waiter[] = [];
  private readonly now: () => number;

  constructor(private readonly options: AdmissionOptions) {
    this.now = options.now ?? (() => performance.now());
  }

  /** Jobs running and waiting now (for tests and diagnostics). */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  private busy(): HttpError {
    const seconds = Math.max(1, Math.ceil(this.options.maxWaitMs / 1000));
    return overloaded(
      `The service is busy with other certificate inspections and could not start this one in time; retry after ${seconds} s.`,
      seconds,
    );
  }

  /**
   * Runs `job` when a slot is free.
   * @throws HttpError OVERLOADED when it cannot start within `maxWaitMs`, or when its deadline
   * passes before it ends (the job may stop early by asking `clock.expired()`).
   */
  async run<T>(job: (clock: JobClock) => Promise<T>): Promise<T> {
    const observer = this.options.observer;
    if (observer === undefined) return this.admit(job);
    try {
      return await this.admit(job);
    } catch (error) {
      if (error instanceof HttpError && error.code === "OVERLOADED") observer.overloaded();
      throw error;
    }
  }

  private async admit<T>(job: (clock: JobClock) => Promise<T>): Promise<T> {
    // The deadline counts from arrival: waiting for a slot is part of the request's time.
    const deadline = this.now() + this.options.deadlineMs;
    if (this.running < this.options.concurrency) this.running += 1;
    else await this.waitForSlot(); // resolves holding the slot its predecessor handed over
    const clock: JobClock = { expired: () => this.now() > deadline };
    try {
      const result = await job(clock);
      // Work that ran past the deadline is refused, never answered late (CONTRACT §1.7).
      if (clock.expired()) throw lateAnswer(this.options.deadlineMs);
      return result;
    } finally {
      const next = this.waiting.shift();
      if (next === undefined) this.running -= 1;
      else {
        this.options.observer?.waitingChanged(-1);
        next.start();
      }
    }
  }

  private waitForSlot(): Promise<void> {
    if (this.waiting.length >= this.options.maxQueued) {
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
        }, this.options.maxWaitMs),
      };
      this.waiting.push(waiter);
      this.options.observer?.waitingChanged(1);
    });
  }
}

/** Bundles of at most this many blocks go through the small lane: at most 4 × 4 signature checks. */
export const SMALL_BUNDLE_BLOCKS = 4;

/** PEM blocks in a text, counted by their BEGIN lines (the scanner itself runs later, in the use case). */
function blockCount(pem: string): number {
  let count = 0;
  for (let at = pem.indexOf("-----BEGIN"); at !== -1; at = pem.indexOf("-----BEGIN", at + 10)) count++;
  return count;
}

/**
 * The two admission lanes of certificate inspections: a small bundle (at most SMALL_BUNDLE_BLOCKS
 * blocks) has one slot of its own, so an ordinary chain never waits behind the costliest bundles;
 * larger ones share `options.concurrency` slots.
 */
export function certificateLanes(options: AdmissionOptions) {
  const small = new AdmissionQueue({ ...options, concurrency: Math.min(1, options.concurrency) });
  const large = new AdmissionQueue(options);
  return {
    small,
    large,
    /** The lane of a validated certificate-bundle body. */
    laneOf: (input: unknown): AdmissionQueue =>
      blockCount((input as { pem: string }).pem) <= SMALL_BUNDLE_BLOCKS ? small : large,
  };
}

/**
 * A verifier that does no more crypto once its request's deadline has passed (CONTRACT §1.7): the
 * remaining checks return at once; the caller then refuses to answer late ({@link lateAnswer}).
 */
export function withDeadline(verifier: SignatureVerifier, clock: JobClock): SignatureVerifier {
  return {
    verify: (child, issuer) =>
      clock.expired()
        ? Promise.resolve({ outcome: "unavailable", reason: "the request deadline passed" })
        : verifier.verify(child, issuer),
  };
}

/** The refusal of work that could not finish within its deadline. */
export function lateAnswer(deadlineMs: number): HttpError {
  return overloaded(
    `The certificate inspection could not be finished within ${deadlineMs} ms; retry shortly.`,
    1,
  );
}
