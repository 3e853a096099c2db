import { INFO_HELP, info as runInfo } from "../info.ts";
import type { Command } from "./command.ts";

export const info: Command = {
  name: "info",
  help: INFO_HELP,
  run: (args, io) => runInfo(args, io),
};
