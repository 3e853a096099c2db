/**
 * The sizes the README quotes, measured, so that they cannot go stale (issue 24: the README said
 * ~280 KB for a CLI package that packed to 106 kB).
 *
 * Each figure stands in README.md between markers that do not render:
 * `<!-- size:cli-packed -->123 kB<!-- /size -->`. `bun scripts/readme-figures.ts` measures
 * every figure and rewrites them; tests/docs/readme-figures.test.ts measures again and fails when
 * a figure in the README is more than {@link TOLERANCE} away from the measurement (or names a
 * figure this script does not know), so a change that moves a size by more than that must come
 * with the rewritten README.
 *
 * What is measured:
 * - the two npm packages, built by their scripts and packed with `npm pack --dry-run --json`:
 *   the tarball (`size`) and the files it unpacks to (`unpackedSize`);
 * - the page's assets and Swagger UI's, as the real server sends them (`bun src/main.ts` on
 *   127.0.0.1), identity, gzip and brotli: each response's `Content-Length`.
 * Sizes are in decimal units, as npm prints them (1 kB = 1000 bytes).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
export const README = join(ROOT, "README.md");

/** How far a figure in the README may be from the measured size: 10 %. */
export const TOLERANCE = 0.1;

/** The assets whose wire sizes the README's table lists, by path. */
const ASSETS: Record<string, string> = {
  html: "/",
  "app-js": "/assets/app.js",
  "app-css": "/assets/app.css",
  "swagger-js": "/docs/assets/swagger-ui-bundle.js",
  "swagger-css": "/docs/assets/swagger-ui.css",
};
const CODINGS = { "": "identity", "-gzip": "gzip", "-br": "br" } as const;

/** One figure marked in the README. */
export interface MarkedFigure {
  name: string;
  /** The text between the markers, as written. */
  text: string;
  /** That text read back as bytes; NaN when it is not a size. */
  bytes: number;
}

const MARKED = /<!-- size:([a-z0-9-]+) -->([^<]*)<!-- \/size -->/g;
const UNITS: Record<string, number> = { B: 1, kB: 1e3, MB: 1e6 };

/** A size as the README writes it: `950 B`, `5.1 kB` under 10 kB, `52 kB`, `1.73 MB`. */
export function formatSize(bytes: number): string {
  if (bytes < 1_000) return `${bytes} B`;
  if (bytes < 10_000) return `${(bytes / 1e3).toFixed(1)} kB`;
  if (bytes < 1_000_000) return `${Math.round(bytes / 1e3)} kB`;
  return `${(bytes / 1e6).toFixed(2)} MB`;
}

/** A size read back from its text (the inverse of formatSize, up to rounding). */
export function parseSize(text: string): number {
  const match = /^(\d+(?:\.\d+)?) (B|kB|MB)$/.exec(text.trim());
  if (match === null) return Number.NaN;
  return Number(match[1]) * (UNITS[match[2] as string] as number);
}

/** Every figure marked in `readme`, in order. */
export function markedFigures(readme: string): MarkedFigure[] {
  return [...readme.matchAll(MARKED)].map(([, name, text]) => ({
    name: name as string,
    text: text as string,
    bytes: parseSize(text as string),
  }));
}

/** `readme` with every marked figure written from `measured`; unknown names are left as they are. */
export function rewriteFigures(readme: string, measured: ReadonlyMap<string, number>): string {
  return readme.replace(MARKED, (whole, name: string) => {
    const bytes = measured.get(name);
    return bytes === undefined ? whole : `<!-- size:${name} -->${formatSize(bytes)}<!-- /size -->`;
  });
}

function run(command: string[]): string {
  const result = Bun.spawnSync(command, {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: "1", npm_config_update_notifier: "false" },
    stdout: "pipe",
    stderr: "pipe",
  });
  if (result.exitCode !== 0)
    throw new Error(`${command.join(" ")} exited ${result.exitCode}: ${result.stderr.toString()}`);
  return result.stdout.toString();
}

/** Builds a package with its script and reads what `npm pack` would make of it, writing nothing. */
function packedSizes(script: string, folder: string): { size: number; unpackedSize: number } {
  run([process.execPath, script]);
  const [pack] = JSON.parse(run(["npm", "pack", "--dry-run", "--json", folder])) as {
    size: number;
    unpackedSize: number;
  }[];
  if (pack === undefined) throw new Error(`npm pack ${folder} reported nothing`);
  return pack;
}

/** The wire size of each asset in each coding, from a real server process. */
async function assetSizes(): Promise<Map<string, number>> {
  const server = Bun.spawn([process.execPath, join(ROOT, "src/main.ts")], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "info" },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "inherit",
  });
  const sizes = new Map<string, number>();
  try {
    const port = await listeningPort(server.stdout);
    for (const [name, path] of Object.entries(ASSETS)) {
      for (const [suffix, coding] of Object.entries(CODINGS)) {
        const response = await fetch(`http://127.0.0.1:${port}${path}`, {
          headers: { "accept-encoding": coding },
          decompress: false,
        } as RequestInit);
        const body = await response.arrayBuffer();
        const sent = response.headers.get("content-encoding") ?? "identity";
        if (response.status !== 200 || sent !== coding)
          throw new Error(`${path} (${coding}): status ${response.status}, content-encoding ${sent}`);
        sizes.set(`${name}${suffix}`, body.byteLength);
      }
    }
  } finally {
    server.kill("SIGTERM");
    await server.exited;
  }
  return sizes;
}

/**
 * The port of the `listening` log line, within 60 s (the first start bundles the page). The rest
 * of the output is read and dropped, so the server never writes into a closed pipe.
 */
async function listeningPort(stdout: ReadableStream<Uint8Array>): Promise<number> {
  const reader = stdout.getReader();
  const decoder = new TextDecoder();
  const timeout = setTimeout(() => void reader.cancel(), 60_000);
  let pending = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) throw new Error("the server ended before it listened");
      pending += decoder.decode(value, { stream: true });
      const match = /"msg":"listening"[^\n]*"port":(\d+)/.exec(pending);
      if (match === null) continue;
      void (async () => {
        while (!(await reader.read()).done);
      })().catch(() => {});
      return Number(match[1]);
    }
  } finally {
    clearTimeout(timeout);
  }
}

/** Every figure the README may mark, measured now. */
export async function measureFigures(): Promise<Map<string, number>> {
  const cli = packedSizes("scripts/build-cli-package.ts", "./packages/cli");
  const client = packedSizes("scripts/build-client-package.ts", "./packages/client");
  return new Map([
    ["cli-packed", cli.size],
    ["cli-unpacked", cli.unpackedSize],
    ["client-packed", client.size],
    ["client-unpacked", client.unpackedSize],
    ...(await assetSizes()),
  ]);
}

if (import.meta.main) {
  const measured = await measureFigures();
  const before = readFileSync(README, "utf8");
  const after = rewriteFigures(before, measured);
  writeFileSync(README, after);
  for (const figure of markedFigures(after)) console.log(`${figure.name}: ${figure.text}`);
  const unknown = markedFigures(after).filter((figure) => !measured.has(figure.name));
  if (unknown.length > 0) {
    console.error(`readme-figures: unknown figures ${unknown.map((figure) => figure.name).join(", ")}`);
    process.exit(1);
  }
}
