/**
 * The LocalFiles port (src/local/ports.ts) on node:fs: bounded reads (bounded-input.ts), Bun's file
 * mapping where there is one (file-bytes.ts, replaced by its plain Node half in the npm package),
 * capped whole reads (CRL files), directory listings (`--roots DIR`) and atomic replacement
 * (atomic-file.ts). Only `node:` modules, so the same code runs under Bun and under the Node
 * package; the CLI's composition root binds it.
 */
import { open, readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import type { LocalFiles } from "../../local/ports.ts";
import { replaceFile } from "./atomic-file.ts";
import { boundedFile, boundedStream } from "./bounded-input.ts";
import { fileBytes } from "./file-bytes.ts";

/** Node's files, stdin and the files the CLI writes. */
export const NODE_LOCAL_FILES: LocalFiles = {
  read: (path, limit, how = {}) =>
    boundedFile(
      path,
      limit,
      how.mapped === true ? fileBytes : async (file) => new Uint8Array(await readFile(file)),
      { capRegularFiles: how.capRegularFiles ?? true },
    ),
  readWhole: async (path) => new Uint8Array(await readFile(path)),
  readStdin: (limit) => boundedStream(process.stdin, "stdin", limit),
  readCapped: readCappedFile,
  directoryEntries: async (path) =>
    (await stat(path)).isDirectory() ? (await readdir(path)).map((name) => join(path, name)) : null,
  replace: replaceFile,
};

/** A file's bytes, refused (one line) when it is larger than `maxBytes` or unreadable. */
async function readCappedFile(
  path: string,
  maxBytes: number,
): Promise<{ ok: true; bytes: Uint8Array } | { ok: false; message: string }> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(path, "r");
    const size = (await handle.stat()).size;
    if (size > maxBytes)
      return { ok: false, message: `${path} is ${size} bytes, over the ${maxBytes}-byte limit` };
    const bytes = new Uint8Array(size);
    let filled = 0;
    while (filled < size) {
      const { bytesRead } = await handle.read(bytes, filled, size - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return { ok: true, bytes: bytes.subarray(0, filled) };
  } catch (error) {
    return {
      ok: false,
      message: `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? "unreadable"}`,
    };
  } finally {
    await handle?.close();
  }
}
