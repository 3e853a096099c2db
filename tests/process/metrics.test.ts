/**
 * The metrics counters, their sum over processes and the exposition (CONTRACT §6), without
 * sockets; the real process is tested in tests/e2e/metrics.test.ts.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { AdmissionQueue } from "../../src/adapters/http/admission.ts";
import { HttpError } from "../../src/contract/errors.ts";
import {
  emptySnapshot,
  LATENCY_BUCKETS_SECONDS,
  type MetricsSnapshot,
  ProcessMetrics,
  type ProcessSampler,
  renderExposition,
  sumSnapshots,
  WorkerMetricsLedger,
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

/** Every counter sample of an exposition (requests, histogram buckets/sums/counts, refusals, CPU). */
function counterSamples(snapshot: MetricsSnapshot): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of lines(snapshot)) {
    const match = /^(\S+) (\S+)$/.exec(line);
    if (match === null || line.startsWith("#")) continue;
    const name = match[1] as string;
    if (
      /^(network_tools_requests_total|network_tools_request_duration_seconds|network_tools_\w+_total|process_cpu_seconds_total)/.test(
        name,
      )
    )
      samples.set(name, Number(match[2]));
  }
  return samples;
}

const SUPERVISOR: MetricsSnapshot = { ...emptySnapshot(), cpuSeconds: 0.25, residentBytes: 7, processes: 1 };

