/** The options every `nettools` command shares, and the exit-code footer, for the help texts. */
import { help, options } from "./command.ts";

export const COMMON_HELP = help`
Common options:
${options(18, {
  "--server URL": `call the API at URL through the typed client instead of running in-process
                  (default: $NETTOOLS_SERVER when set; skipped with a notice where it cannot be
                  used)`,
  "--timeout SECONDS": `the whole command's time budget (default 10): with --server, the request;
                  in-process, the certificate checks (a run that reaches it: one line, exit 3)`,
  "--json": "print exactly the API's JSON result (or its error envelope) on stdout",
  "-h, --help": "show this help",
})}
Colour only on a terminal; NO_COLOR turns it off.`;

/**
 * The last lines of a command's help: its own exit codes (`own`, such as "0 ok" or "0 the lists
 * share addresses, 1 they share none"), then the ones every command shares.
 */
export function exitCodesHelp(own: string): string {
  return `
Exit codes: ${own}; 2 invalid input or usage; 3 network or server failure. A closed stdout
(| head) ends the command quietly with the exit code it would have had.`;
}

/** The last lines of most commands' help: the common options, then the exit codes (`own` first). */
export function helpFooter(own: string) {
  return help`${COMMON_HELP}
${exitCodesHelp(own)}`;
}
