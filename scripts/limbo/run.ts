/**
 * Runs x509-limbo's SERVER testcases against the real server process of a checkout and reports
 * agreement by namespace, beside other verifiers' result files (Go's and OpenSSL's harnesses from
 * limbo itself), with every disagreement listed. The suite and those harnesses are built outside
 * the repository (docs/limbo.md says how); only this harness is ours.
 *
 *   bun scripts/limbo/run.ts --limbo /work/limbo-data/limbo.json --checkout /work/wt/rules \
 *     [--compare go=results-go.json --compare openssl=results-openssl.json] \
 *     [--include PREFIX] [--concurrency 2] [--out latest.md] [--json latest.json]
 *
 * The server is started from `<checkout>/src/main.ts` with this Bun on 127.0.0.1 and an ephemeral
 * port, and always stopped (SIGTERM, then SIGKILL) at the end, after `--max-minutes`, or on ^C.
 */

import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { spawn, spawnSync } from "bun";
import { type CaseResult, renderReport } from "./report.ts";
import {
  type ChainAnswer,
  type LimboTestcase,
  type Outcome,
  outcomesOfResults,
  overApiLimits,
  refusedVerdict,
  requestFor,
  type Verdict,
  verdictOf,
} from "./verdict.ts";

/** The command line, read. */
export interface RunOptions {
  limbo: string;
  checkout: string;
  compare: { label: string; path: string }[];
  include: string | null;
  concurrency: number;
  out: string;
  json: string;
  maxMinutes: number;
  /** Cases over the API's limits: run through the checkout's CLI (its local limits), or reject. */
  overLimit: "cli" | "reject";
}

const USAGE =
  "usage: bun scripts/limbo/run.ts --limbo FILE [--checkout DIR] [--compare LABEL=RESULTS.json]… [--include PREFIX] [--concurrency N] [--out FILE.md] [--json FILE.json] [--max-minutes N] [--over-limit cli|reject]";

/** Parses the command line; throws with the usage line on a mistake. */
export function parseOptions(argv: readonly string[]): RunOptions {
  const options: RunOptions = {
    limbo: "",
    checkout: resolve(import.meta.dir, "../.."),
    compare: [],
    include: null,
    concurrency: 2,
    out: "/work/limbo-report/latest.md",
    json: "/work/limbo-report/latest.json",
    maxMinutes: 60,
    overLimit: "cli",
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`${flag} needs a value\n${USAGE}`);
    i++;
    if (flag === "--limbo") options.limbo = resolve(value);
    else if (flag === "--checkout") options.checkout = resolve(value);
    else if (flag === "--include") options.include = value;
    else if (flag === "--out") options.out = resolve(value);
    else if (flag === "--json") options.json = resolve(value);
    else if (flag === "--over-limit") {
      if (value !== "cli" && value !== "reject")
        throw new Error(`--over-limit takes cli or reject\n${USAGE}`);
      options.overLimit = value;
    } else if (flag === "--concurrency" || flag === "--max-minutes") {
      const number = Number(value);
      if (!Number.isInteger(number) || number < 1 || number > 1000)
        throw new Error(`${flag} takes a whole number from 1 to 1000\n${USAGE}`);
      if (flag === "--concurrency") options.concurrency = number;
      else options.maxMinutes = number;
    } else if (flag === "--compare") {
      const at = value.indexOf("=");
      if (at < 1) throw new Error(`--compare takes LABEL=RESULTS.json\n${USAGE}`);
      options.compare.push({ label: value.slice(0, at), path: resolve(value.slice(at + 1)) });
    } else throw new Error(`unknown option ${flag}\n${USAGE}`);
  }
  if (options.limbo === "") throw new Error(`--limbo is required\n${USAGE}`);
  return options;
}

interface Server {
  url: string;
  stop(): Promise<void>;
}

/** Starts `<checkout>/src/main.ts` on 127.0.0.1:0 and waits (at most 30 s) for its `listening` line. */
async function startServer(checkout: string): Promise<Server> {
  const child = spawn([process.execPath, `${checkout}/src/main.ts`], {
    cwd: checkout,
    env: { PATH: process.env.PATH ?? "", HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "info" },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "inherit",
  });
  const stop = async () => {
    child.kill("SIGTERM");
    const killer = setTimeout(() => child.kill("SIGKILL"), 5000);
    await child.exited;
    clearTimeout(killer);
  };
  const port = new Promise<number>((resolvePort, reject) => {
    const timer = setTimeout(() => reject(new Error("the server did not listen within 30 s")), 30_000);
    void child.exited.then((code) => reject(new Error(`the server exited with ${code} before listening`)));
    void (async () => {
      const decoder = new TextDecoder();
      let pending = "";
      // Read every line to the end, so that the access log never fills the pipe.
      const reader = child.stdout.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        pending += decoder.decode(value, { stream: true });
        let newline = pending.indexOf("\n");
        while (newline !== -1) {
          const line = pending.slice(0, newline);
          pending = pending.slice(newline + 1);
          if (line.includes('"listening"')) {
            const record = JSON.parse(line) as { port?: number };
            if (typeof record.port === "number") {
              clearTimeout(timer);
              resolvePort(record.port);
            }
          }
          newline = pending.indexOf("\n");
        }
      }
    })();
  });
  try {
    return { url: `http://127.0.0.1:${await port}`, stop };
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
}

