/**
 * `nettools roots` (CONTRACT §9.2): the reference root store this process — or, with `--server`,
 * the server — judges `webpki` chains against, as `GET /v1/reference-roots` answers it: where it
 * came from, its version, how many roots and distrust dates it holds, and its digest. `--json`
 * prints the API's answer exactly, so two stores compare by their `sha256`.
 */
import type { ResultOf } from "../../contract/operations.ts";
import { makeRun } from "../args.ts";
import { command, help, options } from "../command.ts";
import { helpFooter } from "../common-help.ts";
import { UsageError } from "../io.ts";
import { applyReferenceRoots, REFERENCE_ROOTS_OPTION } from "../reference-roots.ts";
import { type Style, table } from "../render.ts";
import { report, runOperation } from "../run-operation.ts";

const HELP = help`Usage: nettools roots [--reference-roots FILE] [--json]

Describes the reference root store cert and chain judge certificates against (the webpki
profile): the built-in snapshot of Mozilla's roots trusted for TLS servers, with Firefox's and
Chrome's distrust dates, or the file that replaces it. With --server, the server's store.

  source          built-in, or file
  version         the snapshot's sources and versions, or the file's name
  certificates    how many roots it holds
  distrustDates   how many of them carry a distrust date
  sha256          SHA-256 over the roots' DER in store order: equal digests, equal stores

Options:
${options(24, REFERENCE_ROOTS_OPTION)}
${helpFooter("0 the store is described")}`;

/** The store's description as a two-column table. */
export function renderRoots(result: ResultOf<"referenceRoots">, style: Style): string {
  return table(
    null,
    [
      ["source", result.source],
      ["version", result.version],
      ["certificates", String(result.certificates)],
      ["distrustDates", String(result.distrustDates)],
      ["sha256", result.sha256],
    ],
    style,
  );
}

export const roots = command("roots", HELP, async ({ values, positionals }, io) => {
  if (positionals.length > 0) throw new UsageError("roots takes no arguments");
  const run = makeRun(io, values);
  const bad = applyReferenceRoots(run, values);
  if (bad !== null) return bad;
  return report(await runOperation(run, "referenceRoots", undefined), run, renderRoots);
});
