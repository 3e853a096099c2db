/**
 * What a `nettools` command is: its help, the options that help declares, and its run (ADR 0062).
 * Each option is declared once, by its line in the help: the label (`-H, --hostname NAME`) says the
 * option's name, its short form, and whether it takes a value and what the value is called; the
 * words say what it does. A help text is written with the `help` tag, the option blocks inside it
 * with `options`; a command line is read against the options the help shows, from the same labels,
 * so an option and its help cannot drift apart.
 */
import { parseArgs } from "node:util";
import { type Io, usageErrorOf } from "./io.ts";

/**
 * An option's words in the help, as printed: the lines after the first carry their own indentation,
 * and words starting with a newline put the label on a line of its own. `{ repeatable }` for an
 * option that may be given several times; null for one the help speaks of elsewhere, or not at all.
 */
export type Words = string | { readonly repeatable: string } | null;

/**
 * Options by label, in the order the help lists them. A label starting with "-" declares an option
 * (`--fix`, `-4`, `-U CIDR`, `-o, --output FILE`); any other (`FILE… | -`) is a line of help alone.
 */
export type Declarations = { readonly [label: string]: Words };

/** A help text, or a part of one, and the options it declares; it prints as its text. */
export class Help<D> {
  constructor(
    readonly text: string,
    readonly declarations: D,
  ) {}

  toString(): string {
    return this.text;
  }
}

type LongOf<Label> = Label extends `${string}--${infer Long}`
  ? Long
  : Label extends `-${infer Short}`
    ? Short
    : never;
type NameOf<Label> = LongOf<Label> extends `${infer Name} ${string}` ? Name : LongOf<Label>;
type ValueOf<Label, W> =
  LongOf<Label> extends `${string} ${string}`
    ? W extends { repeatable: string }
      ? string[]
      : string
    : boolean;

/** The values of the options `D` declares, as parsed: undefined for one not given. */
export type ValuesOf<D> = {
  -readonly [L in keyof D & `-${string}` as NameOf<L>]?: ValueOf<L, D[L]> | undefined;
};

/** The values of the options a help text shows. */
export type OptionValues<H> = H extends Help<infer D> ? ValuesOf<D> : never;

type DeclarationsOf<Parts> = Parts extends readonly [infer First, ...infer Rest]
  ? (First extends Help<infer D> ? D : unknown) & DeclarationsOf<Rest>
  : unknown;

/** A command line read against a help's options. */
export interface Parsed<D> {
  values: ValuesOf<D>;
  positionals: string[];
  tokens: NonNullable<ReturnType<typeof parseArgs>["tokens"]>;
}

/** `-o, --output FILE` → name, short form, whether it takes a value; null for a line of help alone. */
const LABEL = /^(?:-(\w), )?(?:--([\w-]+)|-(\w))(?: (\S+))?$/;

/**
 * A block of options laid out as the help prints them: each label two spaces in, its words from
 * `column` on (two spaces after a label that reaches it).
 */
export function options<const D extends Declarations>(column: number, declarations: D): Help<D> {
  const lines: string[] = [];
  for (const [label, words] of Object.entries(declarations)) {
    if (words === null) continue;
    const text = typeof words === "string" ? words : words.repeatable;
    const gap = text.startsWith("\n") ? 0 : label.length + 2 < column ? column - 2 - label.length : 2;
    lines.push(`  ${label}${" ".repeat(gap)}${text}`);
  }
  return new Help(lines.join("\n"), declarations);
}

/** A help text: the parts interpolated are printed, and the options of those that are helps are its own. */
export function help<const Parts extends readonly unknown[]>(
  strings: TemplateStringsArray,
  ...parts: Parts
): Help<DeclarationsOf<Parts>> {
  let text = strings[0] ?? "";
  const declarations: Record<string, Words> = {};
  parts.forEach((part, k) => {
    text += `${part}${strings[k + 1]}`;
    if (part instanceof Help) Object.assign(declarations, part.declarations);
  });
  return new Help(text, declarations as DeclarationsOf<Parts>);
}

/** Reads `args` against the options `shown` declares (positionals allowed); a mistake is a UsageError. */
export function parseOptions<D>(args: string[], shown: Help<D>): Parsed<D> {
  try {
    const parsed = parseArgs({
      args,
      options: parseConfig(shown.declarations as Declarations),
      allowPositionals: true,
      strict: true,
      tokens: true,
    });
    return parsed as Parsed<D>;
  } catch (error) {
    throw usageErrorOf(error);
  }
}

type OptionConfig = { type: "string" | "boolean"; short?: string; multiple?: boolean };

/** parseArgs' options from the labels; a name declared by two labels is a mistake in the help. */
function parseConfig(declarations: Declarations): Record<string, OptionConfig> {
  const config: Record<string, OptionConfig> = {};
  for (const [label, words] of Object.entries(declarations)) {
    if (!label.startsWith("-")) continue;
    const match = LABEL.exec(label);
    if (match === null) throw new Error(`not an option's label: "${label}"`);
    const [, short, long, shortOnly, value] = match;
    const name = long ?? shortOnly!;
    if (name in config) throw new Error(`option ${name} declared twice`);
    const repeatable = words !== null && typeof words === "object";
    if (repeatable && value === undefined) throw new Error(`${label} takes no value to repeat`);
    config[name] = {
      type: value === undefined ? "boolean" : "string",
      ...((short ?? shortOnly) === undefined ? {} : { short: short ?? shortOnly }),
      ...(repeatable ? { multiple: true } : {}),
    };
  }
  return config;
}

/** One command: its name, its own help, and how it runs (its line in the main help is in commands/catalog.ts). */
export interface Command<Exit extends number | "running" = number | "running"> {
  readonly name: string;
  /** `nettools <name> --help`. */
  readonly help: string;
  /** Runs the command; returns the exit code, or "running" when it started a server. */
  run(args: string[], io: Io): Promise<Exit>;
}

/** Prints a help text on stdout: exit 0. */
export function printHelp(io: Io, text: string): number {
  io.stdout(`${text}\n`);
  return 0;
}

/**
 * A command that takes the options its help shows: `--help` prints the help,
 * anything else is read against it and handed to `run`.
 */
export function command<D, Exit extends number | "running">(
  name: string,
  help: Help<D>,
  run: (parsed: Parsed<D>, io: Io) => Promise<Exit>,
): Command<Exit | number> {
  return {
    name,
    help: help.text,
    async run(args, io) {
      const parsed = parseOptions(args, help);
      // Only a given option has a value, and --help takes none: its presence is the request.
      if (Object.hasOwn(parsed.values, "help")) return printHelp(io, help.text);
      return run(parsed, io);
    },
  };
}
