/**
 * Soak test (issue 7, item 3): a bounded mixed workload against the real server on loopback.
 *
 *   bun scripts/soak.ts                      # 60 s, starts its own server on 127.0.0.1
 *   bun scripts/soak.ts --seconds 300 --json soak.json
 *   bun scripts/soak.ts --url http://127.0.0.1:3000 --pid 1234   # a server you started
 *
 * Every endpoint, good and bad requests, each with the one status it must get. Reports total
 * requests, counts by status, unexpected answers (wrong status or a transport error), latency
 * percentiles, the server's RSS (VmRSS from /proc/<pid>/status) at start, after warm-up and at
 * the end, and error-level log lines. It stops by itself (duration and --max-requests), stops
 * the server it started, and exits 1 when there were unexpected answers or RSS grew more than
 * --max-rss-growth percent after warm-up. Only loopback targets are accepted.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..");

// ---------------------------------------------------------------------------------------------
// Options

interface Options {
  seconds: number;
  warmupSeconds: number;
  concurrency: number;
  maxRequests: number;
  url: string | null;
  pid: number | null;
  json: string | null;
  maxRssGrowth: number;
  seed: number;
}

function usage(message?: string): never {
  if (message) process.stderr.write(`soak: ${message}\n`);
  process.stderr.write(
    "usage: bun scripts/soak.ts [--seconds 60] [--warmup S] [--concurrency 16] [--max-requests N]\n" +
      "                           [--url http://127.0.0.1:PORT [--pid PID]] [--json FILE]\n" +
      "                           [--max-rss-growth 10] [--seed 1]\n",
  );
  process.exit(2);
}

function parseOptions(argv: string[]): Options {
  const options: Options = {
    seconds: 60,
    warmupSeconds: -1,
    concurrency: 16,
    maxRequests: 50_000_000,
    url: null,
    pid: null,
    json: null,
    maxRssGrowth: 10,
    seed: 1,
  };
  const number = (name: string, raw: string | undefined, min: number, max: number): number => {
    const value = Number(raw);
    if (raw === undefined || !Number.isFinite(value) || value < min || value > max) {
      usage(`${name} must be a number from ${min} to ${max}`);
    }
    return value;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = () => argv[++i];
    if (arg === "--seconds") options.seconds = number(arg, next(), 1, 86_400);
    else if (arg === "--warmup") options.warmupSeconds = number(arg, next(), 0, 3_600);
    else if (arg === "--concurrency") options.concurrency = Math.floor(number(arg, next(), 1, 512));
    else if (arg === "--max-requests") options.maxRequests = Math.floor(number(arg, next(), 1, 1e9));
    else if (arg === "--url") options.url = next() ?? usage("--url needs a value");
    else if (arg === "--pid") options.pid = Math.floor(number(arg, next(), 1, 2 ** 31));
    else if (arg === "--json") options.json = next() ?? usage("--json needs a value");
    else if (arg === "--max-rss-growth") options.maxRssGrowth = number(arg, next(), 0, 1000);
    else if (arg === "--seed") options.seed = Math.floor(number(arg, next(), 0, 2 ** 31));
    else if (arg === "--help" || arg === "-h") usage();
    else usage(`unknown option ${arg}`);
  }
  if (options.warmupSeconds < 0)
    options.warmupSeconds = Math.min(30, Math.max(1, Math.round(options.seconds / 10)));
  if (options.warmupSeconds >= options.seconds) usage("--warmup must be shorter than --seconds");
  if (options.url !== null) {
    let parsed: URL;
    try {
      parsed = new URL(options.url);
    } catch {
      usage(`--url is not a URL: ${options.url}`);
    }
    if (parsed.protocol !== "http:" || !["127.0.0.1", "localhost", "[::1]"].includes(parsed.hostname)) {
      usage("--url must be http:// on 127.0.0.1, localhost or [::1] (loopback only)");
    }
    options.url = parsed.origin;
  }
  return options;
}

// ---------------------------------------------------------------------------------------------
// The workload: request templates with the status each must get

/** Deterministic PRNG (mulberry32), so a run can be repeated. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface Template {
  name: string;
  weight: number;
  expect: number;
  make(random: () => number): {
    method: string;
    path: string;
    headers?: Record<string, string>;
    body?: BodyInit;
  };
}

const JSON_TYPE = { "content-type": "application/json" };
const post = (path: string, body: unknown) => ({
  method: "POST",
  path,
  headers: JSON_TYPE,
  body: typeof body === "string" ? body : JSON.stringify(body),
});

function benchBody(name: string): string {
  const path = join(ROOT, "bench", "data", `${name}.json`);
  if (!existsSync(path)) throw new Error(`missing ${path}`);
  return readFileSync(path, "utf8");
}

function templates(): Template[] {
  const int = (random: () => number, n: number) => Math.floor(random() * n);
  const v4 = (random: () => number) => `10.${int(random, 256)}.${int(random, 256)}.${int(random, 256)}`;
  const v6 = (random: () => number) =>
    `2001:db8:${int(random, 65536).toString(16)}:${int(random, 65536).toString(16)}::${int(random, 65536).toString(16)}`;
  const chain3 = benchBody("cert-chain-3");
  const bundle16 = benchBody("cert-bundle-16");
  const cover1000 = benchBody("cover-1000");
  const subtract1000 = benchBody("subtract-1000");
  const privateKey =
    "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIBD1zZ3Pw1yc1S2QkM5D8vWQm3jJm8sX1hdxJ6bKq8Vr\n-----END PRIVATE KEY-----\n";
  const tooLarge = {
    include: ["10.0.0.0/8"],
    exclude: Array.from({ length: 999 }, (_, i) => `10.${i & 255}.${(i >> 8) * 60 + 1}.${(i * 37) & 255}`),
  };
  return [
    { name: "health", weight: 3, expect: 200, make: () => ({ method: "GET", path: "/v1/health" }) },
    { name: "health-head", weight: 1, expect: 200, make: () => ({ method: "HEAD", path: "/v1/health" }) },
    { name: "public-ip", weight: 2, expect: 200, make: () => ({ method: "GET", path: "/v1/public-ip" }) },
    {
      name: "public-ip-text",
      weight: 1,
      expect: 200,
      make: () => ({ method: "GET", path: "/v1/public-ip", headers: { accept: "text/plain" } }),
    },
    {
      name: "cover-v4",
      weight: 4,
      expect: 200,
      make: (r) => post("/v1/cidr-cover", { inputs: Array.from({ length: 1 + int(r, 20) }, () => v4(r)) }),
    },
    {
      name: "cover-v6",
      weight: 2,
      expect: 200,
      make: (r) =>
        post("/v1/cidr-cover", {
          inputs: Array.from({ length: 1 + int(r, 20) }, () => `${v6(r)}/${64 + int(r, 65)}`),
        }),
    },
    { name: "cover-1000", weight: 1, expect: 200, make: () => post("/v1/cidr-cover", cover1000) },
    {
      name: "cover-mixed",
      weight: 1,
      expect: 400,
      make: (r) => post("/v1/cidr-cover", { inputs: [v4(r), v6(r)] }),
    },
    {
      name: "cover-invalid",
      weight: 1,
      expect: 400,
      make: (r) => post("/v1/cidr-cover", { inputs: [v4(r), "10.0.0.256", "010.1.1.1"] }),
    },
    {
      name: "subtract",
      weight: 3,
      expect: 200,
      make: (r) =>
        post("/v1/cidr-subtract", {
          include: [`10.${int(r, 256)}.0.0/16`],
          exclude: Array.from({ length: int(r, 30) }, () => `${v4(r)}/${20 + int(r, 13)}`),
        }),
    },
    { name: "subtract-1000", weight: 1, expect: 200, make: () => post("/v1/cidr-subtract", subtract1000) },
    { name: "subtract-too-large", weight: 1, expect: 400, make: () => post("/v1/cidr-subtract", tooLarge) },
    {
      name: "range-v4",
      weight: 3,
      expect: 200,
      make: (r) => {
        const a = int(r, 2 ** 32);
        const b = a + int(r, 2 ** 32 - a);
        const text = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".");
        return post("/v1/range-to-cidrs", { start: text(a), end: text(b) });
      },
    },
    {
      name: "range-v6-worst",
      weight: 1,
      expect: 200,
      make: () =>
        post("/v1/range-to-cidrs", { start: "::1", end: "ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe" }),
    },
    {
      name: "range-reversed",
      weight: 1,
      expect: 400,
      make: () => post("/v1/range-to-cidrs", { start: "10.0.0.9", end: "10.0.0.1" }),
    },
    { name: "cert-chain-3", weight: 2, expect: 200, make: () => post("/v1/certificate-bundle", chain3) },
    { name: "cert-bundle-16", weight: 1, expect: 200, make: () => post("/v1/certificate-bundle", bundle16) },
    {
      name: "cert-garbage",
      weight: 1,
      expect: 400,
      make: () =>
        post("/v1/certificate-bundle", {
          pem: "-----BEGIN CERTIFICATE-----\n!!!\n-----END CERTIFICATE-----",
        }),
    },
    {
      name: "cert-private-key",
      weight: 1,
      expect: 400,
      make: () => post("/v1/certificate-bundle", { pem: privateKey }),
    },
    { name: "invalid-json", weight: 1, expect: 400, make: () => post("/v1/range-to-cidrs", '{"start":') },
    { name: "empty-body", weight: 1, expect: 400, make: () => post("/v1/cidr-cover", "") },
    {
      name: "invalid-utf8",
      weight: 1,
      expect: 400,
      make: () => ({
        method: "POST",
        path: "/v1/cidr-cover",
        headers: JSON_TYPE,
        body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
      }),
    },
    {
      name: "deep-nesting",
      weight: 1,
      expect: 400,
      make: () => post("/v1/cidr-cover", `${"[".repeat(20_000)}${"]".repeat(20_000)}`),
    },
    {
      name: "wrong-media-type",
      weight: 1,
      expect: 415,
      make: () => ({
        method: "POST",
        path: "/v1/cidr-cover",
        headers: { "content-type": "text/plain" },
        body: "{}",
      }),
    },
    { name: "too-large", weight: 1, expect: 413, make: () => post("/v1/cidr-cover", " ".repeat(70_000)) },
    { name: "not-found", weight: 1, expect: 404, make: () => ({ method: "GET", path: "/v1/nothing-here" }) },
    {
      name: "wrong-method",
      weight: 1,
      expect: 405,
      make: () => ({ method: "DELETE", path: "/v1/cidr-cover" }),
    },
    {
      name: "preflight",
      weight: 1,
      expect: 204,
      make: () => ({
        method: "OPTIONS",
        path: "/v1/certificate-bundle",
        headers: { origin: "https://example.com", "access-control-request-method": "POST" },
      }),
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// Measurement

/** Log-scale latency histogram: 1 % wide buckets from 10 µs, so memory does not grow with time. */
class Histogram {
  private readonly counts = new Float64Array(2_000);
  private total = 0;
  private maxMs = 0;
  add(ms: number): void {
    const index =
      ms <= 0.01 ? 0 : Math.min(this.counts.length - 1, Math.ceil(Math.log(ms / 0.01) / Math.log(1.01)));
    this.counts[index]! += 1;
    this.total++;
    if (ms > this.maxMs) this.maxMs = ms;
  }
  get count(): number {
    return this.total;
  }
  percentile(p: number): number {
    if (this.total === 0) return 0;
    const rank = Math.ceil((p / 100) * this.total);
    let seen = 0;
    for (let i = 0; i < this.counts.length; i++) {
      seen += this.counts[i]!;
      if (seen >= rank) return Math.min(this.maxMs, 0.01 * 1.01 ** i);
    }
    return this.maxMs;
  }
  get max(): number {
    return this.maxMs;
  }
}

