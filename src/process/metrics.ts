/**
 * Metrics (CONTRACT §6): what one process counts, a plain snapshot of it, the sum of several
 * snapshots (WORKERS=N), the supervisor's ledger that keeps gone workers' counters in that sum,
 * and the Prometheus text exposition of the sum. Written by hand rather
 * than with prom-client: docs/decisions/0024-metrics.md says why and what it costs.
 *
 * Labels hold only closed sets: an operation id of the operations table (or `unmatched`), a
 * method from a fixed list (anything else is `other`), a three-digit status. Never a path, an
 * address, a hostname or anything else a request carries.
 */
import type { Logger } from "./logger.ts";

/** Upper bounds of the latency buckets, in seconds: 50 µs to 10 s, so sub-millisecond answers spread. */
export const LATENCY_BUCKETS_SECONDS: readonly number[] = [
  0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

/** The operation label of a request no operation of the table matched (page, docs, 404s). */
export const UNMATCHED = "unmatched";

/** Methods that become a label value as they are; any other method is counted as `other`. */
const KNOWN_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const OTHER_METHOD = "other";
const METHOD_INDEX = new Map<string, number>(KNOWN_METHODS.map((method, index) => [method, index]));
const METHOD_LABELS: readonly string[] = [...KNOWN_METHODS, OTHER_METHOD];

/** One process's counts, as plain data: what a worker sends its supervisor over IPC. */
export interface MetricsSnapshot {
  /** [operation, method, status, count] */
  requests: [string, string, number, number][];
  /** Per operation: cumulative-free bucket counts (one per bound, then +Inf), count and sum. */
  latency: { operation: string; buckets: number[]; count: number; sumSeconds: number }[];
  admissionWaiting: number;
  overloaded: number;
  rateLimited: number;
  /** 1 while the process drains (after SIGTERM), else 0. */
  draining: number;
  cpuSeconds: number;
  residentBytes: number;
  heapBytes: number;
  /** Processes summed into this snapshot. */
  processes: number;
  /** The shared rate-limit store's round trips (RATE_LIMIT_STORE; CONTRACT §11), when used. */
  rateLimitStore?: StoreSeries;
  /** Each GeoIP database's build time (Unix seconds) by variable; a gauge, the newest wins in a sum. */
  geoipBuild?: [string, number][];
}

/** Round trips to the rate-limit store: a latency histogram (the request buckets) and failures. */
export interface StoreSeries {
  buckets: number[];
  count: number;
  sumSeconds: number;
  errors: number;
}

interface OperationSeries {
  readonly operation: string;
  /** methodIndex * 1000 + status → count */
  readonly counts: Map<number, number>;
  /** One slot per bucket bound, then +Inf; not cumulative (the exposition accumulates). */
  readonly buckets: Float64Array;
  count: number;
  sumSeconds: number;
}

function newSeries(operation: string): OperationSeries {
  return {
    operation,
    counts: new Map(),
    buckets: new Float64Array(LATENCY_BUCKETS_SECONDS.length + 1),
    count: 0,
    sumSeconds: 0,
  };
}

/** Where one process's samples of memory and CPU come from (the runtime by default; tests fake it). */
export interface ProcessSampler {
  cpuSeconds(): number;
  residentBytes(): number;
  heapBytes(): number;
}

export const RUNTIME_SAMPLER: ProcessSampler = {
  cpuSeconds: () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1e6;
  },
  residentBytes: () => process.memoryUsage.rss(),
  heapBytes: () => process.memoryUsage().heapUsed,
};

/**
 * The counters of one process. `observeRequest` runs once per request on the hot path: a map
 * lookup for the operation, one for the (method, status) pair, a scan of 17 bucket bounds.
 */
export class ProcessMetrics {
  private readonly byRoute = new Map<string, OperationSeries>();
  private readonly unmatched = newSeries(UNMATCHED);
  private readonly series: OperationSeries[] = [this.unmatched];
  private admissionWaiting = 0;
  private overloaded = 0;
  private rateLimited = 0;
  private draining = false;
  private store: StoreSeries | undefined;
  private geoipBuild: [string, number][] | undefined;

  /**
   * @param operationOfRoute route path → operation id, for every operation of the table; any
   * other route (the page, the docs) and no route at all count as `unmatched`
   */
  constructor(
    operationOfRoute: ReadonlyMap<string, string>,
    private readonly sampler: ProcessSampler = RUNTIME_SAMPLER,
  ) {
    const byOperation = new Map<string, OperationSeries>();
    for (const [route, operation] of operationOfRoute) {
      let series = byOperation.get(operation);
      if (series === undefined) {
        series = newSeries(operation);
        byOperation.set(operation, series);
        this.series.push(series);
      }
      this.byRoute.set(route, series);
    }
  }

