/**
 * What every `nettools` command shares with the process: its exit codes, the usage error, and the
 * `Io` it runs against (the real process in `main.ts`, anything in a test).
 */

import type { InputLimit } from "../local/input-limits.ts";

export const EXIT = { ok: 0, findings: 1, invalidInput: 2, failure: 3 } as const;

/** Wrong usage: printed with a pointer to the help, exit code 2. */
export class UsageError extends Error {}

/** A local input past its cap (src/local/input-limits.ts): one line, exit code 2, no usage hint. */
export class InputTooLarge extends Error {
  override name = "InputTooLarge";
}

export interface Io {
  argv: string[];
  env: Record<string, string | undefined>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stdoutIsTty: boolean;
  stderrIsTty: boolean;
  /** stdin as text, read up to `limit` (default: a list's cap), else {@link InputTooLarge}. */
  readStdin: (limit?: InputLimit) => Promise<string>;
  /** A file as text, read up to `limit` (default: a list's cap), else {@link InputTooLarge}. */
  readFile: (path: string, limit?: InputLimit) => Promise<string>;
  /**
   * Byte-level access for commands that stream large inputs through (`match`): the input is read
   * and the selected lines written without decoding to strings and encoding back. Optional: without
   * them a command falls back to the text members.
   */
  bytes?: ByteIo;
}

/** Raw bytes in and out, see {@link Io.bytes}. */
export interface ByteIo {
  /** stdin's bytes up to `limit` (default: a list's cap). */
  readStdin: (limit?: InputLimit) => Promise<Uint8Array>;
  /** A file's bytes up to `limit` (default: a list's cap); `searched` files are mapped, not capped. */
  readFile: (path: string, limit?: InputLimit) => Promise<Uint8Array>;
  /** Writes all of `bytes` before returning (the caller reuses the buffer). */
  stdout: (bytes: Uint8Array) => void;
}
