/**
 * Builds the `nettools` npm package (packages/cli): src/cli/node-bin.ts bundled for plain
 * Node ≥ 20 into one file, packages/cli/nettools.mjs, with no dependency left to install. The
 * server (`nettools serve`, built on Bun.serve) is replaced by a stub: under Node that command
 * says it needs Bun, and the package carries none of the server's code (Elysia, the docs, the
 * page). Run by `npm run pack:cli`, which then packs packages/cli.
 */
import { chmodSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { BunPlugin } from "bun";

const ROOT = resolve(import.meta.dir, "..");
const PACKAGE = join(ROOT, "packages/cli");
const OUT = join(PACKAGE, "nettools.mjs");

/** What `nettools serve` imports on demand, and what stands in for it in the Node package. */
const SERVER_ONLY = /^\.\.\/\.\.\/(server|config)\.ts$/;
const withoutServer: BunPlugin = {
  name: "without-server",
  setup(build) {
    build.onResolve({ filter: SERVER_ONLY }, (args) => ({ path: args.path, namespace: "server-stub" }));
    build.onLoad({ filter: /.*/, namespace: "server-stub" }, () => ({
      loader: "js",
      contents: `const unavailable = () => { throw new Error("the server is not part of the Node package"); };
export class ConfigError extends Error {}
export const loadConfig = unavailable;
export const runServer = unavailable;`,
    }));
  },
};

const build = await Bun.build({
  entrypoints: [join(ROOT, "src/cli/node-bin.ts")],
  target: "node",
  format: "esm",
  minify: true,
  banner: "#!/usr/bin/env node",
  plugins: [withoutServer],
});
if (!build.success) {
  for (const log of build.logs) console.error(log);
  process.exit(1);
}
const [output] = build.outputs;
if (output === undefined || build.outputs.length !== 1) {
  console.error(`build-cli-package: expected one output file, got ${build.outputs.length}`);
  process.exit(1);
}
writeFileSync(OUT, await output.text());
chmodSync(OUT, 0o755);

// The package's version follows the project's.
const rootVersion = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string })
  .version;
const manifestPath = join(PACKAGE, "package.json");
const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { version: string };
if (manifest.version !== rootVersion) {
  manifest.version = rootVersion;
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
}
console.log(`build-cli-package: ${OUT} (${statSync(OUT).size} bytes)`);
