/**
 * Runs the service from a validated configuration: one server process, or (WORKERS > 1) a
 * supervisor of worker copies. Used by src/main.ts and by `nettools serve`.
 *
 * Graceful stop (CONTRACT §6), on SIGTERM or SIGINT:
 * 1. For SHUTDOWN_DELAY_MS the server keeps serving normally, but every answer carries
 *    `Connection: close`: the window in which a load balancer stops sending new requests.
 * 2. Drain: still answering (with `Connection: close`) until nothing is in flight and nothing
 *    has arrived for DRAIN_QUIET_MS (at most DRAIN_MAX_LISTEN_MS), so a request a client wrote
 *    on a keep-alive connection just before or during the signal is read and answered, not reset.
 * 3. Bun stops listening and closes the idle connections; the process exits 0.
 * SHUTDOWN_TIMEOUT_MS bounds steps 2–3; past it the remaining connections are closed.
 *
 * With GeoIP databases configured (CONTRACT §8.10), SIGHUP reads their files again while serving.
 * With CERT_WATCH (CONTRACT §10.1), the certificate watcher runs here, in the supervisor when
 * WORKERS > 1 and in the serving process otherwise, never in a worker; its series are added to the
 * metrics listener's scrape, and SIGHUP also starts a pass.
 */
import { createServer } from "node:net";
import type { Server } from "bun";
import {
  type ReferenceRootStore,
  ReferenceRootsFileError,
  rootStoreFromFile,
} from "./adapters/crypto/root-store.ts";
import { GeoipFileError, MaxMindNetworkFacts, reloadLogLines } from "./adapters/geoip/maxmind-databases.ts";
import { RateLimiter, RedisRateLimiter, type RequestLimiter } from "./adapters/http/rate-limit.ts";
import { realCertificateDeps } from "./adapters/real-deps.ts";
import { ProxyAwareClientAddressSource } from "./adapters/system/client-address.ts";
import { buildApp } from "./app.ts";
import { startCertificateWatch } from "./certificate-watch/start.ts";
import type { CertificateWatcher } from "./certificate-watch/watcher.ts";
import type { Config } from "./config.ts";
import { OPERATION_LIST } from "./contract/operations.ts";
import { skippedNotice } from "./domain/certificates/trust-store-file.ts";
import { createJsonLogger } from "./process/logger.ts";
import {
  emptySnapshot,
  ProcessMetrics,
  processSnapshot,
  renderExposition,
  WorkerMetricsLedger,
  withRequestMetrics,
} from "./process/metrics.ts";
import { listenForMetrics } from "./process/metrics-listener.ts";
import {
  answerPolls,
  isWorkerProcess,
  pickFreePort,
  reportReady,
  selfCommand,
  superviseWorkers,
  type WorkerPoll,
  watchParent,
} from "./process/supervisor.ts";

/**
 * Bun's own body limit, far above the API's: a declared `Content-Length` over 64 KiB is refused
 * by the app before any byte is read, with the envelope and the common headers (Bun's own refusal
 * is a bare 413), and an undeclared (chunked) body is counted and cut at 64 KiB while it is read.
 */
const TRANSPORT_BODY_LIMIT = 2 ** 31;
/** How long the drain waits with nothing in flight and nothing arriving before it stops listening. */
export const DRAIN_QUIET_MS = 150;
/**
 * The longest the drain keeps listening when traffic never pauses (clients that honour
 * `Connection: close` reconnect at once): then it stops accepting anyway and finishes what is in
 * flight, well inside SHUTDOWN_TIMEOUT_MS.
 */
export const DRAIN_MAX_LISTEN_MS = 1_000;
const DRAIN_POLL_MS = 10;
/**
 * How often a server started by npm checks that its parent is still there. `npx nettools serve`
 * runs npm exec → `sh -c nettools serve` → bun: npm passes a SIGTERM on to the shell, which dies
 * of it without passing it on, and bun would be left serving, re-parented. A change of parent is
 * that SIGTERM arriving by another road: the server then stops as it does on the signal.
 */
const PARENT_POLL_MS = 250;

/** Whether npm started this process (`npm start`, `npm run`, `npx`): npm sets `npm_command` for its children. */
export function startedByNpm(env: Record<string, string | undefined>): boolean {
  return env.npm_command !== undefined && env.npm_command !== "";
}

/** Exit code for a server that cannot start (busy port, address not available). */
export const START_FAILURE_EXIT_CODE = 2;

export interface RunOptions {
  /** Where start-up lines for a person go when stdout is a terminal. */
  isTerminal: boolean;
}

