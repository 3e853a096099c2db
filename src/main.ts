/**
 * The server's entry point: reads its configuration from the environment once (src/config.ts
 * validates every variable) and starts src/server.ts, which looks at two variables itself: the
 * supervisor's worker marker, and npm's `npm_command` (started by npm, it stops when npm is gone).
 * (The CLI reads its own — NETTOOLS_SERVER, NETTOOLS_ROOTS, NO_COLOR, FORCE_COLOR — through its
 * `Io`, and `nettools serve` goes through the same src/config.ts.) Exit codes: 0 after a
 * graceful stop, 2 for bad configuration or a server that cannot start (busy port), 1 when
 * supervised workers crash in a loop. `healthcheck` as the first argument probes a running
 * server instead (healthcheck.ts). Serving itself is src/server.ts.
 */

import { type Config, ConfigError, loadConfig } from "./config.ts";
import { usableCpuCount } from "./process/cpus.ts";
import { probeHealth } from "./process/healthcheck.ts";
import { runServer } from "./server.ts";

function readConfig(badConfigExitCode = 2): Config {
  try {
    return loadConfig(process.env, usableCpuCount(navigator.hardwareConcurrency));
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

const outcome = await runServer(readConfig(), { isTerminal: process.stdout.isTTY === true });
if (outcome !== "running") process.exit(outcome);
