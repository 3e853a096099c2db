/**
 * Public-ip's network facts over HTTP (CONTRACT §8.10), through `buildApp(fakes).handle`: the
 * client address is the real trusted-proxy walk over a fake socket peer, the databases are the
 * real adapter on the test files of tests/fixtures/geoip/. The fields belong to the address
 * CONTRACT §5 reports (behind trusted proxies, the forwarded client), for IPv4 and IPv6; an
 * address in no database keeps the spec's exact shape; the text forms and /v1/ip are unchanged.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { MaxMindNetworkFacts } from "../../src/adapters/geoip/maxmind-databases.ts";
import { ProxyAwareClientAddressSource } from "../../src/adapters/system/client-address.ts";
import { parseCidrList } from "../../src/adapters/system/trusted-proxies.ts";
import { DBIP_CREDIT, DBIP_FILES, DBIP_IPV4_CLIENT, DBIP_IPV6_CLIENT } from "../fixtures/geoip/expected.ts";
import { call, jsonOf, testApp } from "./helpers.ts";

const FIXTURES = join(import.meta.dir, "../fixtures/geoip");
const ATTRIBUTION = DBIP_CREDIT;

const dbip = await MaxMindNetworkFacts.open(DBIP_FILES);
/** A proxy at 10.0.0.1, trusted: the client is the last untrusted X-Forwarded-For hop. */
const behindProxy = new ProxyAwareClientAddressSource(() => "10.0.0.1", parseCidrList("10.0.0.0/8"));
const { app } = testApp({ clientAddress: behindProxy, networkFacts: dbip });

const publicIp = (forwardedFor: string, headers: Record<string, string> = {}) =>
  call(app, "GET", "/v1/public-ip", { headers: { "x-forwarded-for": forwardedFor, ...headers } });

describe("GET /v1/public-ip behind a trusted proxy, with DB-IP databases", () => {
  test("IPv4 client: asn, asnOrg, country and DB-IP's credit, in that order", async () => {
    const response = await publicIp("203.0.113.99, 198.51.100.23");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.text()).toBe(JSON.stringify(DBIP_IPV4_CLIENT));
  });

  test("IPv6 client (UTF-8 organization name)", async () => {
    expect(await jsonOf(await publicIp("2001:db8:a::9"))).toEqual(DBIP_IPV6_CLIENT);
  });

  test("the facts are the forwarded client's, not a trusted hop's", async () => {
    // 10.1.2.3 is trusted, so the walk goes on to 2001:db8:a::1.
    expect(await jsonOf(await publicIp("2001:db8:a::1, 10.1.2.3"))).toMatchObject({
      ip: "2001:db8:a::1",
      asn: 64501,
    });
  });

  test("a record without organization or country: only what it has", async () => {
    expect(await jsonOf(await publicIp("192.0.2.200"))).toEqual({
      family: "ipv4",
      ip: "192.0.2.200",
      asn: 64502,
      attribution: ATTRIBUTION,
    });
  });

  test("an address in no database: the spec's exact shape, no field, no null", async () => {
    for (const [client, family] of [
      ["203.0.113.7", "ipv4"],
      ["2001:db8::7", "ipv6"],
    ] as const) {
      expect(await (await publicIp(client)).text()).toBe(`{"family":"${family}","ip":"${client}"}`);
    }
  });

  test("the text forms are the address alone", async () => {
    const text = await publicIp("198.51.100.23", { accept: "text/plain" });
    expect(await text.text()).toBe("198.51.100.23\n");
    const ip = await call(app, "GET", "/v1/ip", { headers: { "x-forwarded-for": "198.51.100.23" } });
    expect(await ip.text()).toBe("198.51.100.23\n");
  });

  test("an untrusted peer's X-Forwarded-For is ignored: the peer's own facts (none)", async () => {
    const direct = testApp({
      clientAddress: new ProxyAwareClientAddressSource(() => "203.0.113.7", parseCidrList("10.0.0.0/8")),
      networkFacts: dbip,
    }).app;
    const response = await call(direct, "GET", "/v1/public-ip", {
      headers: { "x-forwarded-for": "198.51.100.23" },
    });
    expect(await jsonOf(response)).toEqual({ family: "ipv4", ip: "203.0.113.7" });
  });
});

