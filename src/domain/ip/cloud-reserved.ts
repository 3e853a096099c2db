/**
 * The addresses a cloud provider keeps for itself in every IPv4 subnet (CONTRACT §8.9), for
 * `nettools info --cloud` and `nettools split --cloud`: "how many usable addresses does AWS leave
 * me in a /28?" (11, not 14). Each provider's rule and subnet-size bounds, from its documentation:
 *
 * - AWS: EC2 API Reference, `CreateSubnet`
 *   (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_CreateSubnet.html): "reserves both
 *   the first four and the last IPv4 address in each subnet's CIDR block"; an IPv4 subnet is /16
 *   to /28. The roles (+1 VPC router, +2 DNS, +3 future use) are those of the VPC User Guide,
 *   "Subnet CIDR blocks" (https://docs.aws.amazon.com/vpc/latest/userguide/subnet-sizing.html).
 * - Azure: Azure Virtual Network FAQ, "Are there any restrictions on using IP addresses within
 *   these subnets?" (https://learn.microsoft.com/en-us/azure/virtual-network/virtual-networks-faq):
 *   the first four (network, default gateway, two mapped to Azure DNS) and the last; the smallest
 *   subnet is a /29.
 * - Google Cloud: VPC "Subnets", unusable addresses in IPv4 subnet ranges
 *   (https://cloud.google.com/vpc/docs/subnets): network, default gateway, the second-to-last
 *   (reserved for potential future use) and the broadcast address; the smallest range is a /29.
 * - OCI: Networking Overview
 *   (https://docs.oracle.com/en-us/iaas/Content/Network/Concepts/overview.htm): "reserves the first
 *   two IP addresses and the last one in each subnet's CIDR"; the smallest subnet is a /30.
 *
 * IPv4 only: none of the four reserves addresses this way in IPv6 subnets.
 */
import type { ParseResult } from "./addr.ts";
import { IpAddr } from "./addr.ts";
import { type IpPrefix, parsePrefix } from "./prefix.ts";

/** The providers known, as `--cloud` names them. */
export const CLOUD_PROVIDERS = ["aws", "azure", "gcp", "oci"] as const;
export type CloudProvider = (typeof CLOUD_PROVIDERS)[number];

/** Why an address is kept: the network address, the router (default gateway), DNS, future use, broadcast. */
export type ReservedRole = "network" | "router" | "dns" | "future" | "broadcast";

/** One provider's rule. */
interface ProviderRule {
  /** The provider's name in messages. */
  readonly name: string;
  /** Roles of the first addresses kept, from the network address (+0) up. */
  readonly head: readonly ReservedRole[];
  /** Roles of the last addresses kept, in address order, ending with the last address. */
  readonly tail: readonly ReservedRole[];
  /** The smallest subnet the provider allows, as a prefix length. */
  readonly longest: number;
  /** The largest subnet it allows, as a prefix length (0 when it sets no such bound). */
  readonly shortest: number;
  /** Where the rule is documented. */
  readonly source: string;
}

const RULES: Readonly<Record<CloudProvider, ProviderRule>> = {
  aws: {
    name: "AWS",
    head: ["network", "router", "dns", "future"],
    tail: ["broadcast"],
    longest: 28,
    shortest: 16,
    source: "EC2 CreateSubnet",
  },
  azure: {
    name: "Azure",
    head: ["network", "router", "dns", "dns"],
    tail: ["broadcast"],
    longest: 29,
    shortest: 0,
    source: "Azure Virtual Network FAQ",
  },
  gcp: {
    name: "Google Cloud",
    head: ["network", "router"],
    tail: ["future", "broadcast"],
    longest: 29,
    shortest: 0,
    source: "Google Cloud VPC subnets",
  },
  oci: {
    name: "OCI",
    head: ["network", "router"],
    tail: ["broadcast"],
    longest: 30,
    shortest: 0,
    source: "OCI Networking Overview",
  },
};

/** True for a provider name `--cloud` accepts. */
export function isCloudProvider(name: string): name is CloudProvider {
  return (CLOUD_PROVIDERS as readonly string[]).includes(name);
}

/** The addresses a provider keeps in one subnet and what is left, as `info --cloud --json` prints it. */
export interface CloudReservation {
  provider: CloudProvider;
  /** The addresses kept, in address order. */
  reserved: { address: string; role: ReservedRole }[];
  /** Addresses left for resources, decimal. */
  usableAddressCount: string;
  firstUsable: string;
  lastUsable: string;
}

/**
 * Why `prefix` cannot be a subnet of `provider`, naming the provider's bound; or null. IPv6 is
 * refused: the reservations are IPv4 rules.
 */
export function cloudSubnetProblem(provider: CloudProvider, prefix: IpPrefix): string | null {
  const rule = RULES[provider];
  const bounds = rule.shortest > 0 ? `/${rule.shortest} to /${rule.longest}` : `/${rule.longest} or shorter`;
  if (prefix.family !== 4) {
    return `${prefix} is IPv6; --cloud ${provider} describes the addresses ${rule.name} reserves in IPv4 subnets only`;
  }
  if (prefix.bits > rule.longest) {
    return `${prefix} is smaller than /${rule.longest}, the smallest subnet ${rule.name} allows (${rule.source}: ${bounds})`;
  }
  if (prefix.bits < rule.shortest) {
    return `${prefix} is larger than /${rule.shortest}, the largest subnet ${rule.name} allows (${rule.source}: ${bounds})`;
  }
  return null;
}

