/** The options and exit codes every `nettools` command shares, for the help texts. */
export const COMMON_HELP = `
Common options:
  --server URL    call the API at URL through the typed client instead of running in-process
                  (default: $NETTOOLS_SERVER when set)
  --timeout MS    with --server: limit for each request (default 10000)
  --json          print exactly the API's JSON result (or its error envelope) on stdout
  -h, --help      show this help

Exit codes: 0 ok, 1 broken certificate chain (an error finding, or an intermediate most likely
missing), 2 invalid input, 3 network or server failure. A closed stdout (| head) ends the
command quietly with the exit code it would have had.
Colour only on a terminal; NO_COLOR turns it off.`;
