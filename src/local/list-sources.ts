/**
 * Where a list command's entries come from (CONTRACT §7.6): arguments, files and stdin (`-`, read
 * once however many inputs name it), each entry with its place (`arg 2`, `FILE:LINE`,
 * `stdin:LINE`), a UTF-8 byte-order mark at a text's start dropped. The text arrives through
 * {@link TextSources} (the CLI's `Io`, bound to the process in src/cli/composition-root.ts).
 */
import { InputTooLarge } from "./input-limits.ts";
import { emptySourced, linesOf, type Sourced, withoutBom } from "./list-lines.ts";
import { UsageError } from "./usage-error.ts";

/** Text from stdin and from files, each read up to a list's cap (else {@link InputTooLarge}). */
export interface TextSources {
  readStdin(): Promise<string>;
  readFile(path: string): Promise<string>;
}

/** Reads stdin once, however many inputs name "-" (a byte-order mark at its start dropped). */
export function stdinOnce(sources: TextSources): () => Promise<string> {
  let text: Promise<string> | null = null;
  return () => {
    text ??= sources.readStdin().then(withoutBom);
    return text;
  };
}

/**
 * The text of a file, or of stdin for "-", without a UTF-8 byte-order mark at its start (CONTRACT
 * §7.6); an unreadable file is a UsageError naming it.
 */
export async function readSource(
  name: string,
  sources: TextSources,
  stdin: () => Promise<string>,
): Promise<string> {
  if (name === "-") return stdin();
  try {
    return withoutBom(await sources.readFile(name));
  } catch (error) {
    if (error instanceof InputTooLarge) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new UsageError(`cannot read ${name}: ${reason}`);
  }
}

/** Entries from arguments (`-` = stdin) and files, each with its place (`arg 2`, `FILE:LINE`, `stdin:LINE`). */
export async function collectEntries(
  values: readonly string[],
  origins: readonly string[],
  files: readonly string[],
  sources: TextSources,
  stdin: () => Promise<string>,
): Promise<Sourced> {
  const out = emptySourced();
  for (let i = 0; i < values.length; i++) {
    if (values[i] === "-") linesOf(await stdin(), "stdin", out);
    else {
      out.entries.push(values[i]!);
      out.origins.addText(origins[i] ?? `arg ${i + 1}`);
    }
  }
  for (const file of files)
    linesOf(await readSource(file, sources, stdin), file === "-" ? "stdin" : file, out);
  return out;
}

/** One list operand (`nettools diff`, `common`) as read: its name (`stdin` for `-`) and its entries with their places. */
export interface Operand extends Sourced {
  readonly name: string;
}

/**
 * Reads every list operand (CONTRACT §8.4): each a FILE or `-` (stdin, at most once), read as
 * `merge -f` reads a file, each entry keeping its `FILE:LINE`.
 */
export async function readOperands(operands: readonly string[], sources: TextSources): Promise<Operand[]> {
  if (operands.filter((operand) => operand === "-").length > 1) {
    throw new UsageError('stdin ("-") can be read only once');
  }
  const stdin = stdinOnce(sources);
  const out: Operand[] = [];
  for (const operand of operands) {
    const entries = await collectEntries([], [], [operand], sources, stdin);
    out.push({ name: operand === "-" ? "stdin" : operand, ...entries });
  }
  return out;
}
