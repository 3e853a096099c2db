/**
 * What counting a request costs on the hot path (docs/decisions/0024-metrics.md): the metrics
 * hook of src/process/metrics.ts per request, in nanoseconds, beside the same work done with
 * prom-client when it is installed (it is not a dependency of the project: install it in a
 * scratch folder and pass PROM_CLIENT=<path to its index.js>).
 *
 *   node_modules/.bin/bun bench/metrics-micro.ts [iterations]
 */
import { LATENCY_BUCKETS_SECONDS, ProcessMetrics } from "../src/process/metrics.ts";

const iterations = Number(process.argv[2] ?? 2_000_000);
const routes = new Map([
  ["/v1/health", "health"],
  ["/v1/cidr-cover", "cidrCover"],
  ["/v1/range-to-cidrs", "rangeToCidrs"],
]);
const traffic: [string | null, string, number, number][] = [
  ["/v1/health", "GET", 200, 0.021],
  ["/v1/range-to-cidrs", "POST", 200, 0.034],
  ["/v1/cidr-cover", "POST", 400, 0.05],
  [null, "GET", 404, 0.012],
];

function timeNs(label: string, run: (i: number) => void): number {
  for (let i = 0; i < 200_000; i++) run(i); // warm-up
  const start = Bun.nanoseconds();
  for (let i = 0; i < iterations; i++) run(i);
  const perCall = (Bun.nanoseconds() - start) / iterations;
  console.log(`${label.padEnd(34)} ${perCall.toFixed(1)} ns per request`);
  return perCall;
}

const ours = new ProcessMetrics(routes);
timeNs("hand-written (ProcessMetrics)", (i) => {
  const [route, method, status, ms] = traffic[i & 3] as [string | null, string, number, number];
  ours.observeRequest(route, method, status, ms);
});
const snapshotStart = Bun.nanoseconds();
for (let i = 0; i < 1000; i++) ours.snapshot();
console.log(
  `${"snapshot (per scrape)".padEnd(34)} ${((Bun.nanoseconds() - snapshotStart) / 1000 / 1000).toFixed(1)} µs`,
);

const promPath = process.env.PROM_CLIENT;
if (promPath !== undefined) {
  /** The few prom-client calls used here (it is not installed in the project, so no types). */
  interface PromClient {
    Registry: new () => { metrics(): Promise<string> };
    Counter: new (options: Record<string, unknown>) => { inc(labels: Record<string, string>): void };
    Histogram: new (
      options: Record<string, unknown>,
    ) => { observe(labels: Record<string, string>, value: number): void };
  }
  const prom = (await import(promPath)) as PromClient;
  const registry = new prom.Registry();
  const counter = new prom.Counter({
    name: "requests_total",
    help: "h",
    labelNames: ["operation", "method", "status"],
    registers: [registry],
  });
  const histogram = new prom.Histogram({
    name: "duration_seconds",
    help: "h",
    labelNames: ["operation"],
    buckets: [...LATENCY_BUCKETS_SECONDS],
    registers: [registry],
  });
  const ids = ["health", "rangeToCidrs", "cidrCover", "unmatched"];
  timeNs("prom-client (Counter + Histogram)", (i) => {
    const [, method, status, ms] = traffic[i & 3] as [string | null, string, number, number];
    const operation = ids[i & 3] as string;
    counter.inc({ operation, method, status: String(status) });
    histogram.observe({ operation }, ms / 1000);
  });
  const renderStart = Bun.nanoseconds();
  for (let i = 0; i < 100; i++) await registry.metrics();
  console.log(
    `${"prom-client registry.metrics()".padEnd(34)} ${((Bun.nanoseconds() - renderStart) / 100 / 1000).toFixed(1)} µs`,
  );
}
