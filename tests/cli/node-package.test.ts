/**
 * The `nettools` npm package (issue 19): built (scripts/build-cli-package.ts) and packed from
 * packages/cli, installed with `npm install -g` into a fresh prefix, then run under plain Node 20
 * and Node 22 with a PATH that holds no Bun (only that node and openssl). Its answers (merge,
 * cert, chain, key-match) must be the repository CLI's answers; `--connect` reads a TLS 1.3-only server
 * (through openssl s_client) and every STARTTLS protocol's fake server in wire order, and refuses
 * a server that does not offer STARTTLS (issues 24 and 25). The bundle names no Bun API outside
 * `serve` (the build's own check, shown to find one).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { bunReferencesOutsideServe } from "../../scripts/build-cli-package.ts";
import { STARTTLS_DEFAULT_PORTS, type StartTlsProtocol } from "../../src/local/starttls-protocols.ts";
import { certPem, chainPem, GENERATED_DIR, pemToDers } from "../fixtures/fixtures.ts";
import { KEY_PASSPHRASE, keyFixturePath } from "../fixtures/key-fixtures.ts";
import { makePkcs12Files, P12_PASSWORD } from "../support/pkcs12-files.ts";
import { type FakeServer, startStartTlsServer } from "../support/starttls-server.ts";
import { startTlsServer, type TlsServer } from "../support/tls-server.ts";
import { type Ran, runNettools, runProcess } from "./run.ts";

const ROOT = resolve(import.meta.dir, "../..");
const work = mkdtempSync(join(tmpdir(), "nettools-cli-package-"));
const prefix = join(work, "prefix");
let packed: string[] = [];
/** Node major version → a folder whose only program is that node. */
const nodeOnly = new Map<number, string>();
/** A folder whose only program is openssl (for the TLS 1.3 fallback of --connect). */
let opensslOnly = "";

/** What every command here runs with besides PATH: a HOME of its own, no colour, npm quiet. */
const QUIET = { HOME: work, NO_COLOR: "1", npm_config_update_notifier: "false" };

