/**
 * What every `nettools` command shares before it runs an operation: the common options and their
 * help text, parsing a command line, and reading entries from arguments, files and stdin with the
 * place each came from.
 */
import { parseArgs } from "node:util";
import { type Client, createClient } from "../client/index.ts";
import { LOCAL_CIDR_LIMITS, MAX_SUBTRACT_ENTRIES } from "../domain/limits.ts";
import { linesOf, type Sourced } from "./input.ts";
import { type Io, UsageError } from "./io.ts";
import { chooseStyle, type Style } from "./render.ts";

export { COMMON_HELP } from "./common-help.ts";

export const CIDR_HELP = `
Run in this process, the CIDR commands accept up to ${LOCAL_CIDR_LIMITS.maxEntries} entries and
${LOCAL_CIDR_LIMITS.maxResultCidrs} result CIDRs (a server keeps the API's limits: ${MAX_SUBTRACT_ENTRIES} entries).
An invalid entry is reported at its place: "arg 2", "FILE:LINE" or "stdin:LINE".

Output option:
  --plain         print only the resulting CIDRs, one a line (for pipes); not with --json`;

const COMMON_OPTIONS = {
  server: { type: "string" },
  timeout: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

export const PLAIN_OPTION = { plain: { type: "boolean" } } as const;

/** Options every command run shares once parsed. */
export interface Run {
  io: Io;
  json: boolean;
  /** --plain: only the resulting CIDRs, one a line. */
  plain: boolean;
  /** The typed client with --server; null runs operations in this process. */
  client: Client | null;
  out: Style;
  err: Style;
}

type OptionSpec = Record<string, { type: "string" | "boolean"; short?: string; multiple?: boolean }>;

/** Parses a command's arguments with the common options added; a mistake is a UsageError. */
export function parse<O extends OptionSpec>(args: string[], options: O) {
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

/** The shared run options from parsed values: output mode, styles, and a client for --server. */
export function makeRun(
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

/** Reads stdin once, however many inputs name "-". */
export function stdinOnce(io: Io): () => Promise<string> {
  let text: Promise<string> | null = null;
  return () => {
    text ??= io.readStdin();
    return text;
  };
}

/** The text of a file, or of stdin for "-"; an unreadable file is a UsageError naming it. */
export async function readSource(name: string, io: Io, stdin: () => Promise<string>): Promise<string> {
  if (name === "-") return stdin();
  try {
    return await io.readFile(name);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UsageError(`cannot read ${name}: ${reason}`);
  }
}

/** Entries from arguments (`-` = stdin) and files, each with its place (`arg 2`, `FILE:LINE`, `stdin:LINE`). */
export async function collectEntries(
  values: readonly string[],
  origins: readonly string[],
  files: readonly string[],
  io: Io,
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
  for (const file of files) linesOf(await readSource(file, io, stdin), file === "-" ? "stdin" : file, out);
  return out;
}
