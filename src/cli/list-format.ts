/**
 * `--format lines|json|nft|ipset|cisco` for every command that prints a list of CIDRs (CONTRACT
 * §8.6): the options, their checks, and the one renderer of each format. `lines` and `json`
 * write the command's own list; `nft`, `ipset` and `cisco` describe an address set, so they write
 * the minimal CIDR list of the list's union (no duplicate, overlap or joinable pair: nft and ipset
 * refuse overlapping elements), both families' sets unless the command kept one family.
 */
import type { ApiResult } from "../client/index.ts";
import { mergeMixedCidrs } from "../domain/cidr/merge-mixed.ts";
import { LOCAL_CIDR_LIMITS } from "../domain/limits.ts";
import { makeRun, type Run } from "./args.ts";
import { EXIT, type Io, UsageError } from "./io.ts";

/** The formats, in the order the help lists them. */
export const LIST_FORMATS = ["lines", "json", "nft", "ipset", "cisco"] as const;
export type ListFormat = (typeof LIST_FORMATS)[number];

/** The options of a list-printing command, for `parse`. */
export const FORMAT_OPTIONS = {
  format: { type: "string" },
  "set-name": { type: "string" },
  table: { type: "string" },
} as const;

export const FORMAT_HELP = `
List formats (the same on a terminal and in a pipe):
  --format FORMAT   lines (one CIDR a line), json (one JSON array), or a firewall's address set:
                    nft (a table with NAME_v4 and NAME_v6 interval sets, reloadable with nft -f),
                    ipset (hash:net sets for ipset restore -exist), cisco (IPv4 as NETWORK WILDCARD,
                    IPv6 as CIDR); the set formats merge the list first, so nothing overlaps
  --set-name NAME   the sets' name (default nettools): NAME_v4 and NAME_v6
  --table NAME      the nft table (default nettools)
NAME is a letter, then letters, digits or _, at most 28 in all. Not with --json.`;

/** How a list is printed: the format and the names the set formats use. */
export interface ListOutput {
  readonly format: ListFormat;
  readonly setName: string;
  readonly table: string;
}

/** nft identifiers, short enough for ipset's 31 characters with the `_v4` suffix. */
const NAME = /^[A-Za-z][A-Za-z0-9_]{0,27}$/;
const DEFAULT_NAME = "nettools";

/**
 * The list output the options ask for, or `null` when `--format` is not given (the command then
 * prints as it always has: a table on a terminal, lines in a pipe). Throws `UsageError` for an
 * unknown format, a bad name, `--format` with `--json`, or with `--plain` unless it is `lines`.
 */
export function listOutputOf(values: {
  format?: string | undefined;
  "set-name"?: string | undefined;
  table?: string | undefined;
  json?: boolean | undefined;
  plain?: boolean | undefined;
}): ListOutput | null {
  const setName = values["set-name"] ?? DEFAULT_NAME;
  const table = values.table ?? DEFAULT_NAME;
  for (const [option, name] of [
    ["--set-name", setName],
    ["--table", table],
  ] as const) {
    if (!NAME.test(name)) {
      throw new UsageError(
        `${option} must be a letter followed by letters, digits or _, at most 28 characters, not "${name}"`,
      );
    }
  }
  if (values.format === undefined) return null;
  const format = LIST_FORMATS.find((known) => known === values.format);
  if (format === undefined) {
    throw new UsageError(`--format must be one of ${LIST_FORMATS.join(", ")}, not "${values.format}"`);
  }
  if (values.json) throw new UsageError("--format and --json cannot be used together");
  if (values.plain && format !== "lines")
    throw new UsageError(`--plain is --format lines; not with --format ${format}`);
  return { format, setName, table };
}

/** The run options of a list-printing command, and the list output its options ask for. */
export function listRunOf(
  io: Io,
  values: Parameters<typeof listOutputOf>[0] & Parameters<typeof makeRun>[1],
): { run: Run; output: ListOutput | null } {
  const output = listOutputOf(values);
  return { output, run: makeRun(io, values) };
}

/** Which families' sets a set format writes: both, unless the command kept one (`merge -4`). */
export type Families = "both" | "ipv4" | "ipv6";

/**
 * The text of `cidrs` (canonical CIDR texts, any order) in `output`'s format, ending with a line
 * feed after its last line (nothing at all for an empty `lines` or `cisco` list).
 * `minimal` says the list is already the minimal sorted list of its union (a merge's answer), so
 * the set formats need not merge it again.
 */
