import { command, help, options } from "../command.ts";
import { UsageError } from "../io.ts";

const HELP = help`Usage: nettools serve [--port N] [--host ADDRESS]

Runs the HTTP API, its documentation (/docs) and its web page (/) — the same server as
"npm start". Every variable of the server's configuration applies (PORT, HOST,
TRUSTED_PROXIES, CORS_ORIGINS, LOG_LEVEL, SHUTDOWN_TIMEOUT_MS, WORKERS, …); --port and
--host override PORT and HOST.

Options:
${options(20, {
  "--port N": "TCP port (default: $PORT or 3000)",
  "--host ADDRESS": "listen address (default: $HOST or 0.0.0.0)",
  "-h, --help": "show this help",
})}

Exit codes: 0 stopped cleanly (SIGTERM, SIGINT); 2 a bad configuration value, or the port is
already in use (one line on stderr, also with WORKERS=N).`;

/** Starts the server in this process (src/server.ts); resolves only if it fails to start. */
export const serve = command("serve", HELP, async ({ values, positionals }, io) => {
  // serve takes no arguments: refused as usageErrorOf (io.ts) words parseArgs' own refusal.
  if (positionals[0] !== undefined) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  // The server is built on Bun.serve; the npm package of nettools runs on plain Node.
  if (typeof Bun === "undefined")
    throw new UsageError(
      "nettools serve needs Bun: run the compiled dist/nettools, the container image, or `npm start` in the repository",
    );
  if (values.port !== undefined) process.env.PORT = values.port;
  if (values.host !== undefined) process.env.HOST = values.host;
  // Loaded only here: the other commands never pull in the HTTP server.
  const [{ loadConfig, ConfigError }, { runServer }, { usableCpuCount }] = await Promise.all([
    import("../../config.ts"),
    import("../../server.ts"),
    import("../../process/cpus.ts"),
  ]);
  let config: Awaited<ReturnType<typeof loadConfig>>;
  try {
    config = loadConfig(process.env, usableCpuCount(navigator.hardwareConcurrency));
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
  return runServer(config, { isTerminal: io.stdoutIsTty });
});