/** The build and install steps (npm, node), run to their end. */
function run(command: string[], cwd: string, env: Record<string, string> = {}) {
  const result = Bun.spawnSync(command, {
    cwd,
    env: { ...QUIET, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
}

function mustRun(command: string[], cwd: string, env: Record<string, string> = {}): string {
  const result = run(command, cwd, { PATH: process.env.PATH ?? "", ...env });
  if (result.code !== 0)
    throw new Error(`${command.join(" ")} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** A folder holding only a symlink named `program` (default `node`) to `binary`. */
function folderWithOnly(binary: string, name: string, program = "node"): string {
  const folder = join(work, name);
  mkdirSync(folder);
  symlinkSync(realpathSync(binary), join(folder, program));
  return folder;
}

beforeAll(() => {
  mustRun([process.execPath, "scripts/build-cli-package.ts"], ROOT);
  const pack = JSON.parse(
    mustRun(["npm", "pack", "--json", "--pack-destination", work, "./packages/cli"], ROOT),
  ) as { filename: string; files: { path: string }[] }[];
  const tarball = join(work, pack[0]?.filename ?? "");
  packed = (pack[0]?.files ?? []).map((file) => file.path).sort();
  mustRun(["npm", "install", "-g", "--prefix", prefix, "--no-audit", "--no-fund", tarball], work);

  // Node 20: this machine's node (the project's engines floor). Node 22: from npm's `node` package.
  const systemNode = Bun.which("node");
  if (systemNode === null) throw new Error("no node on PATH");
  const systemMajor = Number(mustRun([systemNode, "-p", "process.versions.node.split('.')[0]"], work).trim());
  nodeOnly.set(systemMajor, folderWithOnly(systemNode, `node${systemMajor}`));
  const openssl = Bun.which("openssl");
  if (openssl === null) throw new Error("no openssl on PATH (scripts/ensure-system-deps.sh installs it)");
  opensslOnly = folderWithOnly(openssl, "openssl", "openssl");
  for (const major of [20, 22]) {
    if (nodeOnly.has(major)) continue;
    const home = join(work, `npm-node${major}`);
    mkdirSync(home);
    writeFileSync(join(home, "package.json"), JSON.stringify({ private: true }));
    mustRun(["npm", "install", "--no-audit", "--no-fund", "--prefer-offline", `node@${major}`], home);
    nodeOnly.set(major, folderWithOnly(join(home, "node_modules/node/bin/node"), `node${major}`));
  }
}, 300_000);

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

/**
 * `nettools …` from the installed package, with PATH = its bin folder, one node and openssl; run
 * beside this process, whose fake STARTTLS servers must answer it.
 */
async function nettools(major: number, args: string[], stdin?: string): Promise<Ran> {
  const { code, stdout, stderr } = await runProcess(["nettools", ...args], {
    cwd: work,
    env: { ...QUIET, PATH: packagePath(major) },
    ...(stdin === undefined ? {} : { stdin }),
    timeoutMs: 30_000,
  });
  return { code, stdout, stderr };
}

function packagePath(major: number): string {
  return `${join(prefix, "bin")}:${nodeOnly.get(major)}:${opensslOnly}`;
}

/** `nettools cert --json ARGS…` under Node: its stderr and the certificates' fingerprints, in order. */
async function certificatesRead(major: number, args: string[]) {
  const answer = await nettools(major, ["cert", "--json", ...args]);
  const parsed = JSON.parse(answer.stdout) as { certificates: { fingerprintSha256: string }[] };
  return { stderr: answer.stderr, fingerprints: parsed.certificates.map((entry) => entry.fingerprintSha256) };
}

const servers: (TlsServer | FakeServer)[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
});

/** Misordered on purpose: an unrelated certificate second, the root before its intermediate, a repeat. */
const SENT = ["chain-leaf", "chain-unrelated", "chain-int2", "chain-root", "chain-int2"];
const SENT_PEM = SENT.map(certPem).join("");
const KEY_PATH = `${GENERATED_DIR}/keys/leaf-ec.key`;
const fingerprints = (pem: string) =>
  pemToDers(pem).map((der) =>
    (new Bun.CryptoHasher("sha256").update(der).digest("hex").toUpperCase().match(/../g) ?? []).join(":"),
  );

/** The same command through the repository's own CLI under Bun: the reference answer. */
function repositoryCli(args: string[], stdin?: string): Promise<Ran> {
  return runNettools(args, { cwd: work, env: QUIET, ...(stdin === undefined ? {} : { stdin }) });
}

describe("the nettools npm package", () => {
  test("the tarball holds the one bundled file, its manifest and README; a bin, no dependency", async () => {
    expect(packed).toEqual(["README.md", "nettools.mjs", "package.json"]);
    const manifest = (await Bun.file(join(prefix, "lib/node_modules/nettools/package.json")).json()) as {
      bin: Record<string, string>;
      dependencies?: unknown;
      engines: { node: string };
      version: string;
    };
    expect(manifest.bin).toEqual({ nettools: "./nettools.mjs" });
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.engines.node).toBe(">=20");
    const rootVersion = ((await Bun.file(join(ROOT, "package.json")).json()) as { version: string }).version;
    expect(manifest.version).toBe(rootVersion);
  });

  test("the bundle names no Bun API outside serve; the build's check finds one that does", async () => {
    expect(await bunReferencesOutsideServe()).toEqual([]);
    const installed = readFileSync(join(prefix, "lib/node_modules/nettools/nettools.mjs"), "utf8");
    expect(installed.match(/\bBun\s*[.[]|globalThis\.Bun\b/g)).toBeNull();
    const planted = await bunReferencesOutsideServe(
      join(ROOT, "tests/cli/fixtures/node-entry-naming-bun.ts"),
    );
    expect(planted).toHaveLength(1);
    expect(planted[0]).toContain("tests/cli/fixtures/spawns-with-bun.ts: ");
    expect(planted[0]).toContain("Bun.spawn");
  }, 60_000);

  for (const major of [20, 22]) {
    describe(`under Node ${major}, no Bun on PATH`, () => {
      test("the PATH really has no bun, and the node is that version", () => {
        const PATH = packagePath(major);
        expect(Bun.which("bun", { PATH })).toBeNull();
        expect(Bun.which("nettools", { PATH })).not.toBeNull();
        const version = run(["node", "--version"], work, { PATH });
        expect(version.stdout.trim().startsWith(`v${major}.`)).toBe(true);
      });

      test("merge: the exact minimal list, as the repository CLI answers", async () => {
        const input = "10.0.0.0/25\n10.0.0.128/25\n# a comment\n192.0.2.7\n192.0.2.6/31\n";
        const answer = await nettools(major, ["merge", "--plain", "-"], input);
        expect(answer.stderr).toBe("");
        expect(answer.code).toBe(0);
        expect(answer.stdout).toBe("10.0.0.0/24\n192.0.2.6/31\n");
        expect(answer).toEqual(await repositoryCli(["merge", "--plain", "-"], input));
      });

      test("cert: the same diagnosis (JSON) as the repository CLI, exit code included", async () => {
        const pem = chainPem("rsa-sha256");
        const args = ["cert", "--json", "--hostname", "leaf.test", "-"];
        const answer = await nettools(major, args, pem);
        const reference = await repositoryCli(args, pem);
        expect(answer.code).toBe(reference.code);
        expect(answer.stderr).toBe(reference.stderr);
        const parsed = JSON.parse(answer.stdout) as { certificates: unknown[] };
        expect(parsed.certificates).toHaveLength(3);
        // The two runs differ only in the moment they evaluated validity at.
        const withoutTime = (text: string) => ({ ...(JSON.parse(text) as object), evaluatedAt: null });
        expect(withoutTime(answer.stdout)).toEqual(withoutTime(reference.stdout));
      });

      test("chain --fix: the same corrected chain, verdict and exit code as the repository CLI", async () => {
        // The bundle as a careless server sends it: root first, leaf last.
        const blocks =
          chainPem("rsa-sha256").match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----\n?/g) ??
          [];
        expect(blocks).toHaveLength(3);
        const shuffled = [...blocks].reverse().join("");
        const args = ["chain", "--fix", "-"];
        const answer = await nettools(major, args, shuffled);
        const reference = await repositoryCli(args, shuffled);
        expect(answer.stdout).toContain("-----BEGIN CERTIFICATE-----");
        // The two runs differ only in the moment they evaluated validity at.
        const untimed = (result: typeof answer) => ({
          ...result,
          stderr: result.stderr.replace(/evaluated at {2}\S+/, "evaluated at  (time)"),
        });
        expect(answer.stderr).toContain("evaluated at");
        expect(untimed(answer)).toEqual(untimed(reference));
      });

      test("key-match: every key format, Ed448 and encrypted keys included, as under Bun", async () => {
        // Node reads Ed448 keys itself; Bun's BoringSSL cannot, so the repository CLI computes them.
        const passFile = join(work, "passphrase.txt");
        writeFileSync(passFile, `${KEY_PASSPHRASE}\n`);
        const certificate = keyFixturePath("certs/ed448.pem");
        for (const key of [
          "ed448",
          "ed448.enc",
          "ed25519.enc",
          "rsa.pkcs1",
          "p256.sec1-params",
          "p384.enc",
        ]) {
          const args = ["key-match", "--json", "-k", keyFixturePath(`keys/${key}.pem`), "-c", certificate];
          args.push("--passin", `file:${passFile}`);
          const answer = await nettools(major, args);
          expect(JSON.parse(answer.stdout).key.publicKeySha256).toMatch(/^[0-9a-f]{64}$/);
          expect(answer).toEqual(await repositoryCli(args));
        }
        const legacy = ["key-match", "-k", keyFixturePath("keys/rsa.legacy.pem"), "-c", certificate];
        expect(await nettools(major, legacy)).toEqual(await repositoryCli(legacy));
      });

      test("PKCS#12: default and -legacy files read as under Bun (cert, key-match; password from the environment)", async () => {
        const p12 = makePkcs12Files();
        for (const file of [p12.modern, p12.legacy]) {
          for (const args of [
            ["cert", "--json", "--passin", "env:P12PW", file],
            ["key-match", "--json", "--passin", "env:P12PW", "-c", file],
          ]) {
            const answer = await runProcess(["nettools", ...args], {
              cwd: work,
              env: { ...QUIET, PATH: packagePath(major), P12PW: P12_PASSWORD },
              timeoutMs: 30_000,
            });
            const reference = await runNettools(args, { cwd: work, env: { ...QUIET, P12PW: P12_PASSWORD } });
            expect(answer.code).toBe(0);
            expect(answer.stdout + answer.stderr).not.toContain(P12_PASSWORD);
            const untimed = (text: string) => ({ ...(JSON.parse(text) as object), evaluatedAt: null });
            expect(untimed(answer.stdout)).toEqual(untimed(reference.stdout));
          }
        }
      }, 120_000);

      test("every command the CLI lists answers --help", async () => {
        const help = await nettools(major, ["--help"]);
        expect(help.code).toBe(0);
        const commands = [...help.stdout.matchAll(/^ {2}([a-z][a-z-]*) {2,}/gm)].map(
          (match) => match[1] as string,
        );
        expect(commands).toContain("merge");
        expect(commands).toContain("cert");
        expect(commands).toContain("chain");
        expect(commands).toContain("key-match");
        for (const command of commands) expect((await nettools(major, [command, "--help"])).code).toBe(0);
      });

      test("--connect reads a TLS 1.3-only server, in wire order (openssl s_client, spawned from Node)", async () => {
        const server = await startTlsServer({
          certPem: certPem("chain-leaf"),
          keyPath: KEY_PATH,
          extraPem: SENT.slice(1).map(certPem).join(""),
          args: ["-tls1_3"],
        });
        servers.push(server);
        const read = await certificatesRead(major, [
          "--connect",
          `127.0.0.1:${server.port}`,
          "--servername",
          "chain.example.com",
        ]);
        expect(read).toEqual({
          stderr: `127.0.0.1:${server.port} sent 5 certificates (read with openssl s_client)\n`,
          fingerprints: fingerprints(SENT_PEM),
        });
      }, 60_000);

      test("--starttls: every protocol's fake server read in wire order; one that does not offer it refused", async () => {
        const keyPem = readFileSync(KEY_PATH, "utf8");
        for (const protocol of Object.keys(STARTTLS_DEFAULT_PORTS) as StartTlsProtocol[]) {
          const offering = await startStartTlsServer({ protocol, certificatesPem: SENT_PEM, keyPem });
          const refusing = await startStartTlsServer({
            protocol,
            certificatesPem: SENT_PEM,
            keyPem,
            offer: false,
          });
          servers.push(offering, refusing);
          const read = await certificatesRead(major, [
            "--connect",
            `127.0.0.1:${offering.port}`,
            "--starttls",
            protocol,
          ]);
          expect({ protocol, ...read }).toEqual({
            protocol,
            stderr: `127.0.0.1:${offering.port} sent 5 certificates (read from its TLS 1.2 handshake after STARTTLS (${protocol}))\n`,
            fingerprints: fingerprints(SENT_PEM),
          });
          const refused = await nettools(major, [
            "chain",
            "--connect",
            `127.0.0.1:${refusing.port}`,
            "--starttls",
            protocol,
          ]);
          expect([protocol, refused.code, refused.stdout]).toEqual([protocol, 3, ""]);
          expect(refused.stderr).toStartWith(`127.0.0.1:${refusing.port}: the server refused STARTTLS: "`);
          expect(refused.stderr.split("\n")).toHaveLength(2);
        }
      }, 120_000);

      test("--starttls smtp to a TLS 1.3-only server: through openssl s_client -starttls", async () => {
        const keyPem = readFileSync(KEY_PATH, "utf8");
        const server = await startStartTlsServer({
          protocol: "smtp",
          certificatesPem: SENT_PEM,
          keyPem,
          tls13Only: true,
        });
        servers.push(server);
        const read = await certificatesRead(major, [
          "--connect",
          `127.0.0.1:${server.port}`,
          "--starttls",
          "smtp",
        ]);
        expect(read).toEqual({
          stderr: `127.0.0.1:${server.port} sent 5 certificates (read with openssl s_client -starttls smtp)\n`,
          fingerprints: fingerprints(SENT_PEM),
        });
      }, 60_000);

      test("serve says it needs Bun, exit code 2", async () => {
        const answer = await nettools(major, ["serve"]);
        expect(answer.code).toBe(2);
        expect(answer.stderr).toContain("nettools serve needs Bun");
      });
    });
  }
});
