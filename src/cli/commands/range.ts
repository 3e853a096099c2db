import type { ApiResult, RangeToCidrsResultType } from "../../client/index.ts";
import { rangeLinesOf, rangeOrAddress } from "../../local/list-lines.ts";
import { readSource, stdinOnce } from "../../local/list-sources.ts";
import type { Run } from "../args.ts";
import { command, help, options } from "../command.ts";
import { helpFooter } from "../common-help.ts";
import { EntryChecks } from "../entry-checks.ts";
import { renderInputError } from "../input-errors.ts";
import { EXIT, InputTooLarge, UsageError } from "../io.ts";
import { FORMAT_HELP, type ListOutput, listRunOf, printList } from "../list-format.ts";
import { cidrLines, renderRange } from "../render.ts";
import { failureExit, report, runOperation } from "../run-operation.ts";

const HELP = help`Usage: nettools range [options] START END | START-END | START - END | ADDRESS
       nettools range [options] FILE | -

Minimal CIDR list covering exactly the inclusive range START–END (bare addresses of one
family, START at or before END). "START - END" is how whois shows a NetRange. One ADDRESS is the
range of that address alone.
With one FILE argument, or "-" for stdin: one range a line in any of these forms, or one address
(blank lines and "# comments" skipped), the CIDRs of every range in input order. The whole input
is checked first: when any line is wrong, every wrong line is reported (FILE:LINE) and nothing
else is printed. With --skip-invalid, a wrong line is skipped instead, with one line on stderr
("FILE:LINE: why") and a last line "skipped N invalid entries"; exit 2 when no range is left.
Not on a terminal (a pipe or a file), the CIDRs are printed one a line with nothing else.

Output option:
${options(18, { "--plain": "print only the CIDRs, one a line; not with --json", "--skip-invalid": null })}
${FORMAT_HELP}
${helpFooter("0 the CIDRs are printed")}
With --json and a FILE, one JSON result a line, in input order.

Examples: nettools range 192.0.2.10 - 192.0.2.20
          nettools range ranges.txt > cidrs.txt
          nettools range --format nft --set-name office ranges.txt   # the union, as an nft set`;

const FORMS = 'two addresses (START END, START-END or "START - END"), one ADDRESS, or one FILE or "-"';

/** Words that can only be addresses and dashes (hex digits, `:`, `.`, `-`): a range, not a file name. */
const ADDRESS_WORDS = /^[0-9A-Fa-f:.\s-]+$/;

export const range = command("range", HELP, async ({ values, positionals }, io) => {
  const { run, output } = listRunOf(io, values);
  const isFile = positionals.length === 1 && (positionals[0] === "-" || !ADDRESS_WORDS.test(positionals[0]!));
  if (!isFile) {
    const endpoints = rangeOrAddress(positionals);
    if (endpoints === null) throw new UsageError(`range needs ${FORMS}`);
    const result = await runOperation(run, "rangeToCidrs", { start: endpoints[0], end: endpoints[1] });
    return printList(result, run, output, renderRange);
  }
  const name = positionals[0]!;
  const source = name === "-" ? "stdin" : name;
  let text: string;
  try {
    text = await readSource(name, io, stdinOnce(io));
  } catch (error) {
    if (error instanceof InputTooLarge) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new UsageError(`range needs ${FORMS}: ${reason}`);
  }
  return rangesOfText(text, source, run, output, new EntryChecks(io, values));
});

/** A line of the input that was not a range: where, what it said, and why (one issue each). */
interface BadLine {
  origin: string;
  text: string;
  code: string;
  message: string;
}

/**
 * Every range of `text` (one a line), checked in full before anything is printed: all of them
 * converted, or every bad line reported with its place and exit 2 (CONTRACT §7.4).
 */
async function rangesOfText(
  text: string,
  source: string,
  run: Run,
  output: ListOutput | null,
  checks: EntryChecks,
): Promise<number> {
  const results: RangeToCidrsResultType[] = [];
  const bad: BadLine[] = [];
  for (const { origin, text: line, endpoints } of rangeLinesOf(text, source)) {
    if (endpoints === null) {
      const message = `expected a range (START END, START-END or "START - END") or one address, not "${line.slice(0, 100)}"`;
      if (checks.skipInvalid) checks.skip(origin, message);
      else bad.push({ origin, text: line, code: "INVALID_INPUT", message });
      continue;
    }
    const result: ApiResult<RangeToCidrsResultType> = await runOperation(run, "rangeToCidrs", {
      start: endpoints[0],
      end: endpoints[1],
    });
    if (result.ok) results.push(result.value);
    else if (failureExit(result) !== EXIT.invalidInput) return report(result, run, renderRange);
    else {
      const messages = [...new Set((result.error.issues ?? []).map((issue) => issue.message))];
      const message = messages.length > 0 ? messages.join("; ") : result.error.message;
      if (checks.skipInvalid) checks.skip(origin, message);
      else bad.push({ origin, text: line, code: result.error.code, message });
    }
  }
  const stop = checks.verdict([{ entries: { length: results.length } }]);
  if (stop !== null) return stop;
  if (bad.length > 0) {
    const code = bad.every((b) => b.code === bad[0]!.code) ? bad[0]!.code : "INVALID_INPUT";
    const issues = bad.map((b, k) => ({ message: b.message, path: ["lines", k] }));
    const lists = {
      lines: { noun: "the ranges", entries: bad.map((b) => b.text), origins: bad.map((b) => b.origin) },
    };
    run.io.stderr(renderInputError({ code, message: "", issues }, lists, run.err, run.client !== null));
    return EXIT.invalidInput;
  }
  if (results.length === 0) throw new UsageError(`${source} holds no range`);
  const cidrs = results.flatMap((result) => result.cidrs);
  if (output !== null) return printList({ ok: true, status: 200, value: { cidrs } }, run, output, () => "");
  for (const value of results)
    report({ ok: true, status: 200, value }, run, renderRange, { plain: cidrLines, list: true });
  return EXIT.ok;
}
