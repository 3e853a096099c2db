/**
 * Environment → validated configuration (CONTRACT §6). Every variable has an embedded
 * default, so the service starts with no configuration at all. A bad value is reported
 * with a clear message and the process exits with code 2 (see main.ts).
 */

import type { GeoipFiles } from "./adapters/geoip/maxmind-databases.ts";
import { storeUrlProblem } from "./adapters/http/rate-limit.ts";
import type { CorsPolicy } from "./adapters/http/responder.ts";
import type { ForwardingHeader } from "./adapters/system/client-address.ts";
import { parseCidrList, type TrustedNetworks } from "./adapters/system/trusted-proxies.ts";
import { isLogLevel, type LogLevel } from "./process/logger.ts";

export interface Config {
  port: number;
  host: string;
  trustedProxies: TrustedNetworks;
  /** The forwarding header the trusted proxies maintain; only that one is read. */
  trustedProxyHeader: ForwardingHeader;
  cors: CorsPolicy;
  logLevel: LogLevel;
  /**
   * Every access-log line carries `clientAddress` (LOG_CLIENT_ADDRESS, off by default: an address
   * is personal data; CONTRACT §6).
   */
  logClientAddress: boolean;
  shutdownTimeoutMs: number;
  /**
   * After SIGTERM, how long to keep serving normally (with `Connection: close`) before the drain
   * starts: the window in which a load balancer stops sending (CONTRACT §6).
   */
  shutdownDelayMs: number;
  /** Worker processes sharing the port; `auto` resolves to the CPU count. */
  workers: number;
  /** Requests per minute per client address; null means no limit (the default). */
  rateLimitPerMinute: number | null;
  /**
   * Seconds a connection may sit idle (keep-alive between requests, or a body that stops
   * arriving) before the server closes it; Bun.serve's `idleTimeout` (1–255).
   */
  idleTimeoutSeconds: number;
  /** The metrics listener's port (`GET /metrics`); null when METRICS_PORT is unset or empty (off). */
  metricsPort: number | null;
  /**
   * The MaxMind DB files GEOIP_ASN_DB and GEOIP_COUNTRY_DB name (null when unset or empty). They
   * are opened by src/server.ts at start: a missing, unreadable or corrupt file stops the start
   * like a bad value here (one line, exit 2).
   */
  geoip: GeoipFiles;
  /**
   * RATE_LIMIT_STORE: the Redis URL in which the rate limit is counted for every worker and
   * replica (CONTRACT §11); null counts per process.
   */
  rateLimitStore: string | null;
  /** GEOIP_RELOAD_INTERVAL_SECONDS: how often the GeoIP files are checked for a change; null never. */
  geoipReloadIntervalSeconds: number | null;
  /**
   * REFERENCE_ROOTS_FILE: a trust-store file that replaces the built-in reference root store
   * (CONTRACT §9.2), null when unset or empty. Read by src/server.ts at start: a missing,
   * unreadable or certificate-less file stops the start (one line naming the variable, exit 2).
   */
  referenceRootsFile: string | null;
  /**
   * The certificate files and directories CERT_WATCH names (CONTRACT §10.1), and how often they
   * are judged again (CERT_WATCH_INTERVAL_SECONDS); null when CERT_WATCH is unset or empty. The
   * paths are checked by src/server.ts at start (a missing one stops it, exit 2).
   */
  certWatch: CertWatchConfig | null;
}

/** CERT_WATCH and CERT_WATCH_INTERVAL_SECONDS, validated. */
export interface CertWatchConfig {
  /** The entries of the comma-separated list, trimmed, in order, empty ones dropped. */
  paths: string[];
  intervalSeconds: number;
}

/** A configuration value that cannot be used: the message names the variable and the rule. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const text = raw.trim();
  if (!/^(0|[1-9][0-9]*)$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new ConfigError(
      `${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(raw)}.`,
    );
  }
  return Number(text);
}

function parseCors(raw: string | undefined): CorsPolicy {
  if (raw === undefined) return { kind: "any" };
  const entries = raw
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  if (entries.length === 0) return { kind: "off" };
  if (entries.includes("*")) {
    if (entries.length > 1) throw new ConfigError('CORS_ORIGINS may be "*" or a list of origins, not both.');
    return { kind: "any" };
  }
  for (const origin of entries) {
    if (
      !/^https?:\/\/[A-Za-z0-9.-]+(:[0-9]{1,5})?$|^https?:\/\/\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?$/.test(origin)
    ) {
      throw new ConfigError(
        `CORS_ORIGINS entries must be origins like https://example.com (scheme, host, optional port), not ${JSON.stringify(origin)}.`,
      );
    }
  }
  return { kind: "list", origins: new Set(entries) };
}

/**
 * Reads and validates the configuration.
 * @throws ConfigError naming the first bad variable
 */