  /** One answered request: `route` as the edge names it (null when no route matched). */
  observeRequest(route: string | null, method: string, status: number, durationMs: number): void {
    const series = (route === null ? undefined : this.byRoute.get(route)) ?? this.unmatched;
    const key = (METHOD_INDEX.get(method) ?? KNOWN_METHODS.length) * 1000 + status;
    series.counts.set(key, (series.counts.get(key) ?? 0) + 1);
    const seconds = durationMs / 1000;
    let bucket = 0;
    while (bucket < LATENCY_BUCKETS_SECONDS.length && seconds > (LATENCY_BUCKETS_SECONDS[bucket] as number))
      bucket++;
    series.buckets[bucket] = (series.buckets[bucket] as number) + 1;
    series.count += 1;
    series.sumSeconds += seconds;
    if (status === 429) this.rateLimited += 1;
  }

  /** Jobs waiting in the admission queue went up or down by `delta`. */
  admissionWaitingChanged(delta: number): void {
    this.admissionWaiting += delta;
  }

  /** A request was refused with 503 OVERLOADED (could not start in time, or ran out of time). */
  overloadedRefusal(): void {
    this.overloaded += 1;
  }

  /** One round trip to the rate-limit store, answered or not, in seconds. */
  rateLimitStoreRoundTrip(seconds: number): void {
    const store = this.storeSeries();
    const bucket = bucketOf(seconds);
    store.buckets[bucket] = (store.buckets[bucket] ?? 0) + 1;
    store.count += 1;
    store.sumSeconds += seconds;
  }

  /** A request allowed because the rate-limit store failed or did not answer in time. */
  rateLimitStoreError(): void {
    this.storeSeries().errors += 1;
  }

  private storeSeries(): StoreSeries {
    this.store ??= {
      buckets: new Array<number>(LATENCY_BUCKETS_SECONDS.length + 1).fill(0),
      count: 0,
      sumSeconds: 0,
      errors: 0,
    };
    return this.store;
  }

  /** The GeoIP databases in use now: variable → build time in Unix seconds. */
  geoipBuildTimes(builds: [string, number][]): void {
    this.geoipBuild = builds;
  }

  /** The process started its graceful stop. */
  beginDraining(): void {
    this.draining = true;
  }

  snapshot(): MetricsSnapshot {
    const requests: MetricsSnapshot["requests"] = [];
    const latency: MetricsSnapshot["latency"] = [];
    for (const series of this.series) {
      for (const [key, count] of series.counts) {
        requests.push([
          series.operation,
          METHOD_LABELS[Math.floor(key / 1000)] ?? OTHER_METHOD,
          key % 1000,
          count,
        ]);
      }
      latency.push({
        operation: series.operation,
        buckets: [...series.buckets],
        count: series.count,
        sumSeconds: series.sumSeconds,
      });
    }
    return {
      requests,
      latency,
      admissionWaiting: this.admissionWaiting,
      overloaded: this.overloaded,
      rateLimited: this.rateLimited,
      draining: this.draining ? 1 : 0,
      ...processSnapshot(this.sampler),
      ...(this.store === undefined
        ? {}
        : { rateLimitStore: { ...this.store, buckets: [...this.store.buckets] } }),
      ...(this.geoipBuild === undefined ? {} : { geoipBuild: this.geoipBuild }),
    };
  }
}

/** The slot of a latency in the buckets (the last one: +Inf). */
function bucketOf(seconds: number): number {
  let bucket = 0;
  while (bucket < LATENCY_BUCKETS_SECONDS.length && seconds > (LATENCY_BUCKETS_SECONDS[bucket] as number))
    bucket++;
  return bucket;
}

/** CPU and memory of this process alone (the supervisor's share when WORKERS > 1). */
export function processSnapshot(
  sampler: ProcessSampler = RUNTIME_SAMPLER,
): Pick<MetricsSnapshot, "cpuSeconds" | "residentBytes" | "heapBytes" | "processes"> {
  return {
    cpuSeconds: sampler.cpuSeconds(),
    residentBytes: sampler.residentBytes(),
    heapBytes: sampler.heapBytes(),
    processes: 1,
  };
}

/** A snapshot with nothing counted and no process: the neutral element of `sumSnapshots`. */
export function emptySnapshot(): MetricsSnapshot {
  return {
    requests: [],
    latency: [],
    admissionWaiting: 0,
    overloaded: 0,
    rateLimited: 0,
    draining: 0,
    cpuSeconds: 0,
    residentBytes: 0,
    heapBytes: 0,
    processes: 0,
  };
}

