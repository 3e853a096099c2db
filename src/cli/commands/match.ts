import { MATCH_HELP, match as runMatch } from "../match.ts";
import type { Command } from "./command.ts";

export const match: Command = {
  name: "match",
  help: MATCH_HELP,
  run: (args, io) => runMatch(args, io),
};
