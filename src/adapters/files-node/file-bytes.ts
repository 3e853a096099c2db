/**
 * A file's bytes (large logs for `match`): mapped rather than copied under Bun, read whole under
 * plain Node. The npm package (scripts/build-cli-package.ts) replaces this module with its plain
 * Node half, `readFile`, so that the published CLI names no Bun API outside `serve`.
 */
import { readFile } from "node:fs/promises";

export async function fileBytes(path: string): Promise<Uint8Array> {
  if (typeof Bun !== "undefined") {
    try {
      return Bun.mmap(path, { shared: false });
    } catch {
      // Not mappable (a pipe, an empty file): read it.
    }
  }
  return readFile(path);
}
