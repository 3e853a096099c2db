/**
 * Bytes out for the commands that print millions of lines (`match`, `expand`): the process's
 * synchronous byte writer, or one for an `Io` that only has text members (tests). The chunks they
 * are gathered in are src/adapters/process-node/chunked-output.ts's (through the composition root).
 */
import type { ByteIo, Io } from "./io.ts";

/** The byte members of `io`, or bytes through its text members when it has none (tests). */
export function byteIo(io: Io): ByteIo {
  if (io.bytes !== undefined) return io.bytes;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  return {
    readStdin: async (limit) => encoder.encode(await io.readStdin(limit)),
    readFile: async (path, limit) => encoder.encode(await io.readFile(path, limit)),
    stdout: (chunk) => io.stdout(decoder.decode(chunk, { stream: true })),
  };
}
