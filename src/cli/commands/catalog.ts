/**
 * Every `nettools` command by name, with its line for the main help and how to load it. A command's
 * module (and what it needs: the use cases, the schemas, the certificate reader, the server) is
 * loaded only when that command runs, so `nettools match` starts without reading the rest: about
 * 0.15 s less per run (docs/performance.md, "CLI start-up").
 */
import type { Command } from "../command.ts";

/** One command of the catalog. */
export interface CommandEntry {
  readonly name: string;
  /** One line in `nettools --help`. */
  readonly summary: string;
  /** The command itself, loaded on first use. */
  readonly load: () => Promise<Command>;
}

/** Each command's line in the main help, in the order it lists them. */
const SUMMARIES = {
  cover: "smallest single CIDR containing every address or CIDR given",
  subtract: "included address space minus excluded ranges, as a minimal CIDR list",
  merge: "collapse addresses and CIDRs (IPv4 and IPv6 mixed) into a minimal sorted CIDR list",
  diff: "two lists compared as address sets: -CIDR only in the first, +CIDR only in the second",
  common: "the addresses every list holds, as a minimal CIDR list (exit 1 when none)",
  split: "every subnet of a given length inside a block",
  range: "inclusive address ranges as minimal CIDR lists (one, or a file of them)",
  expand: "every address of addresses, CIDRs and ranges, one a line (prips)",
  match: "the lines of a log holding an address inside given blocks: grepcidr 2.0, line for line",
  alloc: "the next free blocks of a given length in a pool (first fit)",
  usage: "how full a pool is: used, free, the largest free block, how many of each size still fit",
  subnets: "Terraform's cidrsubnets: blocks of different sizes packed in order, never backfilled",
  rdns: "the reverse DNS zones of blocks (octets, nibbles, RFC 2317), or an address's PTR name",
  info: "facts about one address or CIDR: netmask, hosts, special-purpose type, …",
  cert: "inspect a PEM certificate bundle (issuer links, validity, hostname, findings)",
  chain: "build and repair the chain to serve: verdict, problems, corrected fullchain.pem",
  csr: "inspect a certificate signing request: names, key, signature, what a CA refuses",
  crl: "read a CRL offline (PEM or DER, any size): signature, staleness, revoked serials",
  roots: "the reference root store certificates are judged against: source, version, count, digest",
  "key-match": "does this key belong to this certificate and request? (locally, any key type)",
  myip: "the address your connection comes from, with its ASN and country when known (needs --server)",
  serve: "run the HTTP API and its web page",
};

type CommandName = keyof typeof SUMMARIES;

/** How each command is loaded: its module, only when it runs (every command of SUMMARIES has one). */
const LOADERS: Record<CommandName, () => Promise<Command>> = {
  cover: async () => (await import("./cover.ts")).cover,
  subtract: async () => (await import("./subtract.ts")).subtract,
  merge: async () => (await import("./merge.ts")).merge,
  diff: async () => (await import("./diff.ts")).diff,
  common: async () => (await import("./common.ts")).common,
  split: async () => (await import("./split.ts")).split,
  range: async () => (await import("./range.ts")).range,
  expand: async () => (await import("./expand.ts")).expand,
  match: async () => (await import("../match.ts")).matchCommand,
  alloc: async () => (await import("./alloc.ts")).alloc,
  usage: async () => (await import("./usage.ts")).usage,
  subnets: async () => (await import("./subnets.ts")).subnets,
  rdns: async () => (await import("./rdns.ts")).rdns,
  info: async () => (await import("./info.ts")).info,
  cert: async () => (await import("./cert.ts")).cert,
  chain: async () => (await import("./chain.ts")).chain,
  csr: async () => (await import("./csr.ts")).csr,
  crl: async () => (await import("./crl.ts")).crl,
  roots: async () => (await import("./roots.ts")).roots,
  "key-match": async () => (await import("./key-match.ts")).keyMatch,
  myip: async () => (await import("./myip.ts")).myip,
  serve: async () => (await import("./serve.ts")).serve,
};

/** Every command, in the order the main help lists them. */
export const COMMAND_CATALOG: readonly CommandEntry[] = (Object.keys(SUMMARIES) as CommandName[]).map(
  (name) => ({ name, summary: SUMMARIES[name], load: LOADERS[name] }),
);
