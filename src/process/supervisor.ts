/**
 * Multi-core on one host (WORKERS=N, N > 1): this process becomes a supervisor that starts N
 * copies of itself as workers. Every worker listens on the same port with `reusePort`, so the
 * kernel spreads new connections across them; the supervisor serves no request itself.
 *
 * - The port is decided once, here: PORT=0 is resolved to one free port before any worker
 *   starts, so all workers share it (each picking its own would give N ports).
 * - A worker tells the supervisor it listens over Bun's IPC channel (not through its logs,
 *   which LOG_LEVEL may silence). Only then does the supervisor log `listening`.
 * - Workers' stdout is relayed line-aligned through the supervisor, so lines of different
 *   workers never interleave mid-line; stderr is inherited.
 * - A worker that exits unasked is restarted after a backoff (100 ms, doubling, at most 2 s).
 *   If one worker slot fails MAX_FAILURES times in a row, each time within STABLE_AFTER_MS of
 *   its start, the supervisor gives up: it stops the others and exits 1, so the orchestrator
 *   sees the failure instead of a process that spins.
 * - SIGTERM/SIGINT is forwarded to every worker; each drains its in-flight requests within
 *   SHUTDOWN_TIMEOUT_MS and exits; the supervisor then exits 0. A worker still running
 *   DEADLINE_MARGIN_MS after that is killed and the exit code is 1.
 * - SIGHUP (when `forwardHangup`: GeoIP databases are configured) is passed on to every ready
 *   worker, which reads its database files again and keeps serving; the supervisor reads none.
 * - A worker whose supervisor vanishes (kill -9) notices within a second (watchParent) and drains.
 * - Metrics (METRICS_PORT): on each scrape the supervisor asks every running worker for its
 *   snapshot over the same IPC channel and hands every answer, with the worker's id, to
 *   `reports` (the metrics ledger), which also hears when each worker starts and exits. A scrape
 *   waits at most POLL_TIMEOUT_MS, and not at all for a worker that has exited: one that does
 *   not answer in time is summed from its last answer (docs/decisions/0024-metrics.md).
 *
 * See docs/decisions/0008-workers.md for why this and not node:cluster.
 */
import type { Subprocess } from "bun";
import type { Logger } from "./logger.ts";

/** Set in a worker's environment: the process serves instead of supervising. */
export const WORKER_ENV = "NETWORK_TOOLS_API_WORKER";

const BASE_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 2_000;
const STABLE_AFTER_MS = 5_000;
const MAX_FAILURES = 5;
const DEADLINE_MARGIN_MS = 2_000;
/**
 * The longest a scrape waits for the workers' snapshots (they are asked at once). A worker that
 * answers later is summed from its previous answer this time; its late answer is kept for the next.
 */
export const POLL_TIMEOUT_MS = 500;
const NEWLINE = 0x0a;
/** A worker's unterminated output is passed on anyway past this size. */
const MAX_CARRY_BYTES = 1024 * 1024;

type Env = Record<string, string | undefined>;

/** Whether this process was started by a supervisor as one of its workers. */
export function isWorkerProcess(env: Env): boolean {
  return env[WORKER_ENV] === "1";
}

/**
 * The command line that starts this same program again: the executable alone when running as
 * a `bun build --compile` binary (its entry point lives in the embedded `/$bunfs/` file
 * system), otherwise `bun [runtime flags] <entry script>`.
 */
export function selfCommand(): string[] {
  const entry = Bun.main;
  if (entry.startsWith("/$bunfs/") || /^[A-Za-z]:[\\/]~BUN[\\/]/.test(entry)) return [process.execPath];
  return [process.execPath, ...process.execArgv, entry];
}

/** A port that is free on `hostname` right now: bind port 0, read the port, close. */
export function pickFreePort(hostname: string): number {
  const listener = Bun.listen({ hostname, port: 0, socket: { data() {} } });
  const { port } = listener;
  listener.stop(true);
  return port;
}

/**
 * In a worker: calls `onOrphaned` once if the supervisor goes away without telling (its
 * parent process id changes when the kernel re-parents the worker). The timer never keeps the
 * process alive by itself.
 */
export function watchParent(onOrphaned: () => void, intervalMs = 1_000): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onOrphaned();
  }, intervalMs);
  timer.unref();
}

/** In a worker: tells the supervisor that this worker accepts connections. */
export function reportReady(): void {
  process.send?.({ type: "ready" });
}

/**
 * In a worker: answers the supervisor's polls (`{type:"poll", id}`) with `answer()`, the
 * worker's current metrics snapshot.
 */
