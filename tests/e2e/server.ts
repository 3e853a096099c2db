/**
 * Starts the real server process on 127.0.0.1 with an ephemeral port and returns its URL: the one
 * harness every test uses to run the server as a process. {@link launchServer} starts any command
 * that serves the API (`nettools serve`, `npm start`, the server on a pseudo-terminal) and waits
 * for its `listening` line; {@link runServerCommand} runs the server command to its end, for starts
 * that must fail and for `healthcheck`.
 * E2E_SERVER_BINARY runs a compiled binary instead of `bun src/main.ts` (CI does both).
 */
import { afterAll, beforeAll } from "bun:test";
import { type Subprocess, spawn } from "bun";
import { type Measured, runProcess } from "../cli/run.ts";

export interface RunningServer {
  url: string;
  port: number;
  process: Subprocess<"ignore" | "pipe", "pipe", "pipe">;
  /** Every stdout line so far (JSON log lines). */
  lines: string[];
  /** Settles when stdout has ended: every line the process (and its children) wrote is in `lines`. */
  outputEnded: Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<number>;
}

export interface LaunchOptions {
  /** Added to an environment that holds only PATH (a PATH here replaces it). */
  env?: Record<string, string>;
  cwd?: string;
  /** `pipe` holds stdin open (`script` ends its session when stdin ends); default `ignore`. */
  stdin?: "ignore" | "pipe";
  /** How long the `listening` line may take (default 15 s). */
  timeoutMs?: number;
}

const ROOT = new URL("../..", import.meta.url).pathname;

export function serverCommand(): string[] {
  const binary = process.env.E2E_SERVER_BINARY;
  return binary ? [binary] : [process.execPath, `${ROOT}src/main.ts`];
}

/** The server command with `env` (HOST=127.0.0.1 and PORT=0 unless it says otherwise), listening. */
export function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  return launchServer(serverCommand(), { cwd: ROOT, env: { HOST: "127.0.0.1", PORT: "0", ...env } });
}

/**
 * One server for the test file that calls this (at its top level): started before the first test
 * and stopped after the last, as {@link startServer} starts it with `env`. Read `url` in tests.
 */
export function serverPerFile(env: Record<string, string> = {}): { readonly url: string } {
  let running: RunningServer | undefined;
  beforeAll(async () => {
    running = await startServer(env);
  });
  afterAll(async () => {
    await running?.stop();
  });
  return {
    get url(): string {
      if (running === undefined) throw new Error("the file's server starts before its first test");
      return running.url;
    },
  };
}

/**
 * `command` started and read until it logs `{"msg":"listening","port":N}` on stdout; SIGKILLed and
 * an error thrown when it exits or stays silent first.
 */
export async function launchServer(command: string[], options: LaunchOptions = {}): Promise<RunningServer> {
  const child = spawn(command, {
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    env: { PATH: process.env.PATH ?? "", ...options.env },
    stdin: options.stdin ?? "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const lines: string[] = [];
  const decoder = new TextDecoder();
  let pending = "";
  let resolvePort: (port: number) => void = () => {};
  const portPromise = new Promise<number>((resolve) => {
    resolvePort = resolve;
  });
  const outputEnded = (async () => {
    const reader = child.stdout.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      pending += decoder.decode(value, { stream: true });
      let newline = pending.indexOf("\n");
      while (newline !== -1) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        lines.push(line);
        try {
          const record = JSON.parse(line) as { msg?: string; port?: number };
          if (record.msg === "listening" && typeof record.port === "number") resolvePort(record.port);
        } catch {
          // not a JSON line: kept in `lines` for the test to see
        }
        newline = pending.indexOf("\n");
      }
    }
  })();
  const timeoutMs = options.timeoutMs ?? 15_000;
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(
      () => reject(new Error(`server did not report its port within ${timeoutMs / 1000} s`)),
      timeoutMs,
    ),
  );
  const exited = child.exited.then((code) => {
    throw new Error(`server exited early with code ${code}`);
  });
  let port: number;
  try {
    port = await Promise.race([portPromise, timeout, exited]);
  } catch (error) {
    // Never leave a server running behind a failed start (e.g. a LOG_LEVEL that hides the line).
    child.kill("SIGKILL");
    throw error;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    process: child,
    lines,
    outputEnded,
    async stop(signal = "SIGTERM") {
      child.kill(signal);
      return child.exited;
    },
  };
}

/**
 * The server command with `args`, run to its end with only PATH (plus `env`) in its environment,
 * as {@link runProcess} runs a command: for starts that must fail, and `healthcheck`. SIGKILLed
 * after `timeoutMs`.
 */
export function runServerCommand(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 20_000,
): Promise<Measured> {
  return runProcess([...serverCommand(), ...args], { env, timeoutMs });
}
