/** One `nettools` command: its name, its own help, and how it runs (its line in the main help is in catalog.ts). */
import type { Io } from "../io.ts";
import { type Help, type Parsed, parseOptions } from "../options.ts";

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
 * A command that takes the options its help shows (src/cli/options.ts): `--help` prints the help,
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