describe("mixed publishers", () => {
  test("DB-IP ASN with a GeoLite2 IPv4-only country database", async () => {
    const facts = await MaxMindNetworkFacts.open({
      asn: join(FIXTURES, "dbip-asn.mmdb"),
      country: join(FIXTURES, "geolite2-country-ipv4.mmdb"),
    });
    const mixed = testApp({ clientAddress: behindProxy, networkFacts: facts }).app;
    const get = async (client: string) =>
      jsonOf(await call(mixed, "GET", "/v1/public-ip", { headers: { "x-forwarded-for": client } }));
    // The credit follows the ASN, which came from DB-IP.
    expect(await get("198.51.100.23")).toEqual({
      family: "ipv4",
      ip: "198.51.100.23",
      asn: 64500,
      asnOrg: "Example Transit B.V.",
      country: "BE",
      attribution: ATTRIBUTION,
    });
    // Only GeoLite2 knows it: no credit.
    expect(await get("203.0.113.200")).toEqual({ family: "ipv4", ip: "203.0.113.200", country: "LU" });
    // An IPv6 client: the IPv4-only country database answers nothing.
    expect(await get("2001:db8:a::9")).toEqual({
      family: "ipv6",
      ip: "2001:db8:a::9",
      asn: 64501,
      asnOrg: "Réseau d'Exemple SAS",
      attribution: ATTRIBUTION,
    });
  });
});

describe("GET /v1/public-ip/databases", () => {
  test("the databases in use, never cached", async () => {
    const response = await call(app, "GET", "/v1/public-ip/databases");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await jsonOf(response)).toEqual({
      databases: [
        {
          variable: "GEOIP_ASN_DB",
          databaseType: "DBIP-ASN-Lite (compat=GeoLite2-ASN)",
          buildDate: "2026-08-01T00:00:00Z",
          ipVersion: 6,
          attribution: ATTRIBUTION,
        },
        {
          variable: "GEOIP_COUNTRY_DB",
          databaseType: "DBIP-Country-Lite",
          buildDate: "2026-08-01T00:00:00Z",
          ipVersion: 6,
          attribution: ATTRIBUTION,
        },
      ],
    });
  });

  test("HEAD answers with no body; POST is 405", async () => {
    const head = await call(app, "HEAD", "/v1/public-ip/databases");
    expect(head.status).toBe(200);
    expect(head.headers.get("cache-control")).toBe("no-store");
    expect(await head.text()).toBe("");
    const post = await call(app, "POST", "/v1/public-ip/databases", { json: {} });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });

  test("no database configured: an empty list, and public-ip unchanged", async () => {
    const plain = testApp({ clientAddress: behindProxy }).app;
    expect(await jsonOf(await call(plain, "GET", "/v1/public-ip/databases"))).toEqual({ databases: [] });
    const response = await call(plain, "GET", "/v1/public-ip", {
      headers: { "x-forwarded-for": "198.51.100.23" },
    });
    expect(await response.text()).toBe('{"family":"ipv4","ip":"198.51.100.23"}');
  });

  test("a GeoLite2 database carries no credit", async () => {
    const facts = await MaxMindNetworkFacts.open({
      asn: null,
      country: join(FIXTURES, "geolite2-country-ipv4.mmdb"),
    });
    const geolite = testApp({ clientAddress: behindProxy, networkFacts: facts }).app;
    expect(await jsonOf(await call(geolite, "GET", "/v1/public-ip/databases"))).toEqual({
      databases: [
        {
          variable: "GEOIP_COUNTRY_DB",
          databaseType: "GeoLite2-Country",
          buildDate: "2026-08-02T00:00:00Z",
          ipVersion: 4,
          attribution: null,
        },
      ],
    });
  });
});
