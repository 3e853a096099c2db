/**
 * Public-ip's network facts (CONTRACT §8.10) in the domain: which fields a result gains from the
 * NetworkFacts port, when DB-IP's attribution is added, and the databases' description. Tables of
 * the named cases, and a fast-check property against an obvious model of the rules.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { IpAddr, parseAddr } from "../../src/domain/ip/addr.ts";
import { attributionOf, DBIP_ATTRIBUTION, NO_NETWORK_FACTS } from "../../src/domain/network-facts.ts";
import type { AsnFacts, ClientAddressResult, CountryFacts } from "../../src/domain/ports.ts";
import { describeAddressDatabases, observePublicIp } from "../../src/domain/public-ip.ts";
import { scriptedNetworkFacts } from "../fakes/network-facts.ts";

const DBIP_ASN = "DBIP-ASN-Lite (compat=GeoLite2-ASN)";
const GEOLITE_COUNTRY = "GeoLite2-Country";

function observed(text: string): ClientAddressResult {
  const parsed = parseAddr(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return { ok: true, address: parsed.value };
}

describe("attributionOf: DB-IP's credit when database_type contains dbip, in any case", () => {
  test.each([
    [DBIP_ASN, DBIP_ATTRIBUTION],
    ["DBIP-Country-Lite", DBIP_ATTRIBUTION],
    ["dbip-city-lite", DBIP_ATTRIBUTION],
    ["My-DbIp-Mirror", DBIP_ATTRIBUTION],
    [GEOLITE_COUNTRY, null],
    ["GeoLite2-ASN", null],
    ["ipinfo lite.mmdb", null],
    ["DB-IP-Country", null], // "db-ip" is not "dbip"
    ["", null],
  ] as const)("%p → %p", (databaseType, expected) => {
    expect(attributionOf(databaseType)).toBe(expected);
  });

  test("the credit is exactly the text DB-IP's licence asks for", () => {
    expect(DBIP_ATTRIBUTION).toBe("IP Geolocation by DB-IP (https://db-ip.com)");
  });
});

describe("observePublicIp with network facts", () => {
  test("without facts (GET /v1/ip) and without databases the result keeps the spec's shape", () => {
    for (const facts of [undefined, NO_NETWORK_FACTS]) {
      const result = observePublicIp(observed("198.51.100.7"), facts);
      expect(JSON.stringify(result)).toBe('{"family":"ipv4","ip":"198.51.100.7"}');
    }
  });

  test("the databases are asked about the reported address, once each", () => {
    const facts = scriptedNetworkFacts();
    observePublicIp(observed("2001:DB8:A::9"), facts);
    expect(facts.asked).toEqual(["asn 2001:db8:a::9", "country 2001:db8:a::9"]);
  });

  test("no address observed is still CLIENT_IP_UNAVAILABLE, and nothing is looked up", () => {
    const facts = scriptedNetworkFacts({ asn: { asn: 64500, databaseType: DBIP_ASN } });
    expect(() => observePublicIp({ ok: false, reason: "no socket" }, facts)).toThrow(
      "The client's address could not be observed: no socket.",
    );
    expect(facts.asked).toEqual([]);
  });

  const cases: [string, AsnFacts | null, CountryFacts | null, string][] = [
    [
      "everything from DB-IP",
      { asn: 64500, asnOrg: "Example Transit B.V.", databaseType: DBIP_ASN },
      { country: "NL", databaseType: "DBIP-Country-Lite" },
      `{"family":"ipv4","ip":"198.51.100.7","asn":64500,"asnOrg":"Example Transit B.V.","country":"NL","attribution":"${DBIP_ATTRIBUTION}"}`,
    ],
    ["nothing known: no field, no credit, no null", null, null, '{"family":"ipv4","ip":"198.51.100.7"}'],
    [
      "records that lack every field: no credit either",
      { databaseType: DBIP_ASN },
      { databaseType: "DBIP-Country-Lite" },
      '{"family":"ipv4","ip":"198.51.100.7"}',
    ],
    [
      "an ASN without its organization",
      { asn: 64502, databaseType: DBIP_ASN },
      { databaseType: "DBIP-Country-Lite" },
      `{"family":"ipv4","ip":"198.51.100.7","asn":64502,"attribution":"${DBIP_ATTRIBUTION}"}`,
    ],
    [
      "a country from GeoLite2 only: no credit",
      null,
      { country: "BE", databaseType: GEOLITE_COUNTRY },
      '{"family":"ipv4","ip":"198.51.100.7","country":"BE"}',
    ],
    [
      "ASN from DB-IP, country from GeoLite2: credit for the ASN",
      { asn: 64500, asnOrg: "Example Transit B.V.", databaseType: DBIP_ASN },
      { country: "BE", databaseType: GEOLITE_COUNTRY },
      `{"family":"ipv4","ip":"198.51.100.7","asn":64500,"asnOrg":"Example Transit B.V.","country":"BE","attribution":"${DBIP_ATTRIBUTION}"}`,
    ],
    [
      "a DB-IP ASN record with no field, a GeoLite2 country: no credit",
      { databaseType: DBIP_ASN },
      { country: "BE", databaseType: GEOLITE_COUNTRY },
      '{"family":"ipv4","ip":"198.51.100.7","country":"BE"}',
    ],
  ];
  test.each(cases)("%s", (_name, asn, country, json) => {
    expect(
      JSON.stringify(observePublicIp(observed("198.51.100.7"), scriptedNetworkFacts({ asn, country }))),
    ).toBe(json);
  });
});

describe("property: fields and credit follow the rules, in the contract's order", () => {
  const databaseType = fc.oneof(
    fc.constantFrom(DBIP_ASN, "DBIP-Country-Lite", GEOLITE_COUNTRY, "GeoLite2-ASN", "ipinfo"),
    fc.string({ maxLength: 12 }).map((text) => `${text}dBiP${text}`),
    fc.string({ maxLength: 12 }),
  );
  const asnRecord = fc.option(
    fc.record(
      { asn: fc.integer({ min: 0, max: 0xffff_ffff }), asnOrg: fc.string({ minLength: 1 }), databaseType },
      { requiredKeys: ["databaseType"] },
    ),
  );
  const countryRecord = fc.option(
    fc.record(
      { country: fc.string({ minLength: 2, maxLength: 2 }), databaseType },
      { requiredKeys: ["databaseType"] },
    ),
  );
  const word = fc.integer({ min: 0, max: 0xffff_ffff });
  const address = fc.oneof(
    word.map((value) => IpAddr.v4(value)),
    fc.tuple(word, word, word, word).map(([a, b, c, d]) => IpAddr.v6(a, b, c, d)),
  );

  /** The rules written out plainly: each field when its record has it; credit when DB-IP gave one. */
  function model(ip: IpAddr, asn: AsnFacts | null, country: CountryFacts | null): string {
    const parts = [`"family":"${ip.family === 4 ? "ipv4" : "ipv6"}"`, `"ip":"${ip}"`];
    const fromDbip = (type: string) => type.toLowerCase().includes("dbip");
    let credit = false;
    if (asn?.asn !== undefined) parts.push(`"asn":${asn.asn}`);
    if (asn?.asnOrg !== undefined) parts.push(`"asnOrg":${JSON.stringify(asn.asnOrg)}`);
    if (asn && (asn.asn !== undefined || asn.asnOrg !== undefined) && fromDbip(asn.databaseType))
      credit = true;
    if (country?.country !== undefined) {
      parts.push(`"country":${JSON.stringify(country.country)}`);
      if (fromDbip(country.databaseType)) credit = true;
    }
    if (credit) parts.push(`"attribution":"IP Geolocation by DB-IP (https://db-ip.com)"`);
    return `{${parts.join(",")}}`;
  }

  test("JSON equals the model's, byte for byte", () => {
    fc.assert(
      fc.property(address, asnRecord, countryRecord, (ip, asn, country) => {
        const result = observePublicIp({ ok: true, address: ip }, scriptedNetworkFacts({ asn, country }));
        expect(JSON.stringify(result)).toBe(model(ip, asn, country));
        expect(Object.values(result)).not.toContain(null);
      }),
      { numRuns: 500 },
    );
  });
});

