/**
 * The text of each `--format` of a list (CONTRACT §8.6, §12): lines, json, and the firewall sets
 * nft, ipset and cisco, with the checks of the options that name them. No Node module and no
 * argument parsing, so that the page (src/web/) writes the same bytes as the CLI from the same
 * function; src/cli/list-format.ts adds the options' help and the commands' printing around it.
 */
import { mergeMixedCidrs } from "../domain/cidr/merge-mixed.ts";
import { LOCAL_CIDR_LIMITS } from "../domain/limits.ts";
import { UsageError } from "./usage-error.ts";

/** The formats, in the order the help lists them. */
export const LIST_FORMATS = ["lines", "json", "nft", "ipset", "cisco"] as const;
export type ListFormat = (typeof LIST_FORMATS)[number];

/** nft table families `--family` accepts: `inet` holds both sets, `ip` and `ip6` one each. */
export const NFT_FAMILIES = ["inet", "ip", "ip6"] as const;
export type NftFamily = (typeof NFT_FAMILIES)[number];

/** Elements of one `add element` line at most: a 70,000-entry set loads in seconds (CONTRACT §12). */
export const NFT_ELEMENTS_PER_LINE = 4096;

/** How a list is printed: the format and the names the set formats use. */
export interface ListOutput {
  readonly format: ListFormat;
  readonly setName: string;
  readonly table: string;
  /** The nft table's family (`--family`). */
  readonly family: NftFamily;
}

/** ipset's longest set name (IPSET_MAXNAMELEN 32, with the NUL) less `_v4.tmp`. */
const IPSET_NAME_MAX = 31 - "_v4.tmp".length;

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
  family?: string | undefined;
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
  const family = NFT_FAMILIES.find((known) => known === (values.family ?? "inet"));
  if (family === undefined) {
    throw new UsageError(`--family must be one of ${NFT_FAMILIES.join(", ")}, not "${values.family}"`);
  }
  if (values.family !== undefined && values.format !== "nft")
    throw new UsageError("--family is the nft table's family: it goes with --format nft");
  if (values.format === undefined) return null;
  const format = LIST_FORMATS.find((known) => known === values.format);
  if (format === undefined) {
    throw new UsageError(`--format must be one of ${LIST_FORMATS.join(", ")}, not "${values.format}"`);
  }
  if (values.json) throw new UsageError("--format and --json cannot be used together");
  if (values.plain && format !== "lines")
    throw new UsageError(`--plain is --format lines; not with --format ${format}`);
  if (format === "ipset" && setName.length > IPSET_NAME_MAX) {
    throw new UsageError(
      `--set-name may have at most ${IPSET_NAME_MAX} characters with --format ipset (ipset's 31 with _v4.tmp), not ${setName.length}`,
    );
  }
  return { format, setName, table, family };
}

/** Which families' sets a set format writes: both, unless the command kept one (`merge -4`). */
export type Families = "both" | "ipv4" | "ipv6";

/** One address set to write: its name, its family, and its minimal sorted CIDRs. */
type SetToWrite = readonly [name: string, family: "ipv4" | "ipv6", cidrs: readonly string[]];

