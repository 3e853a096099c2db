/**
 * The verdict of `nettools chain` on a chain the use case built (CONTRACT §7.1, §10.1): which
 * problems count against the exit status under the command's rules (--strict, --expires-within,
 * --fix), the anchor in words, what --fix says of the chain it wrote or why it writes nothing,
 * and the line for a hostname the leaf covers. Shared by the command and its `--format prom`
 * series; words only, nothing printed.
 */
import type { ResultOf } from "../contract/operations.ts";
import type { CertificateDecoder } from "../domain/ports.ts";
import { answerFor, readIdentity, sansAt } from "./hostname-answer.ts";

type ChainResult = ResultOf<"certificateChain">;

/** What each kind of anchor is, in words; a missing issuer is no anchor (CONTRACT §7.6). */
const ANCHOR_TEXT = {
  "in-bundle": "a self-signed root in the bundle",
  "known-root": "a root of the shipped root store",
  "supplied-root": "your own root",
} as const;

/** The anchor of a chain in words (`nettools chain`'s verdict and its anchor row). */
export function anchorText(kind: NonNullable<ChainResult["anchor"]>["kind"]): string {
  return kind === "missing" ? "no anchor: an issuer is missing" : ANCHOR_TEXT[kind];
}

/** What counts against the exit status (CONTRACT §7.1). */
export interface ExitRules {
  /** --strict: every warning counts as an error. */
  strict: boolean;
  /** --expires-within: EXPIRING counts. */
  expiringCounts: boolean;
  /** --fix wrote the chain: the problems it repairs no longer count. */
  written: boolean;
  /** The problems writing the chain repairs (src/client/certificate-answers.ts, CONTRACT §7.1). */
  repairedByWriting: ReadonlySet<string>;
}

/** The problems that count for the exit status, under `rules`. */
export function countedProblems(result: ChainResult, rules: ExitRules): ChainResult["problems"] {
  return result.problems.filter(
    (problem) =>
      !(rules.written && rules.repairedByWriting.has(problem.code)) &&
      (problem.severity === "error" ||
        (rules.strict && problem.severity === "warning") ||
        (rules.expiringCounts && problem.code === "EXPIRING")),
  );
}

/**
 * True when the chain is complete and no problem that counts is left. Without --fix every error
 * counts; with it, the problems writing repairs do not (the file is judged, not the bundle as
 * sent). `EXPIRING` counts with --expires-within, every warning with --strict.
 */
export function chainPasses(result: ChainResult, rules: ExitRules): boolean {
  return result.status === "complete" && countedProblems(result, rules).length === 0;
}

/**
 * What `chain --fix` says of the chain it wrote, around its verdict: where it went and its size,
 * and (`passes`: fit to deploy) the problems writing repaired, or else why it is not fit.
 */
export function writtenChainWords(
  result: ChainResult,
  rules: ExitRules,
  passes: boolean,
  output: string | undefined,
): { where: string; size: string; detail: string } {
  const where = output === undefined ? "Wrote the chain to stdout" : `Wrote ${output}`;
  const blocks = result.fullchainPem.split("-----BEGIN CERTIFICATE-----").length - 1;
  const size = blocks === 1 ? "1 certificate" : `${blocks} certificates`;
  if (passes) {
    const repaired = [...new Set(result.problems.map((problem) => problem.code))].filter((code) =>
      rules.repairedByWriting.has(code),
    );
    return {
      where,
      size,
      detail: repaired.length > 0 ? ` (repaired by writing: ${repaired.join(", ")})` : "",
    };
  }
  const left = [...new Set(countedProblems(result, rules).map((problem) => problem.code))];
  return {
    where,
    size,
    detail: result.status === "complete" ? `${left.join(", ")} remains` : "the chain is incomplete",
  };
}

/** Why --fix wrote nothing: what is missing and where its CA publishes it. */
export function notWrittenReason(result: ChainResult): string {
  if (result.status === "ambiguous") {
    return "several possible server certificates; choose one with --leaf-index or --hostname";
  }
  if (result.status === "no-leaf") return "the bundle holds no server (non-CA) certificate";
  const last = result.certificates.at(-1);
  const child =
    last === undefined
      ? ""
      : ` of certificate ${last.index}${last.commonName === null ? "" : ` (CN=${last.commonName})`}`;
  const urls = result.anchor?.caIssuersUrls ?? [];
  const where =
    urls.length > 0
      ? `; its CA publishes it at ${urls.join(", ")}`
      : "; the certificate names no place where its CA publishes it (no caIssuers URL)";
  return `the chain is incomplete: missing issuer ${result.anchor?.subject || "(unnamed)"}${child}${where}. Add it to the bundle (or pass --partial to write the incomplete chain anyway)`;
}

/**
 * `hostname www.example.com: matched (DNS SAN *.example.com)` when the leaf covers the name (the
 * chain result lists only a mismatch), null otherwise.
 */
export async function matchedHostnameLine(
  hostname: string,
  result: ChainResult,
  pem: string,
  decoder: CertificateDecoder,
): Promise<string | null> {
  if (result.leafIndex === null) return null;
  if (result.problems.some((problem) => problem.code === "HOSTNAME_MISMATCH")) return null;
  const { identity } = readIdentity(hostname);
  const sans = identity === null ? null : await sansAt(pem, result.leafIndex, decoder);
  if (identity === null || sans === null) return null;
  const answer = answerFor(identity, sans);
  return answer.matched ? `hostname ${answer.words}` : null;
}
