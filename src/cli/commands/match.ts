import { MATCH_HELP, match as runMatch } from "../match.ts";
import type { Command } from "./command.ts";

export const match: Command = {
  name: "match",
  summary: "print the lines of a log holding an address inside given blocks (grepcidr)",
  help: MATCH_HELP,
  run: (args, io) => runMatch(args, io),
};
