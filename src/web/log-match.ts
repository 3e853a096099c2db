/**
 * Log matching on the page (issue 34.7): `nettools match -f PATTERNS` run on a pasted log, in the
 * browser, through the CLI's own engine (src/local/grepcidr/scanner.ts: grepcidr's walk, the same
 * pattern reader and labels), so the page prints the bytes the CLI prints for the same pattern
 * file and log. Nothing is sent: a log stays on the user's machine.
 */

import { AddressSet } from "../domain/ip/address-set.ts";
import { RangeList } from "../domain/ip/range-list.ts";
import { specialExcludedSet } from "../domain/ip/special-excluded.ts";
import { PatternLabels } from "../local/grepcidr/pattern-labels.ts";
import { type PatternLists, patternWarnings, readPatternFile } from "../local/grepcidr/patterns.ts";
import { AddressScanner, matchInput } from "../local/grepcidr/scanner.ts";
import type { ByteSink } from "../local/ports.ts";

/** The options of the form, as `match`'s flags. */
export interface LogMatchOptions {
  /** `-v`: lines holding an address but none inside a pattern. */
  readonly invert: boolean;
  /** `-c`: only the number of lines selected. */
  readonly count: boolean;
  /** `-o`: only the matching addresses. */
  readonly onlyMatching: boolean;
  /** `--print-pattern`: each matching address, its most specific pattern and that pattern's label. */
  readonly printPattern: boolean;
  /** `-x`: special-purpose addresses are not addresses. */
  readonly excludeReserved: boolean;
}

/** What `match` prints: stdout's bytes, stderr's lines, and the exit status. */
export interface LogMatch {
  readonly stdout: Uint8Array;
  readonly stderr: string[];
  /** 0 a line was selected, 1 none was (grepcidr's status). */
  readonly exit: 0 | 1;
  readonly selected: number;
}

/** The `match` flags these options are, in the order its help lists them (for the page to say). */
export function matchFlags(options: LogMatchOptions): string[] {
  const flags: string[] = [];
  if (options.invert) flags.push("-v");
  if (options.count) flags.push("-c");
  if (options.onlyMatching && !options.printPattern) flags.push("-o");
  if (options.printPattern) flags.push("--print-pattern");
  if (options.excludeReserved) flags.push("-x");
  return flags;
}

/** Why these options cannot go together, in `match`'s words; or null. */
export function matchOptionsProblem(options: LogMatchOptions): string | null {
  const printing = options.printPattern ? "--print-pattern" : options.onlyMatching ? "-o" : null;
  if (printing !== null && (options.invert || options.count)) {
    return `${printing} prints matching addresses: it cannot go with ${options.invert ? "-v" : "-c"}`;
  }
  return null;
}

/** Bytes gathered in one growing array. */
class ByteList implements ByteSink {
  private bytes = new Uint8Array(4096);
  private used = 0;

  private reserve(n: number): void {
    if (this.used + n <= this.bytes.length) return;
    const bigger = new Uint8Array(Math.max(this.bytes.length * 2, this.used + n));
    bigger.set(this.bytes.subarray(0, this.used));
    this.bytes = bigger;
  }

  copy(source: Uint8Array, from: number, to: number): void {
    if (to <= from) return;
    this.reserve(to - from);
    this.bytes.set(source.subarray(from, to), this.used);
    this.used += to - from;
  }

  byte(c: number): void {
    this.reserve(1);
    this.bytes[this.used++] = c;
  }

  done(): Uint8Array {
    return this.bytes.slice(0, this.used);
  }
}

/**
 * `nettools match -f FILE [flags]` with `patterns` as the pattern file named `fileName` and `log`
 * as standard input: the same warnings (`FILE:LINE: …`), lines, addresses or count. Throws for
 * options that cannot go together (see {@link matchOptionsProblem}).
 */
export function matchLog(
  patterns: Uint8Array,
  log: Uint8Array,
  options: LogMatchOptions,
  fileName = "patterns.txt",
): LogMatch {
  const problem = matchOptionsProblem(options);
  if (problem !== null) throw new Error(problem);
  const lists: PatternLists = { v4: new RangeList(4), v6: new RangeList(6), warnings: [], skipped: 0 };
  readPatternFile(patterns, fileName, lists);
  const labels = options.printPattern ? new PatternLabels() : null;
  labels?.addFile(new TextDecoder().decode(patterns));
  const stderr = patternWarnings(lists).map((warning) => `warning: ${warning}`);
  const set = new AddressSet(lists.v4, lists.v6);
  if (!set.hasIpv4 && !set.hasIpv6) stderr.push("warning: no pattern was read: no line can match");
  const scanner = new AddressScanner(set, options.excludeReserved ? specialExcludedSet() : null);
  const out = options.count ? null : new ByteList();
  const selected = matchInput(log, {
    scanner,
    options: {
      invert: options.invert,
      count: options.count,
      onlyMatching: options.onlyMatching || options.printPattern,
    },
    out,
    prefix: null,
    labels,
  });
  const stdout = out === null ? new TextEncoder().encode(`${selected}\n`) : out.done();
  return { stdout, stderr, exit: selected > 0 ? 0 : 1, selected };
}
