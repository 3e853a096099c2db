/**
 * The address-space map (issue 26 item 8): a parent block drawn as a bar whose parts are the
 * blocks an answer is about (new, used, free, removed, only in A …), each part as wide as its
 * share of the parent, in the model of visualsubnetcalc. Exact for /0 to /128: positions and
 * sizes are BigInt arithmetic on the parts' first and last addresses; no address is enumerated.
 *
 * Not colour alone (WCAG 2.1 SC 1.4.1): every kind has its own pattern (solid, stripes, dashed
 * outline, dots) and its word, written in the part when it fits, in the part's tooltip, and in
 * the legend with its exact address count; every fill keeps 4.5:1 against its text and 3:1
 * against the white separators around it (styles.css, `.map`). When a part is too narrow for
 * its label (under a twelfth of the parent) or there are over {@link MAX_BAR_LABELS} parts, the
 * bar keeps the scale and a grid below it labels every part, in address order. The map is one
 * image to assistive technology, named by a sentence of the counts; the tables beside it hold
 * every block as text.
 */
import { IpAddr, type IpFamily } from "../domain/ip/addr.ts";
import { IpPrefix, parsePrefix } from "../domain/ip/prefix.ts";
import { type Child, h } from "./dom.ts";

export type MapKind =
  | "new"
  | "used"
  | "free"
  | "outside"
  | "kept"
  | "removed"
  | "only-a"
  | "only-b"
  | "both"
  | "reserved"
  | "usable"
  | "special";

/** The word for each kind, as the legend and every part say it. */
export const MAP_WORDS: Record<MapKind, string> = {
  new: "new",
  used: "used",
  free: "free",
  outside: "outside",
  kept: "remaining",
  removed: "removed",
  "only-a": "only in A",
  "only-b": "only in B",
  both: "in both",
  reserved: "reserved",
  usable: "usable",
  special: "special-purpose",
};

/** An inclusive range of address values of one family. */
export interface Range {
  first: bigint;
  last: bigint;
}

/** Ranges of one kind, sorted and disjoint. */
export interface MapLayer {
  kind: MapKind;
  ranges: readonly Range[];
}

/** What to draw: the parent block, the kind of what no layer covers, and layers, later on top. */
export interface MapSpec {
  parent: IpPrefix;
  base: MapKind;
  layers: readonly MapLayer[];
}

/** One drawn part: a range of the parent, its kind and its label (its CIDR, or first – last). */
export interface MapPart extends Range {
  kind: MapKind;
  label: string;
}

/** Most parts whose labels are written in the bar; above, a grid labels them. */
export const MAX_BAR_LABELS = 32;
/** The smallest share of the parent whose label is written in the bar (about 14 characters). */
const MIN_LABELLED_SHARE = 1 / 12;

export function rangeOf(prefix: IpPrefix): Range {
  return { first: prefix.first.toBigInt(), last: prefix.last.toBigInt() };
}

/** The ranges of the CIDR or address texts of `family` (others, and unreadable ones, left out). */
export function rangesOf(texts: readonly string[], family: IpFamily): Range[] {
  const out: Range[] = [];
  for (const text of texts) {
    const parsed = parsePrefix(text);
    if (parsed.ok && parsed.value.family === family) out.push(rangeOf(parsed.value));
  }
  return out;
}

/** Sorted, overlapping and adjacent ranges joined. */
export function unionOf(ranges: readonly Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => (a.first < b.first ? -1 : a.first > b.first ? 1 : 0));
  const out: Range[] = [];
  for (const range of sorted) {
    const top = out.at(-1);
    if (top !== undefined && range.first <= top.last + 1n) {
      if (range.last > top.last) top.last = range.last;
    } else out.push({ ...range });
  }
  return out;
}

function bitLength(value: bigint): number {
  return value === 0n ? 0 : value.toString(2).length;
}

/** The smallest block of `family` holding every range (`null` for none). */
export function coverOf(ranges: readonly Range[], family: IpFamily): IpPrefix | null {
  if (ranges.length === 0) return null;
  let low = ranges[0]!.first;
  let high = ranges[0]!.last;
  for (const range of ranges) {
    if (range.first < low) low = range.first;
    if (range.last > high) high = range.last;
  }
  const width = family === 4 ? 32 : 128;
  return IpPrefix.from(IpAddr.fromBigInt(family, low), width - bitLength(low ^ high));
}

