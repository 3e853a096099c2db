/**
 * Garbage of long loops over a local list, collected as it is made (CONTRACT §7.3's 384 MB budget,
 * issue 30). A loop that reads a million entries through the domain's parser makes a few small
 * objects per entry and keeps none; Bun's collector (JavaScriptCore) lets that garbage grow to
 * hundreds of megabytes before it runs in a synchronous loop, and the resident size stays at that
 * peak. A young-generation collection every {@link ENTRIES_PER_COLLECTION} entries keeps it at a
 * few megabytes and costs less than the memory it saves (a million-entry `merge -x`: 494 → 284 MB
 * peak, 18 → 9 s). Under Node (the npm package) there is nothing to ask: V8 collects its young
 * generation on its own, and the package's build puts a module that does nothing in this one's place
 * (scripts/build-cli-package.ts), so the package names no Bun API.
 */

/** Entries between two collections: about 10 MB of a parser's garbage. */
const ENTRIES_PER_COLLECTION = 65_536;

const runtime = (globalThis as { Bun?: { gc(full: boolean): void } }).Bun;

/** Call with the index of each entry a long loop reads: every so often, the young garbage is collected. */
export function collectGarbageEvery(index: number): void {
  if (index % ENTRIES_PER_COLLECTION === ENTRIES_PER_COLLECTION - 1) runtime?.gc(false);
}
