/**
 * `nettools expand ITEM...` (CONTRACT §8.7): every address of each ITEM, one a line, like `prips`.
 * An ITEM is an address, a CIDR (all its addresses, network and broadcast included) or a range
 * `START-END`; `-` reads ITEMs from stdin, one a line (a byte-order mark, blank lines, `#`
 * comments and CRLF accepted, CONTRACT §7.6). Every ITEM is read and checked, and the exact total
 * computed, before anything is printed: over the cap (65536, `--max N` up to 16777216) nothing is
 * printed and the exit status is 2. Text per CONTRACT §2 (RFC 5952, `::ffff:a.b.c.d`), written as
 * bytes straight into the output chunks (src/domain/ip/text.ts's writer).
 */
import { parseArgs } from "node:util";
import { type IpFamily, parseAddr } from "../../domain/ip/addr.ts";
import { parsePrefix } from "../../domain/ip/prefix.ts";
import { ADDRESS_WRITE_ROOM, writeAddressText } from "../../domain/ip/text.ts";
import { byteIo, ChunkedOutput } from "../byte-output.ts";
import { linesOf, rangeEndpoints, type Sourced } from "../input.ts";
import { EXIT, type Io, UsageError } from "../io.ts";
import { chooseStyle } from "../style.ts";
import type { Command } from "./command.ts";

/** Addresses printed at most without `--max`, and the largest `--max`. */
export const EXPAND_DEFAULT_MAX = 65536;
export const EXPAND_MAX_LIMIT = 16_777_216;

const HELP = `Usage: nettools expand [--max N] ITEM... | -

Prints every address of each ITEM, one a line: in address order within an ITEM, the ITEMs in
the order given, nothing merged (overlapping ITEMs print their addresses twice), like prips.
An ITEM is an address, a CIDR (all its addresses, network and broadcast included) or a range
START-END of one family. "-" reads ITEMs from stdin, one a line (blank lines and "# comments"
skipped). IPv6 is written as RFC 5952 says, IPv4-mapped addresses as ::ffff:192.0.2.1.

Options:
  --max N      print at most N addresses in all (default ${EXPAND_DEFAULT_MAX}, at most ${EXPAND_MAX_LIMIT}); over
               it nothing is printed and the exit code is 2
  -h, --help   show this help

Every ITEM is checked and the total counted before anything is printed.
Exit codes: 0 printed, 2 invalid ITEM, over the limit, or usage.

Examples: nettools expand 192.0.2.0/30
          nettools expand 10.0.0.250-10.0.1.5 2001:db8::/126 | xargs -n1 ping -c1 -W1`;

/** The addresses of one ITEM: its family and first and last address words (an IPv4 address in word 3). */
interface Expansion {
  readonly family: IpFamily;
  readonly first: readonly [number, number, number, number];
  readonly last: readonly [number, number, number, number];
  readonly count: bigint;
}

const WORD = 0xffff_ffffn;

function wordsOf(value: bigint): [number, number, number, number] {
  return [
    Number((value >> 96n) & WORD),
    Number((value >> 64n) & WORD),
    Number((value >> 32n) & WORD),
    Number(value & WORD),
  ];
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
    const first = start.value.toBigInt();
    const last = end.value.toBigInt();
    if (first > last) return { problem: `${JSON.stringify(item)} is not a range: START is after END` };
    return {
      family: start.value.family,
      first: wordsOf(first),
      last: wordsOf(last),
      count: last - first + 1n,
    };
  }
  const prefix = parsePrefix(item);
  if (!prefix.ok) return { problem: prefix.message };
  const first = prefix.value.first.toBigInt();
  const last = prefix.value.last.toBigInt();
  return {
    family: prefix.value.family,
    first: wordsOf(first),
    last: wordsOf(last),
    count: last - first + 1n,
  };
}

/** Writes the `count` addresses from `first` (words) on, one a line, into `out`. */
function writeAddresses(out: ChunkedOutput, family: IpFamily, first: readonly number[], count: number): void {
  let w0 = first[0]!;
  let w1 = first[1]!;
  let w2 = first[2]!;
  let w3 = first[3]!;
  for (let i = 0; i < count; i++) {
    out.room(ADDRESS_WRITE_ROOM + 1);
    const end = writeAddressText(out.view, out.used, family, w0, w1, w2, w3);
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

/** `--max`: a whole number from 1 to {@link EXPAND_MAX_LIMIT}. */
function readMax(text: string | undefined): number {
  if (text === undefined) return EXPAND_DEFAULT_MAX;
  if (!/^[0-9]+$/.test(text) || Number(text) < 1 || Number(text) > EXPAND_MAX_LIMIT) {
    throw new UsageError(
      `--max must be a whole number from 1 to ${EXPAND_MAX_LIMIT}, not ${JSON.stringify(text)}`,
    );
  }
  return Number(text);
}

export const expand: Command = {
  name: "expand",
  help: HELP,
  async run(args: string[], io: Io): Promise<number> {
    let parsed: ReturnType<typeof parseExpandArgs>;
    try {
      parsed = parseExpandArgs(args);
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error));
    }
    const { values, positionals } = parsed;
    if (values.help) {
      io.stdout(`${HELP}\n`);
      return EXIT.ok;
    }
    const max = readMax(values.max);
    if (positionals.length === 0)
      throw new UsageError("expand needs at least one ITEM (an address, a CIDR or START-END), or -");
    if (positionals.filter((item) => item === "-").length > 1)
      throw new UsageError('stdin ("-") can be read only once');

    const items: Sourced = { entries: [], origins: [] };
    for (const [i, item] of positionals.entries()) {
      if (item === "-") {
        linesOf((await io.readStdin()).replace(/^\uFEFF/, ""), "stdin", items);
      } else {
        items.entries.push(item);
        items.origins.push(`arg ${i + 1}`);
      }
    }
    const err = chooseStyle(io.stderrIsTty, io.env);
    const expansions: Expansion[] = [];
    const problems: string[] = [];
    items.entries.forEach((entry, i) => {
      const read = readItem(entry);
      if ("problem" in read) problems.push(`${items.origins[i]}: ${read.problem}`);
      else expansions.push(read);
    });
    if (problems.length > 0) {
      for (const problem of problems.slice(0, 100)) io.stderr(`${err.red("error")}: ${problem}\n`);
      if (problems.length > 100)
        io.stderr(`${err.red("error")}: … and ${problems.length - 100} more invalid ITEMs\n`);
      return EXIT.invalidInput;
    }
    const total = expansions.reduce((sum, expansion) => sum + expansion.count, 0n);
    if (total > BigInt(max)) {
      io.stderr(`${err.red("error")}: would print ${total} addresses, over the limit of ${max} (--max)\n`);
      return EXIT.invalidInput;
    }
    const out = new ChunkedOutput(byteIo(io).stdout);
    for (const expansion of expansions)
      writeAddresses(out, expansion.family, expansion.first, Number(expansion.count));
    out.flush();
    return EXIT.ok;
  },
};

function parseExpandArgs(args: string[]) {
  return parseArgs({
    args,
    options: { max: { type: "string" }, help: { type: "boolean", short: "h" } },
    allowPositionals: true,
    strict: true,
  });
}
