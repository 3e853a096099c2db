/**
 * What the process tests (lifecycle, supervisor) read of a running server: its JSON log lines,
 * whether a pid is alive, and a bounded wait for something to appear.
 */
import type { RunningServer } from "./server.ts";

/** The server's log lines read as JSON records (lines that are not JSON are left out). */
export function logRecords<Record>(server: RunningServer): Record[] {
  return server.lines.flatMap((line) => {
    try {
      return [JSON.parse(line) as Record];
    } catch {
      return [];
    }
  });
}

/** Polls `probe` every 20 ms until it gives a value; throws naming `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs: number): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
}

/** Whether a process with this pid exists (signal 0). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
