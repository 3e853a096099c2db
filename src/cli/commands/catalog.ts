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

/** Every command, in the order the main help lists them. */
export const COMMAND_CATALOG: readonly CommandEntry[] = [
  {
    name: "cover",
    summary: "smallest single CIDR containing every address or CIDR given",
    load: async () => (await import("./cover.ts")).cover,
  },
  {
    name: "subtract",
    summary: "included address space minus excluded ranges, as a minimal CIDR list",
    load: async () => (await import("./subtract.ts")).subtract,
  },
  {
    name: "merge",
    summary: "collapse addresses and CIDRs (IPv4 and IPv6 mixed) into a minimal sorted CIDR list",
    load: async () => (await import("./merge.ts")).merge,
  },
  {
    name: "diff",
    summary: "two lists compared as address sets: -CIDR only in the first, +CIDR only in the second",
    load: async () => (await import("./diff.ts")).diff,
  },
  {
    name: "common",
    summary: "the addresses every list holds, as a minimal CIDR list (exit 1 when none)",
    load: async () => (await import("./common.ts")).common,
  },
  {
    name: "split",
    summary: "every subnet of a given length inside a block",
    load: async () => (await import("./split.ts")).split,
  },
  {
    name: "range",
    summary: "inclusive address ranges as minimal CIDR lists (one, or a file of them)",
    load: async () => (await import("./range.ts")).range,
  },
  {
    name: "expand",
    summary: "every address of addresses, CIDRs and ranges, one a line (prips)",
    load: async () => (await import("./expand.ts")).expand,
  },
  {
    name: "match",
    summary: "the lines of a log holding an address inside given blocks: grepcidr 2.0, line for line",
    load: async () => (await import("../match.ts")).matchCommand,
  },
  {
    name: "alloc",
    summary: "the next free blocks of a given length in a pool (first fit)",
    load: async () => (await import("./alloc.ts")).alloc,
  },
  {
    name: "usage",
    summary: "how full a pool is: used, free, the largest free block, how many of each size still fit",
    load: async () => (await import("./usage.ts")).usage,
  },
  {
    name: "subnets",
    summary: "Terraform's cidrsubnets: blocks of different sizes packed in order, never backfilled",
    load: async () => (await import("./subnets.ts")).subnets,
  },
  {
    name: "rdns",
    summary: "the reverse DNS zones of blocks (octets, nibbles, RFC 2317), or an address's PTR name",
    load: async () => (await import("./rdns.ts")).rdns,
  },
  {
    name: "info",
    summary: "facts about one address or CIDR: netmask, hosts, special-purpose type, …",
    load: async () => (await import("./info.ts")).info,
  },
  {
    name: "cert",
    summary: "inspect a PEM certificate bundle (issuer links, validity, hostname, findings)",
    load: async () => (await import("./cert.ts")).cert,
  },
  {
    name: "chain",
    summary: "build and repair the chain to serve: verdict, problems, corrected fullchain.pem",
    load: async () => (await import("./chain.ts")).chain,
  },
  {
    name: "csr",
    summary: "inspect a certificate signing request: names, key, signature, what a CA refuses",
    load: async () => (await import("./csr.ts")).csr,
  },
  {
    name: "crl",
    summary: "read a CRL offline (PEM or DER, any size): signature, staleness, revoked serials",
    load: async () => (await import("./crl.ts")).crl,
  },
  {
    name: "roots",
    summary: "the reference root store certificates are judged against: source, version, count, digest",
    load: async () => (await import("./roots.ts")).roots,
  },
  {
    name: "key-match",
    summary: "does this key belong to this certificate and request? (locally, any key type)",
    load: async () => (await import("./key-match.ts")).keyMatch,
  },
  {
    name: "myip",
    summary: "the address your connection comes from, with its ASN and country when known (needs --server)",
    load: async () => (await import("./myip.ts")).myip,
  },
  {
    name: "serve",
    summary: "run the HTTP API and its web page",
    load: async () => (await import("./serve.ts")).serve,
  },
];