/** Why a listen failed, in one line a person can act on; never a stack or source text. */
export function describeListenError(error: unknown, host: string, port: number, variable = "PORT"): string {
  const code = (error as { code?: unknown } | null)?.code;
  const where = `${host.includes(":") ? `[${host}]` : host}:${port}`;
  if (code === "EADDRINUSE") {
    return `cannot listen on ${where}: the port is already in use (another server is running there?); choose another with ${variable}=…`;
  }
  if (code === "EADDRNOTAVAIL")
    return `cannot listen on ${where}: that address is not on this machine; check HOST`;
  if (code === "EACCES")
    return `cannot listen on ${where}: permission denied (ports below 1024 need privileges)`;
  const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
  return `cannot listen on ${where}: ${message}`;
}

/**
 * Whether `host:port` can be listened on now: null, or the listen error. The supervisor of
 * WORKERS=N asks once before starting workers (CONTRACT §12), so a busy port is one line and
 * exit 2, as with one process, instead of every worker failing and being restarted. The probe
 * listens exclusively (no SO_REUSEPORT) and closes at once.
 */
export function listenProblem(host: string, port: number): Promise<unknown> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", (error) => resolve(error));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(null)));
  });
}

/** The URLs a person wants first, for the start-up line on a terminal. */
export function startupLine(host: string, port: number): string {
  const shown = host === "0.0.0.0" || host === "::" ? "localhost" : host.includes(":") ? `[${host}]` : host;
  const base = `http://${shown}:${port}`;
  return `Network Tools API listening on ${base} — page ${base}/ · docs ${base}/docs · health ${base}/v1/health\n`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Route path → operation id, for the metrics' `operation` label. */
function operationOfRoute(): Map<string, string> {
  return new Map(OPERATION_LIST.map((operation) => [operation.path, operation.id]));
}

/**
 * Starts the metrics listener when METRICS_PORT is set. Returns the server, null when metrics
 * are off, or the exit code when the port cannot be had (the one line is already written).
 */
function startMetrics(
  config: Config,
  logger: ReturnType<typeof createJsonLogger>,
  render: () => Promise<string>,
): Server<undefined> | null | number {
  if (config.metricsPort === null) return null;
  try {
    const listener = listenForMetrics(config.host, config.metricsPort, render);
    logger.log({ level: "info", msg: "metrics listening", host: config.host, port: listener.port });
    return listener;
  } catch (error) {
    process.stderr.write(
      `network-tools-api: ${describeListenError(error, config.host, config.metricsPort, "METRICS_PORT")}\n`,
    );
    return START_FAILURE_EXIT_CODE;
  }
}

/**
 * Starts serving; resolves with an exit code only when the process should exit (a failed
 * start, a supervisor that finished); a running server keeps the process alive and exits by
 * itself on SIGTERM/SIGINT.
 */
export async function runServer(config: Config, options: RunOptions): Promise<number | "running"> {
  const logger = createJsonLogger(config.logLevel, (chunk) => process.stdout.write(chunk));
  const isWorker = isWorkerProcess(process.env);
  // GeoIP files (CONTRACT §8.10): one that cannot be used stops the start (a supervisor's too).
  let networkFacts: MaxMindNetworkFacts;
  try {
    networkFacts = await MaxMindNetworkFacts.open(config.geoip);
  } catch (error) {
    if (!(error instanceof GeoipFileError)) throw error;
    process.stderr.write(`network-tools-api: configuration error: ${error.message}\n`);
    return START_FAILURE_EXIT_CODE;
  }
  // REFERENCE_ROOTS_FILE (CONTRACT §9.2): a file that cannot replace the built-in store stops the start.
  let referenceRoots: ReferenceRootStore | undefined;
  if (config.referenceRootsFile !== null) {
    try {
      const loaded = rootStoreFromFile(config.referenceRootsFile);
      referenceRoots = loaded.store;
      const notice = skippedNotice(loaded.skippedLabels);
      if (notice !== null && !isWorker) logger.log({ level: "warn", msg: `REFERENCE_ROOTS_FILE: ${notice}` });
    } catch (error) {
      if (!(error instanceof ReferenceRootsFileError)) throw error;
      process.stderr.write(
        `network-tools-api: configuration error: REFERENCE_ROOTS_FILE: ${error.message}\n`,
      );
      return START_FAILURE_EXIT_CODE;
    }
  }
  const reloadsOnHangup = networkFacts.databases().length > 0;
  // The certificate watch (CONTRACT §10.1): one process only, the one that exports the metrics.
  let watcher: CertificateWatcher | null = null;
  if (config.certWatch !== null && !isWorker) {
    const started = await startCertificateWatch(config.certWatch, logger);
    if ("problem" in started) {
      process.stderr.write(`network-tools-api: configuration error: ${started.problem}\n`);
      return START_FAILURE_EXIT_CODE;
    }
    watcher = started;
  }
  const watchedSeries = (): string => watcher?.exposition() ?? "";
  if (config.workers > 1 && !isWorker) {
    // One scrape, the sum over the workers (asked over IPC, gone ones included) and the supervisor itself.
    const ledger = new WorkerMetricsLedger();
    let poll: WorkerPoll = async () => {};
    const metricsListener = startMetrics(config, logger, async () => {
      await poll();
      return renderExposition(ledger.total({ ...emptySnapshot(), ...processSnapshot() })) + watchedSeries();
    });
    if (typeof metricsListener === "number") return metricsListener;
    if (config.port !== 0) {
      const problem = await listenProblem(config.host, config.port);
      if (problem !== null) {
        process.stderr.write(
          `network-tools-api: ${describeListenError(problem, config.host, config.port)}\n`,
        );
        await metricsListener?.stop(true);
        return START_FAILURE_EXIT_CODE;
      }
    }
    const code = await superviseWorkers({
      workers: config.workers,
      host: config.host,
      port: config.port === 0 ? pickFreePort(config.host) : config.port,
      shutdownTimeoutMs: config.shutdownDelayMs + config.shutdownTimeoutMs,
      command: selfCommand(),
      env: process.env,
      forwardHangup: reloadsOnHangup,
      logger,
      output: process.stdout,
      exposePoll: (workerPoll) => {
        poll = workerPoll;
      },
      reports: ledger,
    });
    await metricsListener?.stop(true);
    return code;
  }
  // Metrics are counted only when they can be read: with METRICS_PORT unset nothing is added
  // to the request path. A worker counts, and answers its supervisor's polls; it never listens
  // on METRICS_PORT itself.
  const metrics = config.metricsPort === null ? null : new ProcessMetrics(operationOfRoute());
  let metricsListener: Server<undefined> | null = null;
  if (metrics !== null) {
    if (isWorker) answerPolls(() => metrics.snapshot());
    else {
      const started = startMetrics(
        config,
        logger,
        async () => renderExposition(metrics.snapshot()) + watchedSeries(),
      );
      if (typeof started === "number") return started;
      metricsListener = started;
    }
  }
  const rateLimiter = await rateLimiterOf(config, logger, metrics);
  // Each database's build time for Prometheus (CONTRACT §11), after start and after every reload.
  const exportBuildTimes = () =>
    metrics?.geoipBuildTimes(
      networkFacts.databases().map((database) => [database.variable, builtAtSeconds(database.builtAt)]),
    );
  exportBuildTimes();
  let server: Server<undefined> | null = null;
  const clientAddress = new ProxyAwareClientAddressSource(
    (request) => server?.requestIP(request)?.address ?? null,
    config.trustedProxies,
    config.trustedProxyHeader,
  );
  const { app, traffic } = buildApp({
    logger: metrics === null ? logger : withRequestMetrics(logger, metrics),
    cors: config.cors,
    clientAddress,
    logClientAddress: config.logClientAddress,
    ...realCertificateDeps(referenceRoots),
    networkFacts,
    rateLimiter,
    admission: {
      deadlineMs: config.idleTimeoutSeconds * 1000,
      ...(metrics === null
        ? {}
        : {
            observer: {
              waitingChanged: (delta) => metrics.admissionWaitingChanged(delta),
              overloaded: () => metrics.overloadedRefusal(),
            },
          }),
    },
  });

  let stopping = false;
  /** `why`: what started the stop, for the log line ("SIGTERM received", "parent process gone"). */
  const shutdown = async (why: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    traffic.beginClosing();
    metrics?.beginDraining();
    logger.log({ level: "info", msg: `${why}: draining in-flight requests` });
    if (config.shutdownDelayMs > 0) await sleep(config.shutdownDelayMs);
    const forced = setTimeout(() => {
      logger.log({ level: "warn", msg: "shutdown timeout reached: closing remaining connections" });
      logger.flush();
      void server?.stop(true);
      process.exit(0);
    }, config.shutdownTimeoutMs);
    await drained(() => traffic.activity, Math.min(DRAIN_MAX_LISTEN_MS, config.shutdownTimeoutMs / 2));
    await server?.stop(false);
    clearTimeout(forced);
    logger.log({ level: "info", msg: "stopped" });
    logger.flush();
    process.exit(0);
  };
  // Lines still buffered when the process ends for any other reason are written too.
  process.on("exit", () => logger.flush());
  process.on("SIGTERM", () => void shutdown("SIGTERM received"));
  process.on("SIGINT", () => void shutdown("SIGINT received"));
  // SIGHUP reads the GeoIP files again; without them it keeps its default (the process ends).
  const logReload = (report: Parameters<typeof reloadLogLines>[0]) => {
    for (const line of reloadLogLines(report)) logger.log(line);
    exportBuildTimes();
  };
  if (reloadsOnHangup) process.on("SIGHUP", () => void networkFacts.reload().then(logReload));
  // GEOIP_RELOAD_INTERVAL_SECONDS: a sidecar's new file is read without a signal (CONTRACT §11).
  if (reloadsOnHangup && config.geoipReloadIntervalSeconds !== null)
    await networkFacts.watch(config.geoipReloadIntervalSeconds, logReload);

  try {
    // Elysia listens: it hands the routes to Bun's native router and everything else to its own.
    // A second single-process instance on the same port fails loudly instead of silently sharing
    // it (reusePort only for supervised workers).
    app.listen({
      port: config.port,
      hostname: config.host,
      maxRequestBodySize: TRANSPORT_BODY_LIMIT,
      // Closes idle keep-alive connections and bodies that stop arriving (docs/reliability.md).
      idleTimeout: config.idleTimeoutSeconds,
      reusePort: isWorker,
      development: false,
    });
    server = app.server;
    if (server === null) throw new Error("the application did not start its server");
  } catch (error) {
    process.stderr.write(`network-tools-api: ${describeListenError(error, config.host, config.port)}\n`);
    await metricsListener?.stop(true);
    return START_FAILURE_EXIT_CODE;
  }
  if (isWorker) {
    logger.log({ level: "info", msg: "worker listening", pid: process.pid, port: server.port });
    reportReady();
    watchParent(() => void shutdown("supervisor gone"));
  } else {
    logger.log({ level: "info", msg: "listening", host: config.host, port: server.port });
    if (options.isTerminal) process.stderr.write(startupLine(config.host, server.port ?? config.port));
    if (startedByNpm(process.env)) watchParent(() => void shutdown("parent process gone"), PARENT_POLL_MS);
  }
  logger.flush();
  return "running";
}

/** Resolves once nothing is in flight and nothing has arrived for DRAIN_QUIET_MS, or after `limitMs`. */
async function drained(
  activity: () => { inFlight: number; lastArrival: number },
  limitMs: number,
): Promise<void> {
  const until = performance.now() + limitMs;
  // Always one quiet period first: requests already written but not yet read are read now.
  await sleep(DRAIN_QUIET_MS);
  for (;;) {
    const { inFlight, lastArrival } = activity();
    const now = performance.now();
    if ((inFlight === 0 && now - lastArrival >= DRAIN_QUIET_MS) || now >= until) return;
    await sleep(DRAIN_POLL_MS);
  }
}

/** A build time as Unix seconds. */
function builtAtSeconds(builtAt: Date): number {
  return Math.floor(builtAt.getTime() / 1000);
}

/**
 * The optional rate limit (CONTRACT §1.5, §11): none without RATE_LIMIT_PER_MINUTE; counted in
 * RATE_LIMIT_STORE's Redis when it is set (a store unreachable now is a warning, not a failure:
 * requests are allowed until it answers), per process otherwise.
 */
async function rateLimiterOf(
  config: Config,
  logger: ReturnType<typeof createJsonLogger>,
  metrics: ProcessMetrics | null,
): Promise<RequestLimiter | null> {
  if (config.rateLimitPerMinute === null) {
    if (config.rateLimitStore !== null)
      logger.log({
        level: "warn",
        msg: "RATE_LIMIT_STORE is set without RATE_LIMIT_PER_MINUTE: no limit applies",
      });
    return null;
  }
  if (config.rateLimitStore === null) return new RateLimiter({ perMinute: config.rateLimitPerMinute });
  const limiter = new RedisRateLimiter({
    url: config.rateLimitStore,
    perMinute: config.rateLimitPerMinute,
    warn: (message) => logger.log({ level: "warn", msg: message }),
    ...(metrics === null
      ? {}
      : {
          observer: {
            roundTrip: (seconds) => metrics.rateLimitStoreRoundTrip(seconds),
            error: () => metrics.rateLimitStoreError(),
          },
        }),
  });
  await limiter.connect();
  return limiter;
}
