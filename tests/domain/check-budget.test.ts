/**
 * The one budgeted verifier (src/domain/check-budget.ts; ADR 49): deadline, count and concurrency,
 * with a clock the test moves and checks that end when the test says. Its two compositions are
 * tested where they live: the server's admission queue (tests/http/admission.test.ts) and the CLI's
 * Deadline (tests/local/deadline.test.ts).
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { CheckBudget, type CheckRefusal } from "../../src/domain/check-budget.ts";
import type { SignatureCheck, SignatureVerifier } from "../../src/domain/ports.ts";
import { makeCertificate } from "../fakes/certificates.ts";

const child = makeCertificate({ subject: "CN=child", issuer: "CN=issuer" });
const issuer = makeCertificate({ subject: "CN=issuer", issuer: "CN=issuer" });

/** Checks that end when the test says (`finish(i)`), recording when each started and how many ran at once. */
function heldVerifier(now: () => number) {
  const ends: (() => void)[] = [];
  const startedAt: number[] = [];
  let running = 0;
  let most = 0;
  const verifier: SignatureVerifier = {
    verify: () =>
      new Promise<SignatureCheck>((resolve) => {
        startedAt.push(now());
        most = Math.max(most, ++running);
        ends.push(() => {
          running--;
          resolve({ outcome: "verified" });
        });
      }),
  };
  return {
    verifier,
    startedAt,
    get running() {
      return running;
    },
    get most() {
      return most;
    },
    /** Ends the oldest running check that has not ended. */
    finishOne(): boolean {
      const end = ends.shift();
      end?.();
      return end !== undefined;
    },
  };
}

