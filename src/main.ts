/**
 * The process entry point: the only module that reads the environment, builds the real
 * adapters and listens. Exit codes: 0 after a graceful stop, 2 for bad configuration.
 */
import { PkijsCertificateDecoder } from "./adapters/crypto/decoder.ts";
import { WebCryptoSignatureVerifier } from "./adapters/crypto/verifier.ts";
import { ProxyAwareClientAddressSource } from "./adapters/system/client-address.ts";
import { systemClock } from "./adapters/system/clock.ts";
import { createJsonLogger } from "./adapters/system/logger.ts";
import { buildApp } from "./app.ts";
import { type Config, ConfigError, loadConfig } from "./config.ts";

/** Bun's own backstop; the 64 KiB API limit is enforced by the app with a proper envelope. */
const TRANSPORT_BODY_LIMIT = 1024 * 1024;

function readConfig(): Config {
  try {
    return loadConfig(process.env, navigator.hardwareConcurrency);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`network-tools-api: configuration error: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}

const config = readConfig();
const logger = createJsonLogger(config.logLevel, (chunk) => process.stdout.write(chunk));
const clientAddress = new ProxyAwareClientAddressSource(
  (request) => app.server?.requestIP(request)?.address ?? null,
  config.trustedProxies,
  config.trustedProxyHeader,
);
const app = buildApp({
  logger,
  cors: config.cors,
  clientAddress,
  clock: systemClock,
  decoder: new PkijsCertificateDecoder(),
  verifier: new WebCryptoSignatureVerifier(),
});

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.log({ level: "info", msg: `${signal} received: draining in-flight requests` });
  const forced = setTimeout(() => {
    logger.log({ level: "warn", msg: "shutdown timeout reached: closing remaining connections" });
    logger.flush();
    void app.server?.stop(true);
    process.exit(0);
  }, config.shutdownTimeoutMs);
  await app.server?.stop(false);
  clearTimeout(forced);
  logger.log({ level: "info", msg: "stopped" });
  logger.flush();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));

app.listen({ port: config.port, hostname: config.host, maxRequestBodySize: TRANSPORT_BODY_LIMIT });
const server = app.server;
if (server === null) throw new Error("the HTTP server did not start");
logger.log({ level: "info", msg: "listening", host: config.host, port: server.port });
logger.flush();
