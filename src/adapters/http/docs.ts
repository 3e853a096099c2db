/**
 * The API's documentation, a plugin of the service's one Elysia application:
 * - `/docs/json`: the OpenAPI 3.1 document, written by @elysiajs/openapi from the routes: every
 *   API route carries its complete operation in its `detail` (openapi-document.ts, ADR 0004), and
 *   the components they refer to are given here;
 * - `/docs`: Swagger UI, whose script and stylesheet come from swagger-ui-dist through this
 *   plugin, never from a CDN, so the page works with no internet access. They are imported
 *   `with { type: "file" }`, so `bun build --compile` embeds them in the executable.
 * The docs routes are hidden from the document and answer through the Responder like every other
 * route (request id, nosniff, CORS; 404 and 405 with Allow from the application).
 */
import { openapi } from "@elysiajs/openapi";
import { SwaggerUIRender } from "@elysiajs/openapi/swagger";
import { FormatRegistry } from "@sinclair/typebox";
import { Elysia } from "elysia";
import swaggerUiCss from "swagger-ui-dist/swagger-ui.css" with { type: "file" };
import swaggerUiBundle from "swagger-ui-dist/swagger-ui-bundle.js" with { type: "file" };
import { FORMATS } from "../../contract/formats.ts";
import { INTERFACE_VERSION } from "../../contract/operations.ts";
import { MAX_BODY_BYTES } from "../../domain/limits.ts";
import { precompressPackageFile } from "../../web/precompress.ts" with { type: "macro" };
import { type EncodedAsset, encodedAnswer, encodedAsset } from "./content-encoding.ts";
import type { OpenApiOperation } from "./openapi-document.ts";
import { type FailureMapper, PLAIN_TEMPLATE, type Responder } from "./responder.ts";

/**
 * @elysiajs/openapi 1.4.16 bundles @sinclair/typemap, which on import replaces TypeBox's global
 * string formats (ipv4, ipv6, date-time …) with checks that throw (`string3().ip is not a
 * function`). The server never validates with them (no request schema has a format), but a
 * client in the same process (the tests, `nettools`) checks results with the contract's formats:
 * once the plugin is loaded, the contract's own three are put back
 * (docs/upstream/elysiajs-openapi-formats.md is the report for the plugin's maintainers).
 */
for (const [name, check] of Object.entries(FORMATS)) FormatRegistry.Set(name, check);

export const DOCS_PAGE_PATH = "/docs";
export const DOCS_JSON_PATH = "/docs/json";
const ASSET_CACHE_CONTROL = "public, max-age=86400";
const BUNDLE_PATH = "/docs/assets/swagger-ui-bundle.js";
const CSS_PATH = "/docs/assets/swagger-ui.css";

/** Every path this plugin serves; none of them is an API operation. */
export const DOCS_PATHS: readonly string[] = [DOCS_PAGE_PATH, DOCS_JSON_PATH, BUNDLE_PATH, CSS_PATH];

/**
 * The page may load only what this server serves. Swagger UI's start-up script is inline
 * and its components use inline styles; images are the stylesheet's data: URIs.
 */
const PAGE_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Kept free of `"`, `<`, `>` and `&`: the plugin also writes it into the page's meta tags. */
const DESCRIPTION = [
  "Exact IPv4/IPv6 CIDR calculations, PEM certificate-bundle diagnostics and public-IP observation.",
  "",
  "- **No authentication**: no account, no API key; no operation declares a security requirement.",
  "- **Stateless**: nothing is stored between calls and nothing is configured or changed anywhere; results are observations.",
  "- **Counts** are base-10 decimal strings matching `^(0|[1-9][0-9]*)$`, so IPv6 counts are exact.",
  `- **Requests**: POST bodies are JSON sent with \`Content-Type: application/json\`, at most ${MAX_BODY_BYTES} bytes; unknown fields are rejected.`,
  "- **Errors** share one envelope, the `ErrorResponse` schema. Checks run in this order: route (404 `NOT_FOUND` for an unknown path), method (405 with `Allow`), size (413), media type (415), JSON (400 `INVALID_JSON`), input (400).",
  "- **Headers**: every response has `X-Request-Id` (yours when well-formed) and `X-Content-Type-Options: nosniff`; CORS is open to any origin unless the operator restricts it.",
].join("\n");

