/**
 * The slow, obvious model of the CIDR list operations (CONTRACT §7.4) and the generators their
 * properties run on. The model is plain `bigint` arithmetic over every block (contains) or, for
 * allocate, a brute force over every address of a small window: nothing here shares an algorithm
 * with `src/`.
 */
import fc from "fast-check";
import { entryNear, type TextEntry, valueNear } from "./arbitraries.ts";
import {
  blockOf,
  cidrsOf,
  count,
  type Family,
  formatCidr,
  type Interval,
  type ModelEntry,
  subtract,
  union,
  width,
} from "./model.ts";

// ---------------------------------------------------------------------------------------------
// Generators

/** A base value inside `::ffff:0:0/96`, so that entries near it are IPv4-mapped IPv6. */
const mappedBase = fc.bigInt({ min: 0n, max: 0xffff_ffffn }).map((v) => (0xffffn << 32n) | v);

/** Up to `max` entries of `family` clustered around one base (mapped when `mapped`). */
function cluster(family: Family, max: number, mapped = false): fc.Arbitrary<TextEntry[]> {
  const base = mapped ? mappedBase : valueNear(family, 0n);
  return base.chain((b) => fc.array(entryNear(family, b), { minLength: 0, maxLength: max }));
}

/** `items` in an order drawn from `keys`, with the items at `copies` (mod length) repeated. */
function shuffleWithCopies<T>(items: readonly T[], keys: readonly number[], copies: readonly number[]): T[] {
  const all = [...items, ...copies.map((c) => items[c % items.length]!)];
  return all
    .map((item, i) => ({ item, key: keys[i % Math.max(1, keys.length)]! * 4096 + i }))
    .sort((a, b) => a.key - b.key)
    .map(({ item }) => item);
}

/**
 * A list of `min`–`max` (about) entries of both families in any order: IPv4 around one base, IPv6
 * around another, IPv4-mapped IPv6 around a third, with duplicates; host bits set, overlaps and
 * neighbours come from the clustering.
 */
export function mixedEntries(min: number, max: number): fc.Arbitrary<TextEntry[]> {
  const per = Math.max(1, Math.ceil(max / 3));
  return fc
    .tuple(
      cluster(4, per),
      cluster(6, per),
      cluster(6, per, true),
      fc.array(fc.nat({ max: 1000 }), { minLength: 0, maxLength: 3 * per }),
      fc.array(fc.nat(), { maxLength: 3 }),
    )
    .map(([a, b, c, keys, copies]) => {
      const items = [...a, ...b, ...c];
      return items.length === 0 ? items : shuffleWithCopies(items, keys.length > 0 ? keys : [0], copies);
    })
    .filter((list) => list.length >= min);
}

// ---------------------------------------------------------------------------------------------
// Model

function interval(e: ModelEntry): Interval {
  return blockOf(e);
}

function text(e: ModelEntry): string {
  return formatCidr(e.family, blockOf(e).first, e.bits);
}

/** cidr-merge: each family's union as minimal CIDRs, IPv4 first. */
export function modelMerge(entries: readonly ModelEntry[]) {
  const of = (family: Family) => union(entries.filter((e) => e.family === family).map(interval));
  const v4 = of(4);
  const v6 = of(6);
  const cidrs = (family: Family, ivs: Interval[]) =>
    ivs.flatMap((iv) => cidrsOf(family, iv)).map((c) => formatCidr(family, c.network, c.bits));
  return {
    cidrs: [...cidrs(4, v4), ...cidrs(6, v6)],
    ipv4AddressCount: String(count(v4)),
    ipv6AddressCount: String(count(v6)),
  };
}

/**
 * cidr-contains, by comparing each entry with every block of its family; `labels[i]` labels
 * `blocks[i]`, and an answer's label is the first label given to a block equal to its match.
 */
export function modelContains(
  blocks: readonly ModelEntry[],
  entries: readonly ModelEntry[],
  labels: readonly (string | null)[] = [],
) {
  return {
    results: entries.map((e) => {
      const iv = interval(e);
      const same = blocks.filter((b) => b.family === e.family);
      const holders = same.filter((b) => {
        const block = interval(b);
        return block.first <= iv.first && iv.last <= block.last;
      });
      const overlaps = same.some((b) => {
        const block = interval(b);
        return block.first <= iv.last && iv.first <= block.last;
      });
      const best = holders.reduce<ModelEntry | null>((m, b) => (m === null || b.bits > m.bits ? b : m), null);
      return {
        entry: text(e),
        contained: holders.length > 0,
        overlaps,
        matchedCidr: best === null ? null : text(best),
        label:
          best === null
            ? null
            : (labels.find(
                (label, i) => label !== null && blocks[i] !== undefined && text(blocks[i]) === text(best),
              ) ?? null),
      };
    }),
  };
}

