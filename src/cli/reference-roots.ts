/**
 * `--reference-roots FILE` and NETTOOLS_REFERENCE_ROOTS (CONTRACT §9.2): a trust-store file that
 * replaces the built-in reference root store for this process's runs (`webpki` then means
 * "anchored in this file"; no distrust dates). Unlike NETTOOLS_ROOTS, a default from the
 * environment that cannot be used is not skipped: a run judged against another store than the one
 * asked for would answer another question, so both stop with exit 2. With a server the server's
 * own store applies: the flag is then an error and the environment default is skipped with a notice.
 */
import { skippedNotice } from "../domain/certificates/trust-store-file.ts";
import type { Run } from "./args.ts";
import { useReferenceRootsFile } from "./composition-root.ts";
import { EXIT, UsageError } from "./io.ts";

/** The option, declared by its lines of help (src/cli/command.ts). */
export const REFERENCE_ROOTS_OPTION = {
  "--reference-roots FILE": `
                        a trust-store file (PEM; curl's cacert.pem, a system bundle) that replaces
                        the built-in reference store (Mozilla's roots with their distrust dates)
                        for this run (default $NETTOOLS_REFERENCE_ROOTS; exit 2 when it cannot be
                        read or holds no certificate)`,
};

/**
 * Loads the file the flag (else NETTOOLS_REFERENCE_ROOTS) names into this process's runs. Returns
 * an exit code after one line on stderr when it cannot be used, else null.
 */
export function applyReferenceRoots(
  run: Run,
  values: { "reference-roots"?: string | undefined },
): number | null {
  const given = values["reference-roots"];
  const fromEnvironment = given === undefined;
  const path = given ?? run.io.env.NETTOOLS_REFERENCE_ROOTS;
  if (path === undefined || path === "") return null;
  const origin = fromEnvironment ? "NETTOOLS_REFERENCE_ROOTS" : "--reference-roots";
  if (run.client !== null) {
    if (!fromEnvironment)
      throw new UsageError(
        "--reference-roots works in this process only: the server judges against its own store",
      );
    run.notice("NETTOOLS_REFERENCE_ROOTS is not used: the server judges against its own store");
    return null;
  }
  const loaded = useReferenceRootsFile(path);
  if (!loaded.ok) {
    run.io.stderr(
      `${run.err.red(run.err.bold("error"))} ${run.err.bold("INVALID_INPUT")}: ${origin}: ${loaded.message}\n`,
    );
    return EXIT.invalidInput;
  }
  const notice = skippedNotice(loaded.skippedLabels);
  if (notice !== null) run.notice(`${origin}: ${notice}`);
  return null;
}
