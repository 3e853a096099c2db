/** How `nettools chain` prints a chain result: the verdict, the path, and the problems as `cert` prints findings. */
import type { ResultOf } from "../contract/operations.ts";
import { renderFindings, type Style, table } from "./render.ts";

type ChainResult = ResultOf<"certificateChain">;

const ANCHOR_TEXT = {
  "in-bundle": "a self-signed root in the bundle",
  "known-root": "a root of the shipped root store",
  "supplied-root": "one of your own roots",
  missing: "missing",
} as const;

/** One line: the status and what it means. */
export function renderChainVerdict(result: ChainResult, style: Style): string {
  const errors = result.problems.filter((problem) => problem.severity === "error").length;
  switch (result.status) {
    case "complete":
      return errors === 0
        ? style.green(`Chain complete, anchored at ${ANCHOR_TEXT[result.anchor!.kind]}.`)
        : style.red(
            `Chain complete, but ${errors === 1 ? "1 problem is an error" : `${errors} problems are errors`}.`,
          );
    case "incomplete":
      return style.red("Chain incomplete: an issuer is missing.");
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
          member.subject || "(empty)",
          member.notAfter,
          String(member.expiresInDays),
        ]),
        style,
      )
    : `${style.dim("(no path)")}\n`;
  const anchor =
    result.anchor === null ? "-" : `${result.anchor.subject || "(empty name)"} (${result.anchor.kind})`;
  const fetch =
    result.anchor?.kind === "missing" && result.anchor.caIssuersUrls.length
      ? result.anchor.caIssuersUrls.join(", ")
      : null;
  const summary = table(
    null,
    [
      ["evaluated at", result.evaluatedAt],
      ["status", result.status],
      ["anchor", anchor],
      ...(fetch === null ? [] : [["issuer published at", fetch]]),
    ],
    style,
  );
  const problems = renderFindings(result.problems, style, "No problems.");
  return [
    `${renderChainVerdict(result, style)}\n`,
    `${style.bold("Path")}\n${members}`,
    summary,
    `${style.bold("Problems")}\n${problems}`,
  ].join("\n");
}
