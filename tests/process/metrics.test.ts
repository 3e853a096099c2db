/**
 * The metrics counters, their sum over processes and the exposition (CONTRACT §6), without
 * sockets; the real process is tested in tests/e2e/metrics.test.ts.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { AdmissionQueue } from "../../src/adapters/http/admission.ts";
import { HttpError } from "../../src/contract/errors.ts";
import {
  LATENCY_BUCKETS_SECONDS,
  type MetricsSnapshot,
  ProcessMetrics,
  type ProcessSampler,
  renderExposition,
  sumSnapshots,
} from "../../src/process/metrics.ts";

const ROUTES = new Map([
  ["/v1/health", "health"],
  ["/v1/cidr-cover", "cidrCover"],
]);
const FIXED: ProcessSampler = { cpuSeconds: () => 1.5, residentBytes: () => 1000, heapBytes: () => 10 };

function lines(snapshot: MetricsSnapshot): string[] {
  return renderExposition(snapshot).split("\n");
}

describe("one process's counters", () => {
  test("requests by operation, method and status; unknown routes and methods fall into closed sets", () => {
    const metrics = new ProcessMetrics(ROUTES, FIXED);
    metrics.observeRequest("/v1/health", "GET", 200, 0.02);
    metrics.observeRequest("/v1/health", "GET", 200, 0.03);
    metrics.observeRequest("/v1/cidr-cover", "OPTIONS", 204, 0.01);
    metrics.observeRequest("/", "GET", 200, 0.5); // the page: not an operation
    metrics.observeRequest(null, "BREW", 404, 0.01);
    const text = lines(metrics.snapshot());
    expect(text).toContain('network_tools_requests_total{operation="health",method="GET",status="200"} 2');
    expect(text).toContain(
      'network_tools_requests_total{operation="cidrCover",method="OPTIONS",status="204"} 1',
    );
    expect(text).toContain('network_tools_requests_total{operation="unmatched",method="GET",status="200"} 1');
    expect(text).toContain(
      'network_tools_requests_total{operation="unmatched",method="other",status="404"} 1',
    );
    expect(text.join("\n")).not.toContain("BREW");
    expect(text.join("\n")).not.toContain('"/');
  });

  test("a duration lands in the first bucket whose bound it does not exceed (bounds inclusive)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 20_000, noNaN: true }), { maxLength: 50 }),
        (durationsMs) => {
          const metrics = new ProcessMetrics(ROUTES, FIXED);
          for (const ms of durationsMs) metrics.observeRequest("/v1/health", "GET", 200, ms);
          const health = metrics.snapshot().latency.find((entry) => entry.operation === "health");
          expect(health?.count).toBe(durationsMs.length);
          // The slow obvious model: count, for each bound, the durations at or under it.
          const text = lines(metrics.snapshot());
          for (const bound of LATENCY_BUCKETS_SECONDS) {
            const atOrUnder = durationsMs.filter((ms) => ms / 1000 <= bound).length;
            expect(text).toContain(
              `network_tools_request_duration_seconds_bucket{operation="health",le="${bound}"} ${atOrUnder}`,
            );
          }
          expect(text).toContain(
            `network_tools_request_duration_seconds_bucket{operation="health",le="+Inf"} ${durationsMs.length}`,
          );
        },
      ),
      { numRuns: 100 },
    );
  });

  test("429 answers count as rate-limited refusals", () => {
    const metrics = new ProcessMetrics(ROUTES, FIXED);
    metrics.observeRequest("/v1/cidr-cover", "POST", 429, 0.01);
    metrics.observeRequest("/v1/cidr-cover", "POST", 200, 0.01);
    expect(metrics.snapshot().rateLimited).toBe(1);
  });
});

describe("the admission queue reports depth and OVERLOADED refusals", () => {
  test("waiting goes up and down; a job refused for time counts once", async () => {
    const metrics = new ProcessMetrics(ROUTES, FIXED);
    const observer = {
      waitingChanged: (delta: number) => metrics.admissionWaitingChanged(delta),
      overloaded: () => metrics.overloadedRefusal(),
    };
    const queue = new AdmissionQueue({
      concurrency: 1,
      maxWaitMs: 30,
      maxQueued: 4,
      deadlineMs: 10_000,
      observer,
    });
    let release: () => void = () => {};
    const first = queue.run(() => new Promise<void>((resolve) => (release = resolve)));
    const refused = Promise.allSettled([queue.run(async () => "second"), queue.run(async () => "third")]);
    expect(metrics.snapshot().admissionWaiting).toBe(2);
    for (const outcome of await refused) {
      expect(outcome.status).toBe("rejected");
      expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(HttpError);
    }
    expect(metrics.snapshot().admissionWaiting).toBe(0);
    expect(metrics.snapshot().overloaded).toBe(2);
    const fourth = queue.run(async () => "fourth");
    expect(metrics.snapshot().admissionWaiting).toBe(1);
    release();
    await first;
    expect(await fourth).toBe("fourth");
    expect(metrics.snapshot().admissionWaiting).toBe(0);
    // A job that runs past its deadline (it throws OVERLOADED itself) counts too; other errors do not.
    await expect(
      queue.run(async () => Promise.reject(new HttpError("OVERLOADED", "late"))),
    ).rejects.toThrow();
    await expect(queue.run(async () => Promise.reject(new Error("boom")))).rejects.toThrow();
    expect(metrics.snapshot().overloaded).toBe(3);
  });
});

describe("the sum over processes", () => {
  test("every count, bucket and gauge is the sum of the processes' own", () => {
    const a = new ProcessMetrics(ROUTES, FIXED);
    const b = new ProcessMetrics(ROUTES, FIXED);
    a.observeRequest("/v1/health", "GET", 200, 0.02);
    b.observeRequest("/v1/health", "GET", 200, 3);
    b.observeRequest(null, "GET", 404, 0.1);
    b.beginDraining();
    const total = sumSnapshots([a.snapshot(), b.snapshot()]);
    const text = lines(total);
    expect(text).toContain('network_tools_requests_total{operation="health",method="GET",status="200"} 2');
    expect(text).toContain('network_tools_requests_total{operation="unmatched",method="GET",status="404"} 1');
    expect(text).toContain('network_tools_request_duration_seconds_count{operation="health"} 2');
    expect(text).toContain(
      'network_tools_request_duration_seconds_bucket{operation="health",le="0.00005"} 1',
    );
    expect(text).toContain('network_tools_request_duration_seconds_bucket{operation="health",le="0.0025"} 1');
    expect(text).toContain('network_tools_request_duration_seconds_bucket{operation="health",le="0.005"} 2');
    expect(text).toContain("network_tools_draining 1");
    expect(text).toContain("network_tools_processes 2");
    expect(text).toContain("process_cpu_seconds_total 3");
    expect(text).toContain("process_resident_memory_bytes 2000");
  });

  test("summing is order-free and the empty sum is neutral", () => {
    const a = new ProcessMetrics(ROUTES, FIXED);
    const b = new ProcessMetrics(ROUTES, FIXED);
    a.observeRequest("/v1/cidr-cover", "POST", 400, 0.2);
    b.observeRequest("/v1/health", "GET", 200, 0.02);
    expect(renderExposition(sumSnapshots([a.snapshot(), b.snapshot()]))).toBe(
      renderExposition(sumSnapshots([b.snapshot(), sumSnapshots([]), a.snapshot()])),
    );
  });

  test("the exposition declares each family once with HELP and TYPE", () => {
    const text = renderExposition(new ProcessMetrics(ROUTES, FIXED).snapshot());
    const types = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((match) => match[1]);
    expect(new Set(types).size).toBe(types.length);
    expect(types).toContain("network_tools_request_duration_seconds");
    expect(text.endsWith("\n")).toBe(true);
  });
});
