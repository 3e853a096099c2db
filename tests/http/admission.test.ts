/**
 * The admission of expensive work (CONTRACT §1.7): the bounded queue, its deadline and measured
 * unit cost, the certificate lanes, and the same rules seen through `app.handle`.
 */
import { describe, expect, test } from "bun:test";
import { AdmissionQueue, answerMarginMs } from "../../src/adapters/http/admission.ts";
import { HttpError } from "../../src/contract/errors.ts";
import { OPERATION_LIST } from "../../src/contract/operations.ts";
import { WorkAbandoned } from "../../src/domain/errors.ts";
import type { SignatureVerifier } from "../../src/domain/ports.ts";
import { chain } from "../domain/certificate-helpers.ts";
import { bundleOf, fakeDecoder } from "../fakes/certificates.ts";
import { errorOf, testApp } from "./helpers.ts";

describe("admission queue (CONTRACT §1.7)", () => {
  const never = () => new Promise<never>(() => {});

  test("at most `concurrency` jobs run; the next waits its turn in order", async () => {
    const queue = new AdmissionQueue({ concurrency: 1, maxWaitMs: 1_000, maxQueued: 4, deadlineMs: 10_000 });
    const order: number[] = [];
    let release: () => void = () => {};
    const first = queue.run(async () => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      order.push(1);
    });
    const second = queue.run(async () => void order.push(2));
    const third = queue.run(async () => void order.push(3));
    expect(queue.load).toEqual({ running: 1, waiting: 2 });
    release();
    await Promise.all([first, second, third]);
    expect(order).toEqual([1, 2, 3]);
    expect(queue.load).toEqual({ running: 0, waiting: 0 });
  });

  test("a job that cannot start within maxWaitMs is OVERLOADED with Retry-After", async () => {
    const queue = new AdmissionQueue({ concurrency: 1, maxWaitMs: 20, maxQueued: 4, deadlineMs: 10_000 });
    void queue.run(never).catch(() => {});
    const refused = await queue.run(async () => "ran").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).code).toBe("OVERLOADED");
    expect((refused as HttpError).headers["retry-after"]).toBe("1");
    expect(queue.load).toEqual({ running: 1, waiting: 0 });
  });

  test("a full queue refuses at once", async () => {
    const queue = new AdmissionQueue({ concurrency: 1, maxWaitMs: 60_000, maxQueued: 1, deadlineMs: 10_000 });
    void queue.run(never).catch(() => {});
    void queue.run(never).catch(() => {});
    const started = performance.now();
    const refused = await queue.run(async () => "ran").catch((error: unknown) => error);
    expect((refused as HttpError).code).toBe("OVERLOADED");
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  test("a slot handed over on completion cannot be taken by a newcomer", async () => {
    const queue = new AdmissionQueue({ concurrency: 1, maxWaitMs: 1_000, maxQueued: 8, deadlineMs: 10_000 });
    let running = 0;
    let most = 0;
    const job = async () => {
      running++;
      most = Math.max(most, running);
      await Bun.sleep(2);
      running--;
    };
    await Promise.all(Array.from({ length: 8 }, () => queue.run(job)));
    expect(most).toBe(1);
  });

  test("the deadline counts from arrival, and a job sees it expire", async () => {
    let now = 0;
    const queue = new AdmissionQueue({
      concurrency: 1,
      maxWaitMs: 1_000,
      maxQueued: 4,
      deadlineMs: 100,
      now: () => now,
    });
    const seen: boolean[] = [];
    const refused = await queue
      .run(async (checks) => {
        seen.push(checks.exhausted());
        now = 101;
        seen.push(checks.exhausted());
        return "answered late";
      })
      .catch((error: unknown) => error);
    expect(seen).toEqual([false, true]);
    // Work that ends past its deadline is refused, never answered late.
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).code).toBe("OVERLOADED");
    expect(queue.load).toEqual({ running: 0, waiting: 0 });
  });

  test("through the app: a full queue answers 503 OVERLOADED, no-store, with Retry-After", async () => {
    const { app: busy } = testApp({ admission: { concurrency: 0, maxWaitMs: 1 } });
    const response = await busy.handle(
      new Request("http://localhost/v1/certificate-bundle", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ pem: "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n" }),
      }),
    );
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect((await errorOf(response)).code).toBe("OVERLOADED");
  });

  test("through the app: work past the deadline stops with OVERLOADED instead of answering late", async () => {
    const certs = chain();
    // The clock is driven: the first check takes the request past its deadline.
    let now = 0;
    let checks = 0;
    const slowVerifier: SignatureVerifier = {
      verify: async () => {
        checks++;
        now = 200;
        return { outcome: "verified" };
      },
    };
    const { app: slow } = testApp({
      decoder: fakeDecoder([certs.root, certs.intermediate, certs.leaf]),
      verifier: slowVerifier,
      admission: { deadlineMs: 100, now: () => now },
    });
    const response = await slow.handle(
      new Request("http://localhost/v1/certificate-bundle", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ pem: bundleOf([certs.leaf, certs.intermediate, certs.root]) }),
      }),
    );
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    expect((await errorOf(response)).code).toBe("OVERLOADED");
    expect(checks).toBe(1);
  });

  test("a job that stops at its budget (WorkAbandoned) is the same late answer, and frees its slot", async () => {
    const queue = new AdmissionQueue({ concurrency: 1, maxWaitMs: 1_000, maxQueued: 4, deadlineMs: 5_000 });
    const seen: { expired?: boolean } = {};
    const refused = await queue
      .run(async (checks) => {
        seen.expired = checks.exhausted();
        throw new WorkAbandoned();
      })
      .catch((error: unknown) => error);
    expect(seen.expired).toBe(false);
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).code).toBe("OVERLOADED");
    await Bun.sleep(0);
    expect(queue.load).toEqual({ running: 0, waiting: 0 });
  });

  test("a job still running when its answer is due is refused then, and keeps its slot until it ends", async () => {
    const queue = new AdmissionQueue({ concurrency: 1, maxWaitMs: 1_000, maxQueued: 4, deadlineMs: 200 });
    let finish: () => void = () => {};
    const started = performance.now();
    const refused = await queue
      .run(() => new Promise<void>((resolve) => (finish = resolve)))
      .catch((error: unknown) => error);
    const waited = performance.now() - started;
    expect((refused as HttpError).code).toBe("OVERLOADED");
    expect(waited).toBeGreaterThanOrEqual(200 - answerMarginMs(200) - 2);
    expect(waited).toBeLessThan(200 + 1_000); // on time, give or take a busy machine's timer
    expect(queue.load).toEqual({ running: 1, waiting: 0 });
    finish();
    await Bun.sleep(0);
    expect(queue.load).toEqual({ running: 0, waiting: 0 });
  });

  test("a job whose measured worst case does not fit in the time left is refused before it starts", async () => {
    let now = 0;
    const queue = new AdmissionQueue({
      concurrency: 1,
      maxWaitMs: 1_000,
      maxQueued: 4,
      deadlineMs: 1_000,
      now: () => now,
    });
    // One job of 10 units whose ten checks take 10 ms each: 10 ms a unit.
    await queue.run(async (checks) => {
      const verifier = checks.verifier({
        verify: async () => {
          now += 10;
          return { outcome: "verified" };
        },
      });
      const certs = chain();
      const running = Array.from({ length: 10 }, () => verifier.verify(certs.leaf, certs.intermediate));
      // One check in hand per job: the checks run on the loop, one after another (ADR 68).
      expect(checks.started).toBe(1);
      await Promise.all(running);
      expect(checks.finished).toBe(10);
    }, 10);
    expect(queue.unitCost.estimate(1)).toBeCloseTo(10);
    let ran = false;
    const tooBig = await queue
      .run(async () => {
        ran = true;
      }, 100)
      .catch((error: unknown) => error);
    expect((tooBig as HttpError).code).toBe("OVERLOADED");
    expect(ran).toBe(false);
    // 90 units (900 ms) fit in the 1000 ms left less the 100 ms margin; the estimate is exact.
    await queue.run(async () => {
      ran = true;
    }, 90);
    expect(ran).toBe(true);
    // An estimate ages: after 4 s without a measurement it is a sixteenth, and 100 units fit again.
    now += 4_000;
    expect(queue.unitCost.estimate(100)).toBeCloseTo(1_000 / 16);
  });

  test("a unit's cost is learned from the time checks run, never from the search around them", async () => {
    let now = 0;
    const queue = new AdmissionQueue({
      concurrency: 1,
      maxWaitMs: 1_000,
      maxQueued: 4,
      deadlineMs: 1_000,
      now: () => now,
    });
    const certs = chain();
    // Two checks of 5 ms each with 800 ms of path search between them (a cross-signing ring).
    await queue.run(async (checks) => {
      const verifier = checks.verifier({
        verify: async () => {
          now += 5;
          return { outcome: "verified" };
        },
      });
      await verifier.verify(certs.leaf, certs.intermediate);
      now += 800;
      await verifier.verify(certs.intermediate, certs.root);
    }, 2);
    expect(queue.unitCost.estimate(1)).toBeCloseTo(5);
    // The next such request fits its deadline on an idle server: 100 units at 5 ms is 500 ms.
    let ran = false;
    await queue.run(async () => {
      ran = true;
    }, 100);
    expect(ran).toBe(true);
  });

  test("inside a job, a unit that would end past the deadline is not started, and the job has failed", async () => {
    let now = 0;
    const queue = new AdmissionQueue({
      concurrency: 1,
      maxWaitMs: 1_000,
      maxQueued: 4,
      deadlineMs: 1_000,
      now: () => now,
    });
    await queue.run(async (checks) => {
      await checks
        .verifier({
          verify: async () => {
            now += 10;
            return { outcome: "verified" };
          },
        })
        .verify(chain().leaf, chain().intermediate);
    });
    let outcomes: unknown[] = [];
    const refused = await queue
      .run(async (checks) => {
        const verifier = checks.verifier({ verify: async () => ({ outcome: "verified" }) });
        const certs = chain();
        const first = await verifier.verify(certs.leaf, certs.intermediate);
        const failedBefore = checks.exhausted();
        // Arrived at 10: the deadline is 1010, the answer due 100 ms before. Just before that the
        // job is not late yet, but one more unit, at its measured cost, would end after it.
        const answerBy = 1010 - answerMarginMs(1_000);
        now = answerBy - 2;
        expect(checks.exhausted()).toBe(false);
        expect(now + queue.unitCost.estimate(1)).toBeGreaterThan(answerBy);
        const second = await verifier.verify(certs.leaf, certs.intermediate);
        outcomes = [first.outcome, failedBefore, second.outcome, checks.exhausted()];
      })
      .catch((error: unknown) => error);
    expect(outcomes).toEqual(["verified", false, "unavailable", true]);
    // A job that failed its deadline is never answered with its partial result.
    expect((refused as HttpError).code).toBe("OVERLOADED");
  });

  test("through the app: a small bundle has its own lane and is not queued behind large ones", async () => {
    const certs = chain();
    // Every signature check hangs: a large bundle (5 blocks) holds the large lane's only slot.
    const hanging: SignatureVerifier = { verify: () => new Promise(() => {}) };
    const { app: lanes } = testApp({
      decoder: fakeDecoder([certs.root, certs.intermediate, certs.leaf]),
      verifier: hanging,
      admission: { concurrency: 1, maxWaitMs: 50 },
    });
    const post = (pem: string) =>
      lanes.handle(
        new Request("http://localhost/v1/certificate-bundle", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ pem }),
        }),
      );
    const large = bundleOf([certs.root, certs.root, certs.root, certs.root, certs.root]);
    void post(large);
    await Bun.sleep(5);
    // Another large bundle waits its 50 ms for the taken slot and is refused.
    expect((await post(large)).status).toBe(503);
    // The leaf alone needs no signature check; in the small lane it is answered at once.
    const small = await post(bundleOf([certs.leaf]));
    expect(small.status).toBe(200);
  });

  test("only the certificate operations are queued; a full queue refuses nothing else", async () => {
    expect(
      OPERATION_LIST.filter((operation) => operation.policy.admission === "queued").map((o) => o.id),
    ).toEqual(["certificateBundle", "certificateChain", "csr", "crl"]);
    // A queue that never frees a slot refuses every certificate inspection; nothing else notices.
    const { app: busy } = testApp({ admission: { concurrency: 0, maxWaitMs: 1 } });
    expect((await busy.handle(new Request("http://localhost/v1/health"))).status).toBe(200);
    expect((await busy.handle(new Request("http://localhost/v1/public-ip"))).status).toBe(200);
    const cover = await busy.handle(
      new Request("http://localhost/v1/cidr-cover", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"inputs":["10.0.0.1"]}',
      }),
    );
    expect(cover.status).toBe(200);
  });
});