export function answerPolls(answer: () => unknown): void {
  process.on("message", (message: unknown) => {
    const poll = message as { type?: unknown; id?: unknown } | null;
    if (poll?.type !== "poll" || typeof poll.id !== "number") return;
    process.send?.({ type: "poll-answer", id: poll.id, value: answer() });
  });
}

/**
 * Asks every running worker for its snapshot; resolves when all have answered or exited, or
 * after POLL_TIMEOUT_MS. The answers go to `SupervisorOptions.reports`.
 */
export type WorkerPoll = () => Promise<void>;

/**
 * What the supervisor tells about its workers (the metrics ledger, WorkerMetricsLedger, listens).
 * `worker` is an id given to each started process, never reused; `sequence` grows with each poll.
 */
export interface WorkerReports {
  started(worker: number): void;
  answered(worker: number, sequence: number, value: unknown): void;
  exited(worker: number): void;
}

/** Where relayed worker output goes (process.stdout). */
export interface Output {
  write(chunk: Uint8Array): boolean;
  once(event: "drain" | "error", listener: () => void): unknown;
}

export interface SupervisorOptions {
  workers: number;
  host: string;
  /** Already resolved: never 0 (see pickFreePort). */
  port: number;
  shutdownTimeoutMs: number;
  /** The worker command line (selfCommand()). */
  command: string[];
  /** The environment passed to workers, before the worker marker and PORT are added. */
  env: Env;
  /** Pass SIGHUP on to the workers (they reload their GeoIP databases on it). */
  forwardHangup?: boolean;
  logger: Logger;
  output: Output;
  /** Receives, once at start, the function that polls the workers (for the metrics listener). */
  exposePoll?: (poll: WorkerPoll) => void;
  /** Hears every worker's start, poll answers and exit. */
  reports?: WorkerReports;
}

interface Slot {
  child: Subprocess<"ignore", "pipe", "inherit"> | null;
  /** The running child's id for `reports`. */
  worker: number;
  startedAt: number;
  ready: boolean;
  everReady: boolean;
  failures: number;
  restart: ReturnType<typeof setTimeout> | null;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

/**
 * Runs the workers until a signal stops them or they crash in a loop.
 * @returns the process exit code: 0 after a drained stop, 1 when giving up or forced
 */
export function superviseWorkers(options: SupervisorOptions): Promise<number> {
  const { logger, output } = options;
  const slots: Slot[] = Array.from({ length: options.workers }, () => ({
    child: null,
    worker: 0,
    startedAt: 0,
    ready: false,
    everReady: false,
    failures: 0,
    restart: null,
  }));
  const relays = new Set<Promise<void>>();
  /** Poll id → the worker asked, and what ends the wait for its answer. */
  const pendingPolls = new Map<number, { worker: number; done: () => void }>();
  let lastPollId = 0;
  let lastWorkerId = 0;
  let stopping = false;
  let announced = false;
  let finish: (code: number) => void = () => {};
  const finished = new Promise<number>((resolve) => {
    finish = resolve;
  });

  // If our stdout breaks (the log reader went away), workers' output is read and dropped, so
  // they never block on a full pipe, and shutdown still completes.
  let outputBroken = false;
  const outputGone = new Promise<void>((resolve) =>
    output.once("error", () => {
      outputBroken = true;
      resolve();
    }),
  );
  const writeOut = async (chunk: Uint8Array): Promise<void> => {
    if (outputBroken || output.write(chunk)) return;
    await Promise.race([new Promise<void>((resolve) => output.once("drain", resolve)), outputGone]);
  };

  /** Copies a worker's stdout to ours, one whole line (or more) per write. */
  const relay = async (stream: ReadableStream<Uint8Array>): Promise<void> => {
    const reader = stream.getReader();
    let carry: Uint8Array = new Uint8Array(0);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const end = value.lastIndexOf(NEWLINE);
      if (end === -1) {
        carry = concat(carry, value);
        if (carry.length < MAX_CARRY_BYTES) continue;
        await writeOut(carry);
        carry = new Uint8Array(0);
        continue;
      }
      const lines = concat(carry, value.subarray(0, end + 1));
      carry = value.slice(end + 1);
      await writeOut(lines);
    }
    if (carry.length > 0) await writeOut(concat(carry, Uint8Array.of(NEWLINE)));
  };

  const announceWhenAllReady = (): void => {
    if (announced || !slots.every((slot) => slot.everReady)) return;
    announced = true;
    logger.log({
      level: "info",
      msg: "listening",
      host: options.host,
      port: options.port,
      workers: slots.length,
    });
  };

