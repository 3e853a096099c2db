/**
 * Runs the `nettools` command as a child process, the way a person's shell would: the one harness
 * every test uses to run the CLI (or a shell line around it) as a process. The server process has
 * its own, tests/e2e/server.ts, which runs it through {@link runProcess} too when a start must fail.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const CLI = join(resolve(import.meta.dir, "../.."), "src/cli/main.ts");

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * A run measured: its wall time and the peak resident size of the process, read from its own
 * `VmHWM` while it runs. (getrusage's `maxRSS` of a spawned child also counts the parent's memory
 * shared before `exec`, so a test runner grown large would report its own size.) `stdoutBytes`
 * is stdout as written, for outputs compared byte for byte.
 */
export interface Measured extends Ran {
  stdoutBytes: Uint8Array;
  wallMs: number;
  maxRssBytes: number;
}

export interface RunOptions {
  stdin?: string | Uint8Array;
  /** Added to an environment that holds only PATH (a PATH here replaces it). */
  env?: Record<string, string>;
  cwd?: string;
  /** Killed with SIGKILL after this long (a start that should fail but hangs must not hang the test). */
  timeoutMs?: number;
}

/** `COMMAND…` as a child process with only PATH (plus `env`) in its environment, in `cwd`, fed `stdin`. */
export async function runProcess(command: string[], options: RunOptions = {}): Promise<Measured> {
  const started = performance.now();
  const child = Bun.spawn(command, {
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    env: { PATH: process.env.PATH ?? "", ...options.env },
    stdin:
      options.stdin === undefined
        ? "ignore"
        : typeof options.stdin === "string"
          ? new TextEncoder().encode(options.stdin)
          : options.stdin,
    stdout: "pipe",
    stderr: "pipe",
  });
  let peakKib = 0;
  const ownCommand = `${command.join("\0")}\0`;
  const readPeak = () => {
    try {
      // Before `exec` the child is still a copy of this process: its memory is not the command's.
      if (readFileSync(`/proc/${child.pid}/cmdline`, "utf8") !== ownCommand) return;
      const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
      if (match) peakKib = Math.max(peakKib, Number(match[1]));
    } catch {
      // gone already: the last reading stands
    }
  };
  const sampler = setInterval(readPeak, 20);
  const deadline =
    options.timeoutMs === undefined ? undefined : setTimeout(() => child.kill("SIGKILL"), options.timeoutMs);
  const [stdoutBuffer, stderr, code] = await Promise.all([
    new Response(child.stdout).arrayBuffer(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  clearInterval(sampler);
  clearTimeout(deadline);
  const wallMs = performance.now() - started;
  const maxRssBytes = peakKib > 0 ? peakKib * 1024 : Number.POSITIVE_INFINITY;
  const stdoutBytes = new Uint8Array(stdoutBuffer);
  return { code, stdout: new TextDecoder().decode(stdoutBytes), stderr, stdoutBytes, wallMs, maxRssBytes };
}

/** A command line for bash: each word in single quotes. */
export function shellWords(words: readonly string[]): string {
  return words.map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(" ");
}

/** `nettools ARGS…` as a shell line, to put in a pipeline. */
export function nettoolsLine(args: readonly string[] = []): string {
  return shellWords([process.execPath, CLI, ...args]);
}

/** A bash script as {@link runProcess} runs a command (`$PIPESTATUS` and the like are bash's). */
export function runShell(script: string, options: RunOptions = {}): Promise<Measured> {
  return runProcess(["bash", "-c", script], options);
}

/** `nettools ARGS…` as {@link runProcess} runs a command. */
export async function runNettools(args: string[], options: RunOptions = {}): Promise<Ran> {
  const { code, stdout, stderr } = await runProcess([process.execPath, CLI, ...args], options);
  return { code, stdout, stderr };
}

/** A server's raw answer to a JSON POST, as text (to compare with the CLI's `--json` output). */
export async function postForText(baseUrl: string, path: string, body: unknown): Promise<string> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return response.text();
}

/**
 * `nettools ARGS…` with stdout on a terminal (a pseudo-terminal from util-linux `script`), as a
 * person at a shell sees it: tables instead of plain lines. NO_COLOR keeps the text comparable;
 * the terminal's CR LF line ends are turned back into LF.
 */
export async function runOnTerminal(args: string[], cwd: string): Promise<Ran> {
  const { code, stdout, stderr } = await runProcess(["script", "-qec", nettoolsLine(args), "/dev/null"], {
    cwd,
    env: { NO_COLOR: "1" },
  });
  return { code, stdout: stdout.replaceAll("\r\n", "\n"), stderr };
}

/**
 * A scratch directory for one test file: `nettools` run inside it (fed `stdin` when given) and
 * `file(name, text)`, which writes a file there and returns its name.
 */
export function scratchRunner(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    nettools: (args: string[], stdin?: string) =>
      runNettools(args, { cwd: dir, ...(stdin === undefined ? {} : { stdin }) }),
    file: (name: string, text: string): string => {
      writeFileSync(join(dir, name), text);
      return name;
    },
  };
}
