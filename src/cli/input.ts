/**
 * Where each address entry given on the command line came from (`arg 3`), so that an input error
 * names the argument, as src/local/list-lines.ts names a file's line.
 */
import type { parseArgs } from "node:util";

type Token = NonNullable<ReturnType<typeof parseArgs>["tokens"]>[number];

/**
 * `arg N` for every positional and every value of the options in `names`, in command-line order
 * (N counts the command's own arguments from 1). Returns one list per key: `positionals` and each
 * option name.
 */
export function argOrigins(tokens: readonly Token[], names: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>([["positionals", []]]);
  for (const name of names) out.set(name, []);
  for (const token of tokens) {
    if (token.kind === "positional") out.get("positionals")!.push(`arg ${token.index + 1}`);
    else if (token.kind === "option" && token.value !== undefined && names.includes(token.name)) {
      const at = token.inlineValue ? token.index : token.index + 1;
      out.get(token.name)!.push(`arg ${at + 1}`);
    }
  }
  return out;
}