describe("the supervisor's ledger: workers that die or are replaced keep their counts in the sum", () => {
  test("an exited worker's counters stay; its gauges and its place in the process count leave", () => {
    const ledger = new WorkerMetricsLedger();
    const a = new ProcessMetrics(ROUTES, FIXED);
    const b = new ProcessMetrics(ROUTES, FIXED);
    ledger.started(1);
    ledger.started(2);
    a.observeRequest("/v1/health", "GET", 200, 0.02);
    a.observeRequest("/v1/health", "GET", 429, 0.02);
    a.overloadedRefusal();
    a.admissionWaitingChanged(3);
    a.beginDraining();
    b.observeRequest("/v1/health", "GET", 200, 0.02);
    ledger.answered(1, 1, a.snapshot());
    ledger.answered(2, 2, b.snapshot());
    const before = lines(ledger.total(SUPERVISOR));
    expect(before).toContain('network_tools_requests_total{operation="health",method="GET",status="200"} 2');
    expect(before).toContain("network_tools_processes 3");
    expect(before).toContain("network_tools_admission_queue_waiting 3");
    expect(before).toContain("network_tools_draining 1");
    ledger.exited(1);
    ledger.started(3); // its replacement, which has counted nothing yet
    const after = lines(ledger.total(SUPERVISOR));
    expect(after).toContain('network_tools_requests_total{operation="health",method="GET",status="200"} 2');
    expect(after).toContain('network_tools_requests_total{operation="health",method="GET",status="429"} 1');
    expect(after).toContain('network_tools_request_duration_seconds_count{operation="health"} 3');
    expect(after).toContain("network_tools_overloaded_total 1");
    expect(after).toContain("network_tools_rate_limited_total 1");
    expect(after).toContain("process_cpu_seconds_total 3.25"); // both workers' 1.5 s and the supervisor's
    expect(after).toContain("network_tools_processes 2");
    expect(after).toContain("network_tools_admission_queue_waiting 0");
    expect(after).toContain("network_tools_draining 0");
    expect(after).toContain("process_resident_memory_bytes 1007");
  });

  test("an older answer never replaces a newer one; answers from unknown or exited workers and non-snapshots are ignored", () => {
    const ledger = new WorkerMetricsLedger();
    const metrics = new ProcessMetrics(ROUTES, FIXED);
    ledger.started(1);
    const early = metrics.snapshot();
    metrics.observeRequest("/v1/health", "GET", 200, 0.02);
    ledger.answered(1, 5, metrics.snapshot());
    ledger.answered(1, 4, early); // a late answer to an older poll
    ledger.answered(1, 6, { requests: "not rows" });
    ledger.answered(1, 7, { ...metrics.snapshot(), requests: [["health", "GET", "200", 1]] });
    ledger.answered(9, 8, metrics.snapshot()); // never started
    const health = 'network_tools_requests_total{operation="health",method="GET",status="200"}';
    expect(lines(ledger.total(SUPERVISOR))).toContain(`${health} 1`);
    ledger.exited(1);
    metrics.observeRequest("/v1/health", "GET", 200, 0.02);
    ledger.answered(1, 9, metrics.snapshot()); // sent before the exit, read after it
    ledger.exited(1);
    expect(lines(ledger.total(SUPERVISOR))).toContain(`${health} 1`);
    expect(lines(ledger.total(SUPERVISOR))).toContain("network_tools_processes 1");
  });

  test("property: across any starts, requests, polls (some answered late) and exits, no counter goes down, and the sum is every worker's newest answer", () => {
    type Step =
      | { kind: "start" }
      | { kind: "request"; worker: number; status: number }
      | { kind: "poll"; worker: number; deliverLate: boolean }
      | { kind: "deliver" }
      | { kind: "exit"; worker: number };
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.constant<Step>({ kind: "start" }),
      fc.record({
        kind: fc.constant("request" as const),
        worker: fc.nat(5),
        status: fc.constantFrom(200, 400, 429),
      }),
      fc.record({ kind: fc.constant("poll" as const), worker: fc.nat(5), deliverLate: fc.boolean() }),
      fc.constant<Step>({ kind: "deliver" }),
      fc.record({ kind: fc.constant("exit" as const), worker: fc.nat(5) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const ledger = new WorkerMetricsLedger();
        const live: { id: number; metrics: ProcessMetrics; requests: number }[] = [];
        /** Model: worker id → requests counted at its newest accepted answer. */
        const newest = new Map<number, { sequence: number; requests: number }>();
        const late: { id: number; sequence: number; snapshot: MetricsSnapshot; requests: number }[] = [];
        let ids = 0;
        let sequence = 0;
        let previous = counterSamples(ledger.total(SUPERVISOR));
        const accept = (id: number, at: number, snapshot: MetricsSnapshot, requests: number): void => {
          ledger.answered(id, at, snapshot);
          const kept = newest.get(id);
          if (live.some((worker) => worker.id === id) && (kept === undefined || kept.sequence < at))
            newest.set(id, { sequence: at, requests });
        };
        for (const next of steps) {
          const worker = "worker" in next ? live[next.worker % Math.max(live.length, 1)] : undefined;
          if (next.kind === "start") {
            ids += 1;
            ledger.started(ids);
            live.push({ id: ids, metrics: new ProcessMetrics(ROUTES, FIXED), requests: 0 });
          } else if (next.kind === "request" && worker !== undefined) {
            worker.metrics.observeRequest("/v1/health", "GET", next.status, 0.02);
            worker.requests += 1;
          } else if (next.kind === "poll" && worker !== undefined) {
            sequence += 1;
            const answer = {
              id: worker.id,
              sequence,
              snapshot: worker.metrics.snapshot(),
              requests: worker.requests,
            };
            if (next.deliverLate) late.push(answer);
            else accept(answer.id, answer.sequence, answer.snapshot, answer.requests);
          } else if (next.kind === "deliver") {
            const answer = late.shift();
            if (answer !== undefined) accept(answer.id, answer.sequence, answer.snapshot, answer.requests);
          } else if (next.kind === "exit" && worker !== undefined) {
            ledger.exited(worker.id);
            live.splice(live.indexOf(worker), 1);
          }
          const total = ledger.total(SUPERVISOR);
          const now = counterSamples(total);
          for (const [name, value] of previous) expect(now.get(name) ?? 0).toBeGreaterThanOrEqual(value);
          previous = now;
          const counted = total.requests.reduce((sum, row) => sum + row[3], 0);
          expect(counted).toBe([...newest.values()].reduce((sum, kept) => sum + kept.requests, 0));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("the fleet's metrics (CONTRACT §11)", () => {
  test("the rate-limit store's round trips and errors, summed over workers; absent when no store is used", () => {
    const a = new ProcessMetrics(ROUTES, FIXED);
    const b = new ProcessMetrics(ROUTES, FIXED);
    expect(lines(a.snapshot()).some((line) => line.includes("rate_limit_store"))).toBe(false);
    a.rateLimitStoreRoundTrip(0.0004);
    a.rateLimitStoreRoundTrip(0.003);
    b.rateLimitStoreRoundTrip(0.05);
    b.rateLimitStoreError();
    const total = lines(sumSnapshots([a.snapshot(), b.snapshot()]));
    expect(total).toContain('network_tools_rate_limit_store_seconds_bucket{le="0.0005"} 1');
    expect(total).toContain('network_tools_rate_limit_store_seconds_bucket{le="0.005"} 2');
    expect(total).toContain('network_tools_rate_limit_store_seconds_bucket{le="+Inf"} 3');
    expect(total).toContain("network_tools_rate_limit_store_seconds_count 3");
    expect(total).toContain("network_tools_rate_limit_store_errors_total 1");
    expect(total).toContain("# TYPE network_tools_rate_limit_store_errors_total counter");
  });

  test("a gone worker's store counters stay in the ledger's sum; its GeoIP gauge leaves", () => {
    const ledger = new WorkerMetricsLedger();
    const worker = new ProcessMetrics(ROUTES, FIXED);
    worker.rateLimitStoreError();
    worker.geoipBuildTimes([["GEOIP_ASN_DB", 1_788_220_800]]);
    ledger.started(1);
    ledger.answered(1, 1, worker.snapshot());
    expect(lines(ledger.total(emptySnapshot()))).toContain(
      'network_tools_geoip_build_timestamp_seconds{variable="GEOIP_ASN_DB"} 1788220800',
    );
    ledger.exited(1);
    const after = lines(ledger.total(emptySnapshot()));
    expect(after).toContain("network_tools_rate_limit_store_errors_total 1");
    expect(after.some((line) => line.includes("geoip_build"))).toBe(false);
  });

  test("GeoIP build times by variable: a gauge, never added up over processes (the newest build is shown)", () => {
    const a = new ProcessMetrics(ROUTES, FIXED);
    const b = new ProcessMetrics(ROUTES, FIXED);
    a.geoipBuildTimes([
      ["GEOIP_ASN_DB", 1_700_000_000],
      ["GEOIP_COUNTRY_DB", 1_700_000_100],
    ]);
    b.geoipBuildTimes([
      ["GEOIP_ASN_DB", 1_700_086_400],
      ["GEOIP_COUNTRY_DB", 1_700_000_100],
    ]);
    const total = lines(sumSnapshots([a.snapshot(), b.snapshot()]));
    expect(total).toContain("# TYPE network_tools_geoip_build_timestamp_seconds gauge");
    expect(total).toContain(
      'network_tools_geoip_build_timestamp_seconds{variable="GEOIP_ASN_DB"} 1700086400',
    );
    expect(total).toContain(
      'network_tools_geoip_build_timestamp_seconds{variable="GEOIP_COUNTRY_DB"} 1700000100',
    );
  });
});
