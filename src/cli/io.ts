/**
 * What every `nettools` command shares with the process: its exit codes, the usage error, and the
 * `Io` it runs against (the real process in `main.ts`, anything in a test).
 */

import type { InputLimit } from "../local/input-limits.ts";
import type { LocalPorts } from "../local/ports.ts";

export const EXIT = { ok: 0, findings: 1, invalidInput: 2, failure: 3 } as const;

/** Wrong usage: printed with a pointer to the help, exit code 2 (src/local/usage-error.ts). */
import { UsageError } from "../local/usage-error.ts";

/** A local input past its cap (src/local/input-limits.ts): one line, exit code 2, no usage hint. */
export { InputTooLarge } from "../local/input-limits.ts";
export { UsageError };

/**
 * A mistake `parseArgs` (node:util) found, said in our words (CONTRACT §12): its own messages
 * quote oddly (`Option '--cloud <value>' argument missing`) and give advice about `--` that does
 * not apply. Anything not recognised keeps Node's words.
 */
export function usageErrorOf(error: unknown): UsageError {
  const message = error instanceof Error ? error.message : String(error);
  let match = /^Option '(?:(-\w), )?(--?[\w-]+) <value>' argument missing/.exec(message);
  if (match) {
    const name = match[2]!;
    const short = match[1] === undefined ? "" : ` (${match[1]})`;
    return new UsageError(`${name}${short} needs a value: ${name} ${name.replace(/^-+/, "").toUpperCase()}`);
  }
  match = /^Option '(--?[\w-]+)' does not take an argument/.exec(message);
  if (match) return new UsageError(`${match[1]} takes no value`);
  match = /^Option '(-\w)' argument is ambiguous[\s\S]*use '(--[\w-]+)=/.exec(message);
  if (match) {
    return new UsageError(
      `${match[1]} needs a value, and the next argument starts with "-": write ${match[2]}=VALUE if that is the value`,
    );
  }
  match = /^Unknown option '([^']+)'/.exec(message);
  if (match) return new UsageError(`unknown option ${match[1]}`);
  match = /^Unexpected argument '([^']+)'/.exec(message);
  if (match) return new UsageError(`unexpected argument "${match[1]}"`);
  return new UsageError(message);
}

/** A usage error when stdin ("-") is named more than once among `names` (`words` say it otherwise). */
export function stdinOnlyOnce(
  names: readonly (string | undefined)[],
  words = 'stdin ("-") can be read only once',
) {
  if (names.filter((name) => name === "-").length > 1) throw new UsageError(words);
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
  /** The ports of the user's machine, bound once per process (src/cli/composition-root.ts). */
  ports: LocalPorts;
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