/** A window of 2^`windowBits` addresses starting at `start`, the only place allocate may look. */
export interface Window {
  family: Family;
  start: bigint;
  windowBits: number;
}

/**
 * cidr-allocate by brute force inside `window` (every entry must lie inside it): mark every free
 * address, then try every aligned block of the length from the lowest up, keeping those whose
 * addresses are all free. Returns the first `want` blocks (or all that fit) and the free count.
 */
export function modelAllocate(
  window: Window,
  within: readonly ModelEntry[],
  used: readonly ModelEntry[],
  prefixLength: number,
  want: number,
) {
  const size = 1 << window.windowBits;
  const free = new Uint8Array(size);
  const mark = (entries: readonly ModelEntry[], value: 0 | 1) => {
    for (const e of entries) {
      const iv = interval(e);
      const from = iv.first < window.start ? 0n : iv.first - window.start;
      const to = iv.last - window.start >= BigInt(size) ? BigInt(size - 1) : iv.last - window.start;
      for (let a = Number(from); a <= Number(to); a++) free[a] = value;
    }
  };
  mark(within, 1);
  mark(used, 0);
  const freeBefore = free.reduce((s, v) => s + v, 0);
  const blockSize = 2 ** (width(window.family) - prefixLength);
  const found: string[] = [];
  for (let at = 0; at + blockSize <= size && found.length < want; at += blockSize) {
    let allFree = true;
    for (let a = at; a < at + blockSize && allFree; a++) allFree = free[a] === 1;
    if (allFree) found.push(formatCidr(window.family, window.start + BigInt(at), prefixLength));
  }
  return { cidrs: found, freeAddressCount: String(freeBefore - found.length * blockSize) };
}

/**
 * An allocate case inside a small window: `within` and `used` blocks of at least /(w − windowBits)
 * inside a window of 2^windowBits addresses (aligned, anywhere in the family, IPv4-mapped
 * included), a prefix length from the window's own to the full length, and a count.
 */
export const allocateCase = fc
  .record({
    family: fc.constantFrom<Family>(4, 6),
    windowBits: fc.integer({ min: 2, max: 10 }),
    anchor: fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }),
    mapped: fc.boolean(),
  })
  .chain(({ family, windowBits, anchor, mapped }) => {
    const w = width(family);
    const hostMask = (1n << BigInt(windowBits)) - 1n;
    let top = anchor & ((1n << BigInt(w)) - 1n) & ~hostMask;
    if (family === 6 && mapped) top = (0xffffn << 32n) | (top & 0xffff_ffffn & ~hostMask);
    const window: Window = { family, start: top, windowBits };
    const entry = (bits: fc.Arbitrary<number>) =>
      fc
        .tuple(fc.bigInt({ min: 0n, max: hostMask }), bits)
        .map(([offset, length]): ModelEntry => ({ family, value: top | offset, bits: length }));
    const anyLength = fc.integer({ min: w - windowBits, max: w });
    const long = fc.integer({ min: w - Math.min(3, windowBits), max: w });
    return fc.record({
      window: fc.constant(window),
      within: fc.array(
        entry(
          fc.oneof(
            { weight: 3, arbitrary: fc.integer({ min: w - windowBits, max: w - windowBits + 2 }) },
            { weight: 1, arbitrary: anyLength },
          ),
        ),
        { minLength: 1, maxLength: 6 },
      ),
      // mostly small used blocks; a few reach outside the window, and so outside within
      used: fc.array(
        entry(
          fc.oneof(
            { weight: 6, arbitrary: fc.integer({ min: w - 1, max: w }) },
            { weight: 2, arbitrary: anyLength },
            { weight: 1, arbitrary: fc.integer({ min: w - windowBits - 2, max: w }) },
          ),
        ),
        { minLength: 0, maxLength: 5 },
      ),
      prefixLength: fc.oneof({ weight: 2, arbitrary: long }, { weight: 1, arbitrary: anyLength }),
      count: fc.integer({ min: 1, max: 6 }),
    });
  });

/** The text of an entry as a user might type it: host bits kept. */
export function entryText(e: ModelEntry): string {
  return formatCidr(e.family, e.value, e.bits);
}

// ---------------------------------------------------------------------------------------------
// cidr-compare and excludeSpecial (CONTRACT §8.4, §8.5)

/** The minimal CIDR texts of a union (a sorted, disjoint interval list). */
function cidrTexts(family: Family, ivs: readonly Interval[]): string[] {
  return ivs.flatMap((iv) => cidrsOf(family, iv)).map((c) => formatCidr(family, c.network, c.bits));
}

