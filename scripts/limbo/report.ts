/**
 * The x509-limbo harness's report: agreement by namespace for us and the compared verifiers, then
 * every disagreement with its testcase id, description and our problems, and the inputs the
 * service refused. Markdown for people (/work/limbo-report/latest.md), a summary for scripts.
 */
import {
  type AnswerProblem,
  formatTally,
  isBetterTls,
  type LimboTestcase,
  namespaceOf,
  type Outcome,
  type Tally,
  tallyByNamespace,
  type Verdict,
} from "./verdict.ts";

/** What the harness recorded for one testcase. */
export interface CaseResult {
  id: string;
  description: string;
  expected: "SUCCESS" | "FAILURE";
  /** Our verdict as limbo's outcome; SKIPPED when the service gave no verdict (not 200 nor 400). */
  outcome: Outcome;
  httpStatus: number;
  /** Whether the answer is to the request with `leafIndex: 0` (else the service refused it). */
  leafIndexSent: boolean;
  /** `api`: POST /v1/certificate-chain; `cli`: over the API's limits, run by `nettools chain --json`. */
  via: "api" | "cli";
  verdict: Verdict | null;
  /** PEM blocks sent in `pem` (peer + intermediates) and in `roots`. */
  blocks: number;
  roots: number;
}

/** Another verifier's outcomes (a limbo result file). */
export interface Comparison {
  label: string;
  harness: string;
  outcomes: ReadonlyMap<string, Outcome>;
}

export interface ReportInput {
  limboPath: string;
  limboSha256: string;
  checkout: string;
  command: string;
  finishedAt: string;
  seconds: number;
  testcases: readonly LimboTestcase[];
  results: readonly CaseResult[];
  comparisons: readonly Comparison[];
}

export interface Report {
  markdown: string;
  summary: Record<string, Record<string, Tally>>;
  summaryText: string;
}

/** Most disagreements listed per namespace in the Markdown (the JSON keeps them all). */
const LISTED_PER_NAMESPACE = 300;
/** Longest description quoted. */
const DESCRIPTION_CHARACTERS = 400;

const HOW_TO = `How to run: the harness needs nothing from the checkout it judges but \`src/main.ts\` and
\`src/cli/main.ts\` (with \`at\`/\`--at\`), so run this copy against any checkout:

    cd /work/wt/limbo && heavy node_modules/.bin/bun scripts/limbo/run.ts \\
      --limbo /work/limbo-data/limbo.json --checkout /work/wt/NAME \\
      --compare go=/work/limbo-data/results-go.json --compare openssl=/work/limbo-data/results-openssl.json

It takes about a minute (\`heavy\`: the machine is shared). \`--include rfc5280::\` runs one namespace
only. The server is started from \`--checkout\` (its \`src/main.ts\`, with this Bun) on 127.0.0.1 and
stopped at the end. This file and latest.json (every case with our verdict) are rewritten by every
run. The verdict rule: accept = status \`complete\`, the path anchored in one of the testcase's trusted
certificates, and no \`error\` problem besides WRONG_ORDER,
UNNEEDED_CERTIFICATE, DUPLICATE_CERTIFICATE, ROOT_INCLUDED, LEAF_SELECTION_REQUIRED (limbo's
intermediates are a pool, not a served order); a 400 INVALID_INPUT is a reject; a case over the
API's limits (16 blocks, 49,152 characters) goes through the checkout's CLI (\`nettools chain
--json\`, local limits) unless \`--over-limit reject\`. Why: docs/decisions/0034-instant-and-limbo.md.
The standing and how the suite and the Go and OpenSSL result files are built: docs/limbo.md.`;