/** A list in a format, and how many blocks of the other family `--family` left out. */
export interface RenderedList {
  readonly text: string;
  readonly leftOut: number;
}

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
): RenderedList {
  const { format } = output;
  if (format === "lines") return { text: cidrs.length === 0 ? "" : `${cidrs.join("\n")}\n`, leftOut: 0 };
  if (format === "json") return { text: `${JSON.stringify(cidrs)}\n`, leftOut: 0 };
  const set = options.minimal || cidrs.length === 0 ? cidrs : mergeMixedCidrs(cidrs, LOCAL_CIDR_LIMITS).cidrs;
  const v4 = set.filter((cidr) => !cidr.includes(":"));
  const v6 = set.filter((cidr) => cidr.includes(":"));
  if (format === "cisco")
    return { text: [...v4.map(ciscoV4), ...v6].map((line) => `${line}\n`).join(""), leftOut: 0 };
  let families = options.families ?? "both";
  let leftOut = 0;
  if (format === "nft" && output.family !== "inet") {
    const only = output.family === "ip" ? "ipv4" : "ipv6";
    if (families !== "both" && families !== only) {
      throw new UsageError(
        `--family ${output.family} holds only ${only === "ipv4" ? "IPv4" : "IPv6"}: not with -${families === "ipv4" ? 4 : 6}`,
      );
    }
    families = only;
    leftOut = only === "ipv4" ? v6.length : v4.length;
  }
  const sets: SetToWrite[] = [];
  if (families !== "ipv6") sets.push([`${output.setName}_v4`, "ipv4", v4]);
  if (families !== "ipv4") sets.push([`${output.setName}_v6`, "ipv6", v6]);
  const text = format === "nft" ? nftText(output.table, output.family, sets) : ipsetText(sets);
  return { text, leftOut };
}

/**
 * An nft script declaring the interval sets, emptying them, and adding the blocks in `add element`
 * lines of at most {@link NFT_ELEMENTS_PER_LINE} each. `nft -f` runs the file as one transaction:
 * a reader sees the old elements or the new ones, never an empty set.
 */
function nftText(table: string, family: NftFamily, sets: readonly SetToWrite[]): string {
  const declarations = sets
    .map(([name, type]) => `\tset ${name} {\n\t\ttype ${type}_addr\n\t\tflags interval\n\t}\n`)
    .join("");
  let text = `table ${family} ${table} {\n${declarations}}\n`;
  for (const [name] of sets) text += `flush set ${family} ${table} ${name}\n`;
  for (const [name, , cidrs] of sets) {
    for (let from = 0; from < cidrs.length; from += NFT_ELEMENTS_PER_LINE) {
      const elements = cidrs.slice(from, from + NFT_ELEMENTS_PER_LINE).join(", ");
      text += `add element ${family} ${table} ${name} { ${elements} }\n`;
    }
  }
  return text;
}

/** Most entries ipset's hash:net holds by default; a larger set says its size (`maxelem`). */
const IPSET_DEFAULT_MAXELEM = 65536;

/**
 * An `ipset restore` script that replaces each set's members without a moment of emptiness, and
 * can be restored again and again (CONTRACT §12): the live set is created when missing
 * (`-exist`), a temporary `NAME.tmp` is created (`-exist`, in case a failed run left it), emptied
 * and filled, then `swap`ped with the live set (ipset's atomic exchange) and destroyed. hash:net
 * refuses a /0, so `0.0.0.0/0` and `::/0` are written as their two /1 halves. Both sets of a pair
 * are created alike (the same `maxelem`): `-exist` accepts an existing set only when its
 * parameters are the same, and after a swap the live set is the one this file created.
 */
function ipsetText(sets: readonly SetToWrite[]): string {
  const entries = sets.map(([name, family, cidrs]) => {
    const halves = family === "ipv4" ? ["0.0.0.0/1", "128.0.0.0/1"] : ["::/1", "8000::/1"];
    return { name, family, cidrs: cidrs.flatMap((cidr) => (cidr.endsWith("/0") ? halves : [cidr])) };
  });
  let text = "";
  for (const { name, family, cidrs } of entries) {
    const size = cidrs.length > IPSET_DEFAULT_MAXELEM ? ` maxelem ${cidrs.length}` : "";
    const type = `hash:net family ${family === "ipv4" ? "inet" : "inet6"}${size}`;
    text += `create ${name} ${type} -exist\n`;
    text += `create ${name}.tmp ${type} -exist\n`;
    text += `flush ${name}.tmp\n`;
    for (const cidr of cidrs) text += `add ${name}.tmp ${cidr}\n`;
    text += `swap ${name}.tmp ${name}\n`;
    text += `destroy ${name}.tmp\n`;
  }
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
