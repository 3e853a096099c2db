/**
 * CONTRACT §6 and §1.3: the embedded defaults, and how each variable is read.
 * (Bad values stopping the process with exit code 2 are tested end to end in tests/e2e.)
 */

import { describe, expect, test } from "bun:test";
import { ConfigError, loadConfig } from "../src/config.ts";
import { parseAddr } from "../src/domain/ip/addr.ts";
import { cgroupCpuQuota, usableCpuCount } from "../src/process/cpus.ts";

function address(text: string) {
  const parsed = parseAddr(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

describe("configuration", () => {
  test("an empty environment gives the contract's defaults", () => {
    const config = loadConfig({}, 8);
    expect(config).toMatchObject({
      port: 3000,
      host: "0.0.0.0",
      cors: { kind: "any" },
      logLevel: "info",
      logClientAddress: false,
      shutdownTimeoutMs: 10_000,
      shutdownDelayMs: 0,
      workers: 1,
      rateLimitPerMinute: null,
      trustedProxyHeader: "x-forwarded-for",
      metricsPort: null,
      geoip: { asn: null, country: null },
      referenceRootsFile: null,
    });
    expect(config.trustedProxies.prefixes).toEqual([]);
  });

  test("REFERENCE_ROOTS_FILE: the built-in store when unset or blank, the path exactly as given otherwise", () => {
    expect(loadConfig({ REFERENCE_ROOTS_FILE: "  " }, 1).referenceRootsFile).toBeNull();
    expect(loadConfig({ REFERENCE_ROOTS_FILE: "/etc/roots dir/ca.pem" }, 1).referenceRootsFile).toBe(
      "/etc/roots dir/ca.pem",
    );
  });

  test("GEOIP_ASN_DB, GEOIP_COUNTRY_DB: off when unset or blank, the path exactly as given otherwise", () => {
    expect(loadConfig({ GEOIP_ASN_DB: "", GEOIP_COUNTRY_DB: "  " }, 1).geoip).toEqual({
      asn: null,
      country: null,
    });
    expect(
      loadConfig(
        { GEOIP_ASN_DB: "/var/lib/GeoIP/dbip-asn-lite.mmdb", GEOIP_COUNTRY_DB: "./country db.mmdb" },
        1,
      ).geoip,
    ).toEqual({ asn: "/var/lib/GeoIP/dbip-asn-lite.mmdb", country: "./country db.mmdb" });
    // One file for both is allowed; the files themselves are checked when the server starts.
    expect(loadConfig({ GEOIP_ASN_DB: "/x.mmdb", GEOIP_COUNTRY_DB: "/x.mmdb" }, 1).geoip).toEqual({
      asn: "/x.mmdb",
      country: "/x.mmdb",
    });
  });

  test("RATE_LIMIT_STORE: off when unset or blank; a redis:// or rediss:// URL; anything else is refused without repeating it", () => {
    expect(loadConfig({}, 1).rateLimitStore).toBeNull();
    expect(loadConfig({ RATE_LIMIT_STORE: " " }, 1).rateLimitStore).toBeNull();
    for (const url of [
      "redis://127.0.0.1:6379",
      "rediss://user:pass@cache.example:6380/2",
      "redis://redis/0",
    ])
      expect(loadConfig({ RATE_LIMIT_STORE: url }, 1).rateLimitStore).toBe(url);
    for (const url of [
      "http://a:6379",
      "redis://",
      "127.0.0.1:6379",
      "redis://a:6379/x",
      "redis://:hunter2@a/db",
    ]) {
      let error: unknown;
      try {
        loadConfig({ RATE_LIMIT_STORE: url }, 1);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toStartWith("RATE_LIMIT_STORE must be");
      expect((error as Error).message).not.toContain("hunter2");
    }
  });

  test("GEOIP_RELOAD_INTERVAL_SECONDS: off when unset, 10 to 86400 otherwise", () => {
    expect(loadConfig({}, 1).geoipReloadIntervalSeconds).toBeNull();
    expect(loadConfig({ GEOIP_RELOAD_INTERVAL_SECONDS: "10" }, 1).geoipReloadIntervalSeconds).toBe(10);
    expect(loadConfig({ GEOIP_RELOAD_INTERVAL_SECONDS: "86400" }, 1).geoipReloadIntervalSeconds).toBe(86_400);
    for (const bad of ["9", "86401", "0", "1h", "-5"])
      expect(() => loadConfig({ GEOIP_RELOAD_INTERVAL_SECONDS: bad }, 1)).toThrow(ConfigError);
  });

  test("METRICS_PORT: off when unset or empty, a port otherwise, never the API's port", () => {
    expect(loadConfig({ METRICS_PORT: "" }, 1).metricsPort).toBeNull();
    expect(loadConfig({ METRICS_PORT: " 9464 " }, 1).metricsPort).toBe(9464);
    expect(loadConfig({ METRICS_PORT: "0", PORT: "0" }, 1).metricsPort).toBe(0);
    expect(() => loadConfig({ METRICS_PORT: "3000" }, 1)).toThrow(
      /METRICS_PORT must differ from PORT \(3000\)/,
    );
    expect(() => loadConfig({ METRICS_PORT: "65536" }, 1)).toThrow(/METRICS_PORT must be a whole number/);
    expect(() => loadConfig({ METRICS_PORT: "metrics" }, 1)).toThrow(/METRICS_PORT/);
  });

  test("CORS_ORIGINS: '*' is any origin, a list is those origins, empty turns CORS off", () => {
    expect(loadConfig({ CORS_ORIGINS: "*" }, 1).cors).toEqual({ kind: "any" });
    expect(loadConfig({ CORS_ORIGINS: "" }, 1).cors).toEqual({ kind: "off" });
    expect(loadConfig({ CORS_ORIGINS: "https://a.example, http://b.example:8080" }, 1).cors).toEqual({
      kind: "list",
      origins: new Set(["https://a.example", "http://b.example:8080"]),
    });
    expect(() => loadConfig({ CORS_ORIGINS: "*, https://a.example" }, 1)).toThrow(ConfigError);
  });

  test("WORKERS=auto is the CPU count; numbers are read strictly", () => {
    expect(loadConfig({ WORKERS: "auto" }, 6).workers).toBe(6);
    expect(loadConfig({ WORKERS: "3" }, 6).workers).toBe(3);
    expect(() => loadConfig({ WORKERS: "03" }, 6)).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: "3000.5" }, 6)).toThrow(ConfigError);
  });

  test("TRUSTED_PROXIES is a list of CIDRs and bare addresses, read with the domain's parser", () => {
    const trusted = loadConfig({ TRUSTED_PROXIES: "10.0.0.0/8, 2001:db8::1" }, 1).trustedProxies;
    expect(trusted.prefixes.map(String)).toEqual(["10.0.0.0/8", "2001:db8::1/128"]);
    expect(trusted.contains(address("10.200.0.1"))).toBe(true);
    expect(trusted.contains(address("11.0.0.1"))).toBe(false);
    expect(() => loadConfig({ TRUSTED_PROXIES: "010.0.0.0/8" }, 1)).toThrow(ConfigError);
  });

  test("LOG_CLIENT_ADDRESS is true or false, off when unset or empty", () => {
    expect(loadConfig({ LOG_CLIENT_ADDRESS: "true" }, 1).logClientAddress).toBe(true);
    expect(loadConfig({ LOG_CLIENT_ADDRESS: " TRUE " }, 1).logClientAddress).toBe(true);
    expect(loadConfig({ LOG_CLIENT_ADDRESS: "false" }, 1).logClientAddress).toBe(false);
    expect(loadConfig({ LOG_CLIENT_ADDRESS: "" }, 1).logClientAddress).toBe(false);
    for (const bad of ["yes", "1", "on"])
      expect(() => loadConfig({ LOG_CLIENT_ADDRESS: bad }, 1)).toThrow(
        "LOG_CLIENT_ADDRESS must be true or false",
      );
  });

  test("LOG_LEVEL and TRUSTED_PROXY_HEADER accept only their values", () => {
    expect(loadConfig({ LOG_LEVEL: "WARN" }, 1).logLevel).toBe("warn");
    expect(loadConfig({ TRUSTED_PROXY_HEADER: "Forwarded" }, 1).trustedProxyHeader).toBe("forwarded");
    expect(() => loadConfig({ TRUSTED_PROXY_HEADER: "x-real-ip" }, 1)).toThrow(ConfigError);
  });
});

