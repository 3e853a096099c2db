/**
 * TypeBox schemas of POST /v1/certificate-chain (CONTRACT §7.1, §7.2): the request and the result.
 * The PEM fields share the bundle's limits; the result's closed sets come from the domain's lists.
 */
import { Type } from "@sinclair/typebox";
import { MAX_EXPIRY_WARNING_DAYS } from "../domain/certificates/chain.ts";
import { PROBLEM_CODES, type ProblemCode } from "../domain/certificates/chain-problems.ts";
import { MAX_CERTIFICATES, MAX_HOSTNAME_LENGTH, MAX_PEM_LENGTH } from "../domain/limits.ts";

const Position = Type.Integer({ minimum: 0, maximum: MAX_CERTIFICATES - 1 });
const Instant = Type.String({ format: "date-time", description: "RFC 3339, UTC, to the second." });

export const CertificateChainRequest = Type.Object(
  {
    pem: Type.String({
      maxLength: MAX_PEM_LENGTH,
      description: `The bundle as the server would send it: PEM CERTIFICATE blocks (at most ${MAX_CERTIFICATES}, at most ${MAX_PEM_LENGTH} UTF-8 bytes), only whitespace between them.`,
    }),
    hostname: Type.Optional(
      Type.String({
        maxLength: MAX_HOSTNAME_LENGTH,
        description:
          "ASCII DNS name checked against the leaf's DNS SANs, or an IPv4/IPv6 address checked against its IP SANs; blank skips the check.",
      }),
    ),
    leafIndex: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_CERTIFICATES - 1,
        description: "Position of the server's certificate, when the bundle holds several possible ones.",
      }),
    ),
    roots: Type.Optional(
      Type.String({
        maxLength: MAX_PEM_LENGTH,
        description:
          "Your own trust anchors (PEM CERTIFICATE blocks of CA certificates, same limits as pem), used for this request only and never listed in the result; blank means none.",
      }),
    ),
    includeRoot: Type.Optional(
      Type.Boolean({ description: "Append the anchor's certificate to fullchainPem (default false)." }),
    ),
    expiryWarningDays: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_EXPIRY_WARNING_DAYS,
        description:
          "A path member expiring in fewer days than this raises EXPIRING (default 30; 0 turns it off).",
      }),
    ),
  },
  { additionalProperties: false },
);

const ProblemCodeSchema = Type.Unsafe<ProblemCode>(
  Type.Union(PROBLEM_CODES.map((code) => Type.Literal(code))),
);

const Urls = Type.Array(Type.String());

const ChainMember = Type.Object(
  {
    index: Position,
    subject: Type.String(),
    commonName: Type.Union([Type.String(), Type.Null()]),
    notAfter: Instant,
    expiresInDays: Type.Integer({
      description: "floor((notAfter − evaluatedAt) / 86400 s): negative once expired.",
    }),
    caIssuersUrls: Urls,
    ocspUrls: Urls,
  },
  { additionalProperties: false },
);

const ChainProblem = Type.Object(
  {
    code: ProblemCodeSchema,
    severity: Type.Union([Type.Literal("error"), Type.Literal("warning"), Type.Literal("info")]),
    certificateIndexes: Type.Array(Position, { maxItems: MAX_CERTIFICATES }),
    observed: Type.String(),
    nextAction: Type.String(),
  },
  { additionalProperties: false },
);

export const CertificateChainResult = Type.Object(
  {
    evaluatedAt: Instant,
    leafIndex: Type.Union([Position, Type.Null()]),
    path: Type.Array(Position, { maxItems: MAX_CERTIFICATES }),
    status: Type.Union([
      Type.Literal("complete"),
      Type.Literal("incomplete"),
      Type.Literal("ambiguous"),
      Type.Literal("no-leaf"),
    ]),
    anchor: Type.Union([
      Type.Object(
        {
          kind: Type.Union([
            Type.Literal("in-bundle"),
            Type.Literal("known-root"),
            Type.Literal("supplied-root"),
            Type.Literal("missing"),
          ]),
          subject: Type.String(),
          caIssuersUrls: Urls,
        },
        { additionalProperties: false },
      ),
      Type.Null(),
    ]),
    certificates: Type.Array(ChainMember, { maxItems: MAX_CERTIFICATES }),
    problems: Type.Array(ChainProblem),
    fullchainPem: Type.String(),
  },
  { additionalProperties: false },
);
