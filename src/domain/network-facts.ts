/**
 * Facts about public addresses from the operator's MaxMind-format databases (CONTRACT §8.10): the
 * credit their data needs, and the NetworkFacts of a service without databases. Kept apart from
 * the public-ip use case so the wire contract (and the page's bundle) can name the credit alone.
 */
import type { NetworkFacts } from "./ports.ts";

/**
 * The credit DB-IP's CC BY 4.0 licence asks for wherever its data is shown (CONTRACT §8.10),
 * exactly as the wire carries it.
 */
export const DBIP_ATTRIBUTION = "IP Geolocation by DB-IP (https://db-ip.com)";

/**
 * The credit a database's data needs: DB-IP's when its metadata `database_type` contains `dbip`
 * in any case (`DBIP-ASN-Lite (compat=GeoLite2-ASN)`, `DBIP-Country-Lite`), else none.
 */
export function attributionOf(databaseType: string): typeof DBIP_ATTRIBUTION | null {
  return /dbip/i.test(databaseType) ? DBIP_ATTRIBUTION : null;
}

/** The NetworkFacts of a service with no database configured (and of every local CLI run). */
export const NO_NETWORK_FACTS: NetworkFacts = {
  asnOf: () => null,
  countryOf: () => null,
  databases: () => [],
};
