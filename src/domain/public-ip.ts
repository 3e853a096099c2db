/**
 * The public-ip use case (spec §4.5, §2.13; CONTRACT §5): report the address the client's
 * connection is observed from, as the ClientAddressSource port sees it.
 */
import { DomainError } from "./errors.ts";
import type { ClientAddressResult } from "./ports.ts";

/** Spec §2.13: one family per observation. */
export interface PublicIpResult {
  family: "ipv4" | "ipv6";
  ip: string;
}

/**
 * The public-ip result of what the ClientAddressSource port observed. IPv4-mapped peers are
 * already unmapped by the source, so a dual-stack listener reports IPv4 clients as `ipv4`.
 * @throws DomainError CLIENT_IP_UNAVAILABLE when no address could be observed
 */
export function observePublicIp(observed: ClientAddressResult): PublicIpResult {
  if (!observed.ok) {
    throw new DomainError(
      "CLIENT_IP_UNAVAILABLE",
      `The client's address could not be observed: ${observed.reason}.`,
    );
  }
  const address = observed.address;
  return { family: address.family === 4 ? "ipv4" : "ipv6", ip: address.toString() };
}
