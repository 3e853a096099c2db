/**
 * Structured access and error logging: one JSON object per line.
 *
 * Privacy rule (CONTRACT §4.4): callers pass only the fixed fields below — never a
 * request or response body, a PEM, a hostname, a subject, a SAN or a fingerprint.
 * The type keeps free-form data out: there is no "extra" bag.
 */

export type LogLevel = "debug" | "info" | "warn" | "error";

export interface LogRecord {
  level: LogLevel;
  msg: string;
  requestId?: string;
  method?: string;
  route?: string | null;
  /**
   * Only for a request no route matched (route null): its path without the query, cut to
   * UNMATCHED_PATH_MAX characters, so a scan or a broken client can be found (CONTRACT §6).
   */
  path?: string;
  status?: number;
  durationMs?: number;
  /**
   * The address the request is observed from (CONTRACT §5), in canonical text, or null when none
   * is: only with LOG_CLIENT_ADDRESS=true (CONTRACT §6), an address being personal data.
   */
  clientAddress?: string | null;
  /** Name of an unexpected error's class (never its message, which may quote input). */
  errorName?: string;
  /** Listening address, on the start-up line. */
  host?: string;
  port?: number;
  /** Worker supervision (WORKERS > 1): the worker's process id, how it ended, the restart delay. */
  pid?: number;
  workers?: number;
  exitCode?: number | null;
  signal?: string | null;
  restartInMs?: number;
  /** The certificate watch (CERT_WATCH): the file a line is about, and why it was not read (fixed words). */
  filepath?: string;
  reason?: string;
  /** The certificate watch: what one pass did (files seen, judged, unchanged, failed) and its duration. */
  watchPass?: { files: number; judged: number; unchanged: number; failed: number; durationMs: number };
}

export interface Logger {
  log(record: LogRecord): void;
  /**
   * The access-log line of one request (level info): the same fields `log` would write, built
   * without an intermediate object because it runs on every request. `requestId` and `route`
   * must be JSON-safe text (the request-id rule and the route table guarantee it).
   */
  access(
    requestId: string,
    method: string,
    route: string | null,
    status: number,
    durationMs: number,
    unmatchedPath?: string,
    clientAddress?: string | null,
  ): void;
  /** Writes out anything buffered; called on shutdown. */
  flush(): void;
}

const LEVEL_RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Whether `value` names a log level. */
export function isLogLevel(value: string): value is LogLevel {
  return Object.hasOwn(LEVEL_RANK, value);
}

/** The longest unmatched path a log line carries, in characters (before escaping). */
export const UNMATCHED_PATH_MAX = 200;

/**
 * An unmatched path as a JSON string literal: at most UNMATCHED_PATH_MAX characters, every
 * control character (C0, DEL, C1) and lone surrogate escaped as `\uXXXX`, so a line never
 * carries a raw control byte whatever the client sent.
 */
export function loggedPath(path: string): string {
  const cut = path.length > UNMATCHED_PATH_MAX ? path.slice(0, UNMATCHED_PATH_MAX) : path;
  return JSON.stringify(cut).replace(
    /[\u007f-\u009f]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** How long lines wait in the buffer before one write; 64 KiB of lines are written at once. */
export const FLUSH_INTERVAL_MS = 10;
const FLUSH_BYTES = 65_536;
/** Methods that need no JSON escaping; anything else is escaped. */
const PLAIN_METHODS = new Set([
  "GET",
  "HEAD",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "OPTIONS",
  "TRACE",
  "CONNECT",
]);

/**
 * A logger writing JSON lines through `write`. Lines are buffered and written together at most
 * FLUSH_INTERVAL_MS after the first of them (or when 64 KiB accumulate), so a busy server makes
 * one write system call per batch, not per request; `flush()` writes what is left (on shutdown
 * and at exit). The time stamp is formatted once per millisecond.
 */
export function createJsonLogger(minimum: LogLevel, write: (chunk: string) => void): Logger {
  const threshold = LEVEL_RANK[minimum];
  const accessEnabled = LEVEL_RANK.info >= threshold;
  let buffer = "";
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stampMs = -1;
  let stamp = "";
  const now = (): string => {
    const ms = Date.now();
    if (ms !== stampMs) {
      stampMs = ms;
      stamp = new Date(ms).toISOString();
    }
    return stamp;
  };
  const flush = (): void => {
    if (timer !== null) {
      clearTimeout(timer);
      timer = null;
    }
    if (buffer.length === 0) return;
    const chunk = buffer;
    buffer = "";
    write(chunk);
  };
  const append = (line: string): void => {
    buffer += line;
    if (buffer.length >= FLUSH_BYTES) flush();
    else if (timer === null) timer = setTimeout(flush, FLUSH_INTERVAL_MS);
  };
  return {
    log(record) {
      if (LEVEL_RANK[record.level] < threshold) return;
      append(`${JSON.stringify({ time: now(), ...record })}\n`);
    },
    access(requestId, method, route, status, durationMs, unmatchedPath, clientAddress) {
      if (!accessEnabled) return;
      const verb = PLAIN_METHODS.has(method) ? method : JSON.stringify(method).slice(1, -1);
      const where =
        route !== null
          ? `"route":"${route}"`
          : unmatchedPath === undefined
            ? `"route":null`
            : `"route":null,"path":${loggedPath(unmatchedPath)}`;
      append(
        `{"time":"${now()}","level":"info","msg":"request","requestId":"${requestId}","method":"${verb}",${where},"status":${status},"durationMs":${durationMs}${
          // Canonical address text (digits, hex, dots, colons) needs no escaping.
          clientAddress === undefined
            ? ""
            : clientAddress === null
              ? ',"clientAddress":null'
              : `,"clientAddress":"${clientAddress}"`
        }}\n`,
      );
    },
    flush,
  };
}

/** A logger that keeps records in memory: for tests that prove what is (not) logged. */
export function createMemoryLogger(): Logger & { records: LogRecord[] } {
  const records: LogRecord[] = [];
  return {
    records,
    log: (record) => void records.push(record),
    access: (requestId, method, route, status, durationMs, unmatchedPath, clientAddress) =>
      void records.push({
        level: "info",
        msg: "request",
        requestId,
        method,
        route,
        ...(route === null && unmatchedPath !== undefined
          ? { path: JSON.parse(loggedPath(unmatchedPath)) as string }
          : {}),
        status,
        durationMs,
        ...(clientAddress === undefined ? {} : { clientAddress }),
      }),
    flush: () => {},
  };
}
