/**
 * The round-5 attack's defects (issue 30), one test each, through the real `nettools` process:
 *
 * - private keys whose armour is damaged, given to `cert`, `chain` and `csr` with `--server`,
 *   against a recording HTTP server on 127.0.0.1: not one 16-character window of a key is sent;
 * - endless inputs (`/dev/zero`, an endless pipe) into every command that reads one: one line on
 *   stderr, exit 2, peak resident size under CONTRACT §7.3's 384 MB, in a few seconds;
 * - GeoIP strings with terminal control sequences, from a server, through `nettools myip`.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI, runNettools, shellWords } from "../cli/run.ts";
import { certPem } from "../fixtures/fixtures.ts";
import { bodyOf, DAMAGES, sampleKeys, windowsSeen } from "./damaged-keys.ts";

const dir = mkdtempSync(join(tmpdir(), "hostile-"));
const KEYS = sampleKeys();
const BUDGET_BYTES = 384 * 1000 * 1000;

/** A listener on 127.0.0.1 that keeps every request body and answers 500 (nothing to inspect). */
const bodies: string[] = [];
const recorder = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch: async (request) => {
    bodies.push(`${request.url}\n${await request.text()}`);
    return Response.json({ error: { code: "INTERNAL_ERROR", message: "recording only" } }, { status: 500 });
  },
});
afterAll(() => recorder.stop(true));
const SERVER = `http://127.0.0.1:${recorder.port}`;

describe("damaged-armour keys never reach a server", () => {
  test.each(Object.keys(DAMAGES))("%s: cert, chain and csr send no window of any key", async (damage) => {
    const keys = KEYS.map((key) => DAMAGES[damage]!(key.pem)).join("");
    const path = join(dir, `${damage.replaceAll(" ", "-")}.pem`);
    writeFileSync(path, `${certPem("chain-leaf")}${keys}${certPem("chain-int1")}`);
    bodies.length = 0;
    for (const command of ["cert", "chain"]) {
      const ran = await runNettools([command, "--server", SERVER, path]);
      const notices = ran.stderr.split("\n").filter((line) => line.includes("a private key (block"));
      // Keys cut short run into each other's armour (a BEGIN here, an END three keys on): one
      // span may hold several of them; every other damage leaves one notice per key.
      const expected = damage === "cut short" ? Math.min(notices.length, KEYS.length) : KEYS.length;
      expect({ command, notices: notices.length }).toEqual({ command, notices: Math.max(1, expected) });
      for (const line of notices) expect(line).toMatch(/was set aside: it is not read, sent or shown$/);
    }
    // A request with a key pasted in: refused before anything is sent, with the API's words.
    const csr = await runNettools(["csr", "--server", SERVER, path]);
    expect(csr.code).toBe(2);
    expect(csr.stderr).toContain("private key material is not accepted");
    expect(bodies.length).toBe(2);
    for (const key of KEYS)
      expect({ key: key.name, seen: windowsSeen(bodyOf(key.pem), bodies.join("\n")) }).toEqual({
        key: key.name,
        seen: [],
      });
    expect(bodies.join("\n")).toContain(bodyOf(certPem("chain-int1")).slice(0, 64));
  });
});

interface Peak {
  code: number;
  stderr: string;
  peakBytes: number;
  wallMs: number;
}

/**
 * `nettools ARGS` with stdin from a shell redirection (`< /dev/zero`, `< <(yes)`), its peak
 * resident size read from its own VmHWM while it runs; killed after 20 s.
 */
async function endless(args: string[], stdin: string): Promise<Peak> {
  const started = performance.now();
  const child = Bun.spawn(["bash", "-c", `exec ${shellWords([process.execPath, CLI, ...args])} ${stdin}`], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "" },
    stdout: "ignore",
    stderr: "pipe",
  });
  let peakKib = 0;
  const sample = setInterval(() => {
    try {
      const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
      if (match) peakKib = Math.max(peakKib, Number(match[1]));
    } catch {
      // gone: the last reading stands
    }
  }, 20);
  const killer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  const [stderr, code] = await Promise.all([new Response(child.stderr).text(), child.exited]);
  clearInterval(sample);
  clearTimeout(killer);
  return { code, stderr, peakBytes: peakKib * 1024, wallMs: performance.now() - started };
}

