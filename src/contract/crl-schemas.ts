/**
 * TypeBox schemas of POST /v1/crl (CONTRACT §10.2): the request and the result. The PEM fields
 * share the bundle's limits; `at` is checked by the domain (its range and calendar are more than
 * a pattern can say), so the schema asks only for a string.
 */
import { Type } from "@sinclair/typebox";
import { REVOCATION_REASONS } from "../domain/certificates/revocation-list-model.ts";
import { MAX_CERTIFICATES, MAX_PEM_LENGTH } from "../domain/limits.ts";

const Instant = Type.String({ format: "date-time", description: "RFC 3339, UTC, to the second." });

export const CrlRequest = Type.Object(
  {
    crl: Type.String({
      maxLength: MAX_PEM_LENGTH,
      description: `Exactly one PEM X509 CRL block, at most ${MAX_PEM_LENGTH} characters and UTF-8 bytes; only whitespace around it. Larger lists: nettools crl reads them locally, PEM or DER, of any size.`,
    }),
    issuerPem: Type.Optional(
      Type.String({
        maxLength: MAX_PEM_LENGTH,
        description:
          "One PEM CERTIFICATE block: the CA that signed the list. Its subject must be the list's issuer; the list's signature is then checked with its key.",
      }),
    ),
    certificatePem: Type.Optional(
      Type.String({
        maxLength: MAX_PEM_LENGTH,
        description: `Certificates to look up: 1 to ${MAX_CERTIFICATES} PEM CERTIFICATE blocks, by the rules of the bundle's pem.`,
      }),
    ),
    at: Type.Optional(
      Type.String({
        maxLength: 64,
        description:
          "The instant of evaluation: RFC 3339 with Z or a numeric offset, 1950-01-01T00:00:00Z to 9999-12-31T23:59:59Z, fractional seconds dropped. Default: now.",
      }),
    ),
  },
  { additionalProperties: false },
);

const Lookup = Type.Object(
  {
    index: Type.Integer({ minimum: 0, maximum: MAX_CERTIFICATES - 1 }),
    serialNumber: Type.String({ description: "Uppercase hex, as openssl x509 -serial prints it." }),
    revoked: Type.Boolean(),
    revocationDate: Type.Union([Instant, Type.Null()]),
    reason: Type.Union([Type.String(), Type.Null()], {
      description: `A revoked entry's reasonCode (${REVOCATION_REASONS.join(", ")}) or null without one; for a certificate of another issuer, a sentence saying the list cannot speak for it; null otherwise.`,
    }),
  },
  { additionalProperties: false },
);

export const CrlResult = Type.Object(
  {
    issuer: Type.String({ description: "RFC 4514, as openssl -nameopt RFC2253,-esc_msb prints it." }),
    thisUpdate: Instant,
    nextUpdate: Type.Union([Instant, Type.Null()]),
    crlNumber: Type.Union([Type.String({ pattern: "^[0-9]+$" }), Type.Null()], {
      description: "The cRLNumber extension in decimal, or null without one.",
    }),
    signatureAlgorithm: Type.String({ description: "OpenSSL's name, or the dotted OID when unknown." }),
    entries: Type.Integer({ minimum: 0, description: "How many revoked certificates the list holds." }),
    signature: Type.Union([Type.Literal("verified"), Type.Literal("failed"), Type.Literal("not-checked")], {
      description: "The list's signature checked with issuerPem's key; not-checked without issuerPem.",
    }),
    stale: Type.Boolean({ description: "nextUpdate is before evaluatedAt." }),
    evaluatedAt: Instant,
    certificates: Type.Array(Lookup, { maxItems: MAX_CERTIFICATES }),
  },
  { additionalProperties: false },
);
