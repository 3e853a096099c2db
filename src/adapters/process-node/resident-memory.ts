/**
 * ResidentMemory (src/local/ports.ts) for Node and Bun alike: the process's resident set size,
 * which a certificate command's work budget checks against its memory ceiling.
 */
import type { ResidentMemory } from "../../local/ports.ts";

export const PROCESS_RESIDENT_MEMORY: ResidentMemory = {
  residentBytes: () => process.memoryUsage.rss(),
};
