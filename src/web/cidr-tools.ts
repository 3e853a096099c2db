/**
 * The page's CIDR tools: the subnet calculator (computed here, as `nettools info`), and the forms
 * that call the API. Each result appears in its tool's own region, beside the form that produced
 * it; block lists show each block's first and last address and size, computed here from the
 * normalized CIDRs the API returned (BigInt counts, never an address enumerated).
 */

import type { createClient } from "../client/index.ts";
import { bindText } from "../domain/cidr/bind-zones.ts";
import { parseAddr } from "../domain/ip/addr.ts";
import { addressFacts } from "../domain/ip/facts.ts";
import { parsePrefix } from "../domain/ip/prefix.ts";
import { specialReasonOf } from "../domain/ip/special-reasons.ts";
import { addressFactRows, describeAddressType } from "../local/address-facts.ts";
import { addressMap, coverOf, type MapLayer, type Range, rangesOf, unionOf } from "./address-map.ts";
import { busy, byId, type Child, h, show, summary } from "./dom.ts";
import { listInput, outcome, problem } from "./problems.ts";

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

/** The CIDRs one a line in a read-only box, ready to select and copy, with a copy button. */
function plainList(cidrs: readonly string[], label: string): HTMLElement {
  const box = h("textarea", {
    class: "mono plain-list",
    readonly: "",
    rows: String(Math.min(10, Math.max(2, cidrs.length))),
    "aria-label": label,
    spellcheck: "false",
  }) as HTMLTextAreaElement;
  box.value = cidrs.join("\n");
  const copy = h("button", { type: "button", class: "copy" }, "Copy the list") as HTMLButtonElement;
  copy.addEventListener("click", () => {
    box.select();
    void navigator.clipboard?.writeText(box.value).then(
      () => {
        copy.textContent = "Copied";
      },
      () => undefined,
    );
  });
  return h("div", { class: "plain" }, h("p", { class: "hint" }, label), box, copy);
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
 * The map of a list answer: the parent is the smallest block holding `parentRanges`; what no
 * layer covers is `outside` (of the pool, of the included space). Null when nothing parses.
 */
function listMap(family: 4 | 6 | null, parentRanges: Range[], layers: MapLayer[], what: string): Child {
  if (family === null) return null;
  const parent = coverOf(parentRanges, family);
  if (parent === null) return null;
  return addressMap(
    { parent, base: "outside", layers },
    `${what} in ${parent} (${parent.addressCount()} addresses)`,
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
function subtractionMap(include: readonly string[], cidrs: readonly string[], family: 4 | 6): Child {
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
function allocationMap(within: readonly string[], used: readonly string[], cidrs: readonly string[]): Child {
  const family = familyOf(within);
  if (family === null) return null;
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
  return ([4, 6] as const).map((family) => {
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
  const lines = [
    ...value.onlyA.cidrs.map((cidr) => ({ cidr, line: `-${cidr}` })),
    ...value.onlyB.cidrs.map((cidr) => ({ cidr, line: `+${cidr}` })),
  ].map((entry) => {
    const parsed = parsePrefix(entry.cidr);
    return {
      ...entry,
      family: parsed.ok ? parsed.value.family : 6,
      first: parsed.ok ? parsed.value.first.toBigInt() : 0n,
    };
  });
  lines.sort((x, y) => x.family - y.family || (x.first < y.first ? -1 : x.first > y.first ? 1 : 0));
  return lines.map((entry) => entry.line);
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
    if (reason === null) continue;
    const { prefix, name, rfc } = reason.block;
    const others = reason.others === 0 ? "" : ` and ${reason.others} more special blocks`;
    lines.push(
      reason.outcome === "dropped"
        ? `excluded ${entry}: ${prefix} ${name} (${rfc})${others}`
        : `cut ${entry}: ${prefix} ${name} (${rfc})${others} removed`,
    );
  }
  return lines.length === 0
    ? h("p", { class: "ok" }, "No entry met special-purpose space.")
    : h(
        "div",
        {},
        h("h4", {}, "Special-purpose space removed"),
        h("pre", { class: "reasons" }, lines.join("\n")),
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
        subtractionMap(include.entries, value.cidrs, value.family === "ipv4" ? 4 : 6),
        blockTable(
          value.cidrs,
          plural(value.cidrs.length, "CIDR", "remains", "remain"),
          "Nothing remains: every included address was removed.",
        ),
        plainList(value.cidrs, "As a plain list"),
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
        plainList(diffLines(value), "As nettools diff prints it (- only in A, + only in B)"),
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
      plainList(value.cidrs, "As a plain list"),
    ]),
  );

  tool("merge", async () => {
    const inputs = listInput("merge-inputs", "inputs");
    const excludeSpecial = byId<HTMLInputElement>("merge-exclude-special").checked;
    return outcome(
      await api.cidrMerge({ inputs: inputs.entries, ...(excludeSpecial ? { excludeSpecial } : {}) }),
      (value) => [
        summary([
          ["IPv4 addresses", value.ipv4AddressCount],
          ["IPv6 addresses", value.ipv6AddressCount],
        ]),
        ...(excludeSpecial ? [specialReasons(inputs.entries)] : []),
        blockTable(value.cidrs, plural(value.cidrs.length, "CIDR", "covers the list", "cover the list"), ""),
        plainList(value.cidrs, "As a plain list"),
      ],
      [inputs],
    );
  });

  tool("rdns", async () => {
    const ns = textOf("rdns-ns").trim() || "ns1.example.net.";
    const server = ns.endsWith(".") ? ns : `${ns}.`;
    return outcome(await api.reverseZones({ cidr: textOf("rdns-cidr").trim() }), (value) => [
      summary([
        ["Block", value.cidr],
        ["Zones", String(value.zones.length)],
      ]),
      plainList(value.zones, "The zones"),
      plainList(
        value.zones.map((zone) => bindText(zone, [server]).trimEnd()),
        "For BIND (as nettools rdns --bind)",
      ),
    ]);
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
        plainList(value.cidrs, "As a plain list"),
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
        allocationMap(within.entries, used.entries, value.cidrs),
        blockTable(value.cidrs, plural(value.cidrs.length, "block", "allocated", "allocated"), ""),
        plainList(value.cidrs, "As a plain list"),
      ],
      [within, used],
    );
  });
}