/** `10.0.0.0/24` when the range is one block, else `10.0.0.0 – 10.0.0.2`. */
export function rangeText(range: Range, family: IpFamily): string {
  const size = range.last - range.first + 1n;
  const first = IpAddr.fromBigInt(family, range.first);
  const power = bitLength(size) - 1;
  if (1n << BigInt(power) === size && range.first % size === 0n) {
    return `${first}/${(family === 4 ? 32 : 128) - power}`;
  }
  return `${first} – ${IpAddr.fromBigInt(family, range.last)}`;
}

function compare(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The parts of the parent, in address order: every address belongs to the last layer that holds
 * it, else to `base`. A layer's ranges must be sorted and disjoint; parts outside the parent are
 * clipped. Adjacent pieces of the same range (or of the base) make one part.
 */
export function mapParts(spec: MapSpec): MapPart[] {
  const { parent } = spec;
  const family = parent.family;
  const low = parent.first.toBigInt();
  const high = parent.last.toBigInt();
  const points: bigint[] = [low, high + 1n];
  for (const layer of spec.layers) {
    for (const range of layer.ranges) {
      if (range.last < low || range.first > high) continue;
      points.push(range.first < low ? low : range.first, (range.last > high ? high : range.last) + 1n);
    }
  }
  points.sort(compare);
  const cursors = spec.layers.map(() => 0);
  const parts: MapPart[] = [];
  let owner = "";
  for (let i = 0; i + 1 < points.length; i++) {
    const first = points[i]!;
    const next = points[i + 1]!;
    if (next === first) continue;
    let kind = spec.base;
    let found = "base";
    for (let l = spec.layers.length - 1; l >= 0; l--) {
      const layer = spec.layers[l]!;
      let at = cursors[l]!;
      while (at < layer.ranges.length && layer.ranges[at]!.last < first) at++;
      cursors[l] = at;
      const range = layer.ranges[at];
      if (range !== undefined && range.first <= first) {
        kind = layer.kind;
        found = `${l}:${at}`;
        break;
      }
    }
    const previous = parts.at(-1);
    if (previous !== undefined && owner === found) {
      previous.last = next - 1n;
      continue;
    }
    owner = found;
    parts.push({ first, last: next - 1n, kind, label: "" });
  }
  for (const part of parts) part.label = rangeText(part, family);
  return parts;
}

/** Share of the parent, in millionths, for flex-grow: exact BigInt division, then a small number. */
function share(part: Range, parentSize: bigint): number {
  return Number(((part.last - part.first + 1n) * 1_000_000n) / parentSize) / 1_000_000;
}

function partTitle(part: MapPart): string {
  const size = part.last - part.first + 1n;
  return `${MAP_WORDS[part.kind]}: ${part.label} (${size} ${size === 1n ? "address" : "addresses"})`;
}

/**
 * The map of `spec` as an element: a caption naming the parent, the bar (with the parent's first
 * and last address below it), a grid when there are many parts, and the legend with each kind's
 * exact address count.
 */
export function addressMap(spec: MapSpec, caption: string): HTMLElement {
  const parts = mapParts(spec);
  const family = spec.parent.family;
  const parentSize = spec.parent.addressCount();
  const shares = parts.map((part) => share(part, parentSize));
  const labelled = parts.length <= MAX_BAR_LABELS;
  const bar = h("div", { class: "map-bar", "aria-hidden": "true" });
  for (const [i, part] of parts.entries()) {
    const segment = h(
      "div",
      {
        class: `map-part k-${part.kind}`,
        title: partTitle(part),
        "data-kind": part.kind,
        "data-range": part.label,
      },
      labelled &&
        shares[i]! >= MIN_LABELLED_SHARE &&
        h("span", {}, MAP_WORDS[part.kind], h("br"), part.label),
    );
    // CSSOM, not a style attribute: the page's Content-Security-Policy allows no inline style.
    segment.style.flexGrow = String(shares[i]);
    bar.append(segment);
  }
  const totals = new Map<MapKind, bigint>();
  for (const part of parts)
    totals.set(part.kind, (totals.get(part.kind) ?? 0n) + part.last - part.first + 1n);
  const legend = [...totals].map(([kind, count]) =>
    h(
      "li",
      {},
      h("span", { class: `map-swatch k-${kind}`, "aria-hidden": "true" }),
      `${MAP_WORDS[kind]}: ${count} ${count === 1n ? "address" : "addresses"}`,
    ),
  );
  const described = [...totals].map(([kind, count]) => `${MAP_WORDS[kind]} ${count}`).join(", ");
  // Every part too narrow (or too many) to be labelled in the bar is labelled here, in order.
  const grid: Child =
    labelled && shares.every((value) => value >= MIN_LABELLED_SHARE)
      ? null
      : h(
          "ol",
          { class: "map-grid", tabindex: "0", "aria-label": `The ${parts.length} parts of ${spec.parent}` },
          ...parts.map((part) =>
            h(
              "li",
              { class: `map-part k-${part.kind}`, title: partTitle(part), "data-kind": part.kind },
              h("span", {}, MAP_WORDS[part.kind], h("br"), part.label),
            ),
          ),
        );
  return h(
    "figure",
    { class: "map" },
    h("figcaption", {}, caption),
    h(
      "div",
      { role: "img", "aria-label": `Map of ${spec.parent}, ${parts.length} parts: ${described} addresses` },
      bar,
    ),
    h(
      "div",
      { class: "map-scale", "aria-hidden": "true" },
      h("span", {}, spec.parent.first.toString()),
      h("span", {}, IpAddr.fromBigInt(family, spec.parent.last.toBigInt()).toString()),
    ),
    grid,
    h("ul", { class: "map-legend" }, ...legend),
  );
}

/** Most maps one list is drawn in once zoomed (issue 34.7). */
export const MAX_ZOOMED_MAPS = 8;

/** A block is sparse when what it holds is less than this share of it: its parts would be slivers. */
const SPARSE_SHARE = 16n;

/**
 * The blocks a list's map zooms to (issue 34.7): the smallest block that holds the ranges, unless
 * they are sparse in it (under a sixteenth of it) and lie in both of its halves: then each half's
 * ranges get their own smallest block, again, the sparsest first, while at most
 * {@link MAX_ZOOMED_MAPS} blocks result. `10.0.0.0/24` and `192.0.2.1` are drawn in
 * `10.0.0.0/24` and `192.0.2.1/32`, not in `0.0.0.0/0`. The blocks are disjoint, in address
 * order, each the smallest holding its ranges; empty for no range.
 */
export function zoomBlocks(ranges: readonly Range[], family: IpFamily): IpPrefix[] {
  const groups: Range[][] = [unionOf(ranges)].filter((group) => group.length > 0);
  while (groups.length < MAX_ZOOMED_MAPS) {
    let sparsest = -1;
    let worst = 0n;
    for (const [i, group] of groups.entries()) {
      const size = coverOf(group, family)!.addressCount();
      const held = group.reduce((sum, range) => sum + range.last - range.first + 1n, 0n);
      if (held * SPARSE_SHARE >= size || halves(group, family) === null) continue;
      const ratio = size / held;
      if (ratio > worst) [sparsest, worst] = [i, ratio];
    }
    if (sparsest < 0) break;
    groups.splice(sparsest, 1, ...halves(groups[sparsest]!, family)!);
  }
  return groups.map((group) => coverOf(group, family)!);
}

/** `group` cut at the middle of its smallest block, or null when a range spans the middle. */
function halves(group: readonly Range[], family: IpFamily): [Range[], Range[]] | null {
  const block = coverOf(group, family)!;
  if (block.bits === (family === 4 ? 32 : 128)) return null;
  const middle = block.first.toBigInt() + block.addressCount() / 2n;
  const low = group.filter((range) => range.last < middle);
  const high = group.filter((range) => range.first >= middle);
  return low.length > 0 && high.length > 0 && low.length + high.length === group.length ? [low, high] : null;
}
