/**
 * A slow transcription of Terraform's `cidrsubnets` on `bigint`, written for the tests from reading
 * (never copying) its two sources:
 * - hashicorp/terraform `internal/lang/funcs/cidr.go`, `CidrSubnetsFunc`: `PreviousSubnet` of the
 *   prefix at the first argument's length (its rollover flag ignored), then one `NextSubnet` per
 *   argument; a rollover, or a next block whose first address is outside the prefix, is the error
 *   "not enough remaining address space for a subnet with a prefix of L bits after CURRENT";
 * - apparentlymart/go-cidr `cidr/cidr.go`: `PreviousSubnet` masks the address before the network's
 *   (wrapping below zero, `Dec`) to the new length; `NextSubnet` takes the last address of the given
 *   block, masks it to the new length, takes that block's last address and adds one (wrapping above
 *   the top, `Inc`), reporting a rollover when the result is zero.
 *
 * Go's wrap-arounds are kept, so this model shows Terraform's own answer for a prefix at
 * `0.0.0.0` or `::`. It shares nothing with src/domain/cidr/terraform-subnets.ts.
 */
import { type Family, formatCidr, maxValue, width } from "./model.ts";

/** A `net.IPNet`: its address (masked) and prefix length. */
interface Net {
  ip: bigint;
  len: number;
}

export type TerraformAnswer =
  | { ok: true; cidrs: string[] }
  | { ok: false; argument: number; length: number; after: string };

function mask(family: Family, len: number): bigint {
  const bits = BigInt(width(family));
  return (((1n << BigInt(len)) - 1n) << (bits - BigInt(len))) & maxValue(family);
}

function lastOf(family: Family, net: Net): bigint {
  return net.ip | (~mask(family, net.len) & maxValue(family));
}

/** go-cidr `PreviousSubnet`: the block of `len` holding the address before `net` (wrapping). */
function previousSubnet(family: Family, net: Net, len: number): Net {
  const previous = (net.ip - 1n) & maxValue(family); // Dec
  return { ip: previous & mask(family, len), len };
}

/** go-cidr `NextSubnet`: the block of `len` after the one of `len` holding `net`'s last address. */
function nextSubnet(family: Family, net: Net, len: number): { next: Net; rollover: boolean } {
  const currentLast = lastOf(family, net);
  const current: Net = { ip: currentLast & mask(family, len), len };
  const after = (lastOf(family, current) + 1n) & maxValue(family); // Inc
  return { next: { ip: after & mask(family, len), len }, rollover: after === 0n };
}

/** Terraform's `cidrsubnets(prefix, newbits...)` for a valid request (every newbits in range). */
export function terraformCidrSubnets(
  family: Family,
  value: bigint,
  prefixLength: number,
  newbits: readonly number[],
): TerraformAnswer {
  const network: Net = { ip: value & mask(family, prefixLength), len: prefixLength };
  if (newbits.length === 0) return { ok: true, cidrs: [] };
  let current = previousSubnet(family, network, prefixLength + newbits[0]!);
  const cidrs: string[] = [];
  for (let i = 0; i < newbits.length; i++) {
    const length = prefixLength + newbits[i]!;
    const { next, rollover } = nextSubnet(family, current, length);
    const inside = (next.ip & mask(family, prefixLength)) === network.ip;
    if (rollover || !inside) {
      return { ok: false, argument: i + 1, length, after: formatCidr(family, current.ip, current.len) };
    }
    current = next;
    cidrs.push(formatCidr(family, current.ip, current.len));
  }
  return { ok: true, cidrs };
}
