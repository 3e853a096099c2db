/**
 * Start-up figures for docs/operations.md: time from spawn to the first 200 on /v1/health, and
 * resident memory once idle, for the compiled binary and for `bun src/main.ts`, WORKERS=1 and 2.
 *
 *   npm run build && node_modules/.bin/bun scripts/startup-figures.ts [runs]
 *
 * 127.0.0.1 only; each server is stopped (SIGTERM, by its own pid) before the next starts.
 */
import { readFileSync } from "node:fs";
import { spawn } from "bun";

const ROOT = new URL("..", import.meta.url).pathname;
const RUNS = Number(process.argv[2] ?? 10);

function freePort(): number {
  const listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const { port } = listener;
  listener.stop(true);
  return port;
}

function rssKiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
}

function children(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

async function once(command: string[], workers: string): Promise<{ ms: number; rssMiB: number }> {
  const port = freePort();
  const started = performance.now();
  const child = spawn(command, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOST: "127.0.0.1",
      PORT: String(port),
      WORKERS: workers,
      LOG_LEVEL: "warn",
    },
    stdin: "ignore",
    stdout: "ignore",
    stderr: "inherit",
  });
  let ms = Number.NaN;
  while (performance.now() - started < 15_000) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/v1/health`);
      if (response.status === 200) {
        ms = performance.now() - started;
        break;
      }
    } catch {
      // not listening yet
    }
    await Bun.sleep(2);
  }
  await Bun.sleep(1_000); // idle
  const pids = [child.pid, ...children(child.pid)];
  const rssMiB = pids.reduce((sum, pid) => sum + rssKiB(pid), 0) / 1024;
  child.kill("SIGTERM");
  await child.exited;
  return { ms, rssMiB };
}

const variants: [string, string[], string][] = [
  ["binary, WORKERS=1", [`${ROOT}dist/network-tools-api`], "1"],
  ["binary, WORKERS=2", [`${ROOT}dist/network-tools-api`], "2"],
  ["bun src/main.ts, WORKERS=1", [`${ROOT}node_modules/.bin/bun`, `${ROOT}src/main.ts`], "1"],
];
for (const [name, command, workers] of variants) {
  const results = [];
  for (let run = 0; run < RUNS; run++) results.push(await once(command, workers));
  const times = results.map((result) => result.ms);
  console.log(
    `${name}: start-to-first-200 median ${median(times).toFixed(0)} ms (min ${Math.min(...times).toFixed(0)}, ` +
      `max ${Math.max(...times).toFixed(0)}, ${RUNS} runs); idle RSS median ` +
      `${median(results.map((result) => result.rssMiB)).toFixed(1)} MiB (all processes)`,
  );
}
