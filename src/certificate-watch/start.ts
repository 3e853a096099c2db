/**
 * Starting the certificate watch for src/server.ts (CONTRACT §10.1): the start-up check of
 * CERT_WATCH (a missing entry or more than 1,000 files stops the start: one line, exit 2), then a
 * watcher judging with the real certificate adapters, its first pass under way, a pass again on
 * every SIGHUP. Called only where the series are to be exported: the supervisor (WORKERS > 1) or
 * the one serving process, never a worker, so no series is counted twice.
 */
import { realCertificateDeps } from "../adapters/real-deps.ts";
import type { CertWatchConfig } from "../config.ts";
import type { Logger } from "../process/logger.ts";
import { localChainJudge } from "./local-chain-judge.ts";
import { listWatchedFiles, startProblem } from "./watched-files.ts";
import { CertificateWatcher } from "./watcher.ts";

/** The watcher, or the one line that stops the start. */
export async function startCertificateWatch(
  config: CertWatchConfig,
  logger: Logger,
): Promise<CertificateWatcher | { problem: string }> {
  const problem = startProblem(await listWatchedFiles(config.paths));
  if (problem !== null) return { problem };
  const deps = realCertificateDeps();
  const watcher = new CertificateWatcher({
    paths: config.paths,
    intervalSeconds: config.intervalSeconds,
    judge: localChainJudge(deps),
    decoder: deps.decoder,
    log: (record) => logger.log(record),
  });
  watcher.start();
  process.on("SIGHUP", () => {
    logger.log({ level: "info", msg: "SIGHUP received: certificate files read again" });
    void watcher.runPass();
  });
  logger.log({
    level: "info",
    msg: `certificate watch started: ${config.paths.length} CERT_WATCH entries, read every ${config.intervalSeconds} s and on SIGHUP`,
  });
  return watcher;
}