export function renderList(
  cidrs: readonly string[],
  output: ListOutput,
  options: { families?: Families; minimal?: boolean } = {},
): string {
  const { format } = output;
  if (format === "lines") return cidrs.length === 0 ? "" : `${cidrs.join("\n")}\n`;
  if (format === "json") return `${JSON.stringify(cidrs)}\n`;
  const set = options.minimal || cidrs.length === 0 ? cidrs : mergeMixedCidrs(cidrs, LOCAL_CIDR_LIMITS).cidrs;
  const v4 = set.filter((cidr) => !cidr.includes(":"));
  const v6 = set.filter((cidr) => cidr.includes(":"));
  const families = options.families ?? "both";
  const sets: [name: string, family: "ipv4" | "ipv6", cidrs: readonly string[]][] = [];
  if (families !== "ipv6") sets.push([`${output.setName}_v4`, "ipv4", v4]);
  if (families !== "ipv4") sets.push([`${output.setName}_v6`, "ipv6", v6]);
  if (format === "nft") return nftText(output.table, sets);
  if (format === "ipset") return ipsetText(sets);
  return [...v4.map(ciscoV4), ...v6].map((line) => `${line}\n`).join("");
}

/** An nft script declaring the interval sets, emptying them, and adding each block. */
function nftText(table: string, sets: readonly [string, "ipv4" | "ipv6", readonly string[]][]): string {
  const declarations = sets
    .map(([name, family]) => `\tset ${name} {\n\t\ttype ${family}_addr\n\t\tflags interval\n\t}\n`)
    .join("");
  let text = `table inet ${table} {\n${declarations}}\n`;
  for (const [name] of sets) text += `flush set inet ${table} ${name}\n`;
  for (const [name, , cidrs] of sets) {
    for (const cidr of cidrs) text += `add element inet ${table} ${name} { ${cidr} }\n`;
  }
  return text;
}

/** Most entries ipset's hash:net holds by default; a larger set says its size (`maxelem`). */
const IPSET_DEFAULT_MAXELEM = 65536;

/**
 * An `ipset restore` script: each set created (hash:net, its family), emptied and filled. hash:net
 * refuses a /0, so `0.0.0.0/0` and `::/0` are written as their two /1 halves.
 */
function ipsetText(sets: readonly [string, "ipv4" | "ipv6", readonly string[]][]): string {
  const entries = sets.map(([name, family, cidrs]) => {
    const halves = family === "ipv4" ? ["0.0.0.0/1", "128.0.0.0/1"] : ["::/1", "8000::/1"];
    return { name, family, cidrs: cidrs.flatMap((cidr) => (cidr.endsWith("/0") ? halves : [cidr])) };
  });
  let text = "";
  for (const { name, family, cidrs } of entries) {
    const size = cidrs.length > IPSET_DEFAULT_MAXELEM ? ` maxelem ${cidrs.length}` : "";
    text += `create ${name} hash:net family ${family === "ipv4" ? "inet" : "inet6"}${size}\n`;
  }
  for (const { name } of entries) text += `flush ${name}\n`;
  for (const { name, cidrs } of entries) for (const cidr of cidrs) text += `add ${name} ${cidr}\n`;
  return text;
}

/** An IPv4 CIDR as IOS writes an access-list operand: `10.0.0.0 0.255.255.255`. */
function ciscoV4(cidr: string): string {
  const [network, bits] = cidr.split("/") as [string, string];
  const hostBits = 32 - Number(bits);
  const wildcard = hostBits === 32 ? 0xffff_ffff : 2 ** hostBits - 1;
  const octets = [24, 16, 8, 0].map((shift) => Math.floor(wildcard / 2 ** shift) % 256);
  return `${network} ${octets.join(".")}`;
}

/**
 * Prints a list-printing command's answer: in `output`'s format when one was asked for and the
 * command succeeded, else through `print` (the command's usual `report`). Returns the exit code.
 */
export function printList<T>(
  result: ApiResult<T>,
  run: Run,
  output: ListOutput | null,
  listOf: (value: T) => { cidrs: readonly string[]; families?: Families; minimal?: boolean },
  print: () => number,
): number {
  if (output === null || !result.ok) return print();
  const { cidrs, ...options } = listOf(result.value);
  run.io.stdout(renderList(cidrs, output, options));
  return EXIT.ok;
}
