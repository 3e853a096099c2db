/**
 * Builds the web page's assets with Bun's bundler. A Bun macro: `web.ts` imports it
 * `with { type: "macro" }`, so it runs while that module is transpiled — at server start when
 * running from source (`bun src/main.ts`, `bun test`), and once at `bun build --compile`, which
 * embeds the result in the executable as string constants. One path for both, nothing generated
 * in the source tree, never stale.
 *
 * The bundler runs as a child process, build-app.ts (`Bun.build` cannot be called from inside a
 * macro: the bundler would wait for itself); it swaps the client's TypeBox schemas for
 * build-time validators. It takes a few hundred milliseconds, so its output is kept in
 * node_modules/.cache/ under a key made of Bun's version and the size and modification time of
 * every file under src/ and of the lockfile: any edit rebuilds, an unchanged tree starts at once.
 * The HTML, CSS and script are also compressed here (gzip, brotli; precompress.ts, cached too),
 * so the server never compresses them per request.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { type Compressed, precompressText } from "./precompress.ts";

export interface WebAssets {
  html: string;
  css: string;
  js: string;
  icon: string;
  /** gzip and brotli of html, css and js (base64), made once here, not per request. */
  compressed: { html: Compressed; css: Compressed; js: Compressed };
}

const HERE = import.meta.dir;
const ROOT = resolve(HERE, "../..");
const CACHE_DIR = join(ROOT, "node_modules/.cache/network-tools-web");

function walk(dir: string, out: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else out.push(path);
  }
}

/** Changes whenever anything the bundle could depend on changes. */
function inputsKey(): string {
  const files: string[] = [];
  walk(join(ROOT, "src"), files);
  files.push(join(ROOT, "package-lock.json"));
  const hasher = new Bun.CryptoHasher("sha256");
  hasher.update(Bun.version);
  for (const file of files.sort()) {
    try {
      const stat = statSync(file);
      hasher.update(`${file}\u0000${stat.size}\u0000${stat.mtimeMs}\n`);
    } catch {
      hasher.update(`${file}\u0000missing\n`);
    }
  }
  return hasher.digest("hex").slice(0, 24);
}

function readCached(key: string): string | null {
  try {
    return readFileSync(join(CACHE_DIR, `${key}.js`), "utf8");
  } catch {
    return null;
  }
}

/** Best effort: a read-only tree just rebuilds next time. */
function writeCached(key: string, js: string): void {
  try {
    mkdirSync(CACHE_DIR, { recursive: true });
    for (const old of readdirSync(CACHE_DIR)) rmSync(join(CACHE_DIR, old), { force: true });
    const temporary = join(CACHE_DIR, `${key}.${process.pid}.tmp`);
    writeFileSync(temporary, js);
    renameSync(temporary, join(CACHE_DIR, `${key}.js`));
  } catch {
    // no cache
  }
}

function bundleScript(): string {
  const key = inputsKey();
  const cached = readCached(key);
  if (cached !== null) return cached;
  const build = Bun.spawnSync([process.execPath, join(HERE, "build-app.ts")], {
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, NO_COLOR: "1" },
  });
  if (build.exitCode !== 0) {
    throw new Error(`bundling src/web/app.ts failed:\n${build.stderr.toString()}`);
  }
  const js = build.stdout.toString();
  writeCached(key, js);
  return js;
}

export function bundleWebAssets(): WebAssets {
  const html = readFileSync(join(HERE, "index.html"), "utf8");
  const css = readFileSync(join(HERE, "styles.css"), "utf8");
  const js = bundleScript();
  return {
    html,
    css,
    js,
    icon: readFileSync(join(HERE, "icon.svg"), "utf8"),
    compressed: { html: precompressText(html), css: precompressText(css), js: precompressText(js) },
  };
}
