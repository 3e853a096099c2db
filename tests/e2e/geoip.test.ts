/**
 * GeoIP enrichment against the real process (CONTRACT §8.10), with the test databases of
 * tests/fixtures/geoip/: the fields under TRUSTED_PROXIES for IPv4 and IPv6 and none for an
 * address the databases do not hold; a file that cannot be used stops the start with exit code 2
 * and one line (a supervisor's too); SIGHUP swaps a replaced file while a client keeps asking, with
 * no failed request; a file that is corrupt at the reload keeps the old data, logs one error line,
 * and the service serves on; with WORKERS=2 the supervisor passes SIGHUP on to both workers.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DBIP_FILES, DBIP_IPV4_CLIENT, DBIP_IPV6_CLIENT } from "../fixtures/geoip/expected.ts";
import { type RunningServer, runServerCommand, startServer } from "./server.ts";

const FIXTURES = join(import.meta.dir, "../fixtures/geoip");
const fixture = (name: string) => join(FIXTURES, name);
const TEST_TIMEOUT_MS = 60_000;

const scratch = mkdtempSync(join(tmpdir(), "geoip-e2e-"));
const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => (server.process.exitCode === null ? server.stop() : undefined)));
  rmSync(scratch, { recursive: true, force: true });
});

async function serve(env: Record<string, string>): Promise<RunningServer> {
  const server = await startServer({ TRUSTED_PROXIES: "127.0.0.1/32", ...env });
  servers.push(server);
  return server;
}

/** GET /v1/public-ip as the client `forwardedFor` behind the trusted proxy (this test, on 127.0.0.1). */
async function publicIp(server: RunningServer, forwardedFor: string): Promise<Response> {
  return fetch(`${server.url}/v1/public-ip`, { headers: { "x-forwarded-for": forwardedFor } });
}

/** Replaces `path` with a copy of `source` in one rename, as geoipupdate does. */
function replace(path: string, source: string): void {
  copyFileSync(source, `${path}.new`);
  renameSync(`${path}.new`, path);
}

const messages = (server: RunningServer): { level?: string; msg?: string }[] =>
  server.lines.flatMap((line) => {
    try {
      return [JSON.parse(line) as { level?: string; msg?: string }];
    } catch {
      return [];
    }
  });

async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  ms = 10_000,
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
}

describe("the fields under TRUSTED_PROXIES", () => {
  test(
    "IPv4 and IPv6 clients get asn, asnOrg, country and the credit; others keep the spec's shape",
    async () => {
      const server = await serve({
        GEOIP_ASN_DB: DBIP_FILES.asn,
        GEOIP_COUNTRY_DB: DBIP_FILES.country,
      });
      expect(await (await publicIp(server, "198.51.100.23")).json()).toEqual(DBIP_IPV4_CLIENT);
      expect(await (await publicIp(server, "2001:db8:a::9")).json()).toEqual(DBIP_IPV6_CLIENT);
      expect(await (await publicIp(server, "203.0.113.7")).text()).toBe(
        '{"family":"ipv4","ip":"203.0.113.7"}',
      );
      expect(await (await publicIp(server, "2001:db8::7")).text()).toBe(
        '{"family":"ipv6","ip":"2001:db8::7"}',
      );
      const text = await fetch(`${server.url}/v1/ip`, { headers: { "x-forwarded-for": "198.51.100.23" } });
      expect(await text.text()).toBe("198.51.100.23\n");
      const databases = await fetch(`${server.url}/v1/public-ip/databases`);
      expect(databases.headers.get("cache-control")).toBe("no-store");
      expect(
        ((await databases.json()) as { databases: { variable: string }[] }).databases.map((d) => d.variable),
      ).toEqual(["GEOIP_ASN_DB", "GEOIP_COUNTRY_DB"]);
      expect(await server.stop()).toBe(0);
    },
    TEST_TIMEOUT_MS,
  );
});

describe("a file that cannot be used stops the start: exit 2, one line", () => {
  const METADATA_UNREADABLE = "is not a MaxMind DB file (its metadata section cannot be read)";
  test.each([
    ["1", "GEOIP_COUNTRY_DB", "truncated.mmdb", METADATA_UNREADABLE],
    ["1", "GEOIP_ASN_DB", "not-a-database.mmdb", METADATA_UNREADABLE],
    ["1", "GEOIP_ASN_DB", "missing.mmdb", "does not exist"],
    ["2", "GEOIP_COUNTRY_DB", "truncated.mmdb", METADATA_UNREADABLE],
  ])(
    "WORKERS=%s, %s names %s",
    async (workers, variable, file, reason) => {
      const path = file === "missing.mmdb" ? join(scratch, file) : fixture(file);
      const ran = await runServerCommand([], {
        HOST: "127.0.0.1",
        PORT: "0",
        WORKERS: workers,
        GEOIP_ASN_DB: fixture("dbip-asn.mmdb"),
        [variable]: path,
      });
      expect(ran.code).toBe(2);
      expect(ran.stderr).toBe(
        `network-tools-api: configuration error: ${variable} names ${JSON.stringify(path)}, which ${reason}.\n`,
      );
      expect(ran.stdout).not.toContain("listening");
    },
    TEST_TIMEOUT_MS,
  );
});

