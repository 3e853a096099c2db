/**
 * The serving edge through `app.handle`: routing by path alone (CONTRACT §1.6), bounded
 * validation (§1.7), the admission queue (§1.7) and the operations table as the one source of
 * routes.
 */
import { describe, expect, test } from "bun:test";
import { AdmissionQueue } from "../../src/adapters/http/admission.ts";
import { pathOf } from "../../src/adapters/http/edge.ts";
import {
  issuesFromSchemaFailures,
  MORE_ISSUES_OMITTED,
  type SchemaFailure,
} from "../../src/contract/envelope.ts";
import { HttpError } from "../../src/contract/errors.ts";
import { OPERATION_LIST } from "../../src/contract/operations.ts";
import type { SignatureVerifier } from "../../src/domain/ports.ts";
import { chain } from "../domain/certificate-helpers.ts";
import { bundleOf, fakeDecoder } from "../fakes/certificates.ts";
import { errorOf, testApp } from "./helpers.ts";

const { app } = testApp();

describe("routing follows the path alone, whatever the host (CONTRACT §1.6)", () => {
  const hosts = [
    "http://api",
    "http://a",
    "http://api:80",
    "http://localhost",
    "http://[::1]:8080",
    "http://x.y",
  ];
  test.each(hosts)("%s: every endpoint behaves as with localhost", async (origin) => {
    const health = await app.handle(new Request(`${origin}/v1/health`));
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    const cover = await app.handle(
      new Request(`${origin}/v1/cidr-cover?x=1`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"inputs":["10.0.0.1"]}',
      }),
    );
    expect(cover.status).toBe(200);
    const missing = await app.handle(new Request(`${origin}/health`));
    expect(missing.status).toBe(404);
    expect((await errorOf(missing)).message).toBe("No endpoint exists at /health.");
    const wrong = await app.handle(new Request(`${origin}/v1/cidr-cover`));
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("POST, OPTIONS");
  });

  test.each([
    ["http://api/v1/health", "/v1/health"],
    ["http://a/v1/health?x=1", "/v1/health"],
    ["http://api:80/", "/"],
    ["http://a", "/"],
    ["/v1/health", "/v1/health"],
    ["/v1/health?q", "/v1/health"],
    ["http://[::1]:3000/docs/json", "/docs/json"],
  ])("pathOf(%s) = %s", (url, path) => {
    expect(pathOf(url)).toBe(path);
  });
});

describe("the operations table is the one source of the API's routes", () => {
  test("every operation is routed with its method, and nothing else under /v1", () => {
    const routed = app.routes.filter((route) => route.path.startsWith("/v1/"));
    expect(routed.map((route) => `${route.method} ${route.path}`).sort()).toEqual(
      OPERATION_LIST.map((operation) => `${operation.method} ${operation.path}`).sort(),
    );
  });

  test("policies become headers: no-store where the table says so, and only there", async () => {
    for (const operation of OPERATION_LIST) {
      const response = await app.handle(
        new Request(`http://localhost${operation.path}`, {
          method: operation.method === "GET" ? "POST" : "GET",
        }),
      );
      expect(response.status).toBe(405);
      expect(response.headers.get("cache-control")).toBe(operation.policy.noStore ? "no-store" : null);
    }
  });
});

describe("validation stops at 101 problems (CONTRACT §1.7)", () => {
  test("the failure iterator is read no further than 101 distinct issues", () => {
    let pulled = 0;
    function* failures(): Generator<SchemaFailure> {
      for (let i = 0; i < 1_000_000; i++) {
        pulled++;
        yield { path: `/inputs/${i}`, message: "Expected string" };
      }
    }
    const issues = issuesFromSchemaFailures(failures());
    expect(issues).toHaveLength(101);
    expect(pulled).toBe(101);
  });

  test("a missing field is reported once, as required", () => {
    const issues = issuesFromSchemaFailures([
      { path: "/start", message: "Expected required property" },
      { path: "/start", message: "Expected string" },
    ]);
    expect(issues).toEqual([{ message: '"start" is required.', path: ["start"], field: "start" }]);
  });

  test("a body of 32,000 wrong values: 100 issues and a message that says more were omitted", async () => {
    const zeros = Array(16_000).fill(0);
    const response = await app.handle(
      new Request("http://localhost/v1/cidr-subtract", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ include: zeros, exclude: zeros }),
      }),
    );
    const error = await errorOf(response);
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.issues).toHaveLength(100);
    expect(error.message).toBe(MORE_ISSUES_OMITTED);
  });
});

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
    void queue.run(never);
    const refused = await queue.run(async () => "ran").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).code).toBe("OVERLOADED");
    expect((refused as HttpError).headers["retry-after"]).toBe("1");
    expect(queue.load).toEqual({ running: 1, waiting: 0 });
  });

  test("a full queue refuses at once", async () => {
    const queue = new AdmissionQueue({ concurrency: 1, maxWaitMs: 60_000, maxQueued: 1, deadlineMs: 10_000 });
    void queue.run(never);
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
      .run(async (clock) => {
        seen.push(clock.expired());
        now = 101;
        seen.push(clock.expired());
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
    let checks = 0;
    const slowVerifier: SignatureVerifier = {
      verify: async () => {
        checks++;
        await Bun.sleep(120);
        return { outcome: "verified" };
      },
    };
    const { app: slow } = testApp({
      decoder: fakeDecoder([certs.root, certs.intermediate, certs.leaf]),
      verifier: slowVerifier,
      admission: { deadlineMs: 100 },
    });
    const response = await slow.handle(
      new Request("http://localhost/v1/certificate-bundle", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ pem: bundleOf([certs.leaf, certs.intermediate, certs.root]) }),
      }),
    );
    expect(response.status).toBe(503);
    expect((await errorOf(response)).code).toBe("OVERLOADED");
    expect(checks).toBeGreaterThan(0);
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

  test("health, public-ip and the CIDR operations are never queued, so never refused for load", async () => {
    expect(
      OPERATION_LIST.filter((operation) => operation.policy.admission === "queued").map((o) => o.id),
    ).toEqual(["certificateBundle", "certificateChain"]);
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
