/** Runs the `nettools` command as a child process, the way a person's shell would. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const CLI = join(resolve(import.meta.dir, "../.."), "src/cli/main.ts");

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** `nettools ARGS…` with only PATH (plus `env`) in its environment, in `cwd`, fed `stdin`. */
export async function runNettools(
  args: string[],
  options: { stdin?: string; env?: Record<string, string>; cwd?: string } = {},
): Promise<Ran> {
  const child = Bun.spawn([process.execPath, CLI, ...args], {
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    env: { PATH: process.env.PATH ?? "", ...options.env },
    stdin: options.stdin === undefined ? "ignore" : new TextEncoder().encode(options.stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
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
  const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;
  const command = [process.execPath, CLI, ...args].map(quote).join(" ");
  const child = Bun.spawn(["script", "-qec", command, "/dev/null"], {
    cwd,
    env: { PATH: process.env.PATH ?? "", NO_COLOR: "1" },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
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
