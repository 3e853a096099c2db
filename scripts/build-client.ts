/**
 * Builds the typed client as a package (`network-tools-api/client`, issue 13): one ESM file for
 * Node ≥ 20, Bun and bundlers (dist/client/index.js, TypeBox left as an import of the runtime
 * dependency, so the consumer's TypeBox and the declarations' TypeBox are the same package) and
 * its declarations (dist/client/types/, emitted by tsc with tsconfig.client.json). Run by
 * `npm run build:client` and by `npm pack` (prepack).
 *
 * The declarations are emitted with the source's `.ts` import specifiers; they are rewritten to
 * `.js`, which every TypeScript module resolution maps to the `.d.ts` beside it.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const OUT = join(ROOT, "dist/client");

rmSync(OUT, { recursive: true, force: true });

const build = await Bun.build({
  entrypoints: [join(ROOT, "src/client/index.ts")],
  outdir: OUT,
  naming: "index.js",
  target: "node",
  format: "esm",
  external: ["@sinclair/typebox"],
});
if (!build.success) {
  for (const log of build.logs) console.error(log);
  process.exit(1);
}

const tsc = Bun.spawnSync([join(ROOT, "node_modules/.bin/tsc"), "-p", join(ROOT, "tsconfig.client.json")], {
  cwd: ROOT,
  stdout: "inherit",
  stderr: "inherit",
});
if (tsc.exitCode !== 0) process.exit(tsc.exitCode ?? 1);

/** `from "./x.ts"` and `import("./x.ts")` → `.js`; bare specifiers are left alone. */
function rewriteSpecifiers(dir: string): number {
  let files = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files += rewriteSpecifiers(path);
    else if (entry.name.endsWith(".d.ts")) {
      const text = readFileSync(path, "utf8");
      writeFileSync(path, text.replace(/((?:from |import\()\s*["']\.{1,2}\/[^"']*?)\.ts(["'])/g, "$1.js$2"));
      files++;
    }
  }
  return files;
}
const declarations = rewriteSpecifiers(join(OUT, "types"));
console.error(`dist/client: index.js and ${declarations} declaration files`);