/** A set as cidr-merge writes it, from each family's union. */
function setOf(v4: readonly Interval[], v6: readonly Interval[]) {
  return {
    cidrs: [...cidrTexts(4, v4), ...cidrTexts(6, v6)],
    ipv4AddressCount: String(count(v4)),
    ipv6AddressCount: String(count(v6)),
  };
}

const unionOfFamily = (entries: readonly ModelEntry[], family: Family) =>
  union(entries.filter((e) => e.family === family).map(interval));

/** What two unions share. */
const intersect = (a: readonly Interval[], b: readonly Interval[]) => subtract(a, subtract(a, b));

/** cidr-compare: each list's union per family, then the two differences and the intersection. */
export function modelCompare(a: readonly ModelEntry[], b: readonly ModelEntry[]) {
  const [a4, a6, b4, b6] = [
    unionOfFamily(a, 4),
    unionOfFamily(a, 6),
    unionOfFamily(b, 4),
    unionOfFamily(b, 6),
  ];
  const onlyA = setOf(subtract(a4, b4), subtract(a6, b6));
  const onlyB = setOf(subtract(b4, a4), subtract(b6, a6));
  return {
    onlyA,
    onlyB,
    both: setOf(intersect(a4, b4), intersect(a6, b6)),
    equal: onlyA.cidrs.length === 0 && onlyB.cidrs.length === 0,
  };
}

/** One row of CONTRACT §8.5's table: block, name, RFC, and whether it excludes. */
export interface ContractRow {
  block: string;
  name: string;
  rfc: string;
  excludes: boolean;
}

const row =
  (excludes: boolean) =>
  (block: string, name: string, rfc: string): ContractRow => ({
    block,
    name,
    rfc,
    excludes,
  });
const out = row(true);
const kept = row(false);

/**
 * CONTRACT §8.5's table as written there, transcribed by hand (not read from src/): the rows that
 * exclude (Globally Reachable = False) and the rows inside them that keep (True or N/A).
 */
export const CONTRACT_SPECIAL_ROWS: readonly ContractRow[] = [
  out("0.0.0.0/8", '"This network"', "RFC 791"),
  out("0.0.0.0/32", '"This host on this network"', "RFC 1122"),
  out("10.0.0.0/8", "Private-Use", "RFC 1918"),
  out("100.64.0.0/10", "Shared Address Space", "RFC 6598"),
  out("127.0.0.0/8", "Loopback", "RFC 1122"),
  out("169.254.0.0/16", "Link Local", "RFC 3927"),
  out("172.16.0.0/12", "Private-Use", "RFC 1918"),
  out("192.0.0.0/24", "IETF Protocol Assignments", "RFC 6890"),
  out("192.0.0.0/29", "IPv4 Service Continuity Prefix", "RFC 7335"),
  out("192.0.0.8/32", "IPv4 dummy address", "RFC 7600"),
  out("192.0.0.170/32", "NAT64/DNS64 Discovery", "RFC 8880"),
  out("192.0.0.171/32", "NAT64/DNS64 Discovery", "RFC 8880"),
  out("192.0.2.0/24", "Documentation (TEST-NET-1)", "RFC 5737"),
  out("192.168.0.0/16", "Private-Use", "RFC 1918"),
  out("198.18.0.0/15", "Benchmarking", "RFC 2544"),
  out("198.51.100.0/24", "Documentation (TEST-NET-2)", "RFC 5737"),
  out("203.0.113.0/24", "Documentation (TEST-NET-3)", "RFC 5737"),
  out("240.0.0.0/4", "Reserved", "RFC 1112"),
  out("255.255.255.255/32", "Limited Broadcast", "RFC 919"),
  kept("192.0.0.9/32", "Port Control Protocol Anycast", "RFC 7723"),
  kept("192.0.0.10/32", "Traversal Using Relays around NAT Anycast", "RFC 8155"),
  out("::/128", "Unspecified Address", "RFC 4291"),
  out("::1/128", "Loopback Address", "RFC 4291"),
  out("::ffff:0.0.0.0/96", "IPv4-mapped Address", "RFC 4291"),
  out("64:ff9b:1::/48", "IPv4-IPv6 Translation (local-use NAT64)", "RFC 8215"),
  out("100::/64", "Discard-Only Address Block", "RFC 6666"),
  out("2001::/23", "IETF Protocol Assignments", "RFC 2928"),
  out("2001:2::/48", "Benchmarking", "RFC 5180"),
  out("2001:10::/28", "Deprecated (previously ORCHID)", "RFC 4843"),
  out("2001:db8::/32", "Documentation", "RFC 3849"),
  out("3fff::/20", "Documentation", "RFC 9637"),
  out("5f00::/16", "Segment Routing (SRv6) SIDs", "RFC 9602"),
  out("fc00::/7", "Unique-Local", "RFC 4193"),
  out("fe80::/10", "Link-Local Unicast", "RFC 4291"),
  kept("2001::/32", "TEREDO", "RFC 4380"),
  kept("2001:1::1/128", "Port Control Protocol Anycast", "RFC 7723"),
  kept("2001:1::2/128", "Traversal Using Relays around NAT Anycast", "RFC 8155"),
  kept("2001:3::/32", "AMT", "RFC 7450"),
  kept("2001:4:112::/48", "AS112-v6", "RFC 7535"),
  kept("2001:20::/28", "ORCHIDv2", "RFC 7343"),
  kept("2001:30::/28", "Drone Remote ID Protocol Entity Tags (DETs) Prefix", "RFC 9374"),
];

