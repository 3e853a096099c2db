/**
 * The process's stdout for `nettools` (Node and Bun alike): text written as the stream writes it,
 * bytes written synchronously, and what became of the output.
 */
import { writeSync } from "node:fs";

/**
 * The process's stdout as a command writes it. A reader that goes away (`| head`) closes the
 * pipe: from then on output is dropped silently and the command finishes with its own exit code,
 * as grep does. Any other write failure (a full disk) is one line on stderr, and exit 3.
 */
/** A cell to sleep on (`Atomics.wait`) while a full pipe drains. */
const PIPE_FULL_PAUSE = new Int32Array(new SharedArrayBuffer(4));

export function processStdout(): {
  write: (text: string) => void;
  writeBytes: (bytes: Uint8Array) => void;
  /** The write error that ended the output (a full disk), or null: a closed pipe is none. */
  failure: () => string | null;
} {
  let closed = false;
  let failed: string | null = null;
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    closed = true;
    if (error.code !== "EPIPE" && failed === null) {
      failed = error.code ?? "an unknown error";
      process.stderr.write(`nettools: cannot write the output (${failed})\n`);
    }
  });
  return {
    write: (text) => {
      if (closed) return;
      try {
        process.stdout.write(text);
      } catch {
        closed = true;
      }
    },
    // Bytes are written synchronously (the caller reuses its buffer): `match` streams tens of
    // megabytes, and a synchronous write neither copies them nor queues them in memory.
    // A pipe whose reader is slower than us is full now and then (EAGAIN on a non-blocking stdout):
    // wait a millisecond and write the rest, never drop it.
    writeBytes: (bytes) => {
      if (closed) return;
      try {
        for (let done = 0; done < bytes.length; ) {
          try {
            done += writeSync(1, bytes, done, bytes.length - done);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
            Atomics.wait(PIPE_FULL_PAUSE, 0, 0, 1);
          }
        }
      } catch (error) {
        closed = true;
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== "EPIPE" && failed === null) {
          failed = code ?? "an unknown error";
          process.stderr.write(`nettools: cannot write the output (${failed})\n`);
        }
      }
    },
    failure: () => failed,
  };
}