const ZERO = "< /dev/zero";
const PIPE = "< <(yes 192.0.2.1)";
const LEAF = join(dir, "leaf.pem");
writeFileSync(LEAF, certPem("chain-leaf"));

/** Every command that reads an input, with the input made endless. */
const READERS: [string, string[], string][] = [
  ["cert -", ["cert", "-"], ZERO],
  ["cert FILE", ["cert", "/dev/zero"], ""],
  ["chain -", ["chain", "-"], ZERO],
  ["chain --roots", ["chain", "--roots", "/dev/zero", LEAF], ""],
  ["csr -", ["csr", "-"], ZERO],
  ["csr -c -", ["csr", "-c", "-", "/dev/null"], ZERO],
  ["key-match -k -", ["key-match", "-k", "-", "-c", LEAF], ZERO],
  ["key-match -r -", ["key-match", "-r", "-", "-c", LEAF], ZERO],
  [
    "key-match --passin file:",
    ["key-match", "--passin", "file:/dev/zero", "-k", "/dev/zero", "-c", LEAF],
    "",
  ],
  ["merge -", ["merge", "-"], PIPE],
  ["merge -f", ["merge", "-f", "/dev/zero"], ""],
  ["cover -", ["cover", "-"], PIPE],
  ["subtract -", ["subtract", "-", "-x", "10.0.0.0/8"], PIPE],
  ["diff", ["diff", "-", "/dev/null"], ZERO],
  ["common", ["common", "-", "/dev/null"], PIPE],
  ["expand -", ["expand", "-"], ZERO],
  ["expand - (pipe)", ["expand", "-"], PIPE],
  ["range -", ["range", "-"], ZERO],
  ["match input", ["match", "-e", "10.0.0.0/8", "-"], ZERO],
  ["match -f", ["match", "-f", "-", "/dev/null"], PIPE],
];

describe("endless inputs: one line, exit 2, inside the budget", () => {
  test.each(READERS)("%s", async (_name, args, stdin) => {
    const ran = await endless(args, stdin);
    expect({ code: ran.code, lines: ran.stderr.trimEnd().split("\n").length }).toEqual({ code: 2, lines: 1 });
    expect(ran.stderr).toMatch(/more than \d+ [KM]iB: nettools reads at most/);
    expect(ran.stderr).not.toContain("INTERNAL_ERROR");
    expect(ran.peakBytes).toBeGreaterThan(0);
    expect(ran.peakBytes).toBeLessThan(BUDGET_BYTES);
    expect(ran.wallMs).toBeLessThan(15_000);
  });
});

describe("text from a server reaches the terminal escaped", () => {
  test("myip: a title change, a screen clear and a fake ASN line in GeoIP data are shown escaped", async () => {
    const geoip = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () =>
        Response.json({
          ip: "198.51.100.23",
          family: "ipv4",
          asn: 64500,
          asnOrg: "Evil\u001b]0;pwned\u0007 Corp\u001b[2J\u001b[H\nASN: 1 \u009b31m",
          country: "NL",
        }),
    });
    try {
      const ran = await runNettools(["myip", "--server", `http://127.0.0.1:${geoip.port}`]);
      expect(ran.code).toBe(0);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must not appear
      expect(ran.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
      expect(ran.stdout).toContain("Evil\\x1b]0;pwned\\x07 Corp\\x1b[2J\\x1b[H\\x0aASN: 1 \\x9b31m");
      expect(ran.stdout.split("\n").filter((line) => line.startsWith("ASN"))).toEqual([]);
    } finally {
      geoip.stop(true);
    }
  });
});
