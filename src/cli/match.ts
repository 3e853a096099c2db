/**
 * `nettools match` (CONTRACT §7.4, §8.5, §8.7; issues 18 and 24): selects exactly the lines Debian
 * 12's grepcidr 2.0 selects, with the same output bytes and exit status, plus `-o` (the matching
 * addresses only) and `-x` (special-purpose addresses are not addresses). This is the command: its
 * options, its files and its words. How grepcidr finds addresses in a line, and how the walk is
 * kept fast, is src/local/grepcidr/scanner.ts's; the run over the inputs is match-run.ts's.
 */
import { AddressSet } from "../domain/ip/address-set.ts";
import { specialExcludedSet } from "../domain/ip/special-excluded.ts";
import { matchInputs, readMatchPatterns } from "../local/grepcidr/match-run.ts";
import { type PatternLists, patternWarnings } from "../local/grepcidr/patterns.ts";
import { AddressScanner, type MatchOptions } from "../local/grepcidr/scanner.ts";
import type { InputLimit } from "../local/input-limits.ts";
import { byteIo } from "./byte-output.ts";
import { command, help, options } from "./command.ts";
import { ChunkedOutput } from "./composition-root.ts";
import { type ByteIo, EXIT, InputTooLarge, type Io, stdinOnlyOnce, UsageError } from "./io.ts";

const MATCH_HELP = help`Usage: nettools match [options] PATTERN [FILE...]
       nettools match [options] -f PATTERN_FILE [FILE...]
       nettools match [options] -e PATTERN[,PATTERN...] [FILE...]

Prints the lines of the FILEs (or of stdin, also "-") holding an address inside one of the
patterns: the lines Debian's grepcidr 2.0 prints, byte for byte, with its exit status. Addresses
are found anywhere in a line, as grepcidr finds them: 203.0.113.5:51234, [2001:db8::5]:443,
SRC=203.0.113.8, {"remote_addr":"203.0.113.6"}, client=203.0.113.5.

Patterns are CIDRs (10.0.0.0/8, 2001:db8::/32), single addresses and IPv4 ranges
(192.0.2.10-192.0.2.20), read as grepcidr reads them; in a file one a line, "#" comments and
blank lines skipped. A pattern that cannot be read is skipped with a warning on stderr, as
grepcidr skips it (--skip-invalid, accepted as every list command accepts it, adds the last line
"skipped N invalid entries").

Options:
${options(28, {
  "-f, --file FILE": { repeatable: 'read patterns from FILE ("-" for stdin); may be repeated' },
  "-e, --cidr PATTERNS": {
    repeatable: `patterns on the command line, separated by spaces or commas; may be
                            repeated`,
  },
  "-v, --invert": "print the lines holding an address but none inside a pattern",
  "-c, --count": "print only the number of lines that would be printed",
  "-o, --only-matching": "print only the matching addresses, one a line, as written in the line",
  "--print-pattern": `as -o, each address followed by a tab, the most specific pattern
                            holding it, a tab and that pattern's label (empty when none): a line
                            of a pattern file may carry a label after the pattern
                            ("52.94.5.0/24  DYNAMODB eu-west-1", up to a # comment)`,
  "-x, --exclude-reserved": `special-purpose addresses (private, loopback, documentation, …: the
                            table of "nettools merge -x") are not addresses: never matched, never
                            counted by -v; an address written with /N is special when any
                            address of that CIDR is`,
  "-h, --help": "show this help",
  "--skip-invalid": null,
})}

A line with no address is never printed, with or without -v. With several FILEs each line printed
starts with "FILE:" and -c counts the lines of all of them. -o goes with neither -v nor -c.
grepcidr's -i and -s are not offered, and its -x (match at the start of a line only) is not this -x.
Exit codes: 0 a line was selected, 1 none was, 2 a file that cannot be read, or usage.

Example: nettools match -f blocklist.txt access.log > hits.log`;

/** `nettools match`: see {@link MATCH_HELP}. */
export const matchCommand = command("match", MATCH_HELP, async (parsed, io) => {
  const { values } = parsed;
  const options: MatchOptions = {
    invert: values.invert === true,
    onlyMatching: values["only-matching"] === true || values["print-pattern"] === true,
    count: values.count === true,
  };
  if (values["print-pattern"] && (options.invert || options.count)) {
    throw new UsageError(
      `--print-pattern prints matching addresses: it cannot go with ${options.invert ? "-v" : "-c"}`,
    );
  }
  if (options.onlyMatching && (options.invert || options.count)) {
    throw new UsageError(`-o prints matching addresses: it cannot go with ${options.invert ? "-v" : "-c"}`);
  }
  const files = values.file ?? [];
  const inline = values.cidr ?? [];
  const positionals = [...parsed.positionals];
  if (files.length === 0 && inline.length === 0) {
    // grepcidr PATTERN [FILE...]
    const pattern = positionals.shift();
    if (pattern === undefined) {
      throw new UsageError("match needs patterns: PATTERN, -e PATTERN or -f PATTERN_FILE");
    }
    inline.push(pattern);
  }
  const inputs = positionals.length === 0 ? ["-"] : positionals;
  stdinOnlyOnce([...files, ...inputs]);

  const bytes = byteIo(io);
  const read = (name: string, limit: InputLimit) => readBytes(io, bytes, name, limit);
  const patternsRead = await readMatchPatterns(inline, files, read, values["print-pattern"] === true);
  if (patternsRead === null) return EXIT.invalidInput;
  const { lists, labels } = patternsRead;
  reportWarnings(io, lists);
  if (values["skip-invalid"] && lists.skipped > 0) {
    io.stderr(`skipped ${lists.skipped} invalid ${lists.skipped === 1 ? "entry" : "entries"}\n`);
  }
  const patterns = new AddressSet(lists.v4, lists.v6);
  if (values["skip-invalid"] && lists.skipped > 0 && !patterns.hasIpv4 && !patterns.hasIpv6) {
    io.stderr("error: no valid entry left\n");
    return EXIT.invalidInput;
  }
  if (!patterns.hasIpv4 && !patterns.hasIpv6) io.stderr("warning: no pattern was read: no line can match\n");

  const scanner = new AddressScanner(patterns, values["exclude-reserved"] ? specialExcludedSet() : null);
  const out = options.count ? null : new ChunkedOutput(bytes.stdout);
  const selected = await matchInputs(inputs, read, { scanner, options, out, labels });
  out?.flush();
  if (selected === null) return EXIT.invalidInput;
  if (options.count) io.stdout(`${selected}\n`);
  return selected > 0 ? EXIT.ok : EXIT.findings;
});

/** `nettools match ARGS…`, for the callers that run it directly (tests, the page's log check). */
export const match = (args: string[], io: Io): Promise<number> => matchCommand.run(args, io);

/** Prints the pattern warnings, at most 100 of them (then a count of the rest). */
function reportWarnings(io: Io, lists: PatternLists): void {
  for (const warning of patternWarnings(lists)) io.stderr(`warning: ${warning}\n`);
}

/** The bytes of a file or of stdin (`-`); null after reporting a file that cannot be read. */
async function readBytes(io: Io, bytes: ByteIo, name: string, limit: InputLimit): Promise<Uint8Array | null> {
  if (name === "-") return bytes.readStdin(limit);
  try {
    return await bytes.readFile(name, limit);
  } catch (error) {
    if (error instanceof InputTooLarge) throw error;
    io.stderr(`error: ${name}: ${unreadable(error)}\n`);
    return null;
  }
}

function unreadable(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === "ENOENT") return "no such file";
  if (code === "EISDIR") return "is a directory";
  return "cannot be read";
}
