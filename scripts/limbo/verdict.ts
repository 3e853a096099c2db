/**
 * The x509-limbo harness's pure parts (docs/decisions/0034-instant-and-limbo.md, part 2): a
 * testcase as a POST /v1/certificate-chain request, our answer read as accept or reject, a
 * testcase's namespace, and agreement counted per namespace for us and for other verifiers'
 * result files. No I/O here: run.ts starts the server and writes the report.
 */

/** The fields of a limbo testcase the harness reads (limbo-schema.json, `Testcase`). */
export interface LimboTestcase {
  id: string;
  description: string;
  validation_kind: "SERVER" | "CLIENT";
  trusted_certs: string[];
  untrusted_intermediates: string[];
  peer_certificate: string;
  validation_time: string | null;
  expected_result: "SUCCESS" | "FAILURE";
  expected_peer_name: { kind: string; value: string } | null;
  features?: string[];
  max_chain_depth?: number | null;
  crls?: string[];
  signature_algorithms?: string[];
  key_usage?: string[];
  extended_key_usage?: string[];
}

/** The request body sent for one testcase. */
export interface ChainRequestBody {
  pem: string;
  roots?: string;
  hostname?: string;
  at?: string;
  leafIndex?: number;
}

/**
 * The request for a testcase: `pem` is the peer certificate then the untrusted intermediates in
 * the suite's order (a pool, not a served order), `roots` the trusted certificates, `hostname` the
 * expected peer name's value (DNS or IP) when set, `at` the validation time when set (else the
 * server's now), and `leafIndex: 0`, since the suite names the peer (dropped when the service
 * refuses it: a CA certificate as peer cannot be named as leaf).
 */
export function requestFor(testcase: LimboTestcase, withLeafIndex = true): ChainRequestBody {
  const body: ChainRequestBody = {
    pem: [testcase.peer_certificate, ...testcase.untrusted_intermediates].map(withNewline).join(""),
  };
  if (testcase.trusted_certs.length > 0) body.roots = testcase.trusted_certs.map(withNewline).join("");
  if (testcase.expected_peer_name !== null) body.hostname = testcase.expected_peer_name.value;
  if (testcase.validation_time !== null) body.at = testcase.validation_time;
  if (withLeafIndex) body.leafIndex = 0;
  return body;
}

function withNewline(pem: string): string {
  return pem.endsWith("\n") ? pem : `${pem}\n`;
}

/** The API's limits on `pem` and `roots` (CONTRACT §4.1, §7.2): blocks and characters. */
export const API_MAX_BLOCKS = 16;
export const API_MAX_PEM_CHARACTERS = 49_152;

/**
 * Whether a request exceeds the API's limits on `pem` or `roots` (more than 16 blocks, or more
 * than 49,152 characters): the API refuses it whole, so the harness may run it through the CLI,
 * whose local limits are larger, to learn what the rules say of it.
 */
export function overApiLimits(body: ChainRequestBody): boolean {
  return [body.pem, body.roots ?? ""].some(
    (text) =>
      text.length > API_MAX_PEM_CHARACTERS ||
      (text.match(/-----BEGIN CERTIFICATE-----/g) ?? []).length > API_MAX_BLOCKS,
  );
}

/** One problem of a chain answer, as the harness lists it. */
export interface AnswerProblem {
  code: string;
  severity: string;
  clients: string[];
  observed: string;
}

/** The parts of a 200 answer of POST /v1/certificate-chain the verdict reads. */
export interface ChainAnswer {
  status: string;
  /** The path's positions in `pem`, leaf first. */
  path: number[];
  anchor: { kind: string } | null;
  problems: AnswerProblem[];
}

/** A PEM certificate's base64 body, whitespace removed: the same certificate gives the same text. */
export function pemBody(pem: string): string {
  return pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, "").replace(/\s+/g, "");
}

/**
 * Whether the path ends at one of limbo's trusted certificates: a supplied root (`roots` holds
 * only them), or a self-signed member of the bundle (`in-bundle`) that is byte for byte one of
 * them. A self-signed certificate that only the server sent is no trust anchor for any client,
 * though the service, which has no trust store of the caller's, reads it as the end of the chain.
 */
export function anchoredInTrusted(answer: ChainAnswer, testcase: LimboTestcase): boolean {
  if (answer.anchor?.kind === "supplied-root") return true;
  if (answer.anchor?.kind !== "in-bundle") return false;
  const last = answer.path[answer.path.length - 1];
  const pool = [testcase.peer_certificate, ...testcase.untrusted_intermediates];
  const anchor = last === undefined ? undefined : pool[last];
  if (anchor === undefined) return false;
  const body = pemBody(anchor);
  return testcase.trusted_certs.some((trusted) => pemBody(trusted) === body);
}

/**
 * Problems about the bundle as a server sent it, not about the path: limbo's intermediates are a
 * pool in no served order, and every client builds its path from such a pool, so these never
 * count. They are the ones `chain --fix` repairs by writing, and the leaf selection.
 */
