/**
 * The access log of the application (CONTRACT §6): one line per request with its route (or the
 * unmatched path), and, only with LOG_CLIENT_ADDRESS, the address CONTRACT §5 observes.
 */
import { describe, expect, test } from "bun:test";
import { ProxyAwareClientAddressSource } from "../../src/adapters/system/client-address.ts";
import { parseCidrList } from "../../src/adapters/system/trusted-proxies.ts";
import { fixedClientAddress } from "../fakes/client-address.ts";
import { BASE, testApp } from "./helpers.ts";

/** A client-address source as the server builds it, with `peer` as every socket's address. */
function behindProxies(peer: string | null, trusted: string) {
  return new ProxyAwareClientAddressSource(() => peer, parseCidrList(trusted), "x-forwarded-for");
}

describe("LOG_CLIENT_ADDRESS", () => {
  test("off (the default): no line carries an address", async () => {
    const { app, logger } = testApp({ clientAddress: fixedClientAddress("203.0.113.7") });
    await app.handle(new Request(`${BASE}/v1/health`));
    await app.handle(new Request(`${BASE}/v1/nope`));
    expect(logger.records.length).toBe(2);
    for (const record of logger.records) expect(Object.hasOwn(record, "clientAddress")).toBe(false);
  });

  test("on: every line carries the observed address, by the trusted proxies' rules", async () => {
    const { app, logger } = testApp({
      clientAddress: behindProxies("10.0.0.2", "10.0.0.0/8"),
      logClientAddress: true,
    });
    const forwarded = { "x-forwarded-for": "198.51.100.9, 2001:DB8::0:1, 10.0.0.3" };
    await app.handle(new Request(`${BASE}/v1/health`, { headers: forwarded }));
    await app.handle(new Request(`${BASE}/v1/nope`, { headers: forwarded }));
    await app.handle(
      new Request(`${BASE}/v1/cidr-cover`, {
        method: "POST",
        headers: { ...forwarded, "content-type": "application/json" },
        body: '{"inputs":["10.0.0.1"]}',
      }),
    );
    expect(logger.records.map((record) => [record.route ?? record.path, record.clientAddress])).toEqual([
      ["/v1/health", "2001:db8::1"],
      ["/v1/nope", "2001:db8::1"],
      ["/v1/cidr-cover", "2001:db8::1"],
    ]);
  });

  test("on: an IPv4-mapped peer is written as IPv4; no observable address is null", async () => {
    const mapped = testApp({ clientAddress: behindProxies("::ffff:192.0.2.1", ""), logClientAddress: true });
    await mapped.app.handle(new Request(`${BASE}/v1/health`));
    expect(mapped.logger.records[0]?.clientAddress).toBe("192.0.2.1");
    const none = testApp({ clientAddress: behindProxies(null, ""), logClientAddress: true });
    await none.app.handle(new Request(`${BASE}/v1/health`));
    expect(none.logger.records[0]).toMatchObject({ route: "/v1/health", status: 200, clientAddress: null });
  });
});
