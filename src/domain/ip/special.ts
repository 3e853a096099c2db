/**
 * Special-purpose address blocks: the IANA IPv4 and IPv6 Special-Purpose Address Registries
 * (RFC 6890 and the RFCs that added entries since), completed with the multicast blocks and, for
 * IPv6, the Global Unicast block of the IPv6 Address Space registry, so that every address gets
 * a type. Used by `nettools info` (issue 13), and, as range lists, by cidr-merge's
 * `excludeSpecial` (CONTRACT §8.5) and anything else that removes or skips special-purpose space
 * ({@link specialRangeTable}).
 *
 * `globallyReachable` is the registry's "Globally Reachable" column (`null` where it says N/A:
 * the answer depends on the more specific block or on the embedded address). The most specific
 * block containing a prefix is its type.
 *
 * The rows are the IPv6 registry as last updated 2024-10-22 and the IPv4 registry as of that date
 * (CONTRACT §8.5); a row added here changes what `excludeSpecial` removes, so it is a contract
 * change, never a silent one (tests/domain/special-ranges.test.ts lists the excluded rows).
 */
import { IpAddr, type IpFamily } from "./addr.ts";
import { IpPrefix, parsePrefix } from "./prefix.ts";
import { RangeList, touchesAny } from "./range-list.ts";
import { bigIntWord } from "./u128.ts";

/** One row of the table, with its prefix parsed. */
export interface SpecialBlock {
  /** The block, canonical (`100.64.0.0/10`). */
  readonly prefix: string;
  /** The registry's name for it (`Shared Address Space`). */
  readonly name: string;
  /** Where it is defined (`RFC 6598`). */
  readonly rfc: string;
  /** The registry's "Globally Reachable": true, false, or null for N/A. */
  readonly globallyReachable: boolean | null;
  readonly parsed: IpPrefix;
}

type Row = [prefix: string, name: string, rfc: string, globallyReachable: boolean | null];

/** IANA IPv4 Special-Purpose Address Registry, plus multicast (RFC 5771). */
const IPV4: Row[] = [
  ["0.0.0.0/8", '"This network"', "RFC 791", false],
  ["0.0.0.0/32", '"This host on this network"', "RFC 1122", false],
  ["10.0.0.0/8", "Private-Use", "RFC 1918", false],
  ["100.64.0.0/10", "Shared Address Space", "RFC 6598", false],
  ["127.0.0.0/8", "Loopback", "RFC 1122", false],
  ["169.254.0.0/16", "Link Local", "RFC 3927", false],
  ["172.16.0.0/12", "Private-Use", "RFC 1918", false],
  ["192.0.0.0/24", "IETF Protocol Assignments", "RFC 6890", false],
  ["192.0.0.0/29", "IPv4 Service Continuity Prefix", "RFC 7335", false],
  ["192.0.0.8/32", "IPv4 dummy address", "RFC 7600", false],
  ["192.0.0.9/32", "Port Control Protocol Anycast", "RFC 7723", true],
  ["192.0.0.10/32", "Traversal Using Relays around NAT Anycast", "RFC 8155", true],
  ["192.0.0.170/32", "NAT64/DNS64 Discovery", "RFC 8880", false],
  ["192.0.0.171/32", "NAT64/DNS64 Discovery", "RFC 8880", false],
  ["192.0.2.0/24", "Documentation (TEST-NET-1)", "RFC 5737", false],
  ["192.31.196.0/24", "AS112-v4", "RFC 7535", true],
  ["192.52.193.0/24", "AMT", "RFC 7450", true],
  ["192.88.99.0/24", "Deprecated (6to4 Relay Anycast)", "RFC 7526", null],
  ["192.168.0.0/16", "Private-Use", "RFC 1918", false],
  ["192.175.48.0/24", "Direct Delegation AS112 Service", "RFC 7534", true],
  ["198.18.0.0/15", "Benchmarking", "RFC 2544", false],
  ["198.51.100.0/24", "Documentation (TEST-NET-2)", "RFC 5737", false],
  ["203.0.113.0/24", "Documentation (TEST-NET-3)", "RFC 5737", false],
  ["224.0.0.0/4", "Multicast", "RFC 5771", null],
  ["240.0.0.0/4", "Reserved", "RFC 1112", false],
  ["255.255.255.255/32", "Limited Broadcast", "RFC 919", false],
];