const SWAGGER_UI_OPTIONS = {
  // Absolute, so that `/docs/` finds the document too (the plugin's default is relative).
  url: DOCS_JSON_PATH,
  cdn: BUNDLE_PATH,
  theme: CSS_PATH,
  // The default would send the document's address to validator.swagger.io.
  validatorUrl: "none",
  deepLinking: true,
  displayRequestDuration: true,
};

const DOCUMENT_INFO = {
  title: "Network Tools API",
  version: INTERFACE_VERSION,
  description: DESCRIPTION,
  license: { name: "MIT", identifier: "MIT" },
};

/** Swagger UI's page, as the plugin writes it for these options. */
const SWAGGER_PAGE = SwaggerUIRender(DOCUMENT_INFO, {
  dom_id: "#swagger-ui",
  version: "latest",
  autoDarkMode: true,
  ...SWAGGER_UI_OPTIONS,
});
const PAGE_HEADERS = {
  "content-type": "text/html; charset=utf8",
  "content-security-policy": PAGE_SECURITY_POLICY,
};

/**
 * gzip and brotli of the two Swagger UI files, made while this module is transpiled (once at
 * `bun build --compile`; cached between starts from source), never per request (issue 13).
 */
const BUNDLE_COMPRESSED = precompressPackageFile("swagger-ui-dist/swagger-ui-bundle.js");
const CSS_COMPRESSED = precompressPackageFile("swagger-ui-dist/swagger-ui.css");

/** One embedded file in the coding the request accepts; the plain bytes are read once, on first use. */
function asset(responder: Responder, path: string, compressed: { gzip: string; br: string }, type: string) {
  const headers = { "content-type": type, "cache-control": ASSET_CACHE_CONTROL };
  let loaded: Promise<EncodedAsset> | null = null;
  return async ({ request }: { request: Request }) => {
    loaded ??= Bun.file(path)
      .bytes()
      .then((bytes) => encodedAsset(bytes, compressed));
    const answer = encodedAnswer(request, await loaded, headers);
    return responder.page(request, answer.body, answer.headers);
  };
}

/** Mounts `/docs`, `/docs/json` and the two Swagger UI assets; `components` are the document's. */
export const docsRoutes = (responder: Responder, fail: FailureMapper, components: OpenApiOperation) =>
  new Elysia({ name: "docs-routes", normalize: false })
    .onError(({ request, error }) => fail(request, PLAIN_TEMPLATE, error))
    // The plugin's document answers through the Responder too: exactly `application/json` like
    // every JSON answer (CONTRACT §1.2; Elysia's default would add `;charset=utf-8`).
    .mapResponse(({ route, request, responseValue }) => {
      if (route === DOCS_JSON_PATH)
        return responder.json(request, PLAIN_TEMPLATE, JSON.stringify(responseValue));
    })
    .use(
      openapi({
        // The page is served below: the plugin's own page route is a constant Response, which
        // Elysia 1.4.30 hands to `mapResponse` as a function, so it could not carry our headers.
        provider: null,
        path: DOCS_PAGE_PATH,
        specPath: DOCS_JSON_PATH,
        documentation: {
          info: DOCUMENT_INFO,
          tags: [
            {
              name: "CIDR",
              description: "Exact CIDR arithmetic on IPv4 or IPv6; addresses are never enumerated.",
            },
            {
              name: "Certificates",
              description:
                "Certificate material as supplied, read offline: PEM bundles inspected, the chain a server should send built and its signatures checked against a shipped reference root store, signing requests, revocation lists. Nothing is fetched and no server is probed.",
            },
            {
              name: "Diagnostics",
              description: "The connection as the service observes it; a VPN or proxy changes what is seen.",
            },
            { name: "Platform", description: "Probes for the platform running the service." },
          ],
          components,
        },
        swagger: SWAGGER_UI_OPTIONS,
      }),
    )
    .get(DOCS_PAGE_PATH, ({ request }) => responder.page(request, SWAGGER_PAGE, PAGE_HEADERS), {
      detail: { hide: true },
    })
    .get(
      BUNDLE_PATH,
      asset(responder, swaggerUiBundle, BUNDLE_COMPRESSED, "text/javascript; charset=utf-8"),
      {
        detail: { hide: true },
      },
    )
    .get(CSS_PATH, asset(responder, swaggerUiCss, CSS_COMPRESSED, "text/css; charset=utf-8"), {
      detail: { hide: true },
    });