/** Builds the report. */
export function renderReport(input: ReportInput): Report {
  const ours = new Map(input.results.map((result) => [result.id, result.outcome]));
  const columns: { label: string; tallies: Map<string, Tally> }[] = [
    { label: "us", tallies: tallyByNamespace(input.testcases, ours) },
    ...input.comparisons.map((comparison) => ({
      label: `${comparison.label} (${comparison.harness})`,
      tallies: tallyByNamespace(input.testcases, comparison.outcomes),
    })),
  ];
  const namespaces = [...new Set(input.testcases.map((testcase) => namespaceOf(testcase.id)))].sort(
    (a, b) => Number(isBetterTls(a)) - Number(isBetterTls(b)) || a.localeCompare(b),
  );
  const rows = [...namespaces, "non-bettertls", "bettertls", "all"];
  const table = [
    `| namespace | ${columns.map((column) => column.label).join(" | ")} |`,
    `|---|${columns.map(() => "---").join("|")}|`,
    ...rows
      .filter((row) => columns[0]!.tallies.has(row))
      .map((row) => {
        const name = ["non-bettertls", "bettertls", "all"].includes(row) ? `**${row}**` : `\`${row}\``;
        return `| ${name} | ${columns.map((column) => formatTally(column.tallies.get(row))).join(" | ")} |`;
      }),
  ];

  const disagreements = input.results.filter((result) => result.outcome !== result.expected);
  const falseRejects = disagreements.filter((result) => result.expected === "SUCCESS");
  const falseAccepts = disagreements.filter((result) => result.expected === "FAILURE");
  const byCode = countBy(
    falseRejects.flatMap((result) => rejectionReasons(result.verdict)),
    (reason) => reason,
  );
  const refused = input.results.filter(
    (result) => result.verdict?.kind === "reject" && result.verdict.why === "refused",
  );
  const viaCli = input.results.filter((result) => result.via === "cli");
  const noVerdict = input.results.filter((result) => result.verdict === null);
  const agreedByRefusal = countBy(
    refused.filter((result) => result.outcome === result.expected),
    (result) => namespaceOf(result.id),
  );

  const lines: string[] = [
    "# x509-limbo against POST /v1/certificate-chain: latest run",
    "",
    HOW_TO,
    "",
    "## This run",
    "",
    `- checkout: ${input.checkout}`,
    `- suite: ${input.limboPath} (sha256 ${input.limboSha256.slice(0, 16)}…), ${input.testcases.length} SERVER testcases`,
    `- command: \`${input.command}\``,
    `- finished ${input.finishedAt}, ${input.seconds.toFixed(0)} s`,
    `- disagreements: ${disagreements.length} (we reject what limbo accepts: ${falseRejects.length}; we accept what limbo rejects: ${falseAccepts.length}); no verdict (HTTP other than 200/400): ${noVerdict.length}`,
    `- over the API's limits (16 blocks or 49,152 characters in \`pem\` or \`roots\`), so run through the checkout's CLI, \`nettools chain --json\` with its local limits: ${viaCli.length}${viaCli.length > 0 ? ` (${viaCli.map((result) => `\`${result.id}\``).join(", ")})` : ""}`,
    `- agreements that are input refusals (a decoder or limit said no, not a rule): ${agreedByRefusal.length === 0 ? "none" : agreedByRefusal.map(([namespace, count]) => `${namespace} ${count}`).join(", ")}`,
    "",
    "## Agreement by namespace",
    "",
    "Agreement = the verifier's outcome equals limbo's expected result; a case a verifier's harness",
    "skipped counts as not agreeing (the skipped count is shown).",
    "",
    ...table,
    "",
    "## Why we reject what limbo accepts (by code or reason, a case may have several)",
    "",
    ...(byCode.length === 0 ? ["None."] : byCode.map(([reason, count]) => `- ${reason}: ${count}`)),
    "",
    "## Disagreements",
    "",
  ];
  const byNamespace = groupBy(disagreements, (result) => namespaceOf(result.id));
  for (const namespace of namespaces) {
    const cases = byNamespace.get(namespace);
    if (cases === undefined) continue;
    lines.push(`### \`${namespace}\` (${cases.length})`, "");
    for (const result of cases.slice(0, LISTED_PER_NAMESPACE))
      lines.push(...describeCase(result, input.comparisons), "");
    if (cases.length > LISTED_PER_NAMESPACE)
      lines.push(`… and ${cases.length - LISTED_PER_NAMESPACE} more in latest.json.`, "");
  }
  if (disagreements.length === 0) lines.push("None.", "");
  lines.push("## Inputs the service refused (400 INVALID_INPUT, counted as reject)", "");
  if (refused.length === 0) lines.push("None.", "");
  for (const result of refused.slice(0, LISTED_PER_NAMESPACE)) {
    const agrees = result.outcome === result.expected ? "agrees" : "DISAGREES";
    lines.push(`- \`${result.id}\` (expected ${result.expected}, ${agrees}): ${refusalText(result.verdict)}`);
  }
  if (refused.length > LISTED_PER_NAMESPACE)
    lines.push(`- … and ${refused.length - LISTED_PER_NAMESPACE} more`);
  lines.push("");

  const summary: Record<string, Record<string, Tally>> = {};
  for (const column of columns) summary[column.label] = Object.fromEntries(column.tallies);
  const summaryText = ["non-bettertls", "bettertls", "all"]
    .map(
      (row) =>
        `${row}: ${columns.map((c) => `${c.label.split(" ")[0]} ${formatTally(c.tallies.get(row))}`).join("; ")}`,
    )
    .join("\n");
  return { markdown: `${lines.join("\n")}\n`, summary, summaryText };
}

