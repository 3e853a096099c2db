/**
 * reverse-zones (CONTRACT §8.8): the reverse DNS zones to create for a block — the question of
 * terraform#9404 and netaddr#165 ("which zones for 100.64.0.0/10?"), answered exactly, where some
 * tools round a /10 to a /16.
 *
 * Reverse names read an address backwards under `in-addr.arpa.` (IPv4, one label per octet, RFC
 * 1035 §3.5) or `ip6.arpa.` (IPv6, one label per nibble, RFC 3596 §2.5). A zone can only cut the
 * address on a label boundary, so a block whose length is not a multiple of 8 (IPv4) or 4 (IPv6)
 * needs every zone of the next boundary below it: 2^(b − p) zones, at most 128 (an IPv4 /1, /9 or
 * /17) or 8 (IPv6). An IPv4 block longer than /24 cannot be a zone of its own; it gets the RFC 2317
 * classless name `FIRST/p.C.B.A.in-addr.arpa.` (the form of RFC 2317's section 4 example), which
 * the parent /24 delegates with CNAMEs.
 */
import type { DomainError, Issue } from "../errors.ts";
import { parsePrefix, scanPrefixWords } from "../ip/prefix.ts";
import { formatWords } from "../ip/text.ts";
import { DeferredList, resultWith } from "../list-fields.ts";
import { entryBoundsProblem, invalidEntries } from "./entries.ts";

/** The result of reverse-zones, field for field. */
export interface ReverseZonesResult {
  /** The block, canonical (host bits cleared; an address is a /32 or /128). */
  cidr: string;
  /** The zone names, by address, each ending with a dot. */
  zones: string[];
}

const IPV4_SUFFIX = "in-addr.arpa.";
const IPV6_SUFFIX = "ip6.arpa.";
const HEX = "0123456789abcdef";

/** Words of the block being read: the network address in 0–3, the family in 4. */
const blockWords = new Uint32Array(5);

/**
 * The minimal list of reverse zones whose address blocks together are exactly `cidr` (an address
 * or CIDR, CONTRACT §2; an address is a /32 or /128), in address order:
 * - IPv4 /p with p ≤ 24 or p = 32: every zone of b = the next multiple of 8 at or above p, its b/8
 *   octets reversed (`100.64.0.0/10` → `64.100.in-addr.arpa.` … `127.100.in-addr.arpa.`;
 *   `0.0.0.0/0` → `in-addr.arpa.`; a /32 is its PTR name `4.3.2.1.in-addr.arpa.`);
 * - IPv4 /25 to /31: one RFC 2317 name, `FIRST/p.C.B.A.in-addr.arpa.` (`192.0.2.64/26` →
 *   `64/26.2.0.192.in-addr.arpa.`);
 * - IPv6 /p: every zone of b = the next multiple of 4 at or above p, b/4 nibbles reversed in
 *   lower-case hex (`2001:db8::/32` → `8.b.d.0.1.0.0.2.ip6.arpa.`; `::/0` → `ip6.arpa.`; a /128 is
 *   its PTR name). IPv4-mapped text (`::ffff:192.0.2.0/120`) is IPv6 and gets `ip6.arpa.` names.
 *
 * Each name is the last labels of Python's `ipaddress.ip_address(zone network).reverse_pointer`
 * plus a dot (tests/domain/reverse-zones.test.ts). At most 128 names, never enumerating
 * addresses.
 *
 * Throws `DomainError` `INVALID_INPUT` with one issue at `["cidr"]` for an entry that is not a
 * string of 1–64 characters or not an address or CIDR.
 */
export function reverseZones(cidr: unknown): ReverseZonesResult {
  const bounds = entryBoundsProblem(cidr, "cidr");
  if (bounds !== null) throw invalidCidr(bounds);
  const w = blockWords;
  const bits = scanPrefixWords(cidr as string, w);
  if (bits < 0) {
    const parsed = parsePrefix(cidr as string);
    throw invalidCidr(parsed.ok ? "cidr is not an address or CIDR" : parsed.message);
  }
  const family = w[4] === 4 ? 4 : 6;
  return resultWith<ReverseZonesResult>({
    cidr: formatWords(family, w[0]!, w[1]!, w[2]!, w[3]!, bits),
    zones: family === 4 ? ipv4Zones(w[3]!, bits) : ipv6Zones(w, bits),
  });
}