export const PRESENTATION_CODES: ReadonlySet<string> = new Set([
  "WRONG_ORDER",
  "UNNEEDED_CERTIFICATE",
  "DUPLICATE_CERTIFICATE",
  "ROOT_INCLUDED",
  "LEAF_SELECTION_REQUIRED",
]);

/** Our answer read as a verifier's: accept or reject, and why. */
export type Verdict =
  | { kind: "accept"; problems: AnswerProblem[] }
  | { kind: "reject"; why: "status"; status: string; problems: AnswerProblem[] }
  | { kind: "reject"; why: "untrusted-anchor"; problems: AnswerProblem[] }
  | { kind: "reject"; why: "errors"; problems: AnswerProblem[] }
  | { kind: "reject"; why: "refused"; issues: { path: unknown[]; message: string }[] };

/**
 * A 200 answer as accept or reject: accept when the status is `complete`, the path ends at one of
 * the testcase's trusted certificates ({@link anchoredInTrusted}) and no problem of severity
 * `error` remains besides {@link PRESENTATION_CODES}; every other status (`incomplete`,
 * `ambiguous`, `no-leaf`) rejects. `problems` keeps every problem but the presentation ones, for
 * the report (an accepted answer's warnings and notes too).
 */
export function verdictOf(answer: ChainAnswer, testcase: LimboTestcase): Verdict {
  const problems = answer.problems.filter((problem) => !PRESENTATION_CODES.has(problem.code));
  if (answer.status !== "complete") return { kind: "reject", why: "status", status: answer.status, problems };
  if (!anchoredInTrusted(answer, testcase)) return { kind: "reject", why: "untrusted-anchor", problems };
  const errors = problems.filter((problem) => problem.severity === "error");
  return errors.length > 0 ? { kind: "reject", why: "errors", problems } : { kind: "accept", problems };
}

/** A 400 INVALID_INPUT: the service refused the input (over its limits, a non-CA root …): a reject. */
export function refusedVerdict(issues: { path: unknown[]; message: string }[]): Verdict {
  return { kind: "reject", why: "refused", issues };
}

/**
 * The namespace a testcase is reported under: its id's first segment (`rfc5280`, `webpki`,
 * `pathlen`, `cve`, …), with BetterTLS split by suite (`bettertls::nameconstraints`).
 */
export function namespaceOf(id: string): string {
  const parts = id.split("::");
  if (parts[0] === "bettertls" && parts.length > 2) return `${parts[0]}::${parts[1]}`;
  return parts[0] ?? id;
}

/** Whether a namespace belongs to the BetterTLS import. */
export function isBetterTls(namespace: string): boolean {
  return namespace === "bettertls" || namespace.startsWith("bettertls::");
}

/** Counts for one verifier in one namespace. */
export interface Tally {
  total: number;
  agree: number;
  /** Cases the verifier did not evaluate (its harness skipped them, or no answer): never agreement. */
  skipped: number;
}

/** A verifier's answer to one testcase: SUCCESS, FAILURE, or SKIPPED (any other value counts as skipped). */
export type Outcome = "SUCCESS" | "FAILURE" | "SKIPPED";

/**
 * Agreement per namespace, plus `non-bettertls`, `bettertls` and `all` totals: for each testcase
 * in `testcases`, the verifier's outcome (absent means skipped) against the expected result.
 */
export function tallyByNamespace(
  testcases: readonly Pick<LimboTestcase, "id" | "expected_result">[],
  outcomes: ReadonlyMap<string, Outcome>,
): Map<string, Tally> {
  const tallies = new Map<string, Tally>();
  const add = (key: string, agree: boolean, skipped: boolean) => {
    const tally = tallies.get(key) ?? { total: 0, agree: 0, skipped: 0 };
    tally.total++;
    if (agree) tally.agree++;
    if (skipped) tally.skipped++;
    tallies.set(key, tally);
  };
  for (const testcase of testcases) {
    const outcome = outcomes.get(testcase.id) ?? "SKIPPED";
    const skipped = outcome === "SKIPPED";
    const agree = !skipped && outcome === testcase.expected_result;
    const namespace = namespaceOf(testcase.id);
    add(namespace, agree, skipped);
    add(isBetterTls(namespace) ? "bettertls" : "non-bettertls", agree, skipped);
    add("all", agree, skipped);
  }
  return tallies;
}

/** A limbo result file (limbo-schema's `LimboResult`) as outcomes by testcase id. */
export function outcomesOfResults(results: {
  results: { id: string; actual_result: string }[] | null;
}): Map<string, Outcome> {
  const outcomes = new Map<string, Outcome>();
  for (const result of results.results ?? []) {
    const value = result.actual_result;
    outcomes.set(result.id, value === "SUCCESS" || value === "FAILURE" ? value : "SKIPPED");
  }
  return outcomes;
}

/** "agree/total (pp.p %)", with skipped cases named when there are any. */
export function formatTally(tally: Tally | undefined): string {
  if (tally === undefined || tally.total === 0) return "–";
  const percent = ((100 * tally.agree) / tally.total).toFixed(1);
  const skipped = tally.skipped > 0 ? `, ${tally.skipped} skipped` : "";
  return `${tally.agree}/${tally.total} (${percent} %${skipped})`;
}
