/**
 * Name constraints against a leaf's names (RFC 5280 §4.2.1.10, as CONTRACT §8.1 evaluates them):
 * `dns` SANs against dNSName subtrees, `ip` SANs against iPAddress subtrees; other name forms, the
 * subject, and subtrees of other types are not evaluated.
 *
 * - A name satisfies a dNSName subtree when it equals it or ends with `.` + it, compared
 *   case-insensitively ("adding zero or more labels to the left-hand side"); a subtree written with
 *   a leading dot (`.example.com`) matches proper subdomains only, and an empty one every name, as
 *   OpenSSL's `nc_dns` and Go read them.
 * - An address satisfies an iPAddress subtree when it has the subtree's length (4 octets against an
 *   8-octet subtree, 16 against 32) and equals its address under its mask; an IPv4-mapped SAN is
 *   16 octets and meets IPv6 subtrees only (OpenSSL `nc_ip`).
 * - Violated: some permitted subtree of that type exists and none is satisfied, or an excluded
 *   subtree of that type is satisfied.
 */
import { type IpAddr, parseAddr } from "../ip/addr.ts";
import type { NameConstraints, NameSubtrees, SubjectAltName } from "./model.ts";

/** The address as its octets, most significant first: 4 for IPv4, 16 for IPv6. */
export function ipOctets(address: IpAddr): Uint8Array {
  const words = address.family === 4 ? [address.w3] : [address.w0, address.w1, address.w2, address.w3];
  const octets = new Uint8Array(words.length * 4);
  for (const [k, word] of words.entries()) {
    octets[k * 4] = word >>> 24;
    octets[k * 4 + 1] = (word >>> 16) & 0xff;
    octets[k * 4 + 2] = (word >>> 8) & 0xff;
    octets[k * 4 + 3] = word & 0xff;
  }
  return octets;
}

/** Whether a DNS name lies within a dNSName subtree (see the module comment). */
export function dnsWithin(name: string, base: string): boolean {
  const host = name.toLowerCase();
  const subtree = base.toLowerCase();
  if (subtree === "") return true;
  if (subtree.startsWith(".")) return host.length > subtree.length && host.endsWith(subtree);
  return host === subtree || host.endsWith(`.${subtree}`);
}

/** Whether an address (4 or 16 octets) lies within an iPAddress subtree. */
export function ipWithin(octets: Uint8Array, subtree: NameSubtrees["ip"][number]): boolean {
  if (octets.length !== subtree.address.length) return false;
  for (let k = 0; k < octets.length; k++) {
    if ((octets[k]! & subtree.mask[k]!) !== (subtree.address[k]! & subtree.mask[k]!)) return false;
  }
  return true;
}

/**
 * The first `dns` or `ip` SAN (in extension order) that violates `constraints`, or null. An `ip`
 * SAN whose value is not an address of 4 or 16 octets (`#…`) is not evaluated.
 */
export function violatingName(
  sans: readonly SubjectAltName[],
  constraints: NameConstraints,
): SubjectAltName | null {
  const { permitted, excluded } = constraints;
  for (const san of sans) {
    if (san.type === "dns") {
      const allowed = permitted.dns.length === 0 || permitted.dns.some((base) => dnsWithin(san.value, base));
      if (!allowed || excluded.dns.some((base) => dnsWithin(san.value, base))) return san;
    } else if (san.type === "ip") {
      const parsed = parseAddr(san.value);
      if (!parsed.ok) continue;
      const octets = ipOctets(parsed.value);
      const allowed = permitted.ip.length === 0 || permitted.ip.some((subtree) => ipWithin(octets, subtree));
      if (!allowed || excluded.ip.some((subtree) => ipWithin(octets, subtree))) return san;
    }
  }
  return null;
}