export function loadConfig(env: Env, cpuCount: number): Config {
  const host = (env.HOST ?? "0.0.0.0").trim();
  if (host === "" || /[\s/]/.test(host))
    throw new ConfigError(`HOST must be an address or host name, not ${JSON.stringify(env.HOST)}.`);

  const logLevel = (env.LOG_LEVEL ?? "info").trim().toLowerCase();
  if (!isLogLevel(logLevel)) {
    throw new ConfigError(
      `LOG_LEVEL must be one of debug, info, warn, error, not ${JSON.stringify(env.LOG_LEVEL)}.`,
    );
  }

  const logClientRaw = (env.LOG_CLIENT_ADDRESS ?? "").trim().toLowerCase();
  if (!["", "true", "false"].includes(logClientRaw)) {
    throw new ConfigError(
      `LOG_CLIENT_ADDRESS must be true or false, not ${JSON.stringify(env.LOG_CLIENT_ADDRESS)}.`,
    );
  }

  const workersRaw = (env.WORKERS ?? "1").trim().toLowerCase();
  const workers =
    workersRaw === "auto" ? Math.max(1, cpuCount) : integer({ WORKERS: workersRaw }, "WORKERS", 1, 1, 64);

  let trustedProxies: TrustedNetworks;
  try {
    trustedProxies = parseCidrList(env.TRUSTED_PROXIES ?? "");
  } catch (error) {
    throw new ConfigError(
      `TRUSTED_PROXIES must be a comma-separated list of IP addresses or CIDRs: ${(error as Error).message}`,
    );
  }

  const headerRaw = (env.TRUSTED_PROXY_HEADER ?? "x-forwarded-for").trim().toLowerCase();
  if (headerRaw !== "x-forwarded-for" && headerRaw !== "forwarded") {
    throw new ConfigError(
      `TRUSTED_PROXY_HEADER must be x-forwarded-for or forwarded, not ${JSON.stringify(env.TRUSTED_PROXY_HEADER)}.`,
    );
  }

  const rateRaw = env.RATE_LIMIT_PER_MINUTE;
  const rateLimitPerMinute =
    rateRaw === undefined || rateRaw.trim() === ""
      ? null
      : integer(env, "RATE_LIMIT_PER_MINUTE", 0, 1, 1_000_000);

  const storeRaw = env.RATE_LIMIT_STORE?.trim() ?? "";
  const storeProblem = storeRaw === "" ? null : storeUrlProblem(storeRaw);
  // The value may hold a password: it is never repeated in the message.
  if (storeProblem !== null)
    throw new ConfigError(`RATE_LIMIT_STORE must be a redis:// or rediss:// URL: ${storeProblem}.`);
  const reloadRaw = env.GEOIP_RELOAD_INTERVAL_SECONDS;
  const geoipReloadIntervalSeconds =
    reloadRaw === undefined || reloadRaw.trim() === ""
      ? null
      : integer(env, "GEOIP_RELOAD_INTERVAL_SECONDS", 0, 10, 86_400);

  const port = integer(env, "PORT", 3000, 0, 65_535);
  const metricsRaw = env.METRICS_PORT;
  const metricsPort =
    metricsRaw === undefined || metricsRaw.trim() === "" ? null : integer(env, "METRICS_PORT", 0, 0, 65_535);
  if (metricsPort !== null && metricsPort !== 0 && metricsPort === port)
    throw new ConfigError(
      `METRICS_PORT must differ from PORT (${port}): the metrics never share the API's listener.`,
    );

  const certWatch = parseCertWatch(env);
  if (certWatch !== null && metricsPort === null)
    throw new ConfigError(
      "CERT_WATCH needs METRICS_PORT: the watched certificates are exposed on the metrics listener (set METRICS_PORT, e.g. 9464).",
    );

  return {
    port,
    host,
    trustedProxies,
    trustedProxyHeader: headerRaw,
    cors: parseCors(env.CORS_ORIGINS),
    logLevel,
    logClientAddress: logClientRaw === "true",
    shutdownTimeoutMs: integer(env, "SHUTDOWN_TIMEOUT_MS", 10_000, 0, 600_000),
    shutdownDelayMs: integer(env, "SHUTDOWN_DELAY_MS", 0, 0, 600_000),
    workers,
    rateLimitPerMinute,
    idleTimeoutSeconds: integer(env, "IDLE_TIMEOUT_SECONDS", 10, 1, 255),
    metricsPort,
    geoip: { asn: filePath(env.GEOIP_ASN_DB), country: filePath(env.GEOIP_COUNTRY_DB) },
    certWatch,
    referenceRootsFile: filePath(env.REFERENCE_ROOTS_FILE),
    rateLimitStore: storeRaw === "" ? null : storeRaw,
    geoipReloadIntervalSeconds,
  };
}

/** CERT_WATCH (off when unset, empty or only commas) and its interval (5–86400 s, default 60). */
function parseCertWatch(env: Env): CertWatchConfig | null {
  const intervalSeconds = integer(env, "CERT_WATCH_INTERVAL_SECONDS", 60, 5, 86_400);
  const paths = (env.CERT_WATCH ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  return paths.length === 0 ? null : { paths, intervalSeconds };
}

/** A variable naming a file: null when unset or blank; otherwise the path exactly as given. */
function filePath(raw: string | undefined): string | null {
  return raw === undefined || raw.trim() === "" ? null : raw;
}
