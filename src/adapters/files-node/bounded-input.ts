/**
 * Local inputs read with a cap (src/local/input-limits.ts): a stream (stdin, a pipe, a device such
 * as /dev/zero) is read chunk by chunk and given up as soon as it passes the cap; a regular file
 * over the cap is refused by its size, before it is read. The refusal is {@link InputTooLarge}:
 * one line naming the input and the cap, exit 2 (src/cli/main.ts). The CLI reaches it through the
 * LocalFiles port (src/local/ports.ts, local-files.ts).
 */
import { open } from "node:fs/promises";
import type { Readable } from "node:stream";
import { type InputLimit, InputTooLarge, sizeInWords } from "../../local/input-limits.ts";

/** Bytes read per call from a file that is not regular (a device, a FIFO). */
const CHUNK = 256 * 1024;

function tooLarge(name: string, limit: InputLimit): InputTooLarge {
  const cap = sizeInWords(limit.maxBytes);
  return new InputTooLarge(`${name}: more than ${cap}: nettools reads at most ${cap} of ${limit.kind}`);
}

/** Chunks joined into one buffer (one copy). */
function joined(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** A readable stream's bytes, given up (and the stream destroyed) past `limit`. */
export async function boundedStream(stream: Readable, name: string, limit: InputLimit): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const bytes: Uint8Array = typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
    total += bytes.length;
    if (total > limit.maxBytes) {
      chunks.length = 0;
      stream.destroy();
      throw tooLarge(name, limit);
    }
    chunks.push(bytes);
  }
  return joined(chunks, total);
}

/**
 * A file's bytes within `limit`: a regular file by its size first (then `whole(path)` reads it, a
 * mapping where one is used), anything else (a device, a FIFO) read in chunks up to the cap.
 * `capRegularFiles: false` (match's searched files, mapped rather than copied) skips the size check.
 * Errors opening the file are the runtime's own (callers name the file).
 */
export async function boundedFile(
  path: string,
  limit: InputLimit,
  whole: (path: string) => Promise<Uint8Array>,
  options: { capRegularFiles: boolean } = { capRegularFiles: true },
): Promise<Uint8Array> {
  const handle = await open(path, "r");
  try {
    const info = await handle.stat();
    if (info.isFile()) {
      if (options.capRegularFiles && info.size > limit.maxBytes) throw tooLarge(path, limit);
      return await whole(path);
    }
    if (info.isDirectory()) throw Object.assign(new Error(`${path} is a directory`), { code: "EISDIR" });
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const buffer = new Uint8Array(CHUNK);
      const { bytesRead } = await handle.read(buffer, 0, CHUNK, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > limit.maxBytes) throw tooLarge(path, limit);
      chunks.push(bytesRead === CHUNK ? buffer : buffer.subarray(0, bytesRead));
    }
    return joined(chunks, total);
  } finally {
    await handle.close();
  }
}
