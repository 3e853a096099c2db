/**
 * The facts `ipcalc` and `sipcalc` print about one address or CIDR (issue 13, `nettools info`):
 * network, masks, broadcast, usable host range and count, address count, /64 count and the
 * special-purpose type. Exact for both families (counts are decimal strings).
 *
 * Usable hosts, the rule (the same as Python's `ip_network(...).hosts()`):
 * - IPv4 /0–/30: every address but the network address and the broadcast address;
 *   /31: both addresses (a point-to-point link, RFC 3021); /32: the one address.
 * - IPv6 /0–/126: every address but the first, the Subnet-Router anycast address (RFC 4291
 *   §2.6.1); IPv6 has no broadcast. /127: both addresses (RFC 6164); /128: the one address.
 */
import { IpAddr, type ParseResult, parseAddr, trimAsciiWhitespace } from "./addr.ts";
import { IpPrefix, parsePrefix } from "./prefix.ts";
import { classifyPrefix, embeddedIpv4, type FallbackType, type SpecialBlock } from "./special.ts";
import { maskWord } from "./u128.ts";

/** A block of the special-purpose table as the facts show it. */
export interface AddressType {
  /** The table block (`10.0.0.0/8`), or null for the family's fallback type. */
  prefix: string | null;
  name: string;
  rfc: string;
  globallyReachable: boolean | null;
}

export interface AddressFacts {
  family: "ipv4" | "ipv6";
  /** The address as given, canonical, host bits kept (`10.1.2.3` for `10.1.2.3/8`). */
  address: string;
  /** The block, canonical, host bits cleared. */
  cidr: string;
  prefixLength: number;
  /** The prefix length as a mask: dotted quad, or an IPv6 address (`ffff:ffff::`). */
  netmask: string;
  /** IPv4 only: the host bits as a dotted quad (the inverse of the netmask), as ACLs write it. */
  wildcard: string | null;
  /** The first address of the block. */
  network: string;
  /** IPv4 /0–/30 only: the last address; null for /31, /32 and IPv6. */
  broadcast: string | null;
  /** The last address of the block. */
  lastAddress: string;
  firstUsable: string;
  lastUsable: string;
  /** Exact count of usable hosts (see the module's rule), decimal. */
  usableHosts: string;
  /** Exact count of addresses in the block, decimal. */
  addressCount: string;
  /** IPv6 only: how many /64 subnets the block holds ("0" when it is longer than /64). */
  subnets64: string | null;
  /** The most specific special-purpose block containing the whole block, or the fallback. */
  type: AddressType;
  /** Special-purpose blocks lying inside a wider block, in table order. */
  contains: AddressType[];
  /** The IPv4 address inside an IPv4-mapped or NAT64 (64:ff9b::/96) address, and its type. */
  embeddedIpv4: { address: string; type: AddressType } | null;
}

function typeOf(block: SpecialBlock | FallbackType): AddressType {
  return {
    prefix: block.prefix,
    name: block.name,
    rfc: block.rfc,
    globallyReachable: block.globallyReachable,
  };
}

function offset(addr: IpAddr, delta: 1 | -1): IpAddr {
  const moved = delta === 1 ? addr.next() : addr.prev();
  if (moved === null) throw new RangeError("no neighbouring address");
  return moved;
}

/** The mask of `bits` leading ones (or, `inverted`, the host bits) as an address of `family`. */
function maskAddr(family: 4 | 6, bits: number, inverted: boolean): IpAddr {
  const len = bits + (family === 4 ? 96 : 0);
  const word = (k: number) => (inverted ? ~maskWord(len, k) : maskWord(len, k)) >>> 0;
  return family === 4 ? IpAddr.v4(word(3)) : IpAddr.v6(word(0), word(1), word(2), word(3));
}

/**
 * The facts about one address or CIDR (`192.0.2.77`, `10.1.2.3/8`, `2001:db8::/48`), parsed under
 * the API's rules (CONTRACT §2); a failure carries the parser's sentence.
 */
export function addressFacts(text: string): ParseResult<AddressFacts> {
  const parsed = parsePrefix(text);
  if (!parsed.ok) return parsed;
  const prefix = parsed.value;
  const trimmed = trimAsciiWhitespace(text);
  const slash = trimmed.indexOf("/");
  const given = parseAddr(slash < 0 ? trimmed : trimmed.slice(0, slash));
  const address = given.ok ? given.value : prefix.addr;
  const { family, bits } = prefix;
  const first = prefix.first;
  const last = prefix.last;
  const count = prefix.addressCount();

  let firstUsable = first;
  let lastUsable = last;
  let usable = count;
  if (family === 4 && bits <= 30) {
    firstUsable = offset(first, 1);
    lastUsable = offset(last, -1);
    usable = count - 2n;
  } else if (family === 6 && bits <= 126) {
    firstUsable = offset(first, 1);
    usable = count - 1n;
  }

  const { type, contains } = classifyPrefix(prefix);
  const inner = embeddedIpv4(address);
  return {
    ok: true,
    value: {
      family: family === 4 ? "ipv4" : "ipv6",
      address: address.toString(),
      cidr: prefix.toString(),
      prefixLength: bits,
      netmask: maskAddr(family, bits, false).toString(),
      wildcard: family === 4 ? maskAddr(4, bits, true).toString() : null,
      network: first.toString(),
      broadcast: family === 4 && bits <= 30 ? last.toString() : null,
      lastAddress: last.toString(),
      firstUsable: firstUsable.toString(),
      lastUsable: lastUsable.toString(),
      usableHosts: usable.toString(),
      addressCount: count.toString(),
      subnets64: family === 6 ? (bits <= 64 ? (1n << BigInt(64 - bits)).toString() : "0") : null,
      type: typeOf(type),
      contains: contains.map(typeOf),
      embeddedIpv4:
        inner === null
          ? null
          : { address: inner.toString(), type: typeOf(classifyPrefix(IpPrefix.from(inner, 32)).type) },
    },
  };
}
