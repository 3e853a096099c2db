/**
 * The page's CIDR tools: the subnet calculator (computed here, as `nettools info`), and the forms
 * that call the API. Each result appears in its tool's own region, beside the form that produced
 * it; block lists show each block's first and last address and size, computed here from the
 * normalized CIDRs the API returned (BigInt counts, never an address enumerated).
 */

import type { createClient } from "../client/index.ts";
import { absoluteNameServer, bindText } from "../domain/cidr/bind-zones.ts";
import { parseAddr } from "../domain/ip/addr.ts";
import { CLOUD_PROVIDERS, type CloudProvider, cloudPlanText } from "../domain/ip/cloud-reserved.ts";
import { addressFacts } from "../domain/ip/facts.ts";
import { parsePrefix } from "../domain/ip/prefix.ts";
import { specialReasonOf, specialReasonText } from "../domain/ip/special-reasons.ts";
import { addressFactRows, describeAddressType } from "../local/address-facts.ts";
import { diffChunks } from "../local/diff-lines.ts";
import {
  type ListFormat,
  type ListOutput,
  listOutputOf,
  type NftFamily,
  renderList,
} from "../local/list-render.ts";
import { addressMap, type MapLayer, type Range, rangesOf, unionOf, zoomBlocks } from "./address-map.ts";
import { busy, byId, type Child, h, show, summary } from "./dom.ts";
import { type LogMatchOptions, matchFlags, matchLog, matchOptionsProblem } from "./log-match.ts";
import { listInput, outcome, problem } from "./problems.ts";
import { textOutput } from "./text-output.ts";

type Api = ReturnType<typeof createClient>;

/**
 * Wires the tool `name` (`NAME-form`, `NAME-result`): on submit, `work` runs with the button
 * busy, and what it returns replaces the tool's result region, which then takes the tool's full
 * width, beside its form, and receives focus for screen readers.
 */
function tool(name: string, work: () => Promise<Child[]> | Child[]): void {
  const form = byId<HTMLFormElement>(`${name}-form`);
  const region = byId(`${name}-result`);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = form.querySelector("button[type=submit]") as HTMLButtonElement;
    const content = await busy(button, async () => work());
    show(region, ...content);
    form.parentElement?.classList.add("has-result");
    region.focus();
  });
}

function numberOf(id: string): number {
  return Number(byId<HTMLInputElement>(id).value);
}

function textOf(id: string): string {
  return byId<HTMLInputElement>(id).value;
}

/** `1 CIDR remains`, `15 CIDRs remain`. */
function plural(count: number, noun: string, one: string, many: string): string {
  return count === 1 ? `1 ${noun} ${one}` : `${count} ${noun}s ${many}`;
}

/** `256`, or `65536 (2^16)` once the exact number gets long: a block's size is a power of two. */
export function sizeText(size: bigint): string {
  if (size < 65536n) return size.toString();
  const power = size.toString(2).length - 1;
  return 1n << BigInt(power) === size ? `${size} (2^${power})` : size.toString();
}

/** The CIDRs as a table: position, block, first and last address, and size in addresses. */
function blockTable(cidrs: readonly string[], caption: string, empty: string): HTMLElement {
  if (cidrs.length === 0) return h("p", { class: "ok" }, empty);
  const header = ["#", "CIDR", "First address", "Last address", "Addresses"];
  return h(
    "div",
    // Focusable, so that a long list scrolls from the keyboard too.
    { class: "table-scroll", tabindex: "0", role: "region", "aria-label": caption },
    h(
      "table",
      { class: "blocks" },
      h("caption", {}, caption),
      h("thead", {}, h("tr", {}, ...header.map((title) => h("th", { scope: "col" }, title)))),
      h(
        "tbody",
        {},
        ...cidrs.map((cidr, i) => {
          const parsed = parsePrefix(cidr);
          const block = parsed.ok ? parsed.value : null;
          return h(
            "tr",
            {},
            h("td", {}, String(i + 1)),
            h("td", { class: "mono" }, cidr),
            h("td", { class: "mono" }, block?.first.toString() ?? "—"),
            h("td", { class: "mono" }, block?.last.toString() ?? "—"),
            h("td", { class: "number" }, block ? sizeText(block.addressCount()) : "—"),
          );
        }),
      ),
    ),
  );
}

