/**
 * The public-ip use case (spec §4.5, §2.13; CONTRACT §5): report the address the client's
 * connection is observed from, as the ClientAddressSource port sees it, with what the operator's
 * MaxMind-format databases know of it (the NetworkFacts port; CONTRACT §8.10).
 */
import { rfc3339 } from "./certificates/findings.ts";
import { DomainError } from "./errors.ts";
import { attributionOf, DBIP_ATTRIBUTION } from "./network-facts.ts";
import type { AddressDatabaseVariable, ClientAddressResult, NetworkFacts } from "./ports.ts";

/**
 * Spec §2.13: one family per observation. The network facts (CONTRACT §8.10) are present only
 * when a database knows them; never null.
 */
export interface PublicIpResult {
  family: "ipv4" | "ipv6";
  ip: string;
  /** `autonomous_system_number` of the ASN database's record. */
  asn?: number;
  /** `autonomous_system_organization` of that record. */
  asnOrg?: string;
  /** `country.iso_code` of the country database's record, as stored. */
  country?: string;
  /** DB-IP's credit, when one of the fields above came from a DB-IP database. */
  attribution?: typeof DBIP_ATTRIBUTION;
}

/** `GET /v1/public-ip/databases` (CONTRACT §8.10). */
export interface PublicIpDatabasesResult {
  databases: {
    variable: AddressDatabaseVariable;
    databaseType: string;
    /** `build_epoch` as RFC 3339 UTC to the second. */
    buildDate: string;
    ipVersion: 4 | 6;
    attribution: typeof DBIP_ATTRIBUTION | null;
  }[];
}

/**
 * The public-ip result of what the ClientAddressSource port observed. IPv4-mapped peers are
 * already unmapped by the source, so a dual-stack listener reports IPv4 clients as `ipv4`.
 *
 * With `facts`, the result gains `asn`, `asnOrg` and `country` for the reported address (the one
 * CONTRACT §5 chose, behind trusted proxies too) where the databases hold them, and DB-IP's
 * attribution when any of those came from a DB-IP database; without them it keeps the spec's
 * exact shape. `GET /v1/ip` passes no facts: its text is the address alone.
 * @throws DomainError CLIENT_IP_UNAVAILABLE when no address could be observed
 */
export function observePublicIp(observed: ClientAddressResult, facts?: NetworkFacts): PublicIpResult {
  if (!observed.ok) {
    throw new DomainError(
      "CLIENT_IP_UNAVAILABLE",
      `The client's address could not be observed: ${observed.reason}.`,
    );
  }
  const address = observed.address;
  const result: PublicIpResult = { family: address.family === 4 ? "ipv4" : "ipv6", ip: address.toString() };
  if (facts === undefined) return result;
  let credited = false;
  const asn = facts.asnOf(address);
  if (asn !== null) {
    if (asn.asn !== undefined) result.asn = asn.asn;
    if (asn.asnOrg !== undefined) result.asnOrg = asn.asnOrg;
    credited =
      (asn.asn !== undefined || asn.asnOrg !== undefined) && attributionOf(asn.databaseType) !== null;
  }
  const country = facts.countryOf(address);
  if (country?.country !== undefined) {
    result.country = country.country;
    credited ||= attributionOf(country.databaseType) !== null;
  }
  if (credited) result.attribution = DBIP_ATTRIBUTION;
  return result;
}

/**
 * The databases in use (CONTRACT §8.10): one entry per configured variable, ASN first; `[]` when
 * none is configured. `buildDate` is `build_epoch` in RFC 3339 UTC to the second.
 */
export function describeAddressDatabases(facts: NetworkFacts): PublicIpDatabasesResult {
  return {
    databases: facts.databases().map((database) => ({
      variable: database.variable,
      databaseType: database.databaseType,
      buildDate: rfc3339(database.builtAt),
      ipVersion: database.ipVersion,
      attribution: attributionOf(database.databaseType),
    })),
  };
}