describe("WORKERS=auto counts the CPUs the process can really use", () => {
  const files = (entries: Record<string, string>) => (path: string) => entries[path] ?? null;
  test.each([
    ["cgroup v2 with a 1-CPU limit", { "/sys/fs/cgroup/cpu.max": "100000 100000\n" }, 1],
    ["cgroup v2 with 1.5 CPUs (rounded up)", { "/sys/fs/cgroup/cpu.max": "150000 100000" }, 1.5],
    ["cgroup v2 without a limit", { "/sys/fs/cgroup/cpu.max": "max 100000" }, null],
    [
      "cgroup v1 with 2 CPUs",
      { "/sys/fs/cgroup/cpu/cpu.cfs_quota_us": "200000", "/sys/fs/cgroup/cpu/cpu.cfs_period_us": "100000" },
      2,
    ],
    [
      "cgroup v1 without a limit",
      { "/sys/fs/cgroup/cpu/cpu.cfs_quota_us": "-1", "/sys/fs/cgroup/cpu/cpu.cfs_period_us": "100000" },
      null,
    ],
    ["no cgroup files", {}, null],
  ])("%s", (_name, entries, quota) => {
    expect(cgroupCpuQuota(files(entries))).toBe(quota);
  });

  test("the quota caps the affinity count, rounded up, never below 1", () => {
    expect(usableCpuCount(32, 1)).toBe(1);
    expect(usableCpuCount(32, 1.5)).toBe(2);
    expect(usableCpuCount(2, 8)).toBe(2);
    expect(usableCpuCount(4, null)).toBe(4);
    expect(usableCpuCount(4, 0.25)).toBe(1);
    expect(loadConfig({ WORKERS: "auto" }, usableCpuCount(16, 2)).workers).toBe(2);
  });
});
