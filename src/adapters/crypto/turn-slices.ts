/**
 * Synchronous work shared out over the turns of the event loop (ADR 68): at most `sliceMs` of it
 * a turn, in the order it was asked for. Work asked for while the turn's slice has room and
 * nothing waits runs at once, so its answer is ready in the same turn; the rest waits in line for
 * the next turns, each of which starts a new account and runs the line from its head. A piece of
 * work that has just run goes to the back of the line for its next piece, so whoever waited runs
 * first: one long job cannot keep the slices to itself.
 */

/** How {@link TurnSlices} measures and ends turns. */
export interface TurnSliceOptions {
  /** Milliseconds of work one turn runs at most (the last piece may end past it). */
  readonly sliceMs: number;
  /** A monotonic clock in milliseconds (default `performance.now`). */
  readonly now?: () => number;
  /** Runs a callback on the loop's next turn (default `setImmediate`). */
  readonly nextTurn?: (callback: () => void) => void;
}

/** The line of synchronous work of one process, and its account for the present turn. */
export class TurnSlices {
  private readonly sliceMs: number;
  private readonly now: () => number;
  private readonly nextTurn: (callback: () => void) => void;
  /** Milliseconds of work run since the present turn's account began. */
  private spent = 0;
  /** Work waiting for a turn with room, from `head` on (a queue without `shift`, which copies). */
  private line: ((() => void) | undefined)[] = [];
  private head = 0;
  private turnEndScheduled = false;

  constructor(options: TurnSliceOptions) {
    this.sliceMs = options.sliceMs;
    this.now = options.now ?? (() => performance.now());
    this.nextTurn = options.nextTurn ?? setImmediate;
  }

  /** Pieces of work waiting for a later turn. */
  get waiting(): number {
    return this.line.length - this.head;
  }

  /** Runs `work` now if this turn has room and nothing waits, else in its place in a later turn. */
  run<T>(work: () => T): Promise<T> {
    if (this.waiting === 0 && this.spent < this.sliceMs) {
      try {
        return Promise.resolve(this.timed(work));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return new Promise<T>((resolve, reject) => {
      this.line.push(() => {
        try {
          resolve(this.timed(work));
        } catch (error) {
          reject(error);
        }
      });
      this.scheduleTurnEnd();
    });
  }

  private timed<T>(work: () => T): T {
    const startedAt = this.now();
    try {
      return work();
    } finally {
      this.spent += this.now() - startedAt;
      this.scheduleTurnEnd();
    }
  }

  private scheduleTurnEnd(): void {
    if (this.turnEndScheduled) return;
    this.turnEndScheduled = true;
    this.nextTurn(this.newTurn);
  }

  /** A new turn: a new account, and the line run from its head while the slice has room. */
  private readonly newTurn = (): void => {
    this.turnEndScheduled = false;
    this.spent = 0;
    while (this.head < this.line.length && this.spent < this.sliceMs) {
      const next = this.line[this.head] as () => void;
      this.line[this.head++] = undefined;
      next();
    }
    if (this.head === this.line.length) {
      this.line = [];
      this.head = 0;
    } else this.scheduleTurnEnd();
  };
}