function describeCase(result: CaseResult, comparisons: readonly Comparison[]): string[] {
  const ours =
    result.outcome === "SUCCESS" ? "we accept" : result.outcome === "FAILURE" ? "we reject" : "no verdict";
  const lines = [
    `- \`${result.id}\`: limbo expects ${result.expected}, ${ours}${result.via === "cli" ? " (through the CLI: over the API's limits)" : ""}${result.leafIndexSent ? "" : " (sent without leafIndex: the peer is not a possible leaf)"}${result.verdict === null ? ` (HTTP ${result.httpStatus})` : ""}.`,
    `  ${quote(result.description)}`,
  ];
  if (comparisons.length > 0)
    lines.push(
      `  - others: ${comparisons.map((c) => `${c.label} ${c.outcomes.get(result.id) ?? "SKIPPED"}`).join(", ")}`,
    );
  const verdict = result.verdict;
  if (verdict?.kind === "reject" && verdict.why === "status") lines.push(`  - status \`${verdict.status}\``);
  if (verdict?.kind === "reject" && verdict.why === "untrusted-anchor")
    lines.push(
      "  - the path ends at a self-signed certificate of the pool that is not one of the trusted ones",
    );
  if (verdict?.kind === "reject" && verdict.why === "refused")
    lines.push(`  - refused: ${refusalText(verdict)}`);
  if (verdict?.kind === "reject" && verdict.why !== "refused")
    lines.push(...verdict.problems.map(problemLine));
  return lines;
}

function problemLine(problem: AnswerProblem): string {
  const clients = problem.clients.length > 0 ? `; ${problem.clients.join(", ")}` : "";
  return `  - ${problem.code} (${problem.severity}${clients}): ${problem.observed}`;
}

function quote(description: string): string {
  const flat = description.replace(/\s+/g, " ").trim();
  return flat.length > DESCRIPTION_CHARACTERS ? `${flat.slice(0, DESCRIPTION_CHARACTERS)}…` : flat;
}

function refusalText(verdict: Verdict | null): string {
  if (verdict?.kind !== "reject" || verdict.why !== "refused") return "";
  return verdict.issues.map((issue) => `${JSON.stringify(issue.path)} ${issue.message}`).join("; ");
}

/** The reasons a rejection gives: each error code, or the status, or "input refused at PATH". */
function rejectionReasons(verdict: Verdict | null): string[] {
  if (verdict === null || verdict.kind === "accept") return ["no verdict"];
  if (verdict.why === "refused")
    return [
      ...new Set(verdict.issues.map((issue) => `input refused at ${JSON.stringify(issue.path.slice(0, 1))}`)),
    ];
  const errors = [...new Set(verdict.problems.filter((p) => p.severity === "error").map((p) => p.code))];
  if (verdict.why === "untrusted-anchor")
    return ["anchored in an untrusted self-signed certificate", ...errors];
  return verdict.why === "status" ? [`status ${verdict.status}`, ...errors] : errors;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const name = key(item);
    const group = groups.get(name) ?? [];
    group.push(item);
    groups.set(name, group);
  }
  return groups;
}

function countBy<T>(items: readonly T[], key: (item: T) => string): [string, number][] {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}