function rssKiB(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// The server (when we start it)

interface Started {
  url: string;
  pid: number;
  errorLines: () => number;
  logLines: () => number;
  accessLines: () => number;
  stop(): Promise<number>;
}

async function startServer(): Promise<Started> {
  const child = Bun.spawn([process.execPath, join(ROOT, "src", "main.ts")], {
    cwd: ROOT,
    env: { ...process.env, HOST: "127.0.0.1", PORT: "0", WORKERS: "1", RATE_LIMIT_PER_MINUTE: "" },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "inherit",
  });
  let errors = 0;
  let lines = 0;
  let access = 0;
  let resolvePort: (port: number) => void = () => {};
  const port = new Promise<number>((resolve) => {
    resolvePort = resolve;
  });
  void (async () => {
    const decoder = new TextDecoder();
    let pending = "";
    for await (const chunk of child.stdout) {
      pending += decoder.decode(chunk, { stream: true });
      let newline = pending.indexOf("\n");
      while (newline !== -1) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        lines++;
        if (line.includes('"level":"error"')) errors++;
        if (line.includes('"msg":"request"')) access++;
        if (line.includes('"msg":"listening"')) {
          const match = /"port":(\d+)/.exec(line);
          if (match) resolvePort(Number(match[1]));
        }
        newline = pending.indexOf("\n");
      }
    }
  })();
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error("no port within 15 s")), 15_000),
  );
  const early = child.exited.then((code) => Promise.reject(new Error(`server exited early (${code})`)));
  const listening = await Promise.race([port, timeout, early]);
  return {
    url: `http://127.0.0.1:${listening}`,
    pid: child.pid,
    errorLines: () => errors,
    logLines: () => lines,
    accessLines: () => access,
    async stop() {
      child.kill("SIGTERM");
      const forced = setTimeout(() => child.kill("SIGKILL"), 15_000);
      const code = await child.exited;
      clearTimeout(forced);
      return code;
    },
  };
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  const started = options.url === null ? await startServer() : null;
  const url = started?.url ?? options.url!;
  const pid = started?.pid ?? options.pid;
  const all = templates();
  const totalWeight = all.reduce((sum, t) => sum + t.weight, 0);
  const random = prng(options.seed);
  const pick = (): Template => {
    let x = random() * totalWeight;
    for (const t of all) {
      x -= t.weight;
      if (x < 0) return t;
    }
    return all[all.length - 1]!;
  };

  const byStatus = new Map<string, number>();
  const byTemplate = new Map<string, { count: number; unexpected: number; latency: Histogram }>();
  const latency = new Histogram();
  const unexpectedSamples: string[] = [];
  let unexpected = 0;
  let sent = 0;

  const rss: { atStart: number | null; afterWarmup: number | null; atEnd: number | null; max: number } = {
    atStart: pid === null ? null : rssKiB(pid),
    afterWarmup: null,
    atEnd: null,
    max: 0,
  };
  const startedAt = performance.now();
  const deadline = startedAt + options.seconds * 1000;
  const warmupEnd = startedAt + options.warmupSeconds * 1000;
  let warmupRequests = 0;
  const sampler = setInterval(() => {
    if (pid === null) return;
    const now = rssKiB(pid);
    if (now !== null) rss.max = Math.max(rss.max, now);
    if (rss.afterWarmup === null && performance.now() >= warmupEnd) {
      rss.afterWarmup = now;
      warmupRequests = sent;
    }
  }, 250);
  const progress = setInterval(() => {
    const elapsed = Math.round((performance.now() - startedAt) / 1000);
    const now = pid === null ? "?" : rssKiB(pid);
    process.stderr.write(`soak: ${elapsed}s ${sent} requests, ${unexpected} unexpected, RSS ${now} KiB\n`);
  }, 15_000);

  const worker = async (): Promise<void> => {
    while (performance.now() < deadline && sent < options.maxRequests) {
      const template = pick();
      const request = template.make(random);
      sent++;
      const begin = performance.now();
      let status: string;
      try {
        const response = await fetch(url + request.path, {
          method: request.method,
          headers: request.headers,
          body: request.body,
          signal: AbortSignal.timeout(10_000),
        });
        await response.arrayBuffer();
        status = String(response.status);
      } catch (error) {
        status = `transport error (${(error as Error).name})`;
      }
      const ms = performance.now() - begin;
      latency.add(ms);
      byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
      const stats = byTemplate.get(template.name) ?? { count: 0, unexpected: 0, latency: new Histogram() };
      stats.count++;
      stats.latency.add(ms);
      if (status !== String(template.expect)) {
        unexpected++;
        stats.unexpected++;
        if (unexpectedSamples.length < 20)
          unexpectedSamples.push(`${template.name}: expected ${template.expect}, got ${status}`);
      }
      byTemplate.set(template.name, stats);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  clearInterval(sampler);
  clearInterval(progress);
  const elapsedSeconds = (performance.now() - startedAt) / 1000;
  if (pid !== null) rss.atEnd = rssKiB(pid);
  if (rss.atEnd !== null) rss.max = Math.max(rss.max, rss.atEnd);

  // A settled probe after the load: the server must still answer.
  const after = await fetch(`${url}/v1/health`).then(
    (r) => r.status,
    () => 0,
  );
  await Bun.sleep(200); // let the last log lines arrive
  const exitCode = started ? await started.stop() : null;

  const growth =
    rss.afterWarmup !== null && rss.atEnd !== null
      ? ((rss.atEnd - rss.afterWarmup) / rss.afterWarmup) * 100
      : null;
  const round = (n: number) => Math.round(n * 100) / 100;
  const report = {
    date: new Date().toISOString(),
    bun: Bun.version,
    target: started ? "started by soak.ts (127.0.0.1, WORKERS=1)" : url,
    seconds: round(elapsedSeconds),
    warmupSeconds: options.warmupSeconds,
    concurrency: options.concurrency,
    seed: options.seed,
    requests: sent,
    requestsAfterWarmup: sent - warmupRequests,
    requestsPerSecond: Math.round(sent / elapsedSeconds),
    byStatus: Object.fromEntries([...byStatus].sort()),
    unexpected,
    unexpectedSamples,
    latencyMs: {
      p50: round(latency.percentile(50)),
      p99: round(latency.percentile(99)),
      p999: round(latency.percentile(99.9)),
      max: round(latency.max),
    },
    byWorkload: Object.fromEntries(
      [...byTemplate]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, s]) => [
          name,
          { requests: s.count, unexpected: s.unexpected, p99Ms: round(s.latency.percentile(99)) },
        ]),
    ),
    rssKiB: rss,
    rssGrowthAfterWarmupPercent: growth === null ? null : round(growth),
    errorLogLines: started?.errorLines() ?? null,
    logLines: started?.logLines() ?? null,
    /** One per request: the load plus the health probe after it. */
    accessLogLines: started?.accessLines() ?? null,
    healthAfterLoad: after,
    serverExitCode: exitCode,
  };
  const text = JSON.stringify(report, null, 2);
  process.stdout.write(`${text}\n`);
  if (options.json) writeFileSync(options.json, `${text}\n`);

  const failures: string[] = [];
  if (unexpected > 0) failures.push(`${unexpected} unexpected answers`);
  if (growth !== null && growth > options.maxRssGrowth)
    failures.push(`RSS grew ${round(growth)} % after warm-up (limit ${options.maxRssGrowth} %)`);
  if ((started?.errorLines() ?? 0) > 0) failures.push(`${started?.errorLines()} error-level log lines`);
  if (after !== 200) failures.push(`health after the load answered ${after}`);
  if (started && started.accessLines() !== sent + 1)
    failures.push(`${started.accessLines()} access-log lines for ${sent + 1} requests`);
  if (exitCode !== null && exitCode !== 0) failures.push(`server exit code ${exitCode}`);
  for (const failure of failures) process.stderr.write(`soak: FAIL: ${failure}\n`);
  if (failures.length === 0) process.stderr.write("soak: PASS\n");
  return failures.length === 0 ? 0 : 1;
}

process.exit(await main());
