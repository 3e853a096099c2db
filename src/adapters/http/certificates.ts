/**
 * Inbound adapter for POST /v1/certificate-bundle (spec §4.4). Responses are never cached
 * (the composition root sets `Cache-Control: no-store` on this path, errors included).
 */
import { Elysia } from "elysia";
import { type CertificateBundleDeps, inspectCertificateBundle } from "../../domain/certificates/inspect.ts";
import { CertificateBundleRequest, CertificateBundleResult } from "./certificate-schemas.ts";

/** Routes POST /v1/certificate-bundle. */
export const certificateRoutes = (deps: CertificateBundleDeps) =>
  new Elysia({ name: "certificate-routes", normalize: false }).post(
    "/v1/certificate-bundle",
    ({ body }) => inspectCertificateBundle(body, deps),
    {
      parse: "json",
      body: CertificateBundleRequest,
      response: { 200: CertificateBundleResult },
      detail: {
        summary: "Inspect a PEM certificate bundle",
        description:
          "Reports every certificate, every candidate issuer link with its signature outcome, possible leaves, an optional hostname check and findings. An observation, not RFC 5280 path validation.",
        tags: ["Certificates"],
      },
    },
  );
