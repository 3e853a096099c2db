/**
 * TypeBox schemas of POST /v1/csr (CONTRACT §8.2): the request and the result. The PEM fields
 * share the bundle's limits; the result's closed sets come from the domain's lists.
 */
import { Type } from "@sinclair/typebox";
import { CLIENTS, type Client, CSR_PROBLEM_CODES, type CsrProblemCode } from "../domain/certificates/csr.ts";
import { MAX_CERTIFICATES, MAX_PEM_LENGTH } from "../domain/limits.ts";
import { SignatureOutcome } from "./certificate-schemas.ts";

const Position = Type.Integer({ minimum: 0, maximum: MAX_CERTIFICATES - 1 });

export const CsrRequest = Type.Object(
  {
    pem: Type.String({
      maxLength: MAX_PEM_LENGTH,
      description: `Exactly one PEM CERTIFICATE REQUEST (or NEW CERTIFICATE REQUEST) block, at most ${MAX_PEM_LENGTH} UTF-8 bytes; only whitespace around it.`,
    }),
    certificatePem: Type.Optional(
      Type.String({
        maxLength: MAX_PEM_LENGTH,
        description: `Certificates to compare with the request's key: 1 to ${MAX_CERTIFICATES} PEM CERTIFICATE blocks, by the rules of the bundle's pem.`,
      }),
    ),
  },
  { additionalProperties: false },
);

const CsrProblemCodeSchema = Type.Unsafe<CsrProblemCode>(
  Type.Union(CSR_PROBLEM_CODES.map((code) => Type.Literal(code))),
);
const ClientSchema = Type.Unsafe<Client>(Type.Union(CLIENTS.map((client) => Type.Literal(client))));

const CsrProblem = Type.Object(
  {
    code: CsrProblemCodeSchema,
    severity: Type.Union([Type.Literal("error"), Type.Literal("warning"), Type.Literal("info")]),
    certificateIndexes: Type.Array(Position, { maxItems: 0, description: "Always empty for a request." }),
    observed: Type.String(),
    nextAction: Type.String(),
    clients: Type.Array(ClientSchema, {
      maxItems: CLIENTS.length,
      description:
        "The clients known to refuse because of this problem, in the order chrome, firefox, apple, go, openssl.",
    }),
  },
  { additionalProperties: false },
);

const Sha256Hex = Type.String({
  pattern: "^[0-9a-f]{64}$",
  description: "SHA-256 of the DER SubjectPublicKeyInfo, lowercase hex: the key's identity.",
});

export const CsrResult = Type.Object(
  {
    subject: Type.String({ description: "RFC 4514, as openssl -nameopt RFC2253,-esc_msb prints it." }),
    commonName: Type.Union([Type.String(), Type.Null()]),
    subjectAltNames: Type.Object(
      {
        dns: Type.Array(Type.String()),
        ip: Type.Array(Type.String()),
      },
      {
        additionalProperties: false,
        description: "The DNS names and IP addresses of the requested subjectAltName, in order.",
      },
    ),
    keyType: Type.String({
      description: "RSA, EC, Ed25519, Ed448, DSA, else the key algorithm's dotted OID.",
    }),
    keyBits: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
    keyCurve: Type.Union([Type.String(), Type.Null()]),
    publicKeySha256: Sha256Hex,
    signatureAlgorithm: Type.String({ description: "OpenSSL's name, or the dotted OID when unknown." }),
    signatureValid: SignatureOutcome,
    problems: Type.Array(CsrProblem, { maxItems: CSR_PROBLEM_CODES.length }),
    matchesCertificate: Type.Union([Type.Boolean(), Type.Null()]),
    matchingCertificateIndexes: Type.Union([
      Type.Array(Position, { maxItems: MAX_CERTIFICATES }),
      Type.Null(),
    ]),
  },
  { additionalProperties: false },
);
