/**
 * The process entry point: the only module that reads the environment, builds the real
 * adapters and listens. Exit codes: 0 after a graceful stop, 2 for bad configuration.
 * WORKERS > 1 makes this process a supervisor of N worker copies of itself (supervisor.ts;
 * exit 1 if they crash in a loop);
 * `healthcheck` as the first argument probes a running server instead (healthcheck.ts).
 */

import type { Server } from "bun";
import { RateLimiter } from "./adapters/http/rate-limit.ts";
import { realCertificateDeps } from "./adapters/real-deps.ts";
import { ProxyAwareClientAddressSource } from "./adapters/system/client-address.ts";
import { probeHealth } from "./adapters/system/healthcheck.ts";
import { createJsonLogger } from "./adapters/system/logger.ts";
import {
  isWorkerProcess,
  pickFreePort,
  reportReady,
  selfCommand,
  superviseWorkers,
  watchParent,
} from "./adapters/system/supervisor.ts";
import { buildApp } from "./app.ts";
import { type Config, ConfigError, loadConfig } from "./config.ts";

/** Bun's own backstop; the 64 KiB API limit is enforced by the app with a proper envelope. */
const TRANSPORT_BODY_LIMIT = 1024 * 1024;

function readConfig(badConfigExitCode = 2): Config {
  try {
    return loadConfig(process.env, navigator.hardwareConcurrency);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`network-tools-api: configuration error: ${error.message}\n`);
      process.exit(badConfigExitCode);
    }
    throw error;
  }
}

if (process.argv[2] === "healthcheck") {
  const target = readConfig(1); // Docker reserves exit code 2 for health checks
  process.exit(await probeHealth(target.host, target.port));
}

const config = readConfig();
const logger = createJsonLogger(config.logLevel, (chunk) => process.stdout.write(chunk));
const isWorker = isWorkerProcess(process.env);
if (config.workers > 1 && !isWorker) {
  process.exit(
    await superviseWorkers({
      workers: config.workers,
      host: config.host,
      port: config.port === 0 ? pickFreePort(config.host) : config.port,
      shutdownTimeoutMs: config.shutdownTimeoutMs,
      command: selfCommand(),
      env: process.env,
      logger,
      output: process.stdout,
    }),
  );
}
let server: Server<undefined> | null = null;
const clientAddress = new ProxyAwareClientAddressSource(
  (request) => server?.requestIP(request)?.address ?? null,
  config.trustedProxies,
  config.trustedProxyHeader,
);
const app = buildApp({
  logger,
  cors: config.cors,
  clientAddress,
  ...realCertificateDeps(),
  rateLimiter:
    config.rateLimitPerMinute === null ? null : new RateLimiter({ perMinute: config.rateLimitPerMinute }),
});

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.log({ level: "info", msg: `${signal} received: draining in-flight requests` });
  const forced = setTimeout(() => {
    logger.log({ level: "warn", msg: "shutdown timeout reached: closing remaining connections" });
    logger.flush();
    void server?.stop(true);
    process.exit(0);
  }, config.shutdownTimeoutMs);
  await server?.stop(false);
  clearTimeout(forced);
  logger.log({ level: "info", msg: "stopped" });
  logger.flush();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));

// Bun.serve directly (not app.listen): every request goes through `app.handle`, which writes
// the access log, and a second single-process instance on the same port fails loudly instead of
// silently sharing it (reusePort only for supervised workers).
server = Bun.serve({
  port: config.port,
  hostname: config.host,
  fetch: (request) => app.handle(request),
  maxRequestBodySize: TRANSPORT_BODY_LIMIT,
  // Closes idle keep-alive connections and bodies that stop arriving (docs/reliability.md).
  idleTimeout: config.idleTimeoutSeconds,
  reusePort: isWorker,
});
if (isWorker) {
  logger.log({ level: "info", msg: "worker listening", pid: process.pid, port: server.port });
  reportReady();
  watchParent(() => void shutdown("supervisor gone"));
} else logger.log({ level: "info", msg: "listening", host: config.host, port: server.port });
logger.flush();
