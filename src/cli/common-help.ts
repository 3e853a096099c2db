/** The options and exit codes every `nettools` command shares, for the help texts. */
export const COMMON_HELP = `
Common options:
  --server URL    call the API at URL through the typed client instead of running in-process
                  (default: $NETTOOLS_SERVER when set; skipped with a notice where it cannot be
                  used)
  --timeout SECONDS  the whole command's time budget (default 10): with --server, the request;
                  in-process, the certificate checks (a run that reaches it: one line, exit 3)
  --json          print exactly the API's JSON result (or its error envelope) on stdout
  -h, --help      show this help

Exit codes: 0 ok, 1 broken certificate chain (an error finding, or an intermediate most likely
missing), 2 invalid input, 3 network or server failure. A closed stdout (| head) ends the
command quietly with the exit code it would have had.
Colour only on a terminal; NO_COLOR turns it off.`;
