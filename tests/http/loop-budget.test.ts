/**
 * Admission for all work (CONTRACT §1.7, ADR 37): the event loop's budget for the CIDR operations,
 * their costs, and the same rules seen through `app.handle`.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { LoopBudget } from "../../src/adapters/http/admission.ts";
import { COSTS, splitAnswerSize } from "../../src/contract/costs.ts";
import { HttpError } from "../../src/contract/errors.ts";
import { OPERATION_LIST } from "../../src/contract/operations.ts";
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
    endTurn: () => {
      const callback = pending;
      pending = undefined;
      callback?.();
    },
  };
}

describe("the event loop's work budget", () => {
  test("the first job of a turn always runs, even one larger than the turn's budget; then the turn refuses", () => {
    const loop = manualLoop();
    const budget = new LoopBudget({ turnMs: 10, now: loop.now, afterTurn: loop.afterTurn });
    const meter = budget.meter();
    const started = meter.begin(1000);
    loop.advance(50);
    meter.end(started, 1000);
    expect(budget.spent).toBe(50);
    expect(budget.exhausted).toBe(true);
    expect(() => meter.ready()).toThrow(HttpError);
    expect(() => meter.begin(1)).toThrow(HttpError);
    // A new turn: one client sending one large request after another is never refused.
    loop.endTurn();
    expect(budget.exhausted).toBe(false);
    meter.ready();
    const again = meter.begin(1000);
    loop.advance(50);
    meter.end(again, 1000);
    expect(budget.spent).toBe(50);
  });

  test("later jobs of a turn run while the work so far plus their estimated cost fits", () => {
    const loop = manualLoop();
    const budget = new LoopBudget({ turnMs: 10, now: loop.now, afterTurn: loop.afterTurn });
    const meter = budget.meter();
    const first = meter.begin(2);
    loop.advance(2); // 1 ms per unit
    meter.end(first, 2);
    expect(meter.estimate(5)).toBeCloseTo(5);
    const second = meter.begin(5); // 2 + 5 ≤ 10
    loop.advance(5);
    meter.end(second, 5);
    expect(() => meter.begin(4)).toThrow(HttpError); // 7 + 4 > 10
    meter.ready(); // the budget is not spent: a request may still be read …
    const third = meter.begin(3); // … and a small one runs: 7 + 3 ≤ 10
    loop.advance(3);
    meter.end(third, 3);
    expect(budget.exhausted).toBe(true);
  });

  test("the refusal is OVERLOADED with Retry-After 1, and the observer counts it", () => {
    const loop = manualLoop();
    let refusals = 0;
    const budget = new LoopBudget({
      turnMs: 1,
      now: loop.now,
      afterTurn: loop.afterTurn,
      observer: { overloaded: () => refusals++ },
    });
    const meter = budget.meter();
    const started = meter.begin(1);
    loop.advance(10);
    meter.end(started, 1);
    let refusal: unknown;
    try {
      meter.ready();
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(HttpError);
    expect((refusal as HttpError).code).toBe("OVERLOADED");
    expect((refusal as HttpError).status).toBe(503);
    expect(refusals).toBe(1);
  });

  test("in any turn, admitted work stays within the budget plus one job (the model: a sum per turn)", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: 50, noNaN: true }),
        fc.array(
          fc.record({
            endsTurn: fc.boolean(),
            tookMs: fc.double({ min: 0, max: 30, noNaN: true }),
            units: fc.integer({ min: 1, max: 1000 }),
          }),
          { maxLength: 200 },
        ),
        (turnMs, jobs) => {
          const loop = manualLoop();
          const budget = new LoopBudget({ turnMs, now: loop.now, afterTurn: loop.afterTurn });
          const meter = budget.meter();
          let turnWork = 0;
          let turnBiggest = 0;
          let admitted = 0;
          for (const job of jobs) {
            if (job.endsTurn) {
              loop.endTurn();
              turnWork = 0;
              turnBiggest = 0;
            }
            let begun: number;
            try {
              meter.ready();
              begun = meter.begin(job.units);
            } catch {
              expect(turnWork).toBeGreaterThan(0); // the first job of a turn is never refused
              continue;
            }
            loop.advance(job.tookMs);
            meter.end(begun, job.units);
            admitted++;
            turnWork += job.tookMs;
            turnBiggest = Math.max(turnBiggest, job.tookMs);
            expect(turnWork).toBeLessThanOrEqual(turnMs + turnBiggest + 1e-9);
            expect(budget.spent).toBeCloseTo(turnWork);
          }
          if (jobs.length > 0) expect(admitted).toBeGreaterThan(0);
        },
      ),
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
    expect(COSTS.cidrMerge({ inputs: list(1000) })).toBe(1000);
    expect(COSTS.cidrCompare({ a: list(600), b: list(400) })).toBe(1000);
    expect(COSTS.cidrCompare({ a: [], b: [] })).toBe(1);
    expect(COSTS.cidrContains({ cidrs: list(3), entries: list(7) })).toBe(10);
    expect(COSTS.cidrAllocate({ within: list(2), used: list(5), prefixLength: 24, count: 100 })).toBe(107);
    expect(COSTS.cidrSubnets({ prefix: "10.0.0.0/8", newbits: [8, 8, 8] })).toBe(3);
    expect(COSTS.certificateBundle({ pem: "-----BEGIN X-----\n-----BEGIN Y-----" })).toBe(2);
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
  const merge = (inputs: string[]) =>
    new Request("http://localhost/v1/cidr-merge", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ inputs }),
    });

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