  const stopAll = async (signal: NodeJS.Signals, exitCode: number): Promise<void> => {
    stopping = true;
    for (const slot of slots) {
      if (slot.restart !== null) clearTimeout(slot.restart);
      slot.restart = null;
      slot.child?.kill(signal);
    }
    let forced = false;
    const deadline = setTimeout(() => {
      forced = true;
      logger.log({ level: "error", msg: "workers did not stop in time: killing them" });
      for (const slot of slots) slot.child?.kill("SIGKILL");
    }, options.shutdownTimeoutMs + DEADLINE_MARGIN_MS);
    await Promise.all(slots.map((slot) => slot.child?.exited));
    await Promise.all(relays);
    clearTimeout(deadline);
    logger.log({ level: "info", msg: "stopped" });
    logger.flush();
    finish(forced ? 1 : exitCode);
  };

  const onExit = (slot: Slot, child: Subprocess, exitCode: number | null): void => {
    if (slot.child !== child) return;
    slot.child = null;
    slot.ready = false;
    if (stopping) return;
    const stable = Date.now() - slot.startedAt >= STABLE_AFTER_MS;
    slot.failures = stable ? 1 : slot.failures + 1;
    logger.log({
      level: "warn",
      msg: "worker exited",
      pid: child.pid,
      exitCode,
      signal: child.signalCode === null ? null : String(child.signalCode),
    });
    if (slot.failures >= MAX_FAILURES) {
      logger.log({
        level: "error",
        msg: "workers keep crashing right after start: giving up",
        workers: slots.length,
      });
      void stopAll("SIGTERM", 1);
      return;
    }
    const delay = Math.min(BASE_BACKOFF_MS * 2 ** (slot.failures - 1), MAX_BACKOFF_MS);
    logger.log({ level: "info", msg: "restarting worker", restartInMs: delay });
    slot.restart = setTimeout(() => {
      slot.restart = null;
      if (!stopping) start(slot);
    }, delay);
  };

  const start = (slot: Slot): void => {
    lastWorkerId += 1;
    const worker = lastWorkerId;
    options.reports?.started(worker);
    const child = Bun.spawn(options.command, {
      env: { ...options.env, [WORKER_ENV]: "1", PORT: String(options.port) },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "inherit",
      ipc(message) {
        const received = message as { type?: unknown; id?: unknown; value?: unknown } | null;
        if (received?.type === "poll-answer" && typeof received.id === "number") {
          options.reports?.answered(worker, received.id, received.value);
          pendingPolls.get(received.id)?.done();
          return;
        }
        if (received?.type !== "ready" || slot.child !== child) return;
        slot.ready = true;
        slot.everReady = true;
        logger.log({ level: "info", msg: "worker ready", pid: child.pid });
        announceWhenAllReady();
      },
    });
    slot.child = child;
    slot.worker = worker;
    slot.startedAt = Date.now();
    slot.ready = false;
    logger.log({ level: "info", msg: "worker started", pid: child.pid });
    // No scrape waits on a worker that has exited; its counts stay in the sum.
    void child.exited.then(() => {
      options.reports?.exited(worker);
      for (const pending of [...pendingPolls.values()]) if (pending.worker === worker) pending.done();
    });
    const relayed = relay(child.stdout).catch(() => {});
    relays.add(relayed);
    void Promise.all([child.exited, relayed]).then(([code]) => {
      relays.delete(relayed);
      onExit(slot, child, code);
    });
  };

  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    logger.log({ level: "info", msg: `${signal} received: draining the workers` });
    void stopAll(signal, 0);
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  if (options.forwardHangup === true)
    process.on("SIGHUP", () => {
      if (stopping) return;
      logger.log({ level: "info", msg: "SIGHUP received: passed on to the workers" });
      // A worker not yet ready reads the files as it starts (and may not handle the signal yet).
      for (const slot of slots) if (slot.ready) slot.child?.kill("SIGHUP");
    });

  const ask = (child: Subprocess, worker: number): Promise<void> =>
    new Promise((resolve) => {
      lastPollId += 1;
      const id = lastPollId;
      const done = (): void => {
        clearTimeout(timer);
        pendingPolls.delete(id);
        resolve();
      };
      const timer = setTimeout(done, POLL_TIMEOUT_MS);
      pendingPolls.set(id, { worker, done });
      try {
        child.send({ type: "poll", id });
      } catch {
        done(); // the worker is exiting: summed from its last answer
      }
    });
  const running = (slot: Slot): slot is Slot & { child: Subprocess } =>
    slot.child !== null && slot.ready && slot.child.exitCode === null && slot.child.signalCode === null;
  options.exposePoll?.(async () => {
    await Promise.all(slots.filter(running).map((slot) => ask(slot.child, slot.worker)));
  });

  for (const slot of slots) start(slot);
  return finished;
}