interface ErrorBody {
  error?: { code?: string; issues?: { path: unknown[]; message: string }[] };
}

/** POSTs one request; 429 and 503 are retried after a pause (at most 5 tries). */
async function post(url: string, body: unknown): Promise<{ status: number; json: unknown }> {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(`${url}/v1/certificate-chain`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    const json = (await response.json().catch(() => null)) as unknown;
    if ((response.status === 429 || response.status === 503) && attempt < 5) {
      await Bun.sleep(500 * attempt);
      continue;
    }
    return { status: response.status, json };
  }
}

/** An answer: the HTTP status (the CLI's is mapped: exit 0/1 → 200, an error envelope → 400) and body. */
interface Answer {
  status: number;
  json: unknown;
}

/** Where the harness sends one testcase's request. */
interface Target {
  /** The server's base URL. */
  url: string;
  checkout: string;
  overLimit: "cli" | "reject";
  scratch: string;
}

/**
 * Runs one request through the checkout's CLI in this process's Bun (`nettools chain --json`,
 * with its local limits: 1000 blocks, 2 MB), for the cases the API's limits refuse.
 */
async function runCli(target: Target, id: string, body: ReturnType<typeof requestFor>): Promise<Answer> {
  const dir = mkdtempSync(join(target.scratch, "case-"));
  try {
    const args = ["chain", "--json"];
    if (body.leafIndex !== undefined) args.push("--leaf-index", String(body.leafIndex));
    if (body.hostname !== undefined) args.push("--hostname", body.hostname);
    if (body.at !== undefined) args.push("--at", body.at);
    if (body.roots !== undefined) {
      writeFileSync(join(dir, "roots.pem"), body.roots);
      args.push("--roots", join(dir, "roots.pem"));
    }
    writeFileSync(join(dir, "bundle.pem"), body.pem);
    args.push(join(dir, "bundle.pem"));
    const child = spawn([process.execPath, `${target.checkout}/src/cli/main.ts`, ...args], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? "" },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    const killer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    const [stdout, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
    clearTimeout(killer);
    let json: unknown = null;
    try {
      json = JSON.parse(stdout);
    } catch {
      return { status: 0, json: { cliExit: code, case: id } };
    }
    const isError = typeof json === "object" && json !== null && "error" in json;
    return { status: isError ? 400 : code <= 1 ? 200 : 0, json };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Whether the server takes `at`: a request with a valid one draws no issue at ["at"]. */
async function takesInstant(url: string): Promise<boolean> {
  const answer = await post(url, { pem: "", at: "2020-01-01T00:00:00Z" });
  const issues = (answer.json as ErrorBody | null)?.error?.issues ?? [];
  return !issues.some((issue) => issue.path[0] === "at");
}

/** Runs one testcase: leafIndex 0 first, without it when the service refuses that field alone. */
async function runCase(target: Target, testcase: LimboTestcase): Promise<CaseResult> {
  const overLimit = overApiLimits(requestFor(testcase, true));
  let via: "api" | "cli" = overLimit && target.overLimit === "cli" ? "cli" : "api";
  const ask = async (withLeafIndex: boolean): Promise<Answer> => {
    const body = requestFor(testcase, withLeafIndex);
    if (via === "cli") return runCli(target, testcase.id, body);
    const answer = await post(target.url, body);
    // A body over the edge's size limit (413) is over the API's limits too.
    if (answer.status === 413 && target.overLimit === "cli") {
      via = "cli";
      return runCli(target, testcase.id, body);
    }
    return answer;
  };
  const leafRefused = (json: unknown) =>
    (json as ErrorBody | null)?.error?.issues?.some((issue) => issue.path[0] === "leafIndex") === true;
  let answer = await ask(true);
  let leafIndexSent = true;
  if (answer.status === 400 && leafRefused(answer.json)) {
    answer = await ask(false);
    leafIndexSent = false;
  }
  let verdict: Verdict | null = null;
  if (answer.status === 200) verdict = verdictOf(answer.json as ChainAnswer, testcase);
  else if (answer.status === 400 && (answer.json as ErrorBody | null)?.error?.code === "INVALID_INPUT")
    verdict = refusedVerdict((answer.json as ErrorBody).error?.issues ?? []);
  const outcome: Outcome = verdict === null ? "SKIPPED" : verdict.kind === "accept" ? "SUCCESS" : "FAILURE";
  return {
    id: testcase.id,
    description: testcase.description,
    expected: testcase.expected_result,
    outcome,
    httpStatus: answer.status,
    leafIndexSent,
    via,
    verdict,
    blocks: 1 + testcase.untrusted_intermediates.length,
    roots: testcase.trusted_certs.length,
  };
}

/** Runs `testcases` with `concurrency` requests in flight, in suite order, reporting progress. */
async function runAll(
  target: Target,
  testcases: LimboTestcase[],
  concurrency: number,
): Promise<CaseResult[]> {
  const results: CaseResult[] = new Array(testcases.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    for (;;) {
      const index = next++;
      const testcase = testcases[index];
      if (testcase === undefined) return;
      results[index] = await runCase(target, testcase);
      done++;
      if (done % 500 === 0) process.stderr.write(`${done}/${testcases.length}\n`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return results;
}

function gitDescription(checkout: string): string {
  const head = spawnSync(["git", "-C", checkout, "rev-parse", "--short", "HEAD"]).stdout.toString().trim();
  const branch = spawnSync(["git", "-C", checkout, "rev-parse", "--abbrev-ref", "HEAD"])
    .stdout.toString()
    .trim();
  const dirty = spawnSync(["git", "-C", checkout, "status", "--porcelain", "--untracked-files=no"])
    .stdout.toString()
    .trim();
  if (head === "") return `${checkout} (not a git checkout)`;
  return `${checkout} (${branch} at ${head}${dirty ? ", with uncommitted changes" : ""})`;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const text = readFileSync(options.limbo);
  const suite = JSON.parse(text.toString()) as { testcases: LimboTestcase[] };
  const testcases = suite.testcases.filter(
    (testcase) =>
      testcase.validation_kind === "SERVER" &&
      (options.include === null || testcase.id.startsWith(options.include)),
  );
  const comparisons = options.compare.map(({ label, path }) => {
    const results = JSON.parse(readFileSync(path, "utf8")) as {
      harness?: string;
      results: { id: string; actual_result: string }[] | null;
    };
    return { label, harness: results.harness ?? label, outcomes: outcomesOfResults(results) };
  });

  const server = await startServer(options.checkout);
  if (!(await takesInstant(server.url))) {
    await server.stop();
    throw new Error(
      `the server of ${options.checkout} refuses \`at\` (CONTRACT §9.1): merge the \`at\` commit of branch limbo first; every testcase would read as refused`,
    );
  }
  const deadline = setTimeout(() => {
    process.stderr.write(`stopping: --max-minutes ${options.maxMinutes} reached\n`);
    void server.stop().then(() => process.exit(3));
  }, options.maxMinutes * 60_000);
  const interrupted = () => void server.stop().then(() => process.exit(130));
  process.on("SIGINT", interrupted);
  process.on("SIGTERM", interrupted);
  const started = performance.now();
  let results: CaseResult[];
  const scratch = mkdtempSync(join(tmpdir(), "limbo-run-"));
  try {
    const target: Target = {
      url: server.url,
      checkout: options.checkout,
      overLimit: options.overLimit,
      scratch,
    };
    results = await runAll(target, testcases, options.concurrency);
  } finally {
    clearTimeout(deadline);
    await server.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
  const seconds = (performance.now() - started) / 1000;

  const report = renderReport({
    limboPath: options.limbo,
    limboSha256: createHash("sha256").update(text).digest("hex"),
    checkout: gitDescription(options.checkout),
    command: `bun scripts/limbo/run.ts ${process.argv.slice(2).join(" ")}`,
    finishedAt: new Date().toISOString().slice(0, 19).concat("Z"),
    seconds,
    testcases,
    results,
    comparisons,
  });
  mkdirSync(dirname(options.out), { recursive: true });
  writeFileSync(options.out, report.markdown);
  mkdirSync(dirname(options.json), { recursive: true });
  writeFileSync(options.json, `${JSON.stringify({ summary: report.summary, results }, null, 1)}\n`);
  process.stdout.write(`${report.summaryText}\nreport: ${options.out}\nper case: ${options.json}\n`);
}

if (import.meta.main) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  });
}
