/**
 * GeoIP for a fleet on the real process (CONTRACT §11): the build time of each database in
 * Prometheus, and a file replaced under the running server (a rename, as geoipupdate does) served
 * within GEOIP_RELOAD_INTERVAL_SECONDS, without a signal and without a failed request; a corrupt
 * one keeps the old data.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "./server.ts";

const FIXTURES = join(import.meta.dir, "../fixtures/geoip");
const dir = mkdtempSync(join(tmpdir(), "geoip-fleet-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("GEOIP_RELOAD_INTERVAL_SECONDS and the build-time gauge", () => {
  test("a renamed-in file is served within one interval, with no failed request; a corrupt one keeps the data; the gauge follows", async () => {
    const live = join(dir, "asn.mmdb");
    const replaceWith = (name: string) => {
      copyFileSync(join(FIXTURES, name), `${live}.new`);
      renameSync(`${live}.new`, live);
    };
    replaceWith("dbip-asn.mmdb");
    const server = await startServer({
      GEOIP_ASN_DB: live,
      GEOIP_COUNTRY_DB: join(FIXTURES, "dbip-country.mmdb"),
      GEOIP_RELOAD_INTERVAL_SECONDS: "10",
      METRICS_PORT: "0",
      TRUSTED_PROXIES: "127.0.0.1/32",
    });
    try {
      const metricsPort = server.lines
        .map((line) => JSON.parse(line) as { msg?: string; port?: number })
        .find((record) => record.msg === "metrics listening")?.port;
      const gauge = async () =>
        /network_tools_geoip_build_timestamp_seconds\{variable="GEOIP_ASN_DB"\} (\d+)/.exec(
          await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text(),
        )?.[1];
      expect(await gauge()).toBe("1785542400");
      const asn = async () => {
        const response = await fetch(`${server.url}/v1/public-ip`, {
          headers: { "x-forwarded-for": "198.51.100.7" },
        });
        expect(response.status).toBe(200);
        return ((await response.json()) as { asn?: number }).asn;
      };
      expect(await asn()).toBe(64500);
      replaceWith("dbip-asn-next.mmdb");
      const start = performance.now();
      let seen = await asn();
      while (seen === 64500 && performance.now() - start < 12_000) {
        await Bun.sleep(100);
        seen = await asn();
      }
      expect(seen).toBe(64510);
      expect(performance.now() - start).toBeLessThan(11_000);
      expect(Number(await gauge())).toBeGreaterThan(1_785_542_400);
      replaceWith("truncated.mmdb");
      await Bun.sleep(11_000);
      expect(await asn()).toBe(64510);
      expect(
        server.lines.some((line) => line.includes('"level":"error"') && line.includes("GeoIP reload")),
      ).toBe(true);
    } finally {
      await server.stop();
    }
  }, 60_000);
});
