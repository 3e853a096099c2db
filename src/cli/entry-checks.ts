/**
 * The entry-check options of the list-reading commands (`--skip-invalid`, `--strict`) and their
 * help; what they do is src/local/entry-checks.ts (CONTRACT §12), said here on stderr.
 */
import { ListEntryChecks } from "../local/entry-checks.ts";
import { help, options } from "./command.ts";
import { EXIT, type Io } from "./io.ts";
import { chooseStyle } from "./style.ts";

/** The options and their help. */
export const ENTRY_CHECK_HELP = help`
Entry checks:
${options(18, {
  "--skip-invalid": `skip an entry that cannot be read, with one line on stderr at its place
                  ("FILE:LINE: why", the words of the error it would be) and a last line
                  "skipped N invalid entries"; the exit code is the one without those entries
                  (2 when no valid entry is left)`,
  "--strict": `an entry with host bits set is an error (exit 2); without it, such an entry
                  is used as its network and said once on stderr:
                  "192.0.2.0/22 has host bits set: using 192.0.0.0/22" (an address alone never is)`,
})}`;

/** `--strict` alone, for the commands that read one CIDR (split, subnets, info). */
export const STRICT_OPTION = {
  "--strict": `a CIDR with host bits set (192.0.2.0/22) is an error (exit 2); without it,
                  it is used as its network and said once on stderr:
                  "192.0.2.0/22 has host bits set: using 192.0.0.0/22"`,
};

/** The entry checks of one command run (src/local/entry-checks.ts), saying on stderr, stopping with exit 2. */
export class EntryChecks extends ListEntryChecks {
  constructor(io: Io, values: { "skip-invalid"?: boolean | undefined; strict?: boolean | undefined }) {
    super((line) => io.stderr(line), chooseStyle(io.stderrIsTty, io.env).red("error"), values);
  }

  /**
   * Once every list is read: the summary line of skipped entries, and the exit code to stop with
   * (2 under `--strict` with host bits said, or when a `required` list was emptied by skipping),
   * or null to go on.
   */
  verdict(required: readonly { readonly entries: { readonly length: number } }[] = []): number | null {
    return this.mustStop(required) ? EXIT.invalidInput : null;
  }
}
