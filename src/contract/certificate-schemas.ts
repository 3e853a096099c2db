/**
 * TypeBox schemas of POST /v1/certificate-bundle (spec §2.8–2.12).
 */
import { Type } from "@sinclair/typebox";
import { FINDING_CODES, type FindingCode } from "../domain/certificates/findings.ts";
import { MAX_INSTANT_LENGTH } from "../domain/certificates/instant.ts";
import {
  MAX_CERTIFICATES,
  MAX_HOSTNAME_LENGTH,
  MAX_PEM_LENGTH,
  MAX_RELATIONSHIPS,
} from "../domain/limits.ts";

const Position = Type.Integer({ minimum: 0, maximum: MAX_CERTIFICATES - 1 });
const Instant = Type.String({ format: "date-time", description: "RFC 3339, UTC, to the second." });
export const SignatureOutcome = Type.Union([
  Type.Literal("verified"),
  Type.Literal("failed"),
  Type.Literal("unsupported"),
  Type.Literal("unavailable"),
]);

export const CertificateBundleRequest = Type.Object(
  {
    pem: Type.String({
      maxLength: MAX_PEM_LENGTH,
      description: `One or more PEM CERTIFICATE blocks (at most ${MAX_CERTIFICATES}, at most ${MAX_PEM_LENGTH} UTF-8 bytes), only whitespace between them.`,
    }),
    hostname: Type.Optional(
      Type.String({
        maxLength: MAX_HOSTNAME_LENGTH,
        description: "ASCII DNS name to check against the leaf's DNS SANs; blank skips the check.",
      }),
    ),
    leafIndex: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_CERTIFICATES - 1,
        description: "Position of the leaf to check the hostname against, when several are possible.",
      }),
    ),
    at: Type.Optional(
      Type.String({
        maxLength: MAX_INSTANT_LENGTH,
        description:
          "The instant to judge the certificates at (CONTRACT §9.1): an RFC 3339 date-time with Z or a numeric offset, from 1950-01-01T00:00:00Z to 9999-12-31T23:59:59Z; fractional seconds are dropped. evaluatedAt is then this instant in UTC. Absent: now.",
      }),
    ),
  },
  { additionalProperties: false },
);

const CertificateEntry = Type.Object(
  {
    index: Position,
    line: Type.Integer({ minimum: 1 }),
    subject: Type.String(),
    issuer: Type.String(),
    commonName: Type.Union([Type.String(), Type.Null()]),
    serialNumber: Type.String(),
    sans: Type.Array(
      Type.Object({ type: Type.String(), value: Type.String() }, { additionalProperties: false }),
    ),
    notBefore: Instant,
    notAfter: Instant,
    ca: Type.Boolean(),
    basicConstraintsPresent: Type.Boolean(),
    keyCertSign: Type.Union([Type.Boolean(), Type.Null()]),
    fingerprintSha256: Type.String({ pattern: "^(?:[0-9A-F]{2}:){31}[0-9A-F]{2}$" }),
    signatureAlgorithm: Type.String(),
    selfSignature: Type.Union([SignatureOutcome, Type.Null()]),
  },
  { additionalProperties: false },
);

const Relationship = Type.Object(
  {
    childIndex: Position,
    issuerIndex: Position,
    signature: SignatureOutcome,
    issuerEligible: Type.Boolean(),
    keyIdentifierMatch: Type.Union([Type.Boolean(), Type.Null()]),
  },
  { additionalProperties: false },
);

/**
 * The closed set of finding codes, built from the domain's list. `Unsafe` only re-types it for
 * Elysia's handler inference; the schema (and its validation) is the union of literals.
 */
const FindingCodeSchema = Type.Unsafe<FindingCode>(
  Type.Union(FINDING_CODES.map((code) => Type.Literal(code))),
);

const Finding = Type.Object(
  {
    code: FindingCodeSchema,
    severity: Type.Union([Type.Literal("error"), Type.Literal("warning"), Type.Literal("info")]),
    certificateIndexes: Type.Array(Position, { maxItems: MAX_CERTIFICATES }),
    observed: Type.String(),
    evidence: Type.Record(
      Type.String(),
      Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]),
    ),
    nextAction: Type.String(),
  },
  { additionalProperties: false },
);

export const CertificateBundleResult = Type.Object(
  {
    evaluatedAt: Instant,
    certificates: Type.Array(CertificateEntry, { minItems: 1, maxItems: MAX_CERTIFICATES }),
    relationships: Type.Array(Relationship, { maxItems: MAX_RELATIONSHIPS }),
    leafIndexes: Type.Array(Position, { maxItems: MAX_CERTIFICATES }),
    selectedLeafIndex: Type.Union([Position, Type.Null()]),
    hostname: Type.Union([
      Type.Object(
        {
          expected: Type.String(),
          status: Type.Union([
            Type.Literal("matched"),
            Type.Literal("mismatched"),
            Type.Literal("ambiguous"),
            Type.Literal("no-leaf"),
          ]),
        },
        { additionalProperties: false },
      ),
      Type.Null(),
    ]),
    findings: Type.Array(Finding),
  },
  { additionalProperties: false },
);