describe("describeAddressDatabases", () => {
  test("one entry per database, in the port's order, build date in RFC 3339 to the second", () => {
    const facts = scriptedNetworkFacts({
      databases: [
        {
          variable: "GEOIP_ASN_DB",
          databaseType: DBIP_ASN,
          builtAt: new Date("2026-08-01T00:00:00Z"),
          ipVersion: 6,
        },
        {
          variable: "GEOIP_COUNTRY_DB",
          databaseType: GEOLITE_COUNTRY,
          builtAt: new Date("2026-08-02T12:34:56.789Z"),
          ipVersion: 4,
        },
      ],
    });
    expect(describeAddressDatabases(facts)).toEqual({
      databases: [
        {
          variable: "GEOIP_ASN_DB",
          databaseType: DBIP_ASN,
          buildDate: "2026-08-01T00:00:00Z",
          ipVersion: 6,
          attribution: DBIP_ATTRIBUTION,
        },
        {
          variable: "GEOIP_COUNTRY_DB",
          databaseType: GEOLITE_COUNTRY,
          buildDate: "2026-08-02T12:34:56Z",
          ipVersion: 4,
          attribution: null,
        },
      ],
    });
  });

  test("no database: an empty list", () => {
    expect(describeAddressDatabases(NO_NETWORK_FACTS)).toEqual({ databases: [] });
  });
});
