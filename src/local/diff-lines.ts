/**
 * `nettools diff`'s lines (CONTRACT §8.4): `-CIDR` for a block only in list A, `+CIDR` for one only
 * in B, in address order, IPv4 first, made a few thousand at a time so that a diff of a million
 * entries is written as it is made (issue 30). The command prints them as they come.
 */
import { scanPrefixWords } from "../domain/ip/prefix.ts";

/** The words of the two CIDRs being ordered (network address in 0–3, family in 4). */
const wordsA = new Uint32Array(5);
const wordsB = new Uint32Array(5);

/**
 * Whether canonical CIDR `a`'s network address comes before `b`'s: IPv4 before IPv6, then by
 * address. Read into words, never into objects (a diff of a million entries, issue 30).
 */
function comesFirst(a: string, b: string): boolean {
  if (scanPrefixWords(a, wordsA) < 0) throw new Error(`not a canonical CIDR: ${a}`);
  if (scanPrefixWords(b, wordsB) < 0) throw new Error(`not a canonical CIDR: ${b}`);
  if (wordsA[4] !== wordsB[4]) return wordsA[4]! < wordsB[4]!;
  for (let k = 0; k < 4; k++) if (wordsA[k] !== wordsB[k]) return wordsA[k]! < wordsB[k]!;
  return false;
}

/** Lines a chunk of the diff holds ({@link diffChunks}). */
const LINES_PER_CHUNK = 4096;

/**
 * `-` lines for `onlyA` and `+` lines for `onlyB`, merged in address order, IPv4 first, in chunks
 * of a few thousand lines (to write as they are made). Each list is sorted that way already and
 * the two are disjoint, so no two lines share a network address.
 */
export function* diffChunks(onlyA: readonly string[], onlyB: readonly string[]): Generator<string> {
  let lines: string[] = [];
  let i = 0;
  let j = 0;
  while (i < onlyA.length || j < onlyB.length) {
    const takeA = j === onlyB.length || (i < onlyA.length && comesFirst(onlyA[i]!, onlyB[j]!));
    lines.push(takeA ? `-${onlyA[i++]}` : `+${onlyB[j++]}`);
    if (lines.length === LINES_PER_CHUNK) {
      yield `${lines.join("\n")}\n`;
      lines = [];
    }
  }
  if (lines.length > 0) yield `${lines.join("\n")}\n`;
}