/** The sum of several processes' snapshots: every count, bucket and gauge added up. */
export function sumSnapshots(snapshots: readonly MetricsSnapshot[]): MetricsSnapshot {
  const total = emptySnapshot();
  const requests = new Map<string, [string, string, number, number]>();
  const latency = new Map<string, MetricsSnapshot["latency"][number]>();
  for (const snapshot of snapshots) {
    for (const [operation, method, status, count] of snapshot.requests) {
      const key = `${operation} ${method} ${status}`;
      const row = requests.get(key);
      if (row === undefined) requests.set(key, [operation, method, status, count]);
      else row[3] += count;
    }
    for (const entry of snapshot.latency) {
      const sum = latency.get(entry.operation);
      if (sum === undefined) {
        latency.set(entry.operation, { ...entry, buckets: [...entry.buckets] });
        continue;
      }
      entry.buckets.forEach((count, index) => {
        sum.buckets[index] = (sum.buckets[index] ?? 0) + count;
      });
      sum.count += entry.count;
      sum.sumSeconds += entry.sumSeconds;
    }
    total.admissionWaiting += snapshot.admissionWaiting;
    total.overloaded += snapshot.overloaded;
    total.rateLimited += snapshot.rateLimited;
    total.draining += snapshot.draining;
    total.cpuSeconds += snapshot.cpuSeconds;
    total.residentBytes += snapshot.residentBytes;
    total.heapBytes += snapshot.heapBytes;
    total.processes += snapshot.processes;
    if (snapshot.rateLimitStore !== undefined) {
      total.rateLimitStore ??= {
        buckets: new Array<number>(LATENCY_BUCKETS_SECONDS.length + 1).fill(0),
        count: 0,
        sumSeconds: 0,
        errors: 0,
      };
      const sum = total.rateLimitStore;
      snapshot.rateLimitStore.buckets.forEach((count, index) => {
        sum.buckets[index] = (sum.buckets[index] ?? 0) + count;
      });
      sum.count += snapshot.rateLimitStore.count;
      sum.sumSeconds += snapshot.rateLimitStore.sumSeconds;
      sum.errors += snapshot.rateLimitStore.errors;
    }
    for (const [variable, seconds] of snapshot.geoipBuild ?? []) {
      total.geoipBuild ??= [];
      const kept = total.geoipBuild.find(([name]) => name === variable);
      if (kept === undefined) total.geoipBuild.push([variable, seconds]);
      else kept[1] = Math.max(kept[1], seconds);
    }
  }
  total.requests = [...requests.values()];
  total.latency = [...latency.values()];
  return total;
}

/**
 * The counters of a snapshot alone: what a process that has gone leaves in the sum. Its gauges
 * (queue depth, drain, memory) and its place in the process count leave with it.
 */
export function countersOf(snapshot: MetricsSnapshot): MetricsSnapshot {
  return {
    ...emptySnapshot(),
    requests: snapshot.requests,
    latency: snapshot.latency,
    overloaded: snapshot.overloaded,
    rateLimited: snapshot.rateLimited,
    cpuSeconds: snapshot.cpuSeconds,
    ...(snapshot.rateLimitStore === undefined ? {} : { rateLimitStore: snapshot.rateLimitStore }),
  };
}

/**
 * What a supervisor knows of its workers' counts (WORKERS=N): the last snapshot each running
 * worker reported, and the counters of every worker that has exited (crashed, killed, replaced).
 * The sum over both never goes down while the service runs: a worker's own counters only grow
 * while it lives, and when it exits its last report moves, unchanged, into the retired part.
 * What a worker counted after its last report is lost with it (the sum stays behind, never
 * ahead). A worker that stops answering (hung, or dead but not yet reaped) keeps its last report.
 *
 * Workers are named by an id the supervisor gives each process it starts (never reused), and
 * reports carry an increasing sequence number (the poll's id): a late answer to an older poll
 * never replaces a newer one, and nothing a worker sends after it is retired is counted twice.
 */
export class WorkerMetricsLedger {
  /** Running workers → their newest report (null until the first one). */
  private readonly running = new Map<number, { sequence: number; snapshot: MetricsSnapshot } | null>();
  private retired: MetricsSnapshot = emptySnapshot();

  /** A worker process was started: its reports count from now on. */
  started(worker: number): void {
    this.running.set(worker, null);
  }

