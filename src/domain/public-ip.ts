/**
 * The public-ip use case (spec §4.5, §2.13; CONTRACT §5): report the address the client's
 * connection is observed from, as the ClientAddressSource port sees it.
 */
import { DomainError } from "./errors.ts";
import type { ClientAddressSource } from "./ports.ts";

/** Spec §2.13: one family per observation. */
export interface PublicIpResult {
  family: "ipv4" | "ipv6";
  ip: string;
}

/**
 * Observes the client's address for `request`. IPv4-mapped peers are already unmapped by the
 * source, so a dual-stack listener reports IPv4 clients as `ipv4`.
 * @throws DomainError CLIENT_IP_UNAVAILABLE when no address can be observed
 */
export function observePublicIp(source: ClientAddressSource, request: Request): PublicIpResult {
  const observed = source.clientAddress(request);
  if (!observed.ok) {
    throw new DomainError(
      "CLIENT_IP_UNAVAILABLE",
      `The client's address could not be observed: ${observed.reason}.`,
    );
  }
  const address = observed.address;
  return { family: address.family === 4 ? "ipv4" : "ipv6", ip: address.toString() };
}