/** Usable addresses of every subnet of length `bits` (within the provider's bounds): size − reserved. */
export function usablePerSubnet(provider: CloudProvider, bits: number): number {
  const rule = RULES[provider];
  return 2 ** (32 - bits) - rule.head.length - rule.tail.length;
}

/**
 * The first and last usable address of `prefix` (an IPv4 subnet within the provider's bounds, see
 * {@link cloudSubnetProblem}): after the reserved head, before the reserved tail.
 */
export function usableRange(provider: CloudProvider, prefix: IpPrefix): { first: IpAddr; last: IpAddr } {
  const rule = RULES[provider];
  const start = prefix.first.w3;
  const end = prefix.last.w3;
  return { first: IpAddr.v4(start + rule.head.length), last: IpAddr.v4(end - rule.tail.length) };
}

/** What `provider` keeps in `prefix` (as {@link usableRange} requires) and what is left. */
export function cloudReservation(provider: CloudProvider, prefix: IpPrefix): CloudReservation {
  const rule = RULES[provider];
  const start = prefix.first.w3;
  const end = prefix.last.w3;
  const reserved = [
    ...rule.head.map((role, i) => ({ address: IpAddr.v4(start + i).toString(), role })),
    ...rule.tail.map((role, i) => ({
      address: IpAddr.v4(end - (rule.tail.length - 1) + i).toString(),
      role,
    })),
  ];
  const usable = usableRange(provider, prefix);
  return {
    provider,
    reserved,
    usableAddressCount: String(usablePerSubnet(provider, prefix.bits)),
    firstUsable: usable.first.toString(),
    lastUsable: usable.last.toString(),
  };
}

/**
 * {@link cloudReservation} of a text (an address or CIDR, CONTRACT §2): the failure message says
 * why the text is not a block, or why the block is not a subnet of `provider`.
 */
export function cloudReservationOf(provider: CloudProvider, text: string): ParseResult<CloudReservation> {
  const parsed = parsePrefix(text);
  if (!parsed.ok) return parsed;
  const problem = cloudSubnetProblem(provider, parsed.value);
  if (problem !== null) return { ok: false, message: problem };
  return { ok: true, value: cloudReservation(provider, parsed.value) };
}

/**
 * A plan's subnets as `nettools subnets --cloud` prints them and the page shows them (CONTRACT
 * §8.9): one `CIDR<TAB>USABLE<TAB>FIRST<TAB>LAST` line per subnet, in the given order — the
 * addresses `provider` leaves usable in it and the first and last of them, as `split --cloud`
 * writes its lines. Each subnet is sized on its own (a Terraform plan mixes lengths). The failure
 * names the first subnet that is not a subnet of `provider` (IPv6, or outside its sizes).
 */
export function cloudPlanText(provider: CloudProvider, cidrs: readonly string[]): ParseResult<string> {
  let text = "";
  for (const cidr of cidrs) {
    const reservation = cloudReservationOf(provider, cidr);
    if (!reservation.ok) return reservation;
    const { usableAddressCount, firstUsable, lastUsable } = reservation.value;
    text += `${cidr}\t${usableAddressCount}\t${firstUsable}\t${lastUsable}\n`;
  }
  return { ok: true, value: text };
}

/**
 * The subnets of one split as `nettools split --cloud` prints them (CONTRACT §8.9): the lines of
 * {@link cloudPlanText}, made for subnets of one length (up to a million of them), so the length is
 * judged once, from the first subnet, and each line needs only its usable range. `usablePerSubnet`
 * is the usable count of every subnet, `lines()` writes the lines (not needed for JSON); the
 * failure says why the length is not a subnet of `provider` (IPv6, or outside its sizes).
 */
export function cloudSplitText(
  provider: CloudProvider,
  split: { cidrs: readonly string[]; prefixLength: number },
): ParseResult<{ usablePerSubnet: string; lines(): string }> {
  const first = split.cidrs[0];
  const parsed = first === undefined ? null : parsePrefix(first);
  if (parsed === null || !parsed.ok)
    throw new Error(`cidr-split answered a subnet that is not a CIDR: ${first}`);
  const problem = cloudSubnetProblem(provider, parsed.value);
  if (problem !== null) return { ok: false, message: problem };
  const usable = String(usablePerSubnet(provider, split.prefixLength));
  const lines = () => {
    let text = "";
    for (const cidr of split.cidrs) {
      const subnet = parsePrefix(cidr);
      if (!subnet.ok) throw new Error(`cidr-split answered a subnet that is not a CIDR: ${cidr}`);
      const range = usableRange(provider, subnet.value);
      text += `${cidr}\t${usable}\t${range.first}\t${range.last}\n`;
    }
    return text;
  };
  return { ok: true, value: { usablePerSubnet: usable, lines } };
}