/** Lets promise callbacks run. */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe("CheckBudget", () => {
  test("at most `concurrency` checks run; the rest wait in order and all are answered; each is counted", async () => {
    let now = 0;
    const held = heldVerifier(() => now);
    const budget = new CheckBudget({ endsAt: 1_000, now: () => now, concurrency: 3, refusal: "unanswered" });
    const verifier = budget.verifier(held.verifier);
    const answers = Array.from({ length: 10 }, () => verifier.verify(child, issuer));
    expect({ requested: budget.requested, started: budget.started, running: held.running }).toEqual({
      requested: 10,
      started: 3,
      running: 3,
    });
    while (held.finishOne()) {
      now += 10;
      await settle();
    }
    expect((await Promise.all(answers)).map((check) => check.outcome)).toEqual(Array(10).fill("verified"));
    expect(held.most).toBe(3);
    expect(budget.finished).toBe(10);
    expect(budget.exhausted()).toBe(false);
  });

  test("a check that would end past the deadline at its expected cost is not started: it answers `unavailable`, and the budget has stopped", async () => {
    let now = 0;
    const held = heldVerifier(() => now);
    const budget = new CheckBudget({
      endsAt: 100,
      now: () => now,
      expectedCheckMs: () => 10,
      refusal: "unavailable",
    });
    const verifier = budget.verifier(held.verifier);
    const first = verifier.verify(child, issuer);
    held.finishOne();
    expect((await first).outcome).toBe("verified");
    now = 91; // 91 + 10 > 100: not started
    expect(budget.exhausted()).toBe(false);
    const late = await verifier.verify(child, issuer);
    expect(late).toEqual({ outcome: "unavailable", reason: "the request deadline passed" });
    expect(budget.stopCause).toBe("check");
    expect(budget.exhausted()).toBe(true);
    // Every later check is refused too, even one that would fit.
    now = 0;
    expect((await verifier.verify(child, issuer)).outcome).toBe("unavailable");
    expect({ requested: budget.requested, started: budget.started }).toEqual({ requested: 3, started: 1 });
  });

  test("refusal `unanswered`: once stopped, checks are never answered, and the waiting ones are dropped", async () => {
    let now = 0;
    const held = heldVerifier(() => now);
    const budget = new CheckBudget({ endsAt: 100, now: () => now, concurrency: 1, refusal: "unanswered" });
    const verifier = budget.verifier(held.verifier);
    const running = verifier.verify(child, issuer);
    const waiting = verifier.verify(child, issuer);
    now = 100;
    expect(budget.exhausted()).toBe(true);
    expect(budget.stopCause).toBe("time");
    held.finishOne(); // the running one ends: its answer still comes
    expect((await running).outcome).toBe("verified");
    const never = Symbol("never");
    const outcome = await Promise.race([waiting, verifier.verify(child, issuer), settle().then(() => never)]);
    expect(outcome).toBe(never);
    expect(budget.started).toBe(1);
  });

  test("the owner's own limit stops it too, and the owner is told once why", () => {
    let memory = 0;
    const causes: string[] = [];
    const budget = new CheckBudget({
      endsAt: 100,
      now: () => 0,
      stopsWhen: () => memory > 10,
      refusal: "unanswered",
      onStop: (cause) => causes.push(cause),
    });
    expect(budget.exhausted()).toBe(false);
    memory = 11;
    expect(budget.exhausted()).toBe(true);
    budget.stop();
    expect(budget.exhausted()).toBe(true);
    expect(causes).toEqual(["limit"]);
    expect(budget.remainingMs()).toBe(100);
  });

  test("busy time counts the time during which at least one check ran, once, whatever their overlap", async () => {
    let now = 0;
    const held = heldVerifier(() => now);
    const budget = new CheckBudget({ endsAt: 10_000, now: () => now, refusal: "unavailable" });
    const verifier = budget.verifier(held.verifier);
    const a = verifier.verify(child, issuer);
    now = 5;
    const b = verifier.verify(child, issuer);
    now = 10;
    held.finishOne();
    await a;
    now = 20;
    held.finishOne();
    await b;
    now = 500; // search between checks: not a check's time
    const c = verifier.verify(child, issuer);
    now = 510;
    expect(budget.busyMs()).toBe(30); // 0–20, and 500–510 still running
    held.finishOne();
    await c;
    expect(budget.busyMs()).toBe(30);
  });

  test("against a model: never more than `concurrency` at once, nothing started past the deadline or after a stop, every started check answered", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.constantFrom<CheckRefusal>("unavailable", "unanswered"),
        fc.integer({ min: 0, max: 20 }),
        fc.array(
          fc.oneof(
            fc.constant({ kind: "ask" as const }),
            fc.constant({ kind: "finish" as const }),
            fc.record({ kind: fc.constant("advance" as const), ms: fc.integer({ min: 1, max: 40 }) }),
          ),
          { maxLength: 60 },
        ),
        async (concurrency, refusal, expectedMs, steps) => {
          let now = 0;
          const endsAt = 200;
          const held = heldVerifier(() => now);
          const budget = new CheckBudget({
            endsAt,
            now: () => now,
            concurrency,
            expectedCheckMs: () => expectedMs,
            refusal,
          });
          const verifier = budget.verifier(held.verifier);
          const answers: Promise<SignatureCheck>[] = [];
          let stoppedAtStart = -1;
          for (const step of steps) {
            if (step.kind === "ask") answers.push(verifier.verify(child, issuer));
            else if (step.kind === "finish") held.finishOne();
            else now += step.ms;
            await settle();
            expect(held.running).toBeLessThanOrEqual(concurrency);
            if (budget.stopCause !== null && stoppedAtStart === -1) stoppedAtStart = budget.started;
          }
          // Nothing started that would end past the deadline, nor after the budget stopped.
          for (const at of held.startedAt) expect(at + expectedMs).toBeLessThanOrEqual(endsAt);
          if (stoppedAtStart !== -1) expect(budget.started).toBe(stoppedAtStart);
          expect(held.most).toBeLessThanOrEqual(concurrency);
          expect(budget.started).toBe(held.startedAt.length);
          expect(budget.requested).toBe(answers.length);
          // Every started check is answered once its inner check ends.
          while (held.finishOne()) await settle();
          expect(budget.finished).toBe(budget.started);
          if (refusal === "unavailable") {
            // Every check is answered: the started ones by the verifier, the others `unavailable`
            // (those still waiting in a budget that holds are started and answered above).
            const outcomes = await Promise.all(answers);
            expect(outcomes.filter((check) => check.outcome === "verified")).toHaveLength(budget.started);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
