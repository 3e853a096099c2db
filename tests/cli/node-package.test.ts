/**
 * The `nettools` npm package (issue 19): built (scripts/build-cli-package.ts) and packed from
 * packages/cli, installed with `npm install -g` into a fresh prefix, then run under plain Node 20
 * and Node 22 with a PATH that holds no Bun. Its answers (merge, cert, chain, key-match) must be
 * the repository CLI's answers.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chainPem } from "../fixtures/fixtures.ts";
import { KEY_PASSPHRASE, keyFixturePath } from "../fixtures/key-fixtures.ts";

const ROOT = resolve(import.meta.dir, "../..");
const work = mkdtempSync(join(tmpdir(), "nettools-cli-package-"));
const prefix = join(work, "prefix");
let packed: string[] = [];
/** Node major version → a folder whose only program is that node. */
const nodeOnly = new Map<number, string>();

function run(command: string[], cwd: string, env: Record<string, string> = {}, stdin?: string) {
  const result = Bun.spawnSync(command, {
    cwd,
    env: { HOME: work, NO_COLOR: "1", npm_config_update_notifier: "false", ...env },
    stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin),
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

/** A folder holding only a symlink named `node` to `binary`. */
function folderWithOnly(binary: string, name: string): string {
  const folder = join(work, name);
  mkdirSync(folder);
  symlinkSync(realpathSync(binary), join(folder, "node"));
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

/** `nettools …` from the installed package, with PATH = its bin folder and one node. */
function nettools(major: number, args: string[], stdin?: string) {
  const PATH = `${join(prefix, "bin")}:${nodeOnly.get(major)}`;
  return run(["nettools", ...args], work, { PATH }, stdin);
}

/** The same command through the repository's own CLI under Bun: the reference answer. */
function repositoryCli(args: string[], stdin?: string) {
  return run(
    [process.execPath, join(ROOT, "src/cli/main.ts"), ...args],
    work,
    { PATH: process.env.PATH ?? "" },
    stdin,
  );
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

  for (const major of [20, 22]) {
    describe(`under Node ${major}, no Bun on PATH`, () => {
      test("the PATH really has no bun, and the node is that version", () => {
        const PATH = `${join(prefix, "bin")}:${nodeOnly.get(major)}`;
        expect(Bun.which("bun", { PATH })).toBeNull();
        expect(Bun.which("nettools", { PATH })).not.toBeNull();
        const version = run(["node", "--version"], work, { PATH });
        expect(version.stdout.trim().startsWith(`v${major}.`)).toBe(true);
      });

      test("merge: the exact minimal list, as the repository CLI answers", () => {
        const input = "10.0.0.0/25\n10.0.0.128/25\n# a comment\n192.0.2.7\n192.0.2.6/31\n";
        const answer = nettools(major, ["merge", "--plain", "-"], input);
        expect(answer.stderr).toBe("");
        expect(answer.code).toBe(0);
        expect(answer.stdout).toBe("10.0.0.0/24\n192.0.2.6/31\n");
        expect(answer).toEqual(repositoryCli(["merge", "--plain", "-"], input));
      });

      test("cert: the same diagnosis (JSON) as the repository CLI, exit code included", () => {
        const pem = chainPem("rsa-sha256");
        const args = ["cert", "--json", "--hostname", "leaf.test", "-"];
        const answer = nettools(major, args, pem);
        const reference = repositoryCli(args, pem);
        expect(answer.code).toBe(reference.code);
        expect(answer.stderr).toBe(reference.stderr);
        const parsed = JSON.parse(answer.stdout) as { certificates: unknown[] };
        expect(parsed.certificates).toHaveLength(3);
        // The two runs differ only in the moment they evaluated validity at.
        const withoutTime = (text: string) => ({ ...(JSON.parse(text) as object), evaluatedAt: null });
        expect(withoutTime(answer.stdout)).toEqual(withoutTime(reference.stdout));
      });

      test("chain --fix: the same corrected chain, verdict and exit code as the repository CLI", () => {
        // The bundle as a careless server sends it: root first, leaf last.
        const blocks =
          chainPem("rsa-sha256").match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----\n?/g) ??
          [];
        expect(blocks).toHaveLength(3);
        const shuffled = [...blocks].reverse().join("");
        const args = ["chain", "--fix", "-"];
        const answer = nettools(major, args, shuffled);
        const reference = repositoryCli(args, shuffled);
        expect(answer.stdout).toContain("-----BEGIN CERTIFICATE-----");
        // The two runs differ only in the moment they evaluated validity at.
        const untimed = (result: typeof answer) => ({
          ...result,
          stderr: result.stderr.replace(/evaluated at {2}\S+/, "evaluated at  (time)"),
        });
        expect(answer.stderr).toContain("evaluated at");
        expect(untimed(answer)).toEqual(untimed(reference));
      });

      test("key-match: every key format, Ed448 and encrypted keys included, as under Bun", () => {
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
          const answer = nettools(major, args);
          expect(JSON.parse(answer.stdout).key.publicKeySha256).toMatch(/^[0-9a-f]{64}$/);
          expect(answer).toEqual(repositoryCli(args));
        }
        const legacy = ["key-match", "-k", keyFixturePath("keys/rsa.legacy.pem"), "-c", certificate];
        expect(nettools(major, legacy)).toEqual(repositoryCli(legacy));
      });

      test("every command the CLI lists answers --help", () => {
        const help = nettools(major, ["--help"]);
        expect(help.code).toBe(0);
        const commands = [...help.stdout.matchAll(/^ {2}([a-z][a-z-]*) {2,}/gm)].map(
          (match) => match[1] as string,
        );
        expect(commands).toContain("merge");
        expect(commands).toContain("cert");
        expect(commands).toContain("chain");
        expect(commands).toContain("key-match");
        for (const command of commands) expect(nettools(major, [command, "--help"]).code).toBe(0);
      });

      test("serve says it needs Bun, exit code 2", () => {
        const answer = nettools(major, ["serve"]);
        expect(answer.code).toBe(2);
        expect(answer.stderr).toContain("nettools serve needs Bun");
      });
    });
  }
});
