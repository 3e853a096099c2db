/**
 * Why `-x` dropped or cut an entry (CONTRACT §12 "-x reasons"): for one input block, the excluded
 * special-purpose rows it met (src/domain/ip/special.ts, the rows `excludeSpecial` removes), the
 * most general of them, and whether nothing of the block is left (dropped) or a part is (cut).
 */
import type { IpPrefix } from "./prefix.ts";
import { type SpecialBlock, specialRangeTable } from "./special.ts";

/** What `-x` did to one entry: dropped whole or cut, and the most general excluded row it met. */
export interface SpecialReason {
  readonly outcome: "dropped" | "cut";
  /** The most general excluded row the entry met (shortest prefix; the lowest on a tie). */
  readonly block: SpecialBlock;
  /** How many other excluded rows it met outside {@link block} (rows inside it are not counted). */
  readonly others: number;
}

/** The excluded segments of one family as bigints, made once. */
const segmentCache = new Map<4 | 6, { first: bigint; last: bigint; row: SpecialBlock }[]>();

function wordsToBigInt(read: (k: number) => number): bigint {
  return (BigInt(read(0)) << 96n) | (BigInt(read(1)) << 64n) | (BigInt(read(2)) << 32n) | BigInt(read(3));
}

function excludedSegments(family: 4 | 6): { first: bigint; last: bigint; row: SpecialBlock }[] {
  let segments = segmentCache.get(family);
  if (segments === undefined) {
    const { ranges, rows } = specialRangeTable(family).excluded;
    segments = rows.map((row, i) => ({
      first: wordsToBigInt((k) => ranges.first(i, k)),
      last: wordsToBigInt((k) => ranges.last(i, k)),
      row,
    }));
    segmentCache.set(family, segments);
  }
  return segments;
}

/**
 * What excluding the special-purpose space does to `block`: null when it meets no excluded row
 * (the block is kept whole), else whether it is dropped or cut and the most general row met.
 * Costs one pass over the table's few dozen segments; never enumerates addresses.
 */
export function specialReasonOf(block: IpPrefix): SpecialReason | null {
  const first = block.first.toBigInt();
  const last = block.last.toBigInt();
  const met: SpecialBlock[] = [];
  let removed = 0n;
  for (const segment of excludedSegments(block.family)) {
    if (segment.last < first || segment.first > last) continue;
    const from = segment.first > first ? segment.first : first;
    const to = segment.last < last ? segment.last : last;
    removed += to - from + 1n;
    if (!met.includes(segment.row)) met.push(segment.row);
  }
  if (met.length === 0) return null;
  let general = met[0]!;
  for (const row of met) {
    const more = row.parsed.bits < general.parsed.bits;
    const tie = row.parsed.bits === general.parsed.bits && row.parsed.first.compare(general.parsed.first) < 0;
    if (more || tie) general = row;
  }
  return {
    outcome: removed === last - first + 1n ? "dropped" : "cut",
    block: general,
    others: met.filter((row) => row !== general && !general.parsed.contains(row.parsed.first)).length,
  };
}

/**
 * The line `merge -x` writes about an entry it dropped or cut (CONTRACT §12), without the place
 * of a file's line: `excluded 0.0.0.0/8: 0.0.0.0/8 "This network" (RFC 791)` or `cut 10.0.0.0/7:
 * 10.0.0.0/8 Private-Use (RFC 1918) removed`, naming the most general special block met and how
 * many more there were. `entry` is the entry as written. Shared by the CLI and the page.
 */
export function specialReasonText(entry: string, reason: SpecialReason): string {
  const { prefix, name, rfc } = reason.block;
  const others =
    reason.others === 0
      ? ""
      : ` and ${reason.others} more special ${reason.others === 1 ? "block" : "blocks"}`;
  return reason.outcome === "dropped"
    ? `excluded ${entry}: ${prefix} ${name} (${rfc})${others}`
    : `cut ${entry}: ${prefix} ${name} (${rfc})${others} removed`;
}
