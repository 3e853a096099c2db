/**
 * Precompressed copies of the static assets (issue 13): gzip and brotli at their highest levels,
 * computed once while the serving module is transpiled — at `bun build --compile`, which embeds
 * them as constants, and at server start from source — never per request. Brotli's best level
 * takes about 3 s on Swagger UI's 1.7 MB bundle, so results are kept in node_modules/.cache/ under
 * a key of the input's bytes' hash and the compressor versions: an unchanged input costs a file read.
 *
 * Used as a Bun macro (`with { type: "macro" }`): values cross into the importing module as
 * literals, so the compressed bytes travel as base64 text.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

/** The compressed variants of one asset, base64. */
export interface Compressed {
  gzip: string;
  br: string;
}

const ROOT = resolve(import.meta.dir, "../..");
const CACHE_DIR = join(ROOT, "node_modules/.cache/network-tools-precompressed");

function compress(bytes: Uint8Array): Compressed {
  const br = brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
  const gzip = gzipSync(bytes, { level: 9 });
  return { gzip: gzip.toString("base64"), br: br.toString("base64") };
}

/** gzip and brotli of `bytes`, from the cache when the same bytes were compressed before. */
export function compressCached(bytes: Uint8Array): Compressed {
  const hash = createHash("sha256")
    .update(`${process.versions.zlib ?? ""}/${process.versions.brotli ?? ""}\u0000`)
    .update(bytes)
    .digest("hex")
    .slice(0, 32);
  const path = join(CACHE_DIR, `${hash}.json`);
  try {
    return JSON.parse(readFileSync(path, "utf8")) as Compressed;
  } catch {
    // not cached yet (or unreadable): compute
  }
  const result = compress(bytes);
  try {
    mkdirSync(dirname(path), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(result));
    renameSync(temporary, path);
  } catch {
    // a read-only tree just compresses again next time
  }
  return result;
}

/** gzip and brotli of a UTF-8 text. */
export function precompressText(text: string): Compressed {
  return compressCached(new TextEncoder().encode(text));
}

/** gzip and brotli of a file of an installed package, e.g. `swagger-ui-dist/swagger-ui.css`. */
export function precompressPackageFile(specifier: string): Compressed {
  return compressCached(readFileSync(Bun.resolveSync(specifier, import.meta.dir)));
}
