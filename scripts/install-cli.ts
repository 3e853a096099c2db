/**
 * `npm run install:cli`: builds the `nettools` Node package from this checkout
 * (scripts/build-cli-package.ts), packs it, and installs the tarball globally with npm, so that
 * `nettools` is on the PATH under plain Node, from any folder, and keeps working if the checkout
 * moves (a tarball is copied; `npm install -g FOLDER` would only link the folder). Where npm's
 * global prefix is not writable, npm says so; `npm config set prefix ~/.local` is the usual cure.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");

function step(command: string[]): string {
  const ran = Bun.spawnSync(command, { cwd: ROOT, stdout: "pipe", stderr: "inherit" });
  if (ran.exitCode !== 0) {
    process.stderr.write(`install:cli: ${command.join(" ")} failed (exit ${ran.exitCode})\n`);
    process.exit(ran.exitCode || 1);
  }
  return ran.stdout.toString();
}

const work = mkdtempSync(join(tmpdir(), "nettools-install-"));
try {
  step([process.execPath, "scripts/build-cli-package.ts"]);
  const packed = JSON.parse(
    step(["npm", "pack", "--json", "--pack-destination", work, "./packages/cli"]),
  ) as {
    filename: string;
  }[];
  const tarball = join(work, packed[0]?.filename ?? "");
  step(["npm", "install", "-g", "--no-audit", "--no-fund", tarball]);
  process.stdout.write(`nettools installed: ${step(["npm", "prefix", "-g"]).trim()}/bin/nettools\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
