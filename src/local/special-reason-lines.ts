/**
 * What `merge -x` says of each entry that excluding the special-purpose space dropped or cut
 * (CONTRACT §12): one line per entry, at its place for a line of a file, naming the most general
 * excluded block it met (the domain's `specialReasonText`). A million-entry list may say hundreds
 * of thousands of lines, so most entries are ruled out without making objects, and the lines are
 * handed on a few thousand at a time.
 */
import { parsePrefix, scanPrefixWords } from "../domain/ip/prefix.ts";
import { touchesExcludedSpecial } from "../domain/ip/special.ts";
import { specialReasonOf, specialReasonText } from "../domain/ip/special-reasons.ts";
import { maskWord } from "../domain/ip/u128.ts";
import { collectGarbageEvery } from "./heap.ts";
import type { Sourced } from "./list-lines.ts";

/** The block of the entry being looked at: network in 0–3, family in 4; then first and last address. */
const scanned = new Uint32Array(5);
const block = new Uint32Array(8);

/**
 * Whether `entry` may touch the excluded special-purpose space: false only for a CIDR or address
 * read without objects ({@link scanPrefixWords}) whose block misses every excluded row, so that
 * most entries of a long list cost no objects (issue 30); true also when it could not be read so.
 */
function mayTouchSpecial(entry: string): boolean {
  const bits = scanPrefixWords(entry, scanned);
  if (bits < 0) return true;
  const family = scanned[4] === 4 ? 4 : 6;
  const length = family === 4 ? bits + 96 : bits;
  for (let k = 0; k < 4; k++) {
    block[k] = scanned[k]!;
    block[4 + k] = (scanned[k]! | ~maskWord(length, k)) >>> 0;
  }
  return touchesExcludedSpecial(family, block);
}

/** Lines handed to `write` at once. */
const REASONS_PER_WRITE = 4096;

/**
 * The lines for `entries` (only the family `only` when given), handed to `write` as text, each
 * line ended: a place (`FILE:LINE: `) for an entry of a file, none for an argument.
 */
export function writeSpecialReasons(
  entries: Sourced,
  only: "ipv4" | "ipv6" | null,
  write: (text: string) => void,
): void {
  let lines: string[] = [];
  const flush = () => {
    if (lines.length > 0) write(`${lines.join("\n")}\n`);
    lines = [];
  };
  entries.entries.forEach((entry, i) => {
    collectGarbageEvery(i);
    if (!mayTouchSpecial(entry)) return;
    const parsed = parsePrefix(entry);
    if (!parsed.ok || (only !== null && (parsed.value.family === 6) !== (only === "ipv6"))) return;
    const reason = specialReasonOf(parsed.value);
    if (reason === null) return;
    const origin = entries.origins.at(i) ?? "";
    const place = origin.startsWith("arg ") || origin === "" ? "" : `${origin}: `;
    lines.push(`${place}${specialReasonText(entry.trim(), reason)}`);
    if (lines.length === REASONS_PER_WRITE) flush();
  });
  flush();
}
