/**
 * Starts the real server process on 127.0.0.1 with an ephemeral port and returns its URL.
 * E2E_SERVER_BINARY runs a compiled binary instead of `bun src/main.ts` (CI does both).
 */
import { type Subprocess, spawn } from "bun";

export interface RunningServer {
  url: string;
  port: number;
  process: Subprocess<"ignore", "pipe", "pipe">;
  /** Every stdout line so far (JSON log lines). */
  lines: string[];
  stop(signal?: NodeJS.Signals): Promise<number>;
}

const ROOT = new URL("../..", import.meta.url).pathname;

export function serverCommand(): string[] {
  const binary = process.env.E2E_SERVER_BINARY;
  return binary ? [binary] : [process.execPath, `${ROOT}src/main.ts`];
}

export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const child = spawn(serverCommand(), {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOST: "127.0.0.1", PORT: "0", ...env },
    stdin: "ignore",
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
  void (async () => {
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
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error("server did not report its port within 15 s")), 15_000),
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
    async stop(signal = "SIGTERM") {
      child.kill(signal);
      return child.exited;
    },
  };
}