/**
 * The lines in a read-only box, ready to select, with Copy and Download; the file holds them as
 * the CLI prints them, each ending with a line feed.
 */
function plainList(lines: readonly string[], label: string, fileName: string): HTMLElement {
  const bytes = new TextEncoder().encode(lines.map((line) => `${line}\n`).join(""));
  return textOutput(lines.join("\n"), label, { fileName, bytes });
}

/** A refusal made on this page, before anything is computed or sent, in the error envelope's words. */
function refusal(message: string, headline = "Not accepted"): HTMLElement {
  return problem({ error: { code: "INVALID_INPUT", message } }, undefined, headline);
}

/** `1 address`, `256 addresses`. */
function addressesText(count: bigint): string {
  return count === 1n ? "1 address" : `${count} addresses`;
}

/** The family of the first readable entry of a list, or null. */
function familyOf(texts: readonly string[]): 4 | 6 | null {
  for (const text of texts) {
    const parsed = parsePrefix(text);
    if (parsed.ok) return parsed.value.family;
  }
  return null;
}

/**
 * The maps of a list answer: the smallest block holding `parentRanges`, or, when the ranges are
 * sparse in it, the smallest block of each group of them (zoomBlocks, issue 34.7); what no layer
 * covers is `outside` (of the pool, of the included space). None when nothing parses.
 */
function listMap(family: 4 | 6 | null, parentRanges: Range[], layers: MapLayer[], what: string): Child[] {
  if (family === null) return [];
  const blocks = zoomBlocks(parentRanges, family);
  return blocks.map((parent, i) =>
    addressMap(
      { parent, base: "outside", layers },
      `${what} in ${parent} (${addressesText(parent.addressCount())})${
        blocks.length > 1 ? `, part ${i + 1} of ${blocks.length}` : ""
      }`,
    ),
  );
}

/** The subnet calculator's answer: `nettools info`'s rows, and the special-purpose blocks inside. */
function calculate(): Child[] {
  const facts = addressFacts(textOf("calc-cidr"));
  if (!facts.ok) {
    return [
      problem(
        { error: { code: "INVALID_INPUT", message: facts.message } },
        undefined,
        "Not an address or CIDR",
      ),
    ];
  }
  const inside = facts.value.contains;
  const block = parsePrefix(facts.value.cidr);
  const first = parseAddr(facts.value.firstUsable);
  const last = parseAddr(facts.value.lastUsable);
  const family = facts.value.family === "ipv4" ? 4 : 6;
  const special = unionOf(
    rangesOf(
      inside.map((type) => type.prefix ?? ""),
      family,
    ),
  );
  // The addresses `info` does not count as usable: network and broadcast (IPv4), Subnet-Router anycast (IPv6).
  const reserved: Range[] = [];
  if (block.ok && first.ok && last.ok) {
    const low = block.value.first.toBigInt();
    const high = block.value.last.toBigInt();
    if (first.value.toBigInt() > low) reserved.push({ first: low, last: first.value.toBigInt() - 1n });
    if (last.value.toBigInt() < high) reserved.push({ first: last.value.toBigInt() + 1n, last: high });
  }
  return [
    block.ok &&
      addressMap(
        {
          parent: block.value,
          base: "usable",
          layers: [
            { kind: "special", ranges: special },
            { kind: "reserved", ranges: reserved },
          ],
        },
        `${facts.value.cidr}: ${facts.value.addressCount} addresses, ${facts.value.usableHosts} usable`,
      ),
    summary(addressFactRows(facts.value)),
    inside.length
      ? h(
          "div",
          {},
          h("h4", {}, "Special-purpose blocks inside"),
          h("ul", {}, ...inside.map((type) => h("li", { class: "mono" }, describeAddressType(type)))),
        )
      : null,
  ];
}

