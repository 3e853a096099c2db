/**
 * `nettools expand` as a use case (CONTRACT §8.7): every address of an ITEM — an address, a CIDR
 * (network and broadcast included) or a range `START-END` of one family — read and counted before
 * anything is written, then written one a line as bytes (CONTRACT §2's text: RFC 5952,
 * `::ffff:a.b.c.d`) straight into the output's chunks by src/domain/ip/text.ts's writer.
 */
import { type IpAddr, parseAddr } from "../domain/ip/addr.ts";
import { parsePrefix } from "../domain/ip/prefix.ts";
import { TEXT_WRITE_ROOM, writeText } from "../domain/ip/text.ts";
import { rangeEndpoints, type Sourced } from "./list-lines.ts";
import type { ByteChunks } from "./ports.ts";

/** The addresses of one ITEM: the first, and how many. */
export interface Expansion {
  readonly first: IpAddr;
  readonly count: bigint;
}

/** The expansion from `first` to `last` (same family, first ≤ last). */
function between(first: IpAddr, last: IpAddr): Expansion {
  return { first, count: last.toBigInt() - first.toBigInt() + 1n };
}

/** One ITEM read: its addresses, or why it is not an ITEM. */
export function readItem(text: string): Expansion | { problem: string } {
  const item = text.trim();
  if (item.includes("-")) {
    const ends = rangeEndpoints([item]);
    if (ends === null) return { problem: `${JSON.stringify(item)} is not a range: write it START-END` };
    const start = parseAddr(ends[0]);
    if (!start.ok) return { problem: start.message };
    const end = parseAddr(ends[1]);
    if (!end.ok) return { problem: end.message };
    if (start.value.family !== end.value.family) {
      return {
        problem: `${JSON.stringify(item)} is not a range: START is IPv${start.value.family} and END is IPv${end.value.family}`,
      };
    }
    if (start.value.compare(end.value) > 0) {
      return { problem: `${JSON.stringify(item)} is not a range: START is after END` };
    }
    return between(start.value, end.value);
  }
  const prefix = parsePrefix(item);
  if (!prefix.ok) return { problem: prefix.message };
  return between(prefix.value.first, prefix.value.last);
}

/** Writes the `count` addresses from `first` on, one a line, into `out`. */
export function writeAddresses(out: ByteChunks, first: IpAddr, count: number): void {
  const family = first.family;
  let { w0, w1, w2, w3 } = first;
  for (let i = 0; i < count; i++) {
    out.room(TEXT_WRITE_ROOM + 1);
    const end = writeText(out.view, out.used, family, w0, w1, w2, w3, undefined);
    out.bytes[end] = 10;
    out.used = end + 1;
    // The next address: add one to the 128-bit value, carrying between words.
    w3 = (w3 + 1) >>> 0;
    if (w3 === 0) {
      w2 = (w2 + 1) >>> 0;
      if (w2 === 0) {
        w1 = (w1 + 1) >>> 0;
        if (w1 === 0) w0 = (w0 + 1) >>> 0;
      }
    }
  }
}

/**
 * Every ITEM of `items` read: their expansions and the exact total, or every problem at its place
 * (`arg 2: …`, `stdin:3: …`).
 */
export function expansionsOf(
  items: Sourced,
): { ok: true; expansions: Expansion[]; total: bigint } | { ok: false; problems: string[] } {
  const expansions: Expansion[] = [];
  const problems: string[] = [];
  items.entries.forEach((entry, i) => {
    const read = readItem(entry);
    if ("problem" in read) problems.push(`${items.origins.at(i)}: ${read.problem}`);
    else expansions.push(read);
  });
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, expansions, total: expansions.reduce((sum, expansion) => sum + expansion.count, 0n) };
}
