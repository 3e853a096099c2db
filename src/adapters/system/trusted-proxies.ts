/**
 * The TRUSTED_PROXIES setting: networks whose forwarding headers are believed (CONTRACT §5).
 * Reuses the domain's strict CIDR parser.
 */
import type { IpAddr } from "../../domain/ip/addr.ts";
import { type IpPrefix, parsePrefix } from "../../domain/ip/prefix.ts";

export interface TrustedNetworks {
  readonly prefixes: readonly IpPrefix[];
  /** True when `address` (already unmapped) lies inside one of the networks. */
  contains(address: IpAddr): boolean;
}

/**
 * Parses a comma-separated list of CIDRs or bare addresses; an empty list trusts nobody.
 * @throws Error with the domain's message for the first invalid entry
 */
export function parseCidrList(text: string): TrustedNetworks {
  const prefixes: IpPrefix[] = [];
  for (const entry of text.split(",")) {
    if (entry.trim() === "") continue;
    const parsed = parsePrefix(entry);
    if (!parsed.ok) throw new Error(parsed.message);
    prefixes.push(parsed.value);
  }
  return {
    prefixes,
    contains: (address) => prefixes.some((prefix) => prefix.contains(address)),
  };
}