  /** A worker's answer to poll `sequence`; ignored unless it is a snapshot newer than the one kept. */
  answered(worker: number, sequence: number, value: unknown): void {
    if (!this.running.has(worker) || !isSnapshot(value)) return;
    const kept = this.running.get(worker);
    if (kept != null && kept.sequence >= sequence) return;
    this.running.set(worker, { sequence, snapshot: value });
  }

  /** A worker process exited: its counters stay in the sum, its gauges leave it. */
  exited(worker: number): void {
    const kept = this.running.get(worker);
    if (!this.running.delete(worker) || kept == null) return;
    this.retired = sumSnapshots([this.retired, countersOf(kept.snapshot)]);
  }

  /** The service's sum: every worker that ever reported, plus `supervisor` (the supervisor's own share). */
  total(supervisor: MetricsSnapshot): MetricsSnapshot {
    const reports = [...this.running.values()].flatMap((kept) => (kept === null ? [] : [kept.snapshot]));
    return sumSnapshots([this.retired, ...reports, supervisor]);
  }
}

/** Whether a value received over IPC has the shape of a snapshot (a worker's answer is not trusted blindly). */
export function isSnapshot(value: unknown): value is MetricsSnapshot {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  const numbers = [
    "admissionWaiting",
    "overloaded",
    "rateLimited",
    "draining",
    "cpuSeconds",
    "residentBytes",
    "heapBytes",
    "processes",
  ];
  return (
    Array.isArray(record.requests) &&
    record.requests.every(isRequestRow) &&
    Array.isArray(record.latency) &&
    record.latency.every(isLatencyEntry) &&
    numbers.every((name) => typeof record[name] === "number") &&
    (record.rateLimitStore === undefined || isStoreSeries(record.rateLimitStore)) &&
    (record.geoipBuild === undefined ||
      (Array.isArray(record.geoipBuild) &&
        record.geoipBuild.every(
          (row) => Array.isArray(row) && typeof row[0] === "string" && typeof row[1] === "number",
        )))
  );
}

function isRequestRow(row: unknown): boolean {
  return (
    Array.isArray(row) &&
    row.length === 4 &&
    typeof row[0] === "string" &&
    typeof row[1] === "string" &&
    typeof row[2] === "number" &&
    typeof row[3] === "number"
  );
}

function isStoreSeries(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const { buckets, count, sumSeconds, errors } = value as Record<string, unknown>;
  return (
    Array.isArray(buckets) &&
    buckets.length === LATENCY_BUCKETS_SECONDS.length + 1 &&
    buckets.every((bucket) => typeof bucket === "number") &&
    typeof count === "number" &&
    typeof sumSeconds === "number" &&
    typeof errors === "number"
  );
}

function isLatencyEntry(entry: unknown): boolean {
  if (typeof entry !== "object" || entry === null) return false;
  const { operation, buckets, count, sumSeconds } = entry as Record<string, unknown>;
  return (
    typeof operation === "string" &&
    Array.isArray(buckets) &&
    buckets.length === LATENCY_BUCKETS_SECONDS.length + 1 &&
    buckets.every((bucket) => typeof bucket === "number") &&
    typeof count === "number" &&
    typeof sumSeconds === "number"
  );
}

/** A number as Prometheus writes it. */
function sample(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Number.POSITIVE_INFINITY) return "+Inf";
  return String(value);
}

