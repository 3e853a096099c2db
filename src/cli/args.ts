/**
 * What every `nettools` command shares before it runs an operation: the common options once
 * parsed (`Run`), the CIDR commands' help, and reading the two lists of `alloc`, `usage` and `subtract` with
 * the place each entry came from.
 */
import { type Client, createClient } from "../client/index.ts";
import { LOCAL_CIDR_LIMITS, MAX_SUBTRACT_ENTRIES } from "../domain/limits.ts";
import { DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS } from "../local/deadline.ts";
import type { Sourced } from "../local/list-lines.ts";
import { collectEntries, stdinOnce } from "../local/list-sources.ts";
import { help, options } from "./command.ts";
import { argOrigins } from "./input.ts";
import { type Io, UsageError } from "./io.ts";
import { chooseStyle, type Style } from "./render.ts";

export { COMMON_HELP } from "./common-help.ts";

export const CIDR_HELP = help`
Run in this process, the CIDR commands accept up to ${LOCAL_CIDR_LIMITS.maxEntries} entries and
${LOCAL_CIDR_LIMITS.maxResultCidrs} result CIDRs (a server keeps the API's limits: ${MAX_SUBTRACT_ENTRIES} entries).
An invalid entry is reported at its place: "arg 2", "FILE:LINE" or "stdin:LINE".

Output option:
${options(18, { "--plain": "print only the resulting CIDRs, one a line (for pipes); not with --json" })}`;

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
  /** `--timeout SECONDS`: the budget of the whole command (CONTRACT §7.3), 10 by default. */
  timeoutSeconds: number;
  /** Says `text` on stderr as a notice (one line). */
  notice: (text: string) => void;
}

/** What a command's run needs besides its parsed values. */
export interface RunNeeds {
  /**
   * Why this run must stay in this process (`cert --roots`), if it must: `--server` is then an
   * error, and a NETTOOLS_SERVER default is skipped with a notice (CONTRACT §7.6).
   */
  inProcessOnly?: string | undefined;
}

/**
 * The shared run options from parsed values: output mode, styles, the time budget, and a client
 * for --server (else NETTOOLS_SERVER). An environment default never makes a command fail
 * (CONTRACT §7.6): a NETTOOLS_SERVER that is not a URL, or that this run cannot use, is skipped
 * with one notice on stderr; the same value given as `--server` is an error.
 */
export function makeRun(
  io: Io,
  values: { server?: string; timeout?: string; json?: boolean; plain?: boolean },
  needs: RunNeeds = {},
): Run {
  if (values.json && values.plain) throw new UsageError("--json and --plain cannot be used together");
  const timeoutSeconds =
    values.timeout === undefined ? DEFAULT_TIMEOUT_SECONDS : parseTimeout(values.timeout);
  const err = chooseStyle(io.stderrIsTty, io.env);
  const notice = (text: string) => io.stderr(`${err.dim("notice")}: ${text}\n`);
  let server = values.server;
  if (server !== undefined) {
    if (needs.inProcessOnly !== undefined) throw new UsageError(`${needs.inProcessOnly}: drop --server`);
    if (!isHttpUrl(server))
      throw new UsageError(`--server must be an http:// or https:// URL, not "${server}"`);
  } else {
    const fromEnvironment = io.env.NETTOOLS_SERVER;
    if (fromEnvironment !== undefined && fromEnvironment !== "") {
      if (needs.inProcessOnly !== undefined) {
        notice(`NETTOOLS_SERVER is not used for this run: ${needs.inProcessOnly}`);
      } else if (!isHttpUrl(fromEnvironment)) {
        notice("NETTOOLS_SERVER is not used: it is not an http:// or https:// URL; running in this process");
      } else server = fromEnvironment;
    }
  }
  const client =
    server === undefined || server === ""
      ? null
      : createClient({ baseUrl: server, timeoutMs: Math.round(timeoutSeconds * 1000) });
  return {
    io,
    json: values.json === true,
    plain: values.plain === true,
    client,
    out: chooseStyle(io.stdoutIsTty, io.env),
    err,
    timeoutSeconds,
    notice,
  };
}

function isHttpUrl(text: string): boolean {
  return /^https?:\/\//i.test(text);
}

/** `--timeout SECONDS`: a number of seconds above 0 (fractions allowed), at most a day. */
function parseTimeout(text: string): number {
  const seconds = /^\d+(\.\d+)?$|^\.\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(seconds > 0 && seconds <= MAX_TIMEOUT_SECONDS)) {
    throw new UsageError(
      `--timeout must be a number of seconds above 0 and at most ${MAX_TIMEOUT_SECONDS}, not "${text}"`,
    );
  }
  return seconds;
}

/**
 * The two lists of `alloc`, `usage` and `subtract`, each entry with its place: the first from the
 * positionals and its `-f` files, the second from the values of option `second.option` and its
 * files; "-" reads stdin once for both.
 */
export async function collectTwoLists(
  io: Io,
  tokens: Parameters<typeof argOrigins>[0],
  first: { positionals: readonly string[]; files: readonly string[] },
  second: { option: string; values: readonly string[]; files: readonly string[] },
): Promise<[Sourced, Sourced]> {
  const stdin = stdinOnce(io);
  const origins = argOrigins(tokens, [second.option]);
  return [
    await collectEntries(first.positionals, origins.get("positionals") ?? [], first.files, io, stdin),
    await collectEntries(second.values, origins.get(second.option) ?? [], second.files, io, stdin),
  ];
}
