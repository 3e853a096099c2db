/**
 * The web page at `/` (issue 8): a third inbound adapter, in the browser, calling this same API
 * through the typed client. Its script, stylesheet and HTML are bundled by Bun's bundler while
 * this module is transpiled (src/web/bundle.ts, a macro), so `bun build --compile` carries them
 * in the executable as constants and nothing is read from disk at run time.
 *
 * The page loads only what this server serves: a strict Content-Security-Policy (self only, no
 * inline script or style, no eval), no cookies, no storage, no referrer. Its routes are hidden
 * from the OpenAPI document and follow the common rules (404, 405 with Allow, request id, nosniff).
 */
import { Elysia } from "elysia";
import { bundleWebAssets } from "../../web/bundle.ts" with { type: "macro" };
import { type EncodedAsset, encodedAnswer, encodedAsset } from "./content-encoding.ts";
import { type FailureMapper, PLAIN_TEMPLATE, type Responder } from "./responder.ts";

const ASSETS = bundleWebAssets();
/** The page, its stylesheet and script in every coding, ready before the first request (issue 13). */
const HTML = encodedAsset(ASSETS.html, ASSETS.compressed.html);
const CSS = encodedAsset(ASSETS.css, ASSETS.compressed.css);
const JS = encodedAsset(ASSETS.js, ASSETS.compressed.js);

export const WEB_PAGE_PATH = "/";
const SCRIPT_PATH = "/assets/app.js";
const STYLE_PATH = "/assets/app.css";
const ICON_PATH = "/assets/icon.svg";

/** Every path this plugin serves; none of them is an API operation. */
export const WEB_PATHS: readonly string[] = [WEB_PAGE_PATH, SCRIPT_PATH, STYLE_PATH, ICON_PATH];

export const PAGE_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Headers of every response of the page; the common ones (request id, nosniff, CORS) are merged in. */
const PAGE_HEADERS = {
  "content-security-policy": PAGE_SECURITY_POLICY,
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "x-frame-options": "DENY",
  "permissions-policy": "camera=(), microphone=(), geolocation=(), interest-cohort=()",
  // Small, and rebuilt with the server: always revalidate rather than risk a stale script.
  "cache-control": "no-cache",
};

/** Mounts `/` and its three assets, answered through the Responder (common headers included). */
export const webRoutes = (responder: Responder, fail: FailureMapper) => {
  const serve = (body: string, contentType: string) => {
    const headers = { ...PAGE_HEADERS, "content-type": contentType };
    return ({ request }: { request: Request }) => responder.page(request, body, headers);
  };
  /** A compressible asset: brotli, gzip or plain, as the request's Accept-Encoding allows. */
  const serveEncoded = (asset: EncodedAsset, contentType: string) => {
    const headers = { ...PAGE_HEADERS, "content-type": contentType };
    return ({ request }: { request: Request }) => {
      const answer = encodedAnswer(request, asset, headers);
      return responder.page(request, answer.body, answer.headers);
    };
  };
  return new Elysia({ name: "web-routes", normalize: false })
    .onError(({ request, error }) => fail(request, PLAIN_TEMPLATE, error))
    .get(WEB_PAGE_PATH, serveEncoded(HTML, "text/html; charset=utf-8"), { detail: { hide: true } })
    .get(SCRIPT_PATH, serveEncoded(JS, "text/javascript; charset=utf-8"), { detail: { hide: true } })
    .get(STYLE_PATH, serveEncoded(CSS, "text/css; charset=utf-8"), { detail: { hide: true } })
    .get(ICON_PATH, serve(ASSETS.icon, "image/svg+xml"), { detail: { hide: true } });
};
