/**
 * One `nettools match` run over its inputs (CONTRACT §7.4, §8.5): the patterns read from the
 * command line and from pattern files (with their labels for `--print-pattern`), then each input
 * walked by the scanner in turn, its selected lines or addresses written to the sink, `FILE:` before
 * each when there are several inputs, as grepcidr writes them. The inputs are read by the caller,
 * which says itself why one cannot be.
 */
import { RangeList } from "../../domain/ip/range-list.ts";
import { INPUT_LIMITS, type InputLimit } from "../input-limits.ts";
import type { ByteSink } from "../ports.ts";
import { PatternLabels } from "./pattern-labels.ts";
import { type PatternLists, readPatternFile, readPatternWords } from "./patterns.ts";
import { type AddressScanner, type MatchOptions, matchInput } from "./scanner.ts";

/** An input's bytes (`-` is stdin), or null once the caller has said why it cannot be read. */
export type ReadInput = (name: string, limit: InputLimit) => Promise<Uint8Array | null>;

/**
 * The patterns of `-e`/PATTERN words (`inline`) and of `-f` files, with the labels of the lines
 * that carry one when `withLabels`; null when a pattern file cannot be read.
 */
export async function readMatchPatterns(
  inline: readonly string[],
  files: readonly string[],
  read: ReadInput,
  withLabels: boolean,
): Promise<{ lists: PatternLists; labels: PatternLabels | null } | null> {
  const lists: PatternLists = { v4: new RangeList(4), v6: new RangeList(6), warnings: [], skipped: 0 };
  const labels = withLabels ? new PatternLabels() : null;
  for (const [n, text] of inline.entries()) {
    readPatternWords(text, inline.length > 1 ? `pattern ${n + 1}` : "pattern", lists);
    labels?.addWords(text);
  }
  for (const file of files) {
    const data = await read(file, INPUT_LIMITS.patterns);
    if (data === null) return null;
    readPatternFile(data, file === "-" ? "stdin" : file, lists);
    labels?.addFile(new TextDecoder().decode(data));
  }
  return { lists, labels };
}

/**
 * Walks every input (`-` is stdin), writing what it selects to `out` (null with `-c`): the number
 * of lines selected, or null when an input cannot be read (the walk stops there).
 */
export async function matchInputs(
  inputs: readonly string[],
  read: ReadInput,
  walk: {
    scanner: AddressScanner;
    options: MatchOptions;
    out: ByteSink | null;
    labels: PatternLabels | null;
  },
): Promise<number | null> {
  const encoder = new TextEncoder();
  let selected = 0;
  for (const input of inputs) {
    const data = await read(input, INPUT_LIMITS.searchedStream);
    if (data === null) return null;
    const prefix =
      inputs.length > 1 ? encoder.encode(`${input === "-" ? "(standard input)" : input}:`) : null;
    selected += matchInput(data, { ...walk, prefix });
  }
  return selected;
}
