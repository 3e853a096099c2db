/**
 * The words of `nettools info` (src/cli/info.ts) for an address or block's facts
 * (src/domain/ip/facts.ts), shared with the web page's subnet calculator so both say the same
 * thing; and the span of a block in the CIDR tables of the list commands. Pure functions: no Bun
 * or Node APIs, so the page bundles it.
 */
import { type AddressFacts, type AddressType, addressFacts } from "../domain/ip/facts.ts";

/** `Private-Use, RFC 1918 (10.0.0.0/8)`: a special-purpose type, or the family's fallback. */
export function describeAddressType(type: AddressType): string {
  const where = type.prefix === null ? "" : ` (${type.prefix})`;
  return `${type.name}, ${type.rfc}${where}`;
}

function reachable(value: boolean | null): string {
  return value === null ? "n/a (depends on the address)" : value ? "yes" : "no";
}

/** The facts as label and value rows, in `info`'s order; rows that do not apply to the family are left out. */
export function addressFactRows(facts: AddressFacts): [string, string][] {
  const mixed = facts.contains.length > 0;
  const rows: [string, string | null][] = [
    ["address", facts.address],
    ["cidr", facts.cidr],
    ["netmask", `${facts.netmask} = /${facts.prefixLength}`],
    ["wildcard", facts.wildcard],
    ["network", facts.network],
    ["broadcast", facts.family === "ipv4" ? (facts.broadcast ?? "none (/31 and /32 have none)") : null],
    ["last address", facts.lastAddress],
    ["first usable", facts.firstUsable],
    ["last usable", facts.lastUsable],
    ["usable hosts", facts.usableHosts],
    ["addresses", facts.addressCount],
    ["/64 subnets", facts.subnets64],
    ["type", describeAddressType(facts.type) + (mixed ? "; partly the blocks listed below" : "")],
    ["globally reachable", mixed ? "partly (see the blocks below)" : reachable(facts.type.globallyReachable)],
    [
      "embedded IPv4",
      facts.embeddedIpv4 === null
        ? null
        : `${facts.embeddedIpv4.address}: ${describeAddressType(facts.embeddedIpv4.type)}`,
    ],
  ];
  return rows.filter((row): row is [string, string] => row[1] !== null);
}

/**
 * A row of the CLI's CIDR tables: the block, its first and last address and its address count
 * (the domain's facts); the block alone when it is not one.
 */
export function cidrSpanRow(cidr: string): [string, string, string, string] {
  const facts = addressFacts(cidr);
  if (!facts.ok) return [cidr, "", "", ""];
  return [cidr, facts.value.network, facts.value.lastAddress, facts.value.addressCount];
}
