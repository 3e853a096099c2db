/**
 * TypeBox schemas of POST /v1/certificate-chain (CONTRACT §7.1, §7.2, §8.1): the request and the
 * result. The PEM fields share the bundle's limits; the result's closed sets come from the
 * domain's lists.
 */
import { Type } from "@sinclair/typebox";
import { MAX_EXPIRY_WARNING_DAYS } from "../domain/certificates/chain.ts";
import { CLIENTS, PROBLEM_CODES, type ProblemCode } from "../domain/certificates/chain-problems.ts";
import { MAX_INSTANT_LENGTH } from "../domain/certificates/instant.ts";
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
    notBefore: Instant,
    validityDays: Type.Integer({
      description:
        "ceil((notAfter − notBefore + 1 s) / 86400 s): the validity period of RFC 5280 §4.1.2.5 (inclusive) in days, any part of a day counting.",
    }),
    keyType: Type.String({
      description: "RSA, EC, Ed25519, Ed448, DSA, else the dotted OID of the key's algorithm.",
    }),
    keyBits: Type.Union([Type.Integer(), Type.Null()], {
      description:
        "OpenSSL's EVP_PKEY_get_bits: RSA modulus bits, the EC curve's order bits, 256 Ed25519, 456 Ed448, DSA p bits; null otherwise.",
    }),
    keyCurve: Type.Union([Type.String(), Type.Null()], {
      description:
        "EC only: P-256, P-384, P-521, else OpenSSL's curve name or the dotted OID; null otherwise.",
    }),
    signatureAlgorithm: Type.String({ description: "OpenSSL's name of the signature algorithm." }),
    publicKeySha256: Type.String({
      pattern: "^[0-9a-f]{64}$",
      description: "SHA-256 of the DER SubjectPublicKeyInfo, lowercase hex: the key's identity.",
    }),
    extendedKeyUsage: Type.Union([Type.Array(Type.String()), Type.Null()], {
      description:
        "The extendedKeyUsage purposes in order (serverAuth, clientAuth … or dotted OIDs); null without the extension.",
    }),
    pathLenConstraint: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
    sctCount: Type.Integer({
      minimum: 0,
      description: "Entries of the embedded SignedCertificateTimestampList (RFC 6962 §3.3); 0 without one.",
    }),
    crlUrls: Urls,
  },
  { additionalProperties: false },
);

const ClientSchema = Type.Union(CLIENTS.map((client) => Type.Literal(client)));

const ChainProblem = Type.Object(
  {
    code: ProblemCodeSchema,
    severity: Type.Union([Type.Literal("error"), Type.Literal("warning"), Type.Literal("info")]),
    certificateIndexes: Type.Array(Position, { maxItems: MAX_CERTIFICATES }),
    observed: Type.String(),
    nextAction: Type.String(),
    clients: Type.Array(ClientSchema, {
      maxItems: CLIENTS.length,
      description:
        "The clients known to refuse the connection because of this problem, in this order: chrome, firefox, apple, go, openssl.",
    }),
    suppliedRoot: Type.Optional(
      Type.Object(
        {
          index: Type.Integer({ minimum: 0, description: "Its 0-based position among the roots blocks." }),
          subject: Type.String({ description: "Its subject, RFC 4514." }),
        },
        {
          additionalProperties: false,
          description:
            "Present when the problem is about a root you supplied in roots (judged like an anchor in the bundle); certificateIndexes then lists only the bundle positions involved.",
        },
      ),
    ),
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
    profile: Type.Union([Type.Literal("webpki"), Type.Literal("private"), Type.Literal("unknown")], {
      description:
        "webpki: the anchor is a root of the shipped store; private: your own root or another self-signed anchor; unknown: the path is not complete.",
    }),
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
