/**
 * What every `nettools` command shares with the process: its exit codes, the usage error, and the
 * `Io` it runs against (the real process in `main.ts`, anything in a test).
 */

export const EXIT = { ok: 0, findings: 1, invalidInput: 2, failure: 3 } as const;

/** Wrong usage: printed with a pointer to the help, exit code 2. */
export class UsageError extends Error {}

export interface Io {
  argv: string[];
  env: Record<string, string | undefined>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stdoutIsTty: boolean;
  stderrIsTty: boolean;
  readStdin: () => Promise<string>;
  readFile: (path: string) => Promise<string>;
  /**
   * Byte-level access for commands that stream large inputs through (`match`): the input is read
   * and the selected lines written without decoding to strings and encoding back. Optional: without
   * them a command falls back to the text members.
   */
  bytes?: ByteIo;
}

/** Raw bytes in and out, see {@link Io.bytes}. */
export interface ByteIo {
  readStdin: () => Promise<Uint8Array>;
  readFile: (path: string) => Promise<Uint8Array>;
  /** Writes all of `bytes` before returning (the caller reuses the buffer). */
  stdout: (bytes: Uint8Array) => void;
}
