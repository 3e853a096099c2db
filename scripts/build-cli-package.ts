/**
 * Builds the `nettools` npm package (packages/cli): src/cli/node-bin.ts bundled for plain
 * Node ≥ 20 into one file, packages/cli/nettools.mjs, with no dependency left to install. The
 * server (`nettools serve`, built on Bun.serve) is replaced by a stub: under Node that command
 * says it needs Bun, and the package carries none of the server's code (Elysia, the docs, the
 * page). Bun-only speed-ups have a plain-Node half that replaces them (src/adapters/files-node/file-bytes.ts).
 *
 * The build fails when any code the Node package runs outside `serve` names a Bun API (`Bun.x`,
 * `Bun[…]`, `globalThis.Bun`): under plain Node that is `ReferenceError: Bun is not defined` at
 * the moment of use (issue 24: the TLS 1.3 fallback of `--connect` called `Bun.spawn`). The check
 * reads an unminified build of the same graph, module by module, and skips only the modules that
 * nothing but `serve` reaches. Run by `npm run pack:cli`, which then packs packages/cli;
 * tests/cli/node-package.test.ts runs {@link bunReferencesOutsideServe} too.
 */
import { chmodSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { BunPlugin } from "bun";

const ROOT = resolve(import.meta.dir, "..");
const PACKAGE = join(ROOT, "packages/cli");
const OUT = join(PACKAGE, "nettools.mjs");
const ENTRY = join(ROOT, "src/cli/node-bin.ts");
/** The command whose run() alone starts the server; what only it imports is not the Node package's concern. */
const SERVE_COMMAND = join(ROOT, "src/cli/commands/serve.ts");

/** What `nettools serve` imports on demand, and what stands in for it in the Node package. */
const SERVER_ONLY = /^\.\.\/\.\.\/(server|config)\.ts$/;
/** Modules with a Bun-only speed-up, and their plain-Node halves. */
const NODE_HALVES: Record<string, string> = {
  "./file-bytes.ts": `export { readFile as fileBytes } from "node:fs/promises";`,
  // V8 collects its young generation on its own: nothing to ask under Node (src/local/heap.ts).
  "./heap.ts": "export function collectGarbageEvery(_index) {}",
};

const forNode: BunPlugin = {
  name: "for-node",
  setup(build) {
    build.onResolve({ filter: SERVER_ONLY }, (args) => ({ path: args.path, namespace: "server-stub" }));
    build.onLoad({ filter: /.*/, namespace: "server-stub" }, () => ({
      loader: "js",
      contents: `const unavailable = () => { throw new Error("the server is not part of the Node package"); };
export class ConfigError extends Error {}
export const loadConfig = unavailable;
export const runServer = unavailable;`,
    }));
    build.onResolve({ filter: /^\.\/(file-bytes|heap)\.ts$/ }, (args) => ({
      path: args.path,
      namespace: "node-half",
    }));
    build.onLoad({ filter: /.*/, namespace: "node-half" }, (args) => ({
      loader: "js",
      contents: NODE_HALVES[args.path] ?? "",
    }));
  },
};

/** The Node package's bundle: minified for the package, unminified (with module markers) for the check. */
function bundle(minify: boolean, entry = ENTRY) {
  return Bun.build({
    entrypoints: [entry],
    target: "node",
    format: "esm",
    minify,
    metafile: !minify,
    ...(minify ? { banner: "#!/usr/bin/env node" } : {}),
    plugins: [forNode],
  });
}

interface Metafile {
  inputs: Record<string, { imports: { path: string; kind: string; external?: boolean }[] }>;
}

/**
 * Modules reachable from the entry without going through `serve`'s own imports, as absolute paths
 * (the metafile's are relative to the working directory).
 */
function reachedOutsideServe(metafile: Metafile, entry: string): Set<string> {
  const imports = new Map(
    Object.entries(metafile.inputs).map(([path, input]) => [
      resolve(path),
      input.imports.filter((imported) => !imported.external).map((imported) => resolve(imported.path)),
    ]),
  );
  const reached = new Set<string>([entry]);
  const queue = [entry];
  for (let module = queue.pop(); module !== undefined; module = queue.pop()) {
    if (module === SERVE_COMMAND) continue;
    for (const imported of imports.get(module) ?? []) {
      if (reached.has(imported)) continue;
      reached.add(imported);
      queue.push(imported);
    }
  }
  reached.delete(SERVE_COMMAND);
  return reached;
}

const BUN_API = /\bBun\s*(?:\.|\[)|globalThis\.Bun\b/g;

/**
 * Every place the Node package's code names a Bun API outside the modules only `serve` reaches,
 * as `module: excerpt`; empty when the package runs on plain Node. `entry` is for the test that
 * shows the check finds one.
 */
export async function bunReferencesOutsideServe(entry = ENTRY): Promise<string[]> {
  const build = await bundle(false, entry);
  const output = build.outputs[0];
  const metafile = (build as unknown as { metafile?: Metafile }).metafile;
  if (!build.success || output === undefined || metafile === undefined)
    throw new Error("build-cli-package: the unminified build for the Bun check failed");
  const checked = reachedOutsideServe(metafile, resolve(entry));
  const text = await output.text();
  const found: string[] = [];
  // An unminified bundle marks each module's code with a `// path` line.
  const sections = text.split(/^\/\/ (?=\S+$)/m);
  for (const section of sections) {
    const module = section.slice(0, section.indexOf("\n"));
    if (!checked.has(resolve(module))) continue;
    for (const match of section.matchAll(BUN_API)) {
      const at = match.index ?? 0;
      found.push(`${module}: …${section.slice(Math.max(0, at - 40), at + 40).replace(/\s+/g, " ")}…`);
    }
  }
  return found;
}

async function main(): Promise<void> {
  const build = await bundle(true);
  if (!build.success) {
    for (const log of build.logs) console.error(log);
    process.exit(1);
  }
  const [output] = build.outputs;
  if (output === undefined || build.outputs.length !== 1) {
    console.error(`build-cli-package: expected one output file, got ${build.outputs.length}`);
    process.exit(1);
  }
  const references = await bunReferencesOutsideServe();
  if (references.length > 0) {
    console.error(
      "build-cli-package: the Node package would name Bun outside `serve` (it crashes under Node):",
    );
    for (const reference of references) console.error(`  ${reference}`);
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
}

if (import.meta.main) await main();