/** A contract row as a model entry (IPv4-mapped text read by hand: `::ffff:0.0.0.0`). */
export function contractRowEntry(r: ContractRow): ModelEntry {
  const [address, bits] = r.block.split("/") as [string, string];
  if (!address.includes(":")) {
    const value = address.split(".").reduce((v, octet) => (v << 8n) | BigInt(octet), 0n);
    return { family: 4, value, bits: Number(bits) };
  }
  const mapped = address.startsWith("::ffff:") && address.includes(".");
  const hex = mapped ? "::ffff:0:0" : address;
  const [head, tail] = hex.split("::") as [string, string | undefined];
  const groups = (part: string | undefined) => (part ? part.split(":").map((g) => BigInt(`0x${g}`)) : []);
  const left = groups(head);
  const right = groups(tail);
  const all = [...left, ...Array<bigint>(8 - left.length - right.length).fill(0n), ...right];
  return { family: 6, value: all.reduce((v, g) => (v << 16n) | g, 0n), bits: Number(bits) };
}

/**
 * cidr-merge with excludeSpecial, from the contract's rows: an address is removed when the most
 * specific row containing it excludes. Rows are walked from the longest prefix down, each taking
 * the input addresses no longer row took; the removed ones are listed per row, all by address.
 */
export function modelMergeExcluding(entries: readonly ModelEntry[]) {
  const remaining: Record<Family, Interval[]> = {
    4: unionOfFamily(entries, 4),
    6: unionOfFamily(entries, 6),
  };
  const left: Record<Family, Interval[]> = { 4: [...remaining[4]], 6: [...remaining[6]] };
  const removed: { family: Family; network: bigint; cidr: string; row: ContractRow }[] = [];
  const rows = CONTRACT_SPECIAL_ROWS.map((r) => ({ r, e: contractRowEntry(r) })).sort(
    (x, y) => y.e.bits - x.e.bits,
  );
  for (const { r, e } of rows) {
    const block = [interval(e)];
    const decided = intersect(left[e.family], block);
    left[e.family] = subtract(left[e.family], block);
    if (!r.excludes) continue;
    remaining[e.family] = subtract(remaining[e.family], decided);
    for (const c of decided.flatMap((iv) => cidrsOf(e.family, iv))) {
      removed.push({
        family: e.family,
        network: c.network,
        cidr: formatCidr(e.family, c.network, c.bits),
        row: r,
      });
    }
  }
  removed.sort((x, y) => x.family - y.family || (x.network < y.network ? -1 : x.network > y.network ? 1 : 0));
  return {
    ...setOf(remaining[4], remaining[6]),
    excluded: removed.map(({ cidr, row: r }) => ({ cidr, block: r.block, name: r.name, rfc: r.rfc })),
  };
}

/**
 * Entries near the edges of the contract's rows (first and last addresses, and the addresses
 * just outside), so that inputs straddle, nest in and contain special-purpose blocks; mixed with
 * ordinary entries of both families.
 */
export function specialEntries(min: number, max: number): fc.Arbitrary<TextEntry[]> {
  const edges = CONTRACT_SPECIAL_ROWS.flatMap((r) => {
    const e = contractRowEntry(r);
    const { first, last } = interval(e);
    const top = (1n << BigInt(width(e.family))) - 1n;
    return [first, last, first > 0n ? first - 1n : first, last < top ? last + 1n : last].map((value) => ({
      family: e.family,
      value,
    }));
  });
  const nearEdge = fc.constantFrom(...edges).chain(({ family, value }) => entryNear(family, value));
  return fc
    .tuple(
      fc.array(nearEdge, { minLength: 0, maxLength: max }),
      mixedEntries(0, Math.max(1, Math.floor(max / 3))),
    )
    .map(([special, ordinary]) => [...special, ...ordinary].slice(0, max))
    .filter((list) => list.length >= min);
}

/** `n` distinct /32s, every other address of 10.0.0.0/8: no two merge. */
export function scattered(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `10.${(i >> 15) & 255}.${(i >> 7) & 255}.${(i & 127) * 2}`);
}