function invalidCidr(message: string): DomainError {
  const issue: Issue = { message, path: ["cidr"] };
  return invalidEntries([issue]);
}

/** Octet `i` (0 = the first, most significant) of an IPv4 address. */
function octet(address: number, i: number): number {
  return (address >>> (24 - 8 * i)) & 0xff;
}

/** The zones of the IPv4 block `address/bits` (host bits clear). */
function ipv4Zones(address: number, bits: number): string[] | ZoneNames {
  if (bits > 24 && bits < 32) {
    // RFC 2317: FIRST/p under the /24 that holds the block.
    return [
      `${octet(address, 3)}/${bits}.${octet(address, 2)}.${octet(address, 1)}.${octet(address, 0)}.${IPV4_SUFFIX}`,
    ];
  }
  const labels = Math.ceil(bits / 8);
  if (labels === 0) return [IPV4_SUFFIX];
  // The zones differ only in their first label (the last octet they cover): 2^(8·labels − bits) ≤ 128
  // consecutive values of that octet; the labels after it are shared.
  let shared = IPV4_SUFFIX;
  for (let i = 0; i < labels - 1; i++) shared = `${octet(address, i)}.${shared}`;
  return zoneList(octet(address, labels - 1), 2 ** (8 * labels - bits), DECIMAL, shared);
}

/** Nibble `i` (0 = the most significant) of the IPv6 address in `words[0 … 3]`. */
function nibble(words: Uint32Array, i: number): number {
  return (words[i >>> 3]! >>> (28 - 4 * (i & 7))) & 0xf;
}

/** The zones of the IPv6 block with network address `words[0 … 3]` and length `bits`. */
function ipv6Zones(words: Uint32Array, bits: number): string[] | ZoneNames {
  const labels = Math.ceil(bits / 4);
  if (labels === 0) return [IPV6_SUFFIX];
  // As for IPv4: at most 8 consecutive values of the first label, the rest shared.
  let shared = IPV6_SUFFIX;
  for (let i = 0; i < labels - 1; i++) shared = `${HEX[nibble(words, i)]}.${shared}`;
  return zoneList(nibble(words, labels - 1), 2 ** (4 * labels - bits), HEX_DIGITS, shared);
}

/** The first label of a zone by its value: an octet in decimal, a nibble in hex. */
const DECIMAL = Array.from({ length: 256 }, (_, value) => String(value));
const HEX_DIGITS = [...HEX];

/**
 * `count` consecutive zones that differ only in their first label: `labels[first + k]` then
 * `suffix` (the labels they share, with its leading dot), for k from 0. At most 128 names; made
 * into strings only when read, so that a writer of their bytes (the HTTP edge) never makes them.
 * Measured for 192.168.0.0/17 against names built at once by concatenation (docs/performance.md):
 * a whole request through the handler 23 → 18.5–19.5 µs of CPU.
 */
export class ZoneNames extends DeferredList<string> {
  constructor(
    /** The value of the first zone's first label (an octet, or a nibble). */
    readonly first: number,
    private readonly count: number,
    /** The first label's text by its value. */
    readonly labels: readonly string[],
    /** What follows every first label: `.` and the shared labels (`.100.in-addr.arpa.`). */
    readonly suffix: string,
  ) {
    super();
  }

  get length(): number {
    return this.count;
  }

  toArray(): string[] {
    const zones = new Array<string>(this.count);
    for (let k = 0; k < this.count; k++) zones[k] = `${this.labels[this.first + k]!}${this.suffix}`;
    return zones;
  }
}

/** The `count` zones `labels[first + k].shared`, in order. */
function zoneList(first: number, count: number, labels: readonly string[], shared: string): ZoneNames {
  return new ZoneNames(first, count, labels, `.${shared}`);
}
