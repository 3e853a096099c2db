#!/usr/bin/env bun
/**
 * `nettools`: the command-line adapter of the Network Tools API (issue 8).
 *
 * The CIDR and certificate commands run the domain in this process (no server needed); with
 * `--server URL` (or NETTOOLS_SERVER) they call that server through the typed client instead.
 * Either way the result is the API's result: `--json` prints it exactly as the API returns it.
 *
 * Exit codes: 0 ok · 1 the certificate chain is broken (a finding of severity error, or an
 * intermediate most likely missing) · 2 invalid input or usage · 3 network or server failure.
 */
import { parseArgs } from "node:util";
import type { Static, TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { realCertificateDeps } from "../adapters/real-deps.ts";
import {
  missingIntermediates,
  missingIntermediateWarning,
  privateKeyRefusal,
} from "../client/certificate-answers.ts";
import {
  type ApiResult,
  type Client,
  createClient,
  type ErrorIssue,
  isClientError,
} from "../client/index.ts";
import { envelopeOf, STATUS_OF, schemaRejection } from "../contract/envelope.ts";
import { OPERATIONS, type RequestOf } from "../contract/operations.ts";
import { inspectCertificateBundle } from "../domain/certificates/inspect.ts";
import { coverCidrs } from "../domain/cidr/cover.ts";
import { mergeCidrs } from "../domain/cidr/merge.ts";
import { rangeToCidrs } from "../domain/cidr/range-to-cidrs.ts";
import { subtractCidrs } from "../domain/cidr/subtract.ts";
import { DomainError } from "../domain/errors.ts";
import {
  LOCAL_CIDR_LIMITS,
  MAX_COVER_INPUTS,
  MAX_PEM_LENGTH,
  MAX_SUBTRACT_ENTRIES,
} from "../domain/limits.ts";
import { INFO_HELP, info } from "./info.ts";
import { argOrigins, linesOf, rangeEndpoints, type Sourced } from "./input.ts";
import { type GivenLists, renderInputError } from "./input-errors.ts";
import { EXIT, type Io, UsageError } from "./io.ts";
import { LOCAL_CERTIFICATE_LIMITS } from "./local-limits.ts";
import {
  chooseStyle,
  cidrLines,
  renderCertificates,
  renderCover,
  renderError,
  renderMerge,
  renderRange,
  renderSubtract,
  type Style,
} from "./render.ts";

export { EXIT } from "./io.ts";

const COMMON_HELP = `
Common options:
  --server URL    call the API at URL through the typed client instead of running in-process
                  (default: $NETTOOLS_SERVER when set)
  --timeout MS    with --server: limit for each request (default 10000)
  --json          print exactly the API's JSON result (or its error envelope) on stdout
  -h, --help      show this help

Exit codes: 0 ok, 1 broken certificate chain (an error finding, or an intermediate most likely
missing), 2 invalid input, 3 network or server failure.
Colour only on a terminal; NO_COLOR turns it off.`;

const CIDR_HELP = `
Run in this process, the CIDR commands accept up to ${LOCAL_CIDR_LIMITS.maxEntries} entries and
${LOCAL_CIDR_LIMITS.maxResultCidrs} result CIDRs (a server keeps the API's limits: ${MAX_SUBTRACT_ENTRIES} entries).
An invalid entry is reported at its place: "arg 2", "FILE:LINE" or "stdin:LINE".

Output option:
  --plain         print only the resulting CIDRs, one a line (for pipes); not with --json`;

const HELP: Record<string, string> = {
  main: `nettools — exact CIDR arithmetic, certificate-bundle diagnostics and "what is my IP"

Usage: nettools <command> [options] [arguments]

Commands:
  cover      smallest single CIDR containing every address or CIDR given
  subtract   included address space minus excluded ranges, as a minimal CIDR list
  merge      collapse a list of addresses and CIDRs into a minimal sorted CIDR list
  range      an inclusive address range as a minimal CIDR list
  info       facts about one address or CIDR: netmask, hosts, special-purpose type, …
  cert       inspect a PEM certificate bundle (issuer links, validity, hostname, findings)
  myip       the address your connection comes from, as a server sees it (needs --server)
  serve      run the HTTP API and its web page

Run "nettools <command> --help" for a command's options.
${COMMON_HELP}`,
  cover: `Usage: nettools cover [options] ENTRY... | -

Smallest single CIDR that contains every given IP address or CIDR (one family).
ENTRY is an address or CIDR; "-" reads entries from stdin, one a line (blank lines and
lines starting with # are skipped).

Options:
  -f, --file FILE   read entries from FILE, one a line ("-" = stdin); repeatable
${CIDR_HELP}
${COMMON_HELP}

Example: nettools cover 10.0.0.0/24 10.0.1.7`,
  merge: `Usage: nettools merge [options] ENTRY... | -

Collapses addresses and CIDRs (one family) into the minimal sorted list of CIDRs covering exactly
their union: duplicates and overlaps removed, adjacent blocks joined. The same as "subtract" with
nothing excluded; --json prints that cidr-subtract result.
ENTRY is an address or CIDR; "-" reads entries from stdin, one a line (blank lines and lines
starting with # are skipped).

Options:
  -f, --file FILE   read entries from FILE, one a line ("-" = stdin); repeatable
${CIDR_HELP}
${COMMON_HELP}

Example: nettools merge --plain -f prefixes.txt > merged.txt`,
  subtract: `Usage: nettools subtract [options] INCLUDE... [-x EXCLUDE]...

Removes the excluded address space from the included address space and prints the minimal
sorted CIDR list of what remains. INCLUDE and EXCLUDE are addresses or CIDRs of one family;
"-" as an INCLUDE reads include entries from stdin, one a line.

Options:
  -x, --exclude ENTRY       an entry to remove; repeatable
  -f, --file FILE           read include entries from FILE ("-" = stdin); repeatable
  -X, --exclude-file FILE   read exclude entries from FILE ("-" = stdin); repeatable
${CIDR_HELP}
${COMMON_HELP}

Example: nettools subtract 10.0.0.0/8 -x 10.128.0.0/9 -x 10.0.0.0/24`,
  range: `Usage: nettools range [options] START END | START-END | START - END | -

Minimal CIDR list covering exactly the inclusive range START–END (bare addresses of one
family, START at or before END). "START - END" is how whois shows a NetRange. "-" reads the
range from stdin in any of these forms.

Output option:
  --plain         print only the CIDRs, one a line (for pipes); not with --json
${COMMON_HELP}

Example: nettools range 192.0.2.10 - 192.0.2.20`,
  cert: `Usage: nettools cert [options] FILE | -

Inspects a PEM bundle of certificates (FILE, or "-" for stdin): every certificate, candidate
issuer links and their signatures, possible leaves, an optional hostname check, and findings
grouped by severity. An observation only: not RFC 5280 path validation or a trust decision.
Exits 1 when a finding has severity error, or when a certificate's issuer is neither in the
bundle nor a known root (an intermediate is most likely missing; a warning line says which).

Options:
  -H, --hostname NAME   check NAME against the leaf's DNS SANs
  --leaf-index N        the position of the leaf to check, when there are several
${COMMON_HELP}

Example: nettools cert --hostname example.com chain.pem`,
  info: INFO_HELP,
  myip: `Usage: nettools myip --server URL [--json]

Prints the IP address your connection to the server comes from (a VPN or proxy changes it).
${COMMON_HELP}`,
  serve: `Usage: nettools serve [--port N] [--host ADDRESS]

Runs the HTTP API, its documentation (/docs) and its web page (/) — the same server as
"npm start". Every variable of the server's configuration applies (PORT, HOST,
TRUSTED_PROXIES, CORS_ORIGINS, LOG_LEVEL, SHUTDOWN_TIMEOUT_MS, WORKERS, …); --port and
--host override PORT and HOST.

Options:
  --port N          TCP port (default: $PORT or 3000)
  --host ADDRESS    listen address (default: $HOST or 0.0.0.0)
  -h, --help        show this help`,
};

const COMMON_OPTIONS = {
  server: { type: "string" },
  timeout: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** Options every command run shares once parsed. */
interface Run {
  io: Io;
  json: boolean;
  /** --plain: only the resulting CIDRs, one a line. */
  plain: boolean;
  client: Client | null;
  out: Style;
  err: Style;
}

/** Reads stdin once, however many inputs name "-". */
function stdinOnce(io: Io): () => Promise<string> {
  let text: Promise<string> | null = null;
  return () => {
    text ??= io.readStdin();
    return text;
  };
}

async function readSource(name: string, run: Run, stdin: () => Promise<string>): Promise<string> {
  if (name === "-") return stdin();
  try {
    return await run.io.readFile(name);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UsageError(`cannot read ${name}: ${reason}`);
  }
}

/** Entries from arguments (`-` = stdin) and files, each with its place (`arg 2`, `FILE:LINE`, `stdin:LINE`). */
async function collectEntries(
  values: readonly string[],
  origins: readonly string[],
  files: readonly string[],
  run: Run,
  stdin: () => Promise<string>,
): Promise<Sourced> {
  const out: Sourced = { entries: [], origins: [] };
  for (let i = 0; i < values.length; i++) {
    if (values[i] === "-") linesOf(await stdin(), "stdin", out);
    else {
      out.entries.push(values[i]!);
      out.origins.push(origins[i] ?? `arg ${i + 1}`);
    }
  }
  for (const file of files) linesOf(await readSource(file, run, stdin), file === "-" ? "stdin" : file, out);
  return out;
}

/** The server's first check, done here too: the request against its TypeBox schema. */
function checkRequest<S extends TSchema>(schema: S, body: unknown): asserts body is Static<S> {
  if (Value.Check(schema, body)) return;
  throw schemaRejection(Value.Errors(schema, body));
}

/** Runs a use case in-process, turning a DomainError into the envelope the server would send. */
async function inProcess<T>(work: () => T | Promise<T>): Promise<ApiResult<T>> {
  try {
    return { ok: true, status: 200, value: await work() };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { ok: false, status: STATUS_OF[error.code], error: envelopeOf(error).error };
  }
}

/** Exit code of a failed call: 2 when the input was rejected, 3 for anything else. */
function failureExit(result: Exclude<ApiResult<unknown>, { ok: true }>): number {
  if (result.error.code === "NETWORK_ERROR" || result.error.code === "INVALID_RESPONSE") return EXIT.failure;
  return result.status === 400 || result.status === 413 || result.status === 415
    ? EXIT.invalidInput
    : EXIT.failure;
}

/**
 * Prints a result; returns the exit code. `source` is the user's PEM, for showing located lines;
 * `lists` say where each address entry came from; `plain` is the --plain form of a result.
 */
function report<T>(
  result: ApiResult<T>,
  run: Run,
  render: (value: T, style: Style) => string,
  extra: { source?: string; lists?: GivenLists; plain?: (value: T) => string } = {},
): number {
  if (result.ok) {
    const text = run.json
      ? `${JSON.stringify(result.value)}\n`
      : run.plain && extra.plain
        ? extra.plain(result.value)
        : render(result.value, run.out);
    run.io.stdout(text);
    return EXIT.ok;
  }
  const error = result.error as { code: string; message: string; issues?: ErrorIssue[] };
  if (run.json) run.io.stdout(`${JSON.stringify({ error: result.error })}\n`);
  else if (extra.lists && !isClientError(error))
    run.io.stderr(renderInputError(error, extra.lists, run.err, run.client !== null));
  else run.io.stderr(renderError(error, run.err, extra.source));
  return failureExit(result);
}

function parse<O extends Record<string, { type: "string" | "boolean"; short?: string; multiple?: boolean }>>(
  args: string[],
  options: O,
) {
  try {
    return parseArgs({
      args,
      options: { ...COMMON_OPTIONS, ...options },
      allowPositionals: true,
      strict: true,
      tokens: true,
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

function makeRun(
  io: Io,
  values: { server?: string; timeout?: string; json?: boolean; plain?: boolean },
): Run {
  if (values.json && values.plain) throw new UsageError("--json and --plain cannot be used together");
  const server = values.server ?? io.env.NETTOOLS_SERVER;
  let timeoutMs: number | undefined;
  if (values.timeout !== undefined) {
    timeoutMs = Number(values.timeout);
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) {
      throw new UsageError(
        `--timeout must be a positive whole number of milliseconds, not "${values.timeout}"`,
      );
    }
  }
  let client: Client | null = null;
  if (server !== undefined && server !== "") {
    if (!/^https?:\/\//i.test(server))
      throw new UsageError(`--server must be an http:// or https:// URL, not "${server}"`);
    client = createClient({ baseUrl: server, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
  }
  return {
    io,
    json: values.json === true,
    plain: values.plain === true,
    client,
    out: chooseStyle(io.stdoutIsTty, io.env),
    err: chooseStyle(io.stderrIsTty, io.env),
  };
}

const PLAIN_OPTION = { plain: { type: "boolean" } } as const;

async function cover(args: string[], io: Io): Promise<number> {
  const { values, positionals, tokens } = parse(args, {
    file: { type: "string", short: "f", multiple: true },
    ...PLAIN_OPTION,
  });
  if (values.help) return help(io, "cover");
  const run = makeRun(io, values);
  const stdin = stdinOnce(io);
  const origins = argOrigins(tokens, []).get("positionals") ?? [];
  const inputs = await collectEntries(positionals, origins, values.file ?? [], run, stdin);
  if (inputs.entries.length === 0) throw new UsageError("cover needs at least one address or CIDR");
  const request = { inputs: inputs.entries };
  const result = run.client
    ? await run.client.cidrCover(request)
    : await inProcess(() => {
        if (run.json && request.inputs.length <= MAX_COVER_INPUTS)
          checkRequest(OPERATIONS.cidrCover.request, request);
        return coverCidrs(request.inputs, LOCAL_CIDR_LIMITS);
      });
  return report(result, run, renderCover, {
    lists: { inputs: { noun: "the address list", ...inputs } },
    plain: (value) => `${value.cidr}\n`,
  });
}

async function subtract(args: string[], io: Io): Promise<number> {
  const { values, positionals, tokens } = parse(args, {
    exclude: { type: "string", short: "x", multiple: true },
    file: { type: "string", short: "f", multiple: true },
    "exclude-file": { type: "string", short: "X", multiple: true },
    ...PLAIN_OPTION,
  });
  if (values.help) return help(io, "subtract");
  const run = makeRun(io, values);
  const stdin = stdinOnce(io);
  const origins = argOrigins(tokens, ["exclude"]);
  const include = await collectEntries(
    positionals,
    origins.get("positionals") ?? [],
    values.file ?? [],
    run,
    stdin,
  );
  const exclude = await collectEntries(
    values.exclude ?? [],
    origins.get("exclude") ?? [],
    values["exclude-file"] ?? [],
    run,
    stdin,
  );
  if (include.entries.length === 0)
    throw new UsageError("subtract needs at least one address or CIDR to include");
  const request = { include: include.entries, exclude: exclude.entries };
  const result = run.client
    ? await run.client.cidrSubtract(request)
    : await inProcess(() => {
        if (run.json && request.include.length + request.exclude.length <= MAX_SUBTRACT_ENTRIES)
          checkRequest(OPERATIONS.cidrSubtract.request, request);
        return subtractCidrs(request.include, request.exclude, LOCAL_CIDR_LIMITS);
      });
  return report(result, run, renderSubtract, {
    lists: {
      include: { noun: "the include list", ...include },
      exclude: { noun: "the exclude list", ...exclude },
    },
    plain: cidrLines,
  });
}

async function merge(args: string[], io: Io): Promise<number> {
  const { values, positionals, tokens } = parse(args, {
    file: { type: "string", short: "f", multiple: true },
    ...PLAIN_OPTION,
  });
  if (values.help) return help(io, "merge");
  const run = makeRun(io, values);
  const stdin = stdinOnce(io);
  const origins = argOrigins(tokens, []).get("positionals") ?? [];
  const entries = await collectEntries(positionals, origins, values.file ?? [], run, stdin);
  if (entries.entries.length === 0) throw new UsageError("merge needs at least one address or CIDR");
  const request = { include: entries.entries, exclude: [] };
  const result = run.client
    ? await run.client.cidrSubtract(request)
    : await inProcess(() => {
        if (run.json && request.include.length <= MAX_SUBTRACT_ENTRIES)
          checkRequest(OPERATIONS.cidrSubtract.request, request);
        return mergeCidrs(request.include, LOCAL_CIDR_LIMITS);
      });
  return report(result, run, renderMerge, {
    lists: { include: { noun: "the address list", ...entries } },
    plain: cidrLines,
  });
}

async function range(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, { ...PLAIN_OPTION });
  if (values.help) return help(io, "range");
  const run = makeRun(io, values);
  let words: string[] = positionals;
  if (positionals.length === 1 && positionals[0] === "-") {
    words = (await stdinOnce(io)()).split(/\r\n|\r|\n/).filter((line) => !line.trim().startsWith("#"));
  }
  const endpoints = rangeEndpoints(words);
  if (endpoints === null) {
    throw new UsageError('range needs exactly two addresses: START END, START-END or "START - END"');
  }
  const request = { start: endpoints[0], end: endpoints[1] };
  const result = run.client
    ? await run.client.rangeToCidrs(request)
    : await inProcess(() => {
        checkRequest(OPERATIONS.rangeToCidrs.request, request);
        return rangeToCidrs(request.start, request.end);
      });
  return report(result, run, renderRange, { plain: cidrLines });
}

async function cert(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, {
    hostname: { type: "string", short: "H" },
    "leaf-index": { type: "string" },
  });
  if (values.help) return help(io, "cert");
  const run = makeRun(io, values);
  if (positionals.length !== 1) throw new UsageError('cert needs exactly one PEM file, or "-" for stdin');
  const pem = await readSource(positionals[0]!, run, stdinOnce(io));
  // A private key is refused here, before any request, and no line of it is shown (no excerpt).
  const refusal = privateKeyRefusal(pem);
  if (refusal !== null) return report({ ok: false, status: 400, error: refusal }, run, renderCertificates);
  const request: RequestOf<"certificateBundle"> = { pem };
  if (values.hostname !== undefined) request.hostname = values.hostname;
  if (values["leaf-index"] !== undefined) {
    const leafIndex = Number(values["leaf-index"]);
    if (!/^\d+$/.test(values["leaf-index"])) {
      throw new UsageError(`--leaf-index must be a whole number, not "${values["leaf-index"]}"`);
    }
    request.leafIndex = leafIndex;
  }
  const result = run.client
    ? await run.client.certificateBundle(request)
    : await inProcess(() => {
        if (run.json && pem.length <= MAX_PEM_LENGTH)
          checkRequest(OPERATIONS.certificateBundle.request, request);
        return inspectCertificateBundle(request, realCertificateDeps(), LOCAL_CERTIFICATE_LIMITS);
      });
  const code = report(result, run, renderCertificates, { source: pem });
  if (!result.ok) return code;
  const missing = missingIntermediates(result.value.findings);
  if (!run.json) {
    for (const finding of missing)
      run.io.stderr(`${run.err.yellow("warning")}: ${missingIntermediateWarning(finding)}\n`);
  }
  if (missing.length > 0 || result.value.findings.some((finding) => finding.severity === "error"))
    return EXIT.findings;
  return code;
}

async function myip(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, {});
  if (values.help) return help(io, "myip");
  if (positionals.length > 0) throw new UsageError("myip takes no arguments");
  const run = makeRun(io, values);
  if (run.client === null) {
    throw new UsageError(
      "myip needs a server to observe your address: pass --server URL or set NETTOOLS_SERVER",
    );
  }
  const result = await run.client.publicIp();
  return report(result, run, (value) => `${value.ip}\n`);
}

/** Starts the server in this process (src/server.ts); resolves only if it fails to start. */
async function serve(args: string[], io: Io): Promise<number | "running"> {
  let values: { port?: string; host?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: { port: { type: "string" }, host: { type: "string" }, help: { type: "boolean", short: "h" } },
      strict: true,
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return help(io, "serve");
  if (values.port !== undefined) process.env.PORT = values.port;
  if (values.host !== undefined) process.env.HOST = values.host;
  // Loaded only here: the other commands never pull in the HTTP server.
  const [{ loadConfig, ConfigError }, { runServer }, { usableCpuCount }] = await Promise.all([
    import("../config.ts"),
    import("../server.ts"),
    import("../adapters/system/cpus.ts"),
  ]);
  let config: Awaited<ReturnType<typeof loadConfig>>;
  try {
    config = loadConfig(process.env, usableCpuCount(navigator.hardwareConcurrency));
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
  return runServer(config, { isTerminal: io.stdoutIsTty });
}

function help(io: Io, topic: string): number {
  io.stdout(`${HELP[topic] ?? HELP.main}\n`);
  return EXIT.ok;
}

const COMMANDS: Record<string, (args: string[], io: Io) => Promise<number | "running">> = {
  cover,
  subtract,
  merge,
  range,
  info,
  cert,
  myip,
  serve,
};

/** Runs one command line; returns the exit code, or "running" when a server was started. */
export async function main(io: Io): Promise<number | "running"> {
  const [command, ...rest] = io.argv;
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    const topic = command === "help" ? rest[0] : undefined;
    if (command === undefined) {
      io.stderr(`${HELP.main}\n`);
      return EXIT.invalidInput;
    }
    return help(io, topic ?? "main");
  }
  const handler = COMMANDS[command];
  const style = chooseStyle(io.stderrIsTty, io.env);
  if (handler === undefined) {
    io.stderr(`${style.red("error")}: unknown command "${command}"; run "nettools --help" for the list\n`);
    return EXIT.invalidInput;
  }
  try {
    return await handler(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`${style.red("error")}: ${error.message}\nRun "nettools ${command} --help" for usage.\n`);
      return EXIT.invalidInput;
    }
    const name = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    io.stderr(`${style.red("error")} INTERNAL_ERROR: ${name}\n`);
    return EXIT.failure;
  }
}

if (import.meta.main) {
  // Worker copies started by the server's supervisor (WORKERS > 1) re-run this program without
  // arguments: they are servers.
  const argv = process.env.NETWORK_TOOLS_API_WORKER === "1" ? ["serve"] : process.argv.slice(2);
  const code = await main({
    argv,
    env: process.env,
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    stdoutIsTty: process.stdout.isTTY === true,
    stderrIsTty: process.stderr.isTTY === true,
    readStdin: () => Bun.stdin.text(),
    readFile: (path) => Bun.file(path).text(),
  });
  if (code !== "running") process.exitCode = code;
}
