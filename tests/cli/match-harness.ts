/**
 * Runs `nettools match` in this process and Debian's grepcidr 2.0 as a child, on the same files
 * (relative to one directory) and stdin, and keeps their output as bytes: the two must agree byte
 * for byte (CONTRACT §7.4).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { composeCli } from "../../src/cli/composition-root.ts";
import type { Io } from "../../src/cli/io.ts";
import { match } from "../../src/cli/match.ts";

export interface RanBytes {
  code: number;
  stdout: Buffer;
  stderr: string;
}

/** An `Io` reading files with `readFile` and `stdin`, keeping stdout as bytes and stderr as text. */
export function capturingIo(
  readFile: (path: string) => Uint8Array,
  stdin: Uint8Array = new Uint8Array(),
): { io: Io; output: () => { stdout: Buffer; stderr: string } } {
  const out: Buffer[] = [];
  let stderr = "";
  const io: Io = {
    ports: composeCli(),
    argv: [],
    env: {},
    stdout: (text) => {
      out.push(Buffer.from(text));
    },
    stderr: (text) => {
      stderr += text;
    },
    stdoutIsTty: false,
    stderrIsTty: false,
    readStdin: async () => Buffer.from(stdin).toString("utf8"),
    readFile: async (path) => Buffer.from(readFile(path)).toString("utf8"),
    bytes: {
      readStdin: async () => stdin,
      readFile: async (path) => readFile(path),
      stdout: (bytes) => {
        out.push(Buffer.from(bytes)); // copied: the command reuses its buffer
      },
    },
  };
  return { io, output: () => ({ stdout: Buffer.concat(out), stderr }) };
}

/** `nettools match ARGS` with the files of `dir` and `stdin`, stdout kept as bytes. */
export async function matchBytes(
  args: string[],
  dir: string,
  stdin: Uint8Array = new Uint8Array(),
): Promise<RanBytes> {
  const { io, output } = capturingIo((path) => new Uint8Array(readFileSync(join(dir, path))), stdin);
  const code = await match(args, io);
  return { code, ...output() };
}

/** `grepcidr ARGS` in `dir`, fed `stdin`. */
export function grepcidr(args: string[], dir: string, stdin: Uint8Array = new Uint8Array()): RanBytes {
  const ran = Bun.spawnSync(["grepcidr", ...args], { cwd: dir, stdin, stdout: "pipe", stderr: "pipe" });
  return { code: ran.exitCode ?? -1, stdout: Buffer.from(ran.stdout), stderr: ran.stderr.toString() };
}

/** Shows where two outputs first differ, for a failure message. */
export function firstDifference(ours: Buffer, theirs: Buffer): string {
  const a = ours.toString("latin1").split("\n");
  const b = theirs.toString("latin1").split("\n");
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i])
      return `line ${i + 1}: nettools ${JSON.stringify(a[i])}, grepcidr ${JSON.stringify(b[i])}`;
  }
  return "same";
}
