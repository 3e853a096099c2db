/**
 * `match --print-pattern` (CONTRACT §12): which pattern matched an address, and its label. A line
 * of a pattern file may carry a label after the pattern (whitespace, then the rest of the line up
 * to a `#` comment: `52.94.5.0/24  DYNAMODB eu-west-1`); grepcidr reads the pattern and ignores
 * the rest, so the selection is unchanged. For each matching address the most specific pattern
 * holding it is found by prefix length (longest first), never by a scan of every pattern.
 */
import { parseAddr } from "../../domain/ip/addr.ts";
import { parsePrefix } from "../../domain/ip/prefix.ts";
import { rangeEndpoints } from "../list-lines.ts";

/** One pattern as written, with its label ("" when none). */
interface Labelled {
  readonly text: string;
  readonly label: string;
}

/** A range pattern (`192.0.2.10-192.0.2.20`): its ends as numbers. */
interface RangePattern extends Labelled {
  readonly family: 4 | 6;
  readonly first: bigint;
  readonly last: bigint;
}

/** The patterns of a run, indexed for "the most specific pattern holding this address". */
export class PatternLabels {
  /** Per family, per prefix length: network value → the first pattern of that block. */
  private readonly blocks = new Map<string, Map<bigint, Labelled>>();
  /** Prefix lengths present, per family, longest first. */
  private readonly lengths: Record<4 | 6, number[]> = { 4: [], 6: [] };
  private readonly ranges: RangePattern[] = [];

  /** Adds the patterns of a pattern file's text: one a line, `#` comments and blank lines skipped. */
  addFile(text: string): void {
    for (const raw of text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/)) {
      const line = (raw.split("#")[0] ?? "").trim();
      if (line === "") continue;
      const range = /^(\S+)\s*-\s*(\S+)(?:\s+(.*))?$/.exec(line);
      if (range !== null && rangeEndpoints([`${range[1]}-${range[2]}`]) !== null) {
        this.addRange(`${range[1]}-${range[2]}`, range[3] ?? "");
        continue;
      }
      const [pattern = "", ...label] = line.split(/\s+/);
      this.add(pattern, label.join(" "));
    }
  }

  /** Adds patterns given on the command line: words separated by spaces or commas, no labels. */
  addWords(text: string): void {
    for (const word of text.split(/[\s,]+/)) if (word !== "") this.add(word, "");
  }

  private add(pattern: string, label: string): void {
    if (pattern.includes("-")) {
      this.addRange(pattern, label);
      return;
    }
    const parsed = parsePrefix(pattern);
    if (!parsed.ok) return;
    const { family, bits } = parsed.value;
    const key = `${family}/${bits}`;
    let byNetwork = this.blocks.get(key);
    if (byNetwork === undefined) {
      byNetwork = new Map();
      this.blocks.set(key, byNetwork);
      this.lengths[family].push(bits);
      this.lengths[family].sort((a, b) => b - a);
    }
    const network = parsed.value.first.toBigInt();
    if (!byNetwork.has(network)) byNetwork.set(network, { text: pattern, label });
  }

  private addRange(pattern: string, label: string): void {
    const ends = rangeEndpoints([pattern]);
    if (ends === null) return;
    const first = parseAddr(ends[0]);
    const last = parseAddr(ends[1]);
    if (!first.ok || !last.ok || first.value.family !== last.value.family) return;
    const range = {
      text: pattern,
      label,
      family: first.value.family,
      first: first.value.toBigInt(),
      last: last.value.toBigInt(),
    };
    if (range.first <= range.last) this.ranges.push(range);
  }

  /** The most specific pattern holding `address` (text as found in a line), or null. */
  find(address: string): Labelled | null {
    const parsed = parseAddr(address.split("/")[0] ?? "");
    if (!parsed.ok) return null;
    const { family } = parsed.value;
    const value = parsed.value.toBigInt();
    const width = family === 4 ? 32 : 128;
    let best: Labelled | null = null;
    let bestSize = -1n;
    for (const bits of this.lengths[family]) {
      const hostBits = BigInt(width - bits);
      const found = this.blocks.get(`${family}/${bits}`)?.get((value >> hostBits) << hostBits);
      if (found !== undefined) {
        best = found;
        bestSize = 1n << hostBits;
        break;
      }
    }
    for (const range of this.ranges) {
      if (range.family !== family || value < range.first || value > range.last) continue;
      const size = range.last - range.first + 1n;
      if (best === null || size < bestSize) {
        best = range;
        bestSize = size;
      }
    }
    return best;
  }
}