/** The included space: what remains, what was removed, and what lies outside it. */
function subtractionMap(include: readonly string[], cidrs: readonly string[], family: 4 | 6): Child[] {
  const included = unionOf(rangesOf(include, family));
  return listMap(
    family,
    included,
    [
      { kind: "removed", ranges: included },
      { kind: "kept", ranges: rangesOf(cidrs, family) },
    ],
    "What remains",
  );
}

/** The split block and its subnets, all new. */
function splitMap(network: string, cidrs: readonly string[]): Child {
  const parent = parsePrefix(network);
  if (!parent.ok) return null;
  return addressMap(
    {
      parent: parent.value,
      base: "free",
      layers: [{ kind: "new", ranges: rangesOf(cidrs, parent.value.family) }],
    },
    `${network} in ${cidrs.length} subnets`,
  );
}

/** The pool: what was used, what is new, what stays free, and what lies outside the pool. */
function allocationMap(
  within: readonly string[],
  used: readonly string[],
  cidrs: readonly string[],
): Child[] {
  const family = familyOf(within);
  if (family === null) return [];
  const pool = unionOf(rangesOf(within, family));
  return listMap(
    family,
    pool,
    [
      { kind: "free", ranges: pool },
      { kind: "used", ranges: unionOf(rangesOf(used, family)) },
      { kind: "new", ranges: rangesOf(cidrs, family) },
    ],
    "The pool",
  );
}

type CompareResult = Extract<Awaited<ReturnType<Api["cidrCompare"]>>, { ok: true }>["value"];

/** One map per family present: only in A, only in B, in both, and what neither list covers. */
function comparisonMaps(value: CompareResult): Child[] {
  return ([4, 6] as const).flatMap((family) => {
    const layers: MapLayer[] = [
      { kind: "only-a", ranges: rangesOf(value.onlyA.cidrs, family) },
      { kind: "only-b", ranges: rangesOf(value.onlyB.cidrs, family) },
      { kind: "both", ranges: rangesOf(value.both.cidrs, family) },
    ];
    const all = layers.flatMap((layer) => layer.ranges);
    return listMap(all.length ? family : null, all, layers, `IPv${family}: both lists`);
  });
}

/**
 * `nettools diff`'s lines (CONTRACT §8.4): `-CIDR` for a block only in A, `+CIDR` for one only in
 * B, all in address order, IPv4 first (the two sets are disjoint: no two share an address).
 */
function diffLines(value: CompareResult): string[] {
  return [...diffChunks(value.onlyA.cidrs, value.onlyB.cidrs)].join("").split("\n").slice(0, -1);
}

/** A set of the comparison: its exact counts per family and its blocks. */
function compareSet(title: string, set: CompareResult["onlyA"]): Child[] {
  return [
    h("h4", {}, `${title}: ${set.ipv4AddressCount} IPv4 and ${set.ipv6AddressCount} IPv6 addresses`),
    blockTable(set.cidrs, set.cidrs.length === 1 ? "1 CIDR" : `${set.cidrs.length} CIDRs`, "None."),
  ];
}

/**
 * Why `-x` dropped or cut each entry (CONTRACT §12), as `nettools merge -x` says it on stderr:
 * one line per entry, the most general special-purpose block it met.
 */
function specialReasons(entries: readonly string[]): HTMLElement {
  const lines: string[] = [];
  for (const entry of entries) {
    const parsed = parsePrefix(entry);
    if (!parsed.ok) continue;
    const reason = specialReasonOf(parsed.value);
    if (reason !== null) lines.push(specialReasonText(entry, reason));
  }
  return lines.length === 0
    ? h("p", { class: "ok" }, "No entry met special-purpose space.")
    : h(
        "div",
        {},
        h("h4", {}, "Special-purpose space removed"),
        h("pre", { class: "reasons", tabindex: "0" }, lines.join("\n")),
      );
}

/** The used share as a bar (a meter, so assistive technology reads the value). */
function usageBar(percent: number): HTMLElement {
  return h(
    "div",
    { class: "usage-bar" },
    h("meter", {
      id: "usage-meter",
      min: "0",
      max: "100",
      value: String(percent),
      "aria-label": "Share of the pool used",
    }),
    h("span", {}, ` ${percent.toFixed(2)}% used`),
  );
}