/** IANA IPv6 Special-Purpose Address Registry, plus Global Unicast and Multicast (RFC 4291). */
const IPV6: Row[] = [
  ["::/128", "Unspecified Address", "RFC 4291", false],
  ["::1/128", "Loopback Address", "RFC 4291", false],
  ["::ffff:0.0.0.0/96", "IPv4-mapped Address", "RFC 4291", false],
  ["64:ff9b::/96", "IPv4-IPv6 Translation (NAT64 well-known prefix)", "RFC 6052", true],
  ["64:ff9b:1::/48", "IPv4-IPv6 Translation (local-use NAT64)", "RFC 8215", false],
  ["100::/64", "Discard-Only Address Block", "RFC 6666", false],
  ["2000::/3", "Global Unicast", "RFC 4291", true],
  ["2001::/23", "IETF Protocol Assignments", "RFC 2928", false],
  ["2001::/32", "TEREDO", "RFC 4380", null],
  ["2001:1::1/128", "Port Control Protocol Anycast", "RFC 7723", true],
  ["2001:1::2/128", "Traversal Using Relays around NAT Anycast", "RFC 8155", true],
  ["2001:2::/48", "Benchmarking", "RFC 5180", false],
  ["2001:3::/32", "AMT", "RFC 7450", true],
  ["2001:4:112::/48", "AS112-v6", "RFC 7535", true],
  ["2001:10::/28", "Deprecated (previously ORCHID)", "RFC 4843", false],
  ["2001:20::/28", "ORCHIDv2", "RFC 7343", true],
  ["2001:30::/28", "Drone Remote ID Protocol Entity Tags (DETs) Prefix", "RFC 9374", true],
  ["2001:db8::/32", "Documentation", "RFC 3849", false],
  ["2002::/16", "6to4", "RFC 3056", null],
  ["2620:4f:8000::/48", "Direct Delegation AS112 Service", "RFC 7534", true],
  ["3fff::/20", "Documentation", "RFC 9637", false],
  ["5f00::/16", "Segment Routing (SRv6) SIDs", "RFC 9602", false],
  ["fc00::/7", "Unique-Local", "RFC 4193", false],
  ["fe80::/10", "Link-Local Unicast", "RFC 4291", false],
  ["ff00::/8", "Multicast", "RFC 4291", null],
];

function build(rows: readonly Row[]): SpecialBlock[] {
  return rows.map(([prefix, name, rfc, globallyReachable]) => {
    const parsed = parsePrefix(prefix);
    if (!parsed.ok) throw new Error(`bad table entry ${prefix}: ${parsed.message}`);
    return { prefix: parsed.value.toString(), name, rfc, globallyReachable, parsed: parsed.value };
  });
}

/** Every block of the table, IPv4 first, each family in the order above. */
export const SPECIAL_BLOCKS: readonly SpecialBlock[] = [...build(IPV4), ...build(IPV6)];

/** The type of addresses outside every block of the table. */
export interface FallbackType {
  readonly prefix: null;
  readonly name: string;
  readonly rfc: string;
  readonly globallyReachable: boolean | null;
}

/** IPv4 outside every special-purpose block: ordinary, globally routable unicast. */
const IPV4_GLOBAL: FallbackType = {
  prefix: null,
  name: "Global unicast",
  rfc: "RFC 791",
  globallyReachable: true,
};
/** IPv6 outside 2000::/3 and the other blocks: not yet allocated by the IETF. */
const IPV6_RESERVED: FallbackType = {
  prefix: null,
  name: "Reserved by IETF",
  rfc: "RFC 4291",
  globallyReachable: false,
};

export interface Classification {
  /** The most specific block containing the whole prefix, or the family's fallback. */
  type: SpecialBlock | FallbackType;
  /** Blocks strictly inside the prefix (a wide prefix spans several types), in table order. */
  contains: SpecialBlock[];
}

/**
 * The special-purpose type of `prefix` (a single address is a /32 or /128): the most specific
 * table block containing all of it; when none does, global unicast (IPv4) or reserved (IPv6).
 * Blocks lying strictly inside `prefix` are listed in `contains`.
 */
export function classifyPrefix(prefix: IpPrefix): Classification {
  let best: SpecialBlock | null = null;
  const contains: SpecialBlock[] = [];
  for (const block of SPECIAL_BLOCKS) {
    if (block.parsed.family !== prefix.family) continue;
    if (block.parsed.bits <= prefix.bits && block.parsed.contains(prefix.addr)) {
      if (best === null || block.parsed.bits > best.parsed.bits) best = block;
    } else if (prefix.bits < block.parsed.bits && prefix.contains(block.parsed.addr)) {
      contains.push(block);
    }
  }
  return { type: best ?? (prefix.family === 4 ? IPV4_GLOBAL : IPV6_RESERVED), contains };
}

/** The special-purpose type of one address. */
export function classifyAddr(addr: IpAddr): Classification {
  return classifyPrefix(IpPrefix.from(addr, addr.bitLength));
}

/**
 * The IPv4 address carried in the last 32 bits of an IPv4-mapped (`::ffff:0:0/96`) or NAT64
 * well-known-prefix (`64:ff9b::/96`, RFC 6052) address; `null` for any other address.
 */
