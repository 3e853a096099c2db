/**
 * The supervisor of WORKERS=N against real processes (docs/operations.md, "Several cores on one
 * host" and "Start-up and start failures"):
 * - workers that keep dying right after their start make it give up: one `giving up` log line,
 *   the other workers stopped, exit 1 (src/main.ts: "1 when supervised workers crash in a loop").
 *   The workers are made to fail by a legitimate road the supervisor's own start checks cannot see:
 *   REFERENCE_ROOTS_FILE was usable when the supervisor (and the first workers) read it, then it is
 *   broken on disk, and a worker dies (as an OOM kill would kill it). Each replacement reads the
 *   file again, refuses it with its one configuration line and exit 2, and is restarted until the
 *   supervisor gives up. No test-only hook is needed.
 * - a busy port is one line and exit 2 however many workers, also when the port is held by another
 *   WORKERS=N server, whose workers listen with SO_REUSEPORT (a probe that set SO_REUSEPORT itself
 *   would join that group and the two services would share the port in silence).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { certPem } from "../fixtures/fixtures.ts";
import { alive, logRecords, waitFor as waitForProbe } from "./process-log.ts";
import { type RunningServer, runServerCommand, startServer } from "./server.ts";

const scratch = mkdtempSync(join(tmpdir(), "supervisor-e2e-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const TEST_TIMEOUT_MS = 60_000;
const GIVING_UP = "workers keep crashing right after start: giving up";

interface LogRecord {
  level?: string;
  msg?: string;
  pid?: number;
  exitCode?: number | null;
  signal?: string | null;
  workers?: number;
}

function records(server: RunningServer): LogRecord[] {
  return logRecords<LogRecord>(server);
}

function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  return waitForProbe(what, probe, timeoutMs);
}

describe("WORKERS=2: workers that keep dying right after start", () => {
  test(
    "the supervisor gives up: one `giving up` line, the healthy worker stopped, exit 1",
    async () => {
      const roots = join(scratch, "roots.pem");
      writeFileSync(roots, certPem("chain-root"));
      const server = await startServer({ WORKERS: "2", REFERENCE_ROOTS_FILE: roots });
      try {
        const workers = await waitFor("two ready workers", () => {
          const ready = records(server).filter((record) => record.msg === "worker ready");
          return ready.length === 2 ? ready.map((record) => record.pid as number) : undefined;
        });
        const [victim, survivor] = workers as [number, number];
        // The file breaks on disk while the service runs; then a worker dies.
        writeFileSync(roots, "not a certificate\n");
        const killedAt = performance.now();
        process.kill(victim, "SIGKILL");
        const code = await server.process.exited;
        const tookMs = performance.now() - killedAt;
        await server.outputEnded;
        const stderr = await new Response(server.process.stderr).text();

        expect(code).toBe(1);
        const logged = records(server);
        const givingUp = logged.filter((record) => record.msg === GIVING_UP);
        expect(givingUp).toEqual([{ ...givingUp[0], level: "error", msg: GIVING_UP, workers: 2 }]);
        // The victim, then four replacements that refused the file (exit 2): five failures in a row.
        const exits = logged.filter((record) => record.msg === "worker exited");
        expect(exits.map((record) => record.signal ?? record.exitCode)).toEqual(["SIGKILL", 2, 2, 2, 2]);
        expect(logged.filter((record) => record.msg === "restarting worker")).toHaveLength(4);
        // Nothing after giving up but stopping the others: no restart, and the survivor drained.
        const after = logged.slice(logged.findIndex((record) => record.msg === GIVING_UP) + 1);
        expect(after.filter((record) => record.msg === "worker started")).toEqual([]);
        expect(after.map((record) => record.msg)).toContain("stopped");
        expect(alive(survivor)).toBe(false);
        // Every line on stderr is a replacement's own one-line refusal: no stack, no source text.
        const refusal = `network-tools-api: configuration error: REFERENCE_ROOTS_FILE: ${roots} holds no certificate`;
        expect(stderr.trimEnd().split("\n")).toEqual([refusal, refusal, refusal, refusal]);
        // Backoff 100 + 200 + 400 + 800 ms plus four process starts; far less than a spin.
        expect(tookMs).toBeLessThan(20_000);
        console.log(`crash loop: gave up ${Math.round(tookMs)} ms after the first worker died`);
      } finally {
        if (server.process.exitCode === null) server.process.kill("SIGKILL");
      }
    },
    TEST_TIMEOUT_MS,
  );
});

describe("WORKERS=2 on a busy port: one line, exit 2", () => {
  test(
    "held by another WORKERS=2 server (SO_REUSEPORT listeners): refused, and the first keeps the port alone",
    async () => {
      const first = await startServer({ WORKERS: "2" });
      try {
        const second = await runServerCommand(
          [],
          { HOST: "127.0.0.1", PORT: String(first.port), WORKERS: "2" },
          15_000,
        );
        expect(second.code).toBe(2);
        expect(second.stderr.trim().split("\n")).toEqual([
          `network-tools-api: cannot listen on 127.0.0.1:${first.port}: the port is already in use (another server is running there?); choose another with PORT=…`,
        ]);
        expect(second.stdout).not.toContain("worker");
        // The first server saw nothing of it: still its two workers, still answering.
        expect(records(first).filter((record) => record.msg === "worker started")).toHaveLength(2);
        expect((await fetch(`${first.url}/v1/health`)).status).toBe(200);
      } finally {
        expect(await first.stop("SIGTERM")).toBe(0);
      }
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "held by a plain listener on every address (0.0.0.0) while HOST is 127.0.0.1",
    async () => {
      const blocker = Bun.listen({ hostname: "0.0.0.0", port: 0, socket: { data() {} } });
      try {
        const ran = await runServerCommand(
          [],
          { HOST: "127.0.0.1", PORT: String(blocker.port), WORKERS: "2" },
          15_000,
        );
        expect(ran.code).toBe(2);
        expect(ran.stderr.trim().split("\n")).toHaveLength(1);
        expect(ran.stderr).toContain(`127.0.0.1:${blocker.port}: the port is already in use`);
        expect(ran.stdout).not.toContain("worker");
      } finally {
        blocker.stop(true);
      }
    },
    TEST_TIMEOUT_MS,
  );
});
