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
  status?: number;
  durationMs?: number;
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
}

export interface Logger {
  log(record: LogRecord): void;
  /** Writes out anything buffered; called on shutdown. */
  flush(): void;
}

const LEVEL_RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Whether `value` names a log level. */
export function isLogLevel(value: string): value is LogLevel {
  return Object.hasOwn(LEVEL_RANK, value);
}

/**
 * A logger writing JSON lines through `write`. Lines are batched and written once per
 * event-loop turn (or when 64 KiB accumulate), so a busy server does not make one
 * write system call per request.
 */
export function createJsonLogger(minimum: LogLevel, write: (chunk: string) => void): Logger {
  const threshold = LEVEL_RANK[minimum];
  let buffer = "";
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    if (buffer.length === 0) return;
    const chunk = buffer;
    buffer = "";
    write(chunk);
  };
  return {
    log(record) {
      if (LEVEL_RANK[record.level] < threshold) return;
      buffer += `${JSON.stringify({ time: new Date().toISOString(), ...record })}\n`;
      if (buffer.length >= 65_536) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}

/** A logger that keeps records in memory: for tests that prove what is (not) logged. */
export function createMemoryLogger(): Logger & { records: LogRecord[] } {
  const records: LogRecord[] = [];
  return { records, log: (record) => void records.push(record), flush: () => {} };
}