export function embeddedIpv4(addr: IpAddr): IpAddr | null {
  if (addr.family !== 6 || addr.w1 !== 0) return null;
  if (addr.w0 === 0 && addr.w2 === 0xffff) return IpAddr.v4(addr.w3);
  if (addr.w0 === 0x0064ff9b && addr.w2 === 0) return IpAddr.v4(addr.w3);
  return null;
}

/** Ranges of one family, each with the row of the table that decides it. */
export interface SpecialSegments {
  /** Disjoint ranges in address order; two that touch have different rows. */
  readonly ranges: RangeList;
  /** The deciding row of each range, by position. */
  readonly rows: readonly SpecialBlock[];
}

/**
 * The table of one family in the form the list operations use (src/domain/ip/range-list.ts).
 * Shared and built once: never released, never changed.
 */
export interface SpecialRangeTable {
  /**
   * Every address some row contains, cut into the ranges where one row is the most specific row
   * containing the address: `192.0.0.0/24` minus its more specific rows is two ranges of the IETF
   * Protocol Assignments row.
   */
  readonly decided: SpecialSegments;
  /** The ranges of {@link decided} whose row is not globally reachable (the column says False). */
  readonly excluded: SpecialSegments;
  /** The union of {@link excluded}'s ranges (touching ones joined), for subtracting. */
  readonly excludedUnion: RangeList;
}

const rangeTables = new Map<IpFamily, SpecialRangeTable>();

/**
 * The table of `family` as range lists ({@link SpecialRangeTable}), built on first use from the
 * rows above (a few dozen rows: a sweep over their boundaries, in `bigint`, once).
 *
 * Every address the rows contain is decided by the most specific row containing it: a kept row
 * inside an excluded one (`192.0.0.9/32` in `192.0.0.0/24`, TEREDO in `2001::/23`) keeps its
 * addresses, an excluded row inside a kept one (`2001:db8::/32` in `2000::/3`) removes its own.
 */
export function specialRangeTable(family: IpFamily): SpecialRangeTable {
  let table = rangeTables.get(family);
  if (table === undefined) {
    table = buildRangeTable(family);
    rangeTables.set(family, table);
  }
  return table;
}

function buildRangeTable(family: IpFamily): SpecialRangeTable {
  const rows = SPECIAL_BLOCKS.filter((row) => row.parsed.family === family);
  const spans = rows.map((row) => ({
    row,
    first: row.parsed.first.toBigInt(),
    last: row.parsed.last.toBigInt(),
  }));
  // Between two consecutive boundaries, the same rows contain every address.
  const boundaries = [...new Set(spans.flatMap(({ first, last }) => [first, last + 1n]))].sort((x, y) =>
    x < y ? -1 : x > y ? 1 : 0,
  );
  const decided: { first: bigint; last: bigint; row: SpecialBlock }[] = [];
  for (let k = 0; k + 1 < boundaries.length; k++) {
    const first = boundaries[k]!;
    const last = boundaries[k + 1]! - 1n;
    let best: (typeof spans)[number] | null = null;
    for (const span of spans) {
      if (
        span.first <= first &&
        first <= span.last &&
        (best === null || span.row.parsed.bits > best.row.parsed.bits)
      )
        best = span;
    }
    if (best === null) continue;
    const previous = decided[decided.length - 1];
    if (previous !== undefined && previous.row === best.row && previous.last + 1n === first)
      previous.last = last;
    else decided.push({ first, last, row: best.row });
  }
  const segmentsOf = (list: typeof decided): SpecialSegments => {
    const ranges = new RangeList(family, list.length);
    for (const { first, last } of list) {
      ranges.push(
        bigIntWord(first, 0),
        bigIntWord(first, 1),
        bigIntWord(first, 2),
        bigIntWord(first, 3),
        bigIntWord(last, 0),
        bigIntWord(last, 1),
        bigIntWord(last, 2),
        bigIntWord(last, 3),
      );
    }
    return { ranges, rows: list.map(({ row }) => row) };
  };
  const excludedSpans = decided.filter(({ row }) => row.globallyReachable === false);
  const joined: { first: bigint; last: bigint; row: SpecialBlock }[] = [];
  for (const span of excludedSpans) {
    const previous = joined[joined.length - 1];
    if (previous !== undefined && previous.last + 1n === span.first) previous.last = span.last;
    else joined.push({ ...span });
  }
  return {
    decided: segmentsOf(decided),
    excluded: segmentsOf(excludedSpans),
    excludedUnion: segmentsOf(joined).ranges,
  };
}

/**
 * Whether any address of the range from `range[0…3]` to `range[4…7]` (first ≤ last; an IPv4
 * address in the fourth word of each) lies in an excluded row of {@link specialRangeTable}: one
 * binary search, nothing made, so `match -x` can ask it per field.
 */
export function touchesExcludedSpecial(family: IpFamily, range: Uint32Array): boolean {
  return touchesAny(specialRangeTable(family).excludedUnion, range);
}
