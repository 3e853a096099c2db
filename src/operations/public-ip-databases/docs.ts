/**
 * The prose of `GET /v1/public-ip/databases` (CONTRACT §8.10): which MaxMind-format databases
 * enrich public-ip's answers. Its example is a real exchange, replayed by tests/docs/ against a
 * server started with the test databases of tests/fixtures/geoip/.
 */

import type { OperationDoc } from "../../adapters/http/openapi-document.ts";
import { DBIP_ATTRIBUTION } from "../../domain/network-facts.ts";

export const docs: OperationDoc = {
  summary: "The GeoIP databases behind public-ip's network facts",
  description: [
    "The operator may name two MaxMind DB files (`.mmdb`, GeoLite2 schema: DB-IP Lite, IPinfo's or MaxMind's own):",
    "`GEOIP_ASN_DB` adds `asn` and `asnOrg` to `GET /v1/public-ip`, `GEOIP_COUNTRY_DB` adds `country`; one file may be named by both.",
    "This lists the databases in use, with their metadata, one entry per configured variable (`[]` when none is).",
    "A SIGHUP reads the files again, so the answer changes without a restart: never cached.",
    "Data from DB-IP is licensed under CC BY 4.0 and credited as [IP Geolocation by DB-IP](https://db-ip.com) wherever it is shown.",
  ].join(" "),
  tag: "Diagnostics",
  resultDescription:
    "The databases in use: `GEOIP_ASN_DB` first, then `GEOIP_COUNTRY_DB`, each with its `database_type`, build date, IP version and the credit its data needs.",
  examples: {
    dbip: {
      summary: "DB-IP Lite ASN and country databases",
      status: 200,
      response: {
        databases: [
          {
            variable: "GEOIP_ASN_DB",
            databaseType: "DBIP-ASN-Lite (compat=GeoLite2-ASN)",
            buildDate: "2026-08-01T00:00:00Z",
            ipVersion: 6,
            attribution: DBIP_ATTRIBUTION,
          },
          {
            variable: "GEOIP_COUNTRY_DB",
            databaseType: "DBIP-Country-Lite",
            buildDate: "2026-08-01T00:00:00Z",
            ipVersion: 6,
            attribution: DBIP_ATTRIBUTION,
          },
        ],
      },
    },
  },
};
