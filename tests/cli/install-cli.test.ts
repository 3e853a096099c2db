/**
 * CONTRACT §12 "the CLI from anywhere": the README's `npm run install:cli` builds, packs and
 * installs the Node package globally (here into a fresh npm prefix), and the installed `nettools`
 * answers `--version` and a list command from another folder, with a PATH holding only node.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runProcess } from "./run.ts";

const ROOT = resolve(import.meta.dir, "../..");
const work = mkdtempSync(join(tmpdir(), "nettools-install-cli-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("npm run install:cli", () => {
  test("installs nettools globally; --version works from any folder under plain Node", async () => {
    const prefix = join(work, "prefix");
    const env = {
      HOME: work,
      npm_config_prefix: prefix,
      npm_config_update_notifier: "false",
    };
    const installed = await runProcess(["npm", "run", "install:cli"], { cwd: ROOT, env, timeoutMs: 300_000 });
    expect({ code: installed.code, stderr: installed.stderr }).toEqual({ code: 0, stderr: "" });
    expect(installed.stdout).toContain(`nettools installed: ${prefix}/bin/nettools`);
    const nodeOnly = join(work, "node-only");
    mkdirSync(nodeOnly);
    symlinkSync(realpathSync(Bun.which("node") ?? "node"), join(nodeOnly, "node"));
    const elsewhere = join(work, "elsewhere");
    mkdirSync(elsewhere);
    const path = `${prefix}/bin:${nodeOnly}`;
    const version = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version as string;
    expect(
      await runProcess(["nettools", "--version"], { cwd: elsewhere, env: { PATH: path } }),
    ).toMatchObject({
      code: 0,
      stdout: `nettools ${version}\n`,
      stderr: "",
    });
    const merged = await runProcess([`${prefix}/bin/nettools`, "merge", "-"], {
      cwd: elsewhere,
      env: { PATH: path },
      stdin: "10.0.0.0/25\n10.0.0.128/25\n",
    });
    expect({ code: merged.code, stdout: merged.stdout }).toEqual({ code: 0, stdout: "10.0.0.0/24\n" });
  }, 300_000);
});
