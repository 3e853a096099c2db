/**
 * Builds the web page's assets with Bun's bundler. A Bun macro: `web.ts` imports it
 * `with { type: "macro" }`, so it runs while that module is transpiled — at server start when
 * running from source (`bun src/main.ts`, `bun test`), and once at `bun build --compile`, which
 * embeds the result in the executable as string constants. One path for both, nothing generated
 * on disk, never stale.
 *
 * The bundler runs as a child process: `Bun.build` cannot be called from inside a macro (the
 * bundler would wait for itself).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export interface WebAssets {
  html: string;
  css: string;
  js: string;
  icon: string;
}

export function bundleWebAssets(): WebAssets {
  const here = import.meta.dir;
  const build = Bun.spawnSync(
    [process.execPath, "build", join(here, "app.ts"), "--target=browser", "--format=esm", "--minify"],
    { stdout: "pipe", stderr: "pipe", env: { ...process.env, NO_COLOR: "1" } },
  );
  if (build.exitCode !== 0) {
    throw new Error(`bundling src/web/app.ts failed:\n${build.stderr.toString()}`);
  }
  return {
    html: readFileSync(join(here, "index.html"), "utf8"),
    css: readFileSync(join(here, "styles.css"), "utf8"),
    js: build.stdout.toString(),
    icon: readFileSync(join(here, "icon.svg"), "utf8"),
  };
}
