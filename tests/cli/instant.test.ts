/**
 * `--at TIME` of `nettools cert` and `nettools chain` (CONTRACT §9.1), spawned as a user runs them:
 * RFC 3339 and `@SECONDS`, in this process, against a live server's certificates (`--connect`,
 * a local `openssl s_server`) and through `--server` (the real server process); a TIME that is
 * neither is a usage error (exit 2). The instants are read from the fixture leaf by `openssl x509`
 * (a second before its notBefore, inside, a second after its notAfter), so nothing here depends
 * on the host's clock.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningServer, startServer } from "../e2e/server.ts";
import { certPath, certPem, GENERATED_DIR } from "../fixtures/fixtures.ts";
import { startTlsServer, type TlsServer } from "../support/tls-server.ts";
import { runNettools } from "./run.ts";

const scratch = mkdtempSync(join(tmpdir(), "nettools-at-"));
let api: RunningServer;
let tls: TlsServer;
beforeAll(async () => {
  api = await startServer();
  tls = await startTlsServer({
    certPem: certPem("chain-leaf"),
    keyPath: `${GENERATED_DIR}/keys/leaf-ec.key`,
  });
});
afterAll(async () => {
  await tls.stop();
  await api.stop();
});

/** The leaf's notBefore or notAfter as OpenSSL prints it, in epoch seconds. */
function opensslDate(which: "startdate" | "enddate"): number {
  const ran = Bun.spawnSync(["openssl", "x509", "-noout", `-${which}`, "-in", certPath("chain-leaf")]);
  const text = ran.stdout
    .toString()
    .trim()
    .replace(/^not(Before|After)=/, "");
  const seconds = Date.parse(text) / 1000;
  if (!Number.isInteger(seconds)) throw new Error(`openssl printed no date: ${text}`);
  return seconds;
}
const rfc3339 = (seconds: number) => `${new Date(seconds * 1000).toISOString().slice(0, 19)}Z`;
const NOT_BEFORE = opensslDate("startdate");
const NOT_AFTER = opensslDate("enddate");
const BEFORE = rfc3339(NOT_BEFORE - 1);
const DURING = rfc3339(NOT_BEFORE + 86_400 * 400);
const AFTER = rfc3339(NOT_AFTER + 1);
/** DURING written with a +02:00 offset and a fraction. */
const DURING_OFFSET = `${new Date((NOT_BEFORE + 86_400 * 400 + 7200) * 1000).toISOString().slice(0, 19)}.5+02:00`;
const DATED = /^(CERTIFICATE_)?(EXPIRED|NOT_YET_VALID)$/;

type Source = "file" | "connect" | "server";

/** Runs `command --json --at TIME` on the fixture leaf from `source`: evaluatedAt and the dated codes. */
async function judged(command: "cert" | "chain", source: Source, time: string) {
  const from =
    source === "file"
      ? [certPath("chain-leaf")]
      : source === "connect"
        ? ["--connect", `127.0.0.1:${tls.port}`]
        : ["--server", api.url, certPath("chain-leaf")];
  const ran = await runNettools([command, "--json", "--at", time, ...from], { cwd: scratch });
  const body = JSON.parse(ran.stdout) as {
    evaluatedAt: string;
    problems?: { code: string }[];
    findings?: { code: string }[];
  };
  const codes = (body.problems ?? body.findings ?? [])
    .map((entry) => entry.code)
    .filter((c) => DATED.test(c));
  return [body.evaluatedAt, codes];
}

describe("--at (CONTRACT §9.1)", () => {
  const sources: Source[] = ["file", "connect", "server"];
  test.each(sources)("chain from %s: judged at RFC 3339 and @SECONDS", async (source) => {
    expect(await judged("chain", source, BEFORE)).toEqual([BEFORE, ["NOT_YET_VALID"]]);
    expect(await judged("chain", source, DURING_OFFSET)).toEqual([DURING, []]);
    expect(await judged("chain", source, `@${Date.parse(AFTER) / 1000}`)).toEqual([AFTER, ["EXPIRED"]]);
  });

  test.each(sources)("cert from %s: judged at RFC 3339 and @SECONDS", async (source) => {
    expect(await judged("cert", source, `@${Date.parse(BEFORE) / 1000}`)).toEqual([
      BEFORE,
      ["CERTIFICATE_NOT_YET_VALID"],
    ]);
    expect(await judged("cert", source, DURING)).toEqual([DURING, []]);
    expect(await judged("cert", source, AFTER)).toEqual([AFTER, ["CERTIFICATE_EXPIRED"]]);
  });

  test("the human output names the instant", async () => {
    const ran = await runNettools(["chain", "--at", DURING, certPath("chain-leaf")], { cwd: scratch });
    expect(ran.stdout).toMatch(new RegExp(`evaluated at\\s+${DURING}`));
  });

  test("a TIME that is neither RFC 3339 nor @SECONDS, or out of range, is a usage error (exit 2)", async () => {
    for (const command of ["cert", "chain"]) {
      for (const time of [
        "2035-06-01",
        "tomorrow",
        "@",
        "@1.5",
        "@-631152001",
        "10000-01-01T00:00:00Z",
        "@1e9",
      ]) {
        const ran = await runNettools([command, "--at", time, certPath("chain-leaf")], { cwd: scratch });
        expect([command, time, ran.code, ran.stdout]).toEqual([command, time, 2, ""]);
        expect(ran.stderr).toContain("--at must be an RFC 3339 date-time");
      }
    }
  });
});
