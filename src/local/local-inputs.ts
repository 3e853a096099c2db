/**
 * What a use case of the user's machine reads its inputs through: the ports its composition root
 * bound (src/local/ports.ts), the environment (`NETTOOLS_ROOTS`, `--passin env:VAR`) and stdin.
 * The CLI's `Io` (src/cli/io.ts) is one; a test passes its own.
 */
import type { InputLimit } from "./input-limits.ts";
import type { LocalPorts } from "./ports.ts";

export interface LocalInputs {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly ports: LocalPorts;
  /** stdin as text, read up to `limit` (default: a list's cap), else `InputTooLarge`. */
  readStdin(limit?: InputLimit): Promise<string>;
  /** stdin's bytes as they came (DER is not text), when the program can read them so. */
  readonly bytes?: { readStdin(limit?: InputLimit): Promise<Uint8Array> } | undefined;
}

/** What a local use case says besides its answer: one notice at a time (the CLI prints each on stderr). */
export type Notify = (notice: string) => void;
