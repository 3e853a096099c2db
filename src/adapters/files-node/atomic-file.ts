/**
 * Files the CLI writes for a deploy script to pick up (`chain --fix -o fullchain.pem`, `--save`):
 * replaced atomically (CONTRACT §7.1), so a reader (nginx reloading, a second run) sees the old
 * file or the new one, never half of one, and a failed run leaves the old file as it was.
 */
import { chmod, rename, stat, unlink, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/**
 * Writes `text` to `path` through a temporary file in the same folder (a rename within one file
 * system is atomic on POSIX), keeping the permission bits of the file it replaces. On failure the
 * temporary file is removed and the error thrown; `path` is untouched.
 */
export async function replaceFile(path: string, text: string): Promise<void> {
  const temporary = join(
    dirname(path),
    `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`,
  );
  try {
    await writeFile(temporary, text, { flag: "wx", mode: 0o644 });
    const mode = await existingMode(path);
    if (mode !== null) await chmod(temporary, mode);
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw error;
  }
}

/** The permission bits of the file at `path`, or null when there is none. */
async function existingMode(path: string): Promise<number | null> {
  try {
    return (await stat(path)).mode & 0o7777;
  } catch {
    return null;
  }
}
