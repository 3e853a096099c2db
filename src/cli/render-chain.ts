/**
 * How `nettools chain` prints a chain result: the verdict, the path, and the problems as `cert`
 * prints findings, each opening with the clients that refuse it ("Safari and macOS refuse this: …",
 * CONTRACT §8.1).
 */

import type { ResultOf } from "../contract/operations.ts";
import { anchorText } from "../local/chain-verdict.ts";
import { withClients } from "../local/client-names.ts";
import { escapeForTerminal } from "../local/terminal-text.ts";
import { renderFindings, type Style, table } from "./render.ts";

type ChainResult = ResultOf<"certificateChain">;

/** One line: the status and what it means. */
export function renderChainVerdict(result: ChainResult, style: Style): string {
  const errors = result.problems.filter((problem) => problem.severity === "error").length;
  switch (result.status) {
    case "complete":
      return errors === 0
        ? style.green(`Chain complete, anchored at ${anchorText(result.anchor!.kind)}.`)
        : style.red(
            `Chain complete, but ${errors === 1 ? "1 problem is an error" : `${errors} problems are errors`}.`,
          );
    case "incomplete":
      return style.red(
        `Chain incomplete: missing issuer ${escapeForTerminal(result.anchor!.subject) || "(empty name)"}.`,
      );
    case "ambiguous":
      return style.yellow(
        "Several possible server certificates: choose one with --leaf-index or --hostname.",
      );
    default:
      return style.yellow("No server (non-CA) certificate in the bundle.");
  }
}

export function renderChain(result: ChainResult, style: Style): string {
  const members = result.certificates.length
    ? table(
        ["#", "SUBJECT", "NOT AFTER", "DAYS LEFT"],
        result.certificates.map((member) => [
          String(member.index),
          escapeForTerminal(member.subject) || "(empty)",
          member.notAfter,
          String(member.expiresInDays),
        ]),
        style,
      )
    : `${style.dim("(no path)")}\n`;
  const summary = table(
    null,
    [["evaluated at", result.evaluatedAt], ["status", result.status], ...anchorRows(result.anchor)],
    style,
  );
  const problems = renderFindings(
    result.problems.map((problem) => ({
      ...problem,
      observed: withClients(problem.clients, problem.observed),
    })),
    style,
    "No problems.",
  );
  return [
    `${renderChainVerdict(result, style)}\n`,
    `${style.bold("Path")}\n${members}`,
    summary,
    `${style.bold("Problems")}\n${problems}`,
  ].join("\n");
}

/**
 * The anchor, or the missing issuer: `missing issuer CN=…` (with where its CA publishes it), never
 * an anchor (CONTRACT §7.6).
 */
function anchorRows(anchor: ChainResult["anchor"]): string[][] {
  if (anchor === null) return [["anchor", "-"]];
  const name = escapeForTerminal(anchor.subject) || "(empty name)";
  if (anchor.kind === "missing") {
    const published = anchor.caIssuersUrls.length
      ? [["issuer published at", anchor.caIssuersUrls.join(", ")]]
      : [];
    return [["missing issuer", name], ...published];
  }
  return [["anchor", `${name} (${anchorText(anchor.kind)})`]];
}