/** Prometheus text exposition format 0.0.4. */
export const EXPOSITION_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/** The Prometheus text exposition (format 0.0.4) of a snapshot. */
export function renderExposition(snapshot: MetricsSnapshot): string {
  const out: string[] = [];
  const family = (name: string, type: string, help: string): void => {
    out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
  };
  family(
    "network_tools_requests_total",
    "counter",
    "Requests answered, by operation of the operations table (unmatched otherwise), method and status.",
  );
  const rows = [...snapshot.requests].sort((a, b) =>
    a[0] === b[0] ? (a[1] === b[1] ? a[2] - b[2] : a[1] < b[1] ? -1 : 1) : a[0] < b[0] ? -1 : 1,
  );
  for (const [operation, method, status, count] of rows)
    out.push(
      `network_tools_requests_total{operation="${operation}",method="${method}",status="${status}"} ${count}`,
    );
  family(
    "network_tools_request_duration_seconds",
    "histogram",
    "Time from a request reaching the edge to its answer being ready, by operation.",
  );
  const latency = [...snapshot.latency].sort((a, b) => (a.operation < b.operation ? -1 : 1));
  for (const entry of latency) {
    let cumulative = 0;
    const label = `operation="${entry.operation}"`;
    LATENCY_BUCKETS_SECONDS.forEach((bound, index) => {
      cumulative += entry.buckets[index] ?? 0;
      out.push(`network_tools_request_duration_seconds_bucket{${label},le="${bound}"} ${cumulative}`);
    });
    cumulative += entry.buckets[LATENCY_BUCKETS_SECONDS.length] ?? 0;
    out.push(`network_tools_request_duration_seconds_bucket{${label},le="+Inf"} ${cumulative}`);
    out.push(`network_tools_request_duration_seconds_sum{${label}} ${sample(entry.sumSeconds)}`);
    out.push(`network_tools_request_duration_seconds_count{${label}} ${entry.count}`);
  }
  const single = (name: string, type: string, help: string, value: number): void => {
    family(name, type, help);
    out.push(`${name} ${sample(value)}`);
  };
  single(
    "network_tools_admission_queue_waiting",
    "gauge",
    "Certificate inspections waiting in the admission queue for a slot.",
    snapshot.admissionWaiting,
  );
  single(
    "network_tools_overloaded_total",
    "counter",
    "Requests refused with 503 OVERLOADED (could not start, or finish, within their deadline).",
    snapshot.overloaded,
  );
  single(
    "network_tools_rate_limited_total",
    "counter",
    "Requests refused with 429 RATE_LIMITED.",
    snapshot.rateLimited,
  );
  single(
    "network_tools_draining",
    "gauge",
    "Server processes in their graceful stop (0 while serving normally).",
    snapshot.draining,
  );
  single(
    "network_tools_processes",
    "gauge",
    "Processes summed into this scrape (workers, plus the supervisor when WORKERS > 1).",
    snapshot.processes,
  );
  single(
    "process_cpu_seconds_total",
    "counter",
    "User and system CPU time of the service's processes, in seconds.",
    snapshot.cpuSeconds,
  );
  single(
    "process_resident_memory_bytes",
    "gauge",
    "Resident memory of the service's processes, in bytes.",
    snapshot.residentBytes,
  );
  single(
    "process_heap_bytes",
    "gauge",
    "JavaScript heap in use by the service's processes, in bytes.",
    snapshot.heapBytes,
  );
  const store = snapshot.rateLimitStore;
  if (store !== undefined) {
    family(
      "network_tools_rate_limit_store_seconds",
      "histogram",
      "Round trips to the shared rate-limit store (RATE_LIMIT_STORE), answered or not.",
    );
    let cumulative = 0;
    LATENCY_BUCKETS_SECONDS.forEach((bound, index) => {
      cumulative += store.buckets[index] ?? 0;
      out.push(`network_tools_rate_limit_store_seconds_bucket{le="${bound}"} ${cumulative}`);
    });
    cumulative += store.buckets[LATENCY_BUCKETS_SECONDS.length] ?? 0;
    out.push(`network_tools_rate_limit_store_seconds_bucket{le="+Inf"} ${cumulative}`);
    out.push(`network_tools_rate_limit_store_seconds_sum ${sample(store.sumSeconds)}`);
    out.push(`network_tools_rate_limit_store_seconds_count ${store.count}`);
    single(
      "network_tools_rate_limit_store_errors_total",
      "counter",
      "Requests allowed because the rate-limit store failed or did not answer within 50 ms (fail-open).",
      store.errors,
    );
  }
  if (snapshot.geoipBuild !== undefined && snapshot.geoipBuild.length > 0) {
    family(
      "network_tools_geoip_build_timestamp_seconds",
      "gauge",
      "Build time (Unix seconds) of the GeoIP database in use, by the variable that names its file.",
    );
    for (const [variable, seconds] of [...snapshot.geoipBuild].sort((a, b) => (a[0] < b[0] ? -1 : 1)))
      out.push(`network_tools_geoip_build_timestamp_seconds{variable="${variable}"} ${sample(seconds)}`);
  }
  return `${out.join("\n")}\n`;
}

/**
 * The hook between the serving edge and the counters: the edge reports every answered request
 * to its logger's `access` (src/adapters/http/application.ts); this logger counts the request, then
 * passes the line on. The edge itself knows nothing of metrics.
 */
export function withRequestMetrics(logger: Logger, metrics: ProcessMetrics): Logger {
  return {
    log: (record) => logger.log(record),
    access(requestId, method, route, status, durationMs, unmatchedPath, clientAddress) {
      metrics.observeRequest(route, method, status, durationMs);
      logger.access(requestId, method, route, status, durationMs, unmatchedPath, clientAddress);
    },
    flush: () => logger.flush(),
  };
}