/**
 * Clients asking in loops until `stop()`: every answer's status and asn, in order per client.
 * Keep-alive connections (fetch's default), so a reload happens between requests on open sockets.
 */
function askInLoops(server: RunningServer, clients: number) {
  const answers: { status: number; asn: number | undefined; at: number }[][] = [];
  let running = true;
  const loops = Array.from({ length: clients }, async (_, index) => {
    const mine: (typeof answers)[number] = [];
    answers[index] = mine;
    while (running) {
      try {
        const response = await publicIp(server, "198.51.100.23");
        const body = (await response.json()) as { asn?: number };
        mine.push({ status: response.status, asn: body.asn, at: performance.now() });
      } catch {
        mine.push({ status: 0, asn: undefined, at: performance.now() });
      }
    }
  });
  return {
    answers,
    latest: () => answers.flatMap((mine) => mine.slice(-1)),
    async stop() {
      running = false;
      await Promise.all(loops);
      return answers.flat();
    },
  };
}

describe("SIGHUP", () => {
  for (const workers of ["1", "2"])
    test(
      `WORKERS=${workers}: a replaced file is swapped in with no failed request; a corrupt one keeps the old data`,
      async () => {
        const live = join(scratch, `asn-${workers}.mmdb`);
        replace(live, fixture("dbip-asn.mmdb"));
        const server = await serve({ GEOIP_ASN_DB: live, WORKERS: workers });
        const loops = askInLoops(server, 4);
        await waitFor("answers before the swap", () =>
          loops.answers.flat().length >= 40 ? true : undefined,
        );

        replace(live, fixture("dbip-asn-next.mmdb"));
        const signalled = performance.now();
        server.process.kill("SIGHUP");
        // Every worker reads the new file: the last answers of every client are the new ASN.
        await waitFor("the new data", async () => {
          const answers = loops.answers.flat().filter((answer) => answer.at > signalled);
          return answers.length > 200 && answers.slice(-40).every((answer) => answer.asn === 64510)
            ? true
            : undefined;
        });
        const readAgain = (m: { msg?: string }) => m.msg === "GeoIP reload: GEOIP_ASN_DB read again.";
        await waitFor("the reload lines", () =>
          messages(server).filter(readAgain).length === Number(workers) ? true : undefined,
        );

        // A corrupt file now: the old (new) data stays, one error line per process, service up.
        replace(live, fixture("truncated.mmdb"));
        server.process.kill("SIGHUP");
        const refused = (m: { level?: string; msg?: string }) =>
          m.level === "error" && m.msg?.startsWith("GeoIP reload: GEOIP_ASN_DB names") === true;
        await waitFor("the error lines", () =>
          messages(server).filter(refused).length === Number(workers) ? true : undefined,
        );
        await Bun.sleep(200);
        const all = await loops.stop();

        expect(all.filter((answer) => answer.status !== 200)).toEqual([]);
        expect(new Set(all.map((answer) => answer.asn))).toEqual(new Set([64500, 64510]));
        // Per client, never the old ASN again once the new one was seen (a worker swaps once).
        if (workers === "1")
          for (const mine of loops.answers) {
            const firstNew = mine.findIndex((answer) => answer.asn === 64510);
            expect(firstNew).toBeGreaterThan(0);
            expect(mine.slice(firstNew).every((answer) => answer.asn === 64510)).toBe(true);
          }
        expect(messages(server).find(refused)?.msg).toBe(
          `GeoIP reload: GEOIP_ASN_DB names ${JSON.stringify(live)}, which is not a MaxMind DB file (its metadata section cannot be read). The database loaded before is kept.`,
        );
        const after = await publicIp(server, "198.51.100.23");
        expect(((await after.json()) as { asn?: number }).asn).toBe(64510);
        const databases = (await (await fetch(`${server.url}/v1/public-ip/databases`)).json()) as {
          databases: { buildDate: string }[];
        };
        expect(databases.databases.map((database) => database.buildDate)).toEqual(["2026-09-01T00:00:00Z"]);
        expect(await server.stop()).toBe(0);
      },
      TEST_TIMEOUT_MS,
    );

  test(
    "without GeoIP databases SIGHUP keeps its default: the process ends",
    async () => {
      const server = await serve({});
      server.process.kill("SIGHUP");
      expect(await server.process.exited).not.toBe(0);
    },
    TEST_TIMEOUT_MS,
  );
});