/** The name server of the parent's NS line when none is given: a placeholder (RFC 2606), as rdns --bind. */
const DEFAULT_NAME_SERVER = "ns1.example.net.";

/** The merge form's output: `listOutputOf` of the CLI, which checks the names as --set-name does. */
function listFormatOf(): { ok: true; value: ListOutput } | { ok: false; message: string } {
  const format = textOf("merge-format") as ListFormat;
  try {
    const value = listOutputOf({
      format,
      "set-name": textOf("merge-set-name").trim(),
      table: textOf("merge-table").trim(),
      ...(format === "nft" ? { family: textOf("merge-family") as NftFamily } : {}),
    });
    return value === null ? { ok: false, message: "no format" } : { ok: true, value };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/** The `nettools merge` options that write `output` (names only when they are not the defaults). */
function formatFlags(output: ListOutput, excludeSpecial: boolean): string {
  const flags = excludeSpecial ? ["-x"] : [];
  if (output.format === "lines") return flags.join(" ");
  flags.push(`--format ${output.format}`);
  if (output.setName !== "nettools") flags.push(`--set-name ${output.setName}`);
  if (output.format === "nft" && output.table !== "nettools") flags.push(`--table ${output.table}`);
  if (output.format === "nft" && output.family !== "inet") flags.push(`--family ${output.family}`);
  return flags.join(" ");
}

const FORMAT_FILES: Record<ListFormat, (setName: string) => string> = {
  lines: () => "merged.txt",
  json: () => "merged.json",
  nft: (name) => `${name}.nft`,
  ipset: (name) => `${name}.ipset`,
  cisco: (name) => `${name}-cisco.txt`,
};

/**
 * The merged list in the chosen format, written by the CLI's own renderer (src/local/list-render.ts):
 * the bytes `nettools merge --format …` prints, with Copy and Download.
 */
function formattedList(cidrs: readonly string[], output: ListOutput, excludeSpecial: boolean): HTMLElement {
  const flags = formatFlags(output, excludeSpecial);
  const label = `As nettools merge${flags ? ` ${flags}` : ""} prints it`;
  const fileName = FORMAT_FILES[output.format](output.setName);
  if (output.format === "lines") return plainList(cidrs, flags ? label : "As a plain list", fileName);
  const { text, leftOut } = renderList(cidrs, output, { minimal: true });
  const other = output.family === "ip" ? "IPv6" : "IPv4";
  return h(
    "div",
    {},
    leftOut > 0 &&
      h(
        "p",
        { class: "hint" },
        `note: ${leftOut} ${other} ${leftOut === 1 ? "block" : "blocks"} left out: --family ${output.family} holds one family`,
      ),
    textOutput(text, label, { fileName }),
  );
}

function cloudOf(name: string): CloudProvider | null {
  return CLOUD_PROVIDERS.find((provider) => provider === name) ?? null;
}

/** The plan's blocks: each with its size and, with a cloud, what the provider leaves usable. */
function planTable(
  cidrs: readonly string[],
  provider: CloudProvider | null,
  usable: readonly string[],
): HTMLElement {
  const header = ["#", "Block", "Addresses", ...(provider === null ? [] : [`Usable (${provider})`])];
  return h(
    "div",
    { class: "table-scroll", tabindex: "0", role: "region", "aria-label": `${cidrs.length} blocks` },
    h(
      "table",
      { class: "blocks" },
      h("caption", {}, `${cidrs.length} blocks, in argument order`),
      h("thead", {}, h("tr", {}, ...header.map((title) => h("th", { scope: "col" }, title)))),
      h(
        "tbody",
        {},
        ...cidrs.map((cidr, i) => {
          const parsed = parsePrefix(cidr);
          return h(
            "tr",
            {},
            h("td", {}, String(i + 1)),
            h("td", { class: "mono" }, cidr),
            h("td", { class: "number" }, parsed.ok ? sizeText(parsed.value.addressCount()) : "—"),
            provider !== null && h("td", { class: "number" }, usable[i] ?? ""),
          );
        }),
      ),
    ),
  );
}

/** The log matching form's options. */
function matchOptionsOf(): LogMatchOptions {
  const mode = (document.querySelector('input[name="match-mode"]:checked') as HTMLInputElement | null)?.value;
  return {
    invert: mode === "invert",
    count: mode === "count",
    onlyMatching: mode === "only",
    printPattern: mode === "pattern",
    excludeReserved: byId<HTMLInputElement>("match-exclude-special").checked,
  };
}

export function setUpCidrTools(api: Api): void {
  tool("calc", calculate);

  tool("cover", async () => {
    const inputs = listInput("cover-inputs", "inputs");
    return outcome(
      await api.cidrCover({ inputs: inputs.entries }),
      (value) => [
        summary([
          ["CIDR", value.cidr],
          ["Family", value.family],
          ["Range", `${value.range.first} – ${value.range.last}`],
          ["Input addresses", value.inputAddressCount],
          ["Covered addresses", value.coveredAddressCount],
          ["Additional addresses", value.additionalAddressCount],
        ]),
      ],
      [inputs],
    );
  });

  tool("subtract", async () => {
    const include = listInput("subtract-include", "include");
    const exclude = listInput("subtract-exclude", "exclude");
    return outcome(
      await api.cidrSubtract({ include: include.entries, exclude: exclude.entries }),
      (value) => [
        summary([
          ["Family", value.family],
          ["Included addresses", value.includedAddressCount],
          ["Removed addresses", value.removedAddressCount],
          ["Remaining addresses", value.remainingAddressCount],
        ]),
        ...subtractionMap(include.entries, value.cidrs, value.family === "ipv4" ? 4 : 6),
        blockTable(
          value.cidrs,
          plural(value.cidrs.length, "CIDR", "remains", "remain"),
          "Nothing remains: every included address was removed.",
        ),
        plainList(value.cidrs, "As a plain list", "remaining.txt"),
      ],
      [include, exclude],
    );
  });

  tool("compare", async () => {
    const a = listInput("compare-a", "a");
    const b = listInput("compare-b", "b");
    return outcome(
      await api.cidrCompare({ a: a.entries, b: b.entries }),
      (value) => [
        h(
          "p",
          { class: value.equal ? "ok" : "verdict-bad", id: "compare-verdict" },
          value.equal
            ? "Equal: both lists cover the same addresses."
            : "Different: the lists do not cover the same addresses.",
        ),
        ...comparisonMaps(value),
        ...compareSet("Only in A", value.onlyA),
        ...compareSet("Only in B", value.onlyB),
        ...compareSet("In both", value.both),
        plainList(diffLines(value), "As nettools diff prints it (- only in A, + only in B)", "diff.txt"),
      ],
      [a, b],
    );
  });

  tool("range", async () =>
    outcome(await api.rangeToCidrs({ start: textOf("range-start"), end: textOf("range-end") }), (value) => [
      summary([
        ["Family", value.family],
        ["Range", `${value.range.first} – ${value.range.last}`],
        ["Addresses", value.addressCount],
      ]),
      blockTable(value.cidrs, plural(value.cidrCount, "CIDR", "covers the range", "cover the range"), ""),
      plainList(value.cidrs, "As a plain list", "range.txt"),
    ]),
  );

  tool("merge", async () => {
    const inputs = listInput("merge-inputs", "inputs");
    const excludeSpecial = byId<HTMLInputElement>("merge-exclude-special").checked;
    const format = listFormatOf();
    if (!format.ok) return [refusal(format.message, "Not an output nettools merge writes")];
    return outcome(
      await api.cidrMerge({ inputs: inputs.entries, ...(excludeSpecial ? { excludeSpecial } : {}) }),
      (value) => [
        summary([
          ["IPv4 addresses", value.ipv4AddressCount],
          ["IPv6 addresses", value.ipv6AddressCount],
        ]),
        ...(excludeSpecial ? [specialReasons(inputs.entries)] : []),
        blockTable(value.cidrs, plural(value.cidrs.length, "CIDR", "covers the list", "cover the list"), ""),
        formattedList(value.cidrs, format.value, excludeSpecial),
      ],
      [inputs],
    );
  });

  tool("rdns", async () => {
    const server = absoluteNameServer(textOf("rdns-ns").trim() || DEFAULT_NAME_SERVER);
    if (server === null) {
      return [
        refusal(
          `the name server must be a host name such as ${DEFAULT_NAME_SERVER}, not "${textOf("rdns-ns")}"`,
        ),
      ];
    }
    return outcome(await api.reverseZones({ cidr: textOf("rdns-cidr").trim() }), (value) => [
      summary([
        ["Block", value.cidr],
        ["Zones", String(value.zones.length)],
      ]),
      plainList(value.zones, "The zones (as nettools rdns)", "zones.txt"),
      textOutput(
        value.zones.map((zone) => bindText(zone, [server])).join(""),
        "For BIND (as nettools rdns --bind)",
        { fileName: "reverse-zones.conf" },
      ),
    ]);
  });

  tool("subnets", async () => {
    const prefix = textOf("subnets-prefix").trim();
    const words = textOf("subnets-newbits")
      .split(/[\s,]+/)
      .filter((word) => word !== "");
    const bad = words.find((word) => !/^(0|[1-9][0-9]{0,5})$/.test(word));
    if (bad !== undefined || words.length === 0) {
      return [
        refusal(`each number of new bits must be a whole number of bits such as 4 or 8, not "${bad ?? ""}"`),
      ];
    }
    const provider = cloudOf(textOf("subnets-cloud"));
    const newbits = words.map(Number);
    return outcome(await api.cidrSubnets({ prefix, newbits }), (value) => {
      const command = `nettools subnets${provider ? ` --cloud ${provider}` : ""} ${value.prefix} ${words.join(" ")}`;
      const plan = provider === null ? null : cloudPlanText(provider, value.cidrs);
      if (plan !== null && !plan.ok) return [refusal(plan.message, `Not a ${provider} subnet`)];
      const usable = plan?.value.split("\n").map((line) => line.split("\t")[1] ?? "") ?? [];
      const parent = parsePrefix(value.prefix);
      return [
        summary([
          ["Prefix", value.prefix],
          ["Blocks", String(value.cidrs.length)],
          ...(provider === null
            ? []
            : ([
                [
                  `Usable in all (${provider})`,
                  usable.reduce((sum, n) => sum + BigInt(n || 0), 0n).toString(),
                ],
              ] as [string, string][])),
        ]),
        parent.ok &&
          addressMap(
            {
              parent: parent.value,
              base: "free",
              layers: [{ kind: "new", ranges: rangesOf(value.cidrs, parent.value.family) }],
            },
            `The plan in ${value.prefix} (${parent.value.addressCount()} addresses)`,
          ),
        planTable(value.cidrs, provider, usable),
        plan === null
          ? plainList(value.cidrs, `As ${command} prints it`, "subnets.txt")
          : textOutput(plan.value, `As ${command} prints it`, { fileName: `subnets-${provider}.tsv` }),
      ];
    });
  });

  tool("match", () => {
    const options = matchOptionsOf();
    const problemText = matchOptionsProblem(options);
    if (problemText !== null) return [refusal(problemText)];
    const encoder = new TextEncoder();
    const result = matchLog(
      encoder.encode(byId<HTMLTextAreaElement>("match-patterns").value),
      encoder.encode(byId<HTMLTextAreaElement>("match-log").value),
      options,
    );
    const text = new TextDecoder().decode(result.stdout);
    const command = ["nettools match", ...matchFlags(options), "-f patterns.txt < log"].join(" ");
    return [
      h(
        "p",
        { class: result.exit === 0 ? "ok" : "verdict-bad", id: "match-verdict" },
        options.count
          ? `${result.selected} ${result.selected === 1 ? "line" : "lines"} selected.`
          : result.exit === 0
            ? `${result.selected} ${result.selected === 1 ? "line" : "lines"} selected (exit 0).`
            : "No line selected (exit 1).",
      ),
      result.stderr.length > 0 &&
        h(
          "div",
          {},
          h("h4", {}, "About the patterns"),
          h("pre", { class: "reasons", tabindex: "0" }, result.stderr.join("\n")),
        ),
      textOutput(text, `As ${command} prints it`, { fileName: "matches.log", bytes: result.stdout }),
    ];
  });

  tool("usage", async () => {
    const pool = listInput("usage-pool", "pool");
    const used = listInput("usage-used", "used");
    return outcome(
      await api.cidrUsage({ pool: pool.entries, used: used.entries }),
      (value) => [
        usageBar(value.percentUsed),
        summary([
          ["Total", value.total],
          ["Used", value.used],
          ["Free", value.free],
          ["Used outside the pool", value.outsidePool],
          ["Largest free block", value.largestFree ?? "none: the pool is full"],
        ]),
        value.freeBySize.length === 0
          ? h("p", {}, "No free block.")
          : h(
              "table",
              {},
              h("caption", {}, "Free blocks by size"),
              h(
                "thead",
                {},
                h(
                  "tr",
                  {},
                  h("th", { scope: "col" }, "Prefix length"),
                  h("th", { scope: "col" }, "Blocks that fit"),
                ),
              ),
              h(
                "tbody",
                {},
                ...value.freeBySize.map(({ prefixLength, blocks }) =>
                  h("tr", {}, h("td", {}, `/${prefixLength}`), h("td", {}, blocks)),
                ),
              ),
            ),
      ],
      [pool, used],
    );
  });

  tool("split", async () =>
    outcome(
      await api.cidrSplit({ cidr: textOf("split-cidr"), prefixLength: numberOf("split-length") }),
      (value) => [
        summary([
          ["Block", value.network],
          ["Subnets", `${value.subnetCount} × /${value.prefixLength}`],
        ]),
        splitMap(value.network, value.cidrs),
        blockTable(value.cidrs, `${value.subnetCount} subnets`, ""),
        plainList(value.cidrs, "As a plain list", "split.txt"),
      ],
    ),
  );

  tool("contains", async () => {
    const cidrs = listInput("contains-cidrs", "cidrs");
    const entries = listInput("contains-entries", "entries");
    return outcome(
      await api.cidrContains({ cidrs: cidrs.entries, entries: entries.entries }),
      (value) => [
        h(
          "table",
          {},
          h("caption", {}, `${value.results.length} entries`),
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              ...["Entry", "Contained", "Overlaps", "Most specific block"].map((title) =>
                h("th", { scope: "col" }, title),
              ),
            ),
          ),
          h(
            "tbody",
            {},
            ...value.results.map((r) =>
              h(
                "tr",
                {},
                h("td", { class: "mono" }, r.entry),
                h("td", {}, r.contained ? "yes" : "no"),
                h("td", {}, r.overlaps ? "yes" : "no"),
                h("td", { class: "mono" }, r.matchedCidr ?? "—"),
              ),
            ),
          ),
        ),
        plainList(
          value.results.filter((r) => r.contained).map((r) => r.entry),
          "Contained entries as a plain list",
          "contained.txt",
        ),
      ],
      [cidrs, entries],
    );
  });

  tool("allocate", async () => {
    const within = listInput("allocate-within", "within");
    const used = listInput("allocate-used", "used");
    return outcome(
      await api.cidrAllocate({
        within: within.entries,
        used: used.entries,
        prefixLength: numberOf("allocate-length"),
        count: numberOf("allocate-count"),
      }),
      (value) => [
        summary([["Still free", `${value.freeAddressCount} addresses`]]),
        ...allocationMap(within.entries, used.entries, value.cidrs),
        blockTable(value.cidrs, plural(value.cidrs.length, "block", "allocated", "allocated"), ""),
        plainList(value.cidrs, "As a plain list", "allocated.txt"),
      ],
      [within, used],
    );
  });
}
