/** One `nettools` command: its name, its own help, and how it runs (its line in the main help is in catalog.ts). */
import type { Io } from "../io.ts";

export interface Command {
  readonly name: string;
  /** `nettools <name> --help`. */
  readonly help: string;
  /** Runs the command; returns the exit code, or "running" when it started a server. */
  run(args: string[], io: Io): Promise<number | "running">;
}

/** Prints a help text on stdout: exit 0. */
export function printHelp(io: Io, text: string): number {
  io.stdout(`${text}\n`);
  return 0;
}
