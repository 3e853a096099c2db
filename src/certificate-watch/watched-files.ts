/**
 * Which files CERT_WATCH names (CONTRACT §10.1): each entry is a file, watched whatever its name,
 * or a directory read one level deep, following symbolic links (a Kubernetes Secret mount's
 * `tls.crt -> ..data/tls.crt`, `..data -> ..2026_11_28_…`), taking the regular files named like
 * certificates. The listing is done again on every pass, so a file added to a directory is watched
 * from the next pass on and a Secret whose `..data` link is swapped is read through the new link.
 */
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";

/** More files than this stop the start (exit 2); a later pass that finds more watches the first ones. */
export const MAX_WATCHED_FILES = 1_000;

/**
 * The names a directory's certificate files have: `*.pem`, `*.crt` (so `tls.crt`, `ca.crt`),
 * `*.cer`, `*.der`, `*.p7b`, `*.p7c`, in any letter case (Windows exports write `.CER`).
 */
const CERTIFICATE_FILE_NAME = /\.(pem|crt|cer|der|p7b|p7c)$/i;

/** Whether a directory entry named `name` is read as a certificate file. */
export function isCertificateFileName(name: string): boolean {
  return CERTIFICATE_FILE_NAME.test(name);
}

export interface WatchListing {
  /** The files to read, sorted, each once. */
  files: string[];
  /**
   * Entries of CERT_WATCH that cannot be watched now (absent, unreadable, neither a regular file
   * nor a directory), in the list's order.
   */
  missing: string[];
}

/**
 * The files `entries` name now. A directory's entry is joined to the directory as written (the
 * series keep the name the operator sees: `/etc/tls/tls.crt`, never the `..data` target).
 */
export async function listWatchedFiles(entries: readonly string[]): Promise<WatchListing> {
  const files = new Set<string>();
  const missing: string[] = [];
  for (const entry of entries) {
    const found = await stat(entry).catch(() => null);
    if (found === null) {
      missing.push(entry);
      continue;
    }
    if (found.isFile()) {
      files.add(entry);
      continue;
    }
    if (!found.isDirectory()) {
      missing.push(entry); // a device or a pipe: never read (it could block the watcher)
      continue;
    }
    const names = await readdir(entry).catch(() => null);
    if (names === null) {
      missing.push(entry);
      continue;
    }
    for (const name of names.sort()) {
      if (!isCertificateFileName(name)) continue;
      const path = join(entry, name);
      const target = await stat(path).catch(() => null);
      if (target?.isFile()) files.add(path);
    }
  }
  return { files: [...files].sort(), missing };
}

/**
 * The start-up check: one line naming what is wrong (a missing entry, too many files), or null.
 * The server stops with exit code 2 on it.
 */
export function startProblem(listing: WatchListing): string | null {
  const [first] = listing.missing;
  if (first !== undefined)
    return `CERT_WATCH names ${JSON.stringify(first)}, which does not exist or is not a readable file or directory`;
  if (listing.files.length > MAX_WATCHED_FILES)
    return `CERT_WATCH finds ${listing.files.length} certificate files; at most ${MAX_WATCHED_FILES} can be watched`;
  return null;
}
