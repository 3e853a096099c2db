/**
 * TypeBox schemas of every request and result: the one source for request validation
 * (through Elysia) and for the OpenAPI document.
 */
import { type Static, Type } from "@sinclair/typebox";
import {
  MAX_COVER_INPUTS,
  MAX_ENTRY_LENGTH,
  MAX_RANGE_CIDRS,
  MAX_RESULT_CIDRS,
  MAX_SUBTRACT_ENTRIES,
  MIN_ENTRY_LENGTH,
} from "../domain/limits.ts";
import { DBIP_ATTRIBUTION } from "../domain/network-facts.ts";

export const DECIMAL_COUNT = "^(0|[1-9][0-9]*)$";

export const AddressEntry = Type.String({
  minLength: MIN_ENTRY_LENGTH,
  maxLength: MAX_ENTRY_LENGTH,
  description: "An IP address or CIDR; surrounding whitespace is ignored.",
});
export const Count = Type.String({
  pattern: DECIMAL_COUNT,
  description: "Exact count as a base-10 decimal string.",
});
const Family = Type.Union([Type.Literal("ipv4"), Type.Literal("ipv6")]);
export const CanonicalCidr = Type.String({ minLength: 1, maxLength: 64 });
const Range = Type.Object(
  { first: Type.String({ minLength: 1 }), last: Type.String({ minLength: 1 }) },
  { additionalProperties: false },
);

export const HealthResult = Type.Object({ status: Type.Literal("ok") }, { additionalProperties: false });

export const CidrCoverRequest = Type.Object(
  { inputs: Type.Array(AddressEntry, { minItems: 1, maxItems: MAX_COVER_INPUTS }) },
  { additionalProperties: false },
);
export type CidrCoverRequest = Static<typeof CidrCoverRequest>;

export const CidrCoverResult = Type.Object(
  {
    family: Family,
    normalizedInputs: Type.Array(CanonicalCidr, { minItems: 1, maxItems: MAX_COVER_INPUTS }),
    cidr: CanonicalCidr,
    range: Range,
    inputAddressCount: Count,
    coveredAddressCount: Count,
    additionalAddressCount: Count,
  },
  { additionalProperties: false },
);

export const CidrSubtractRequest = Type.Object(
  {
    include: Type.Array(AddressEntry, { minItems: 1, maxItems: MAX_SUBTRACT_ENTRIES }),
    exclude: Type.Array(AddressEntry, { minItems: 0, maxItems: MAX_SUBTRACT_ENTRIES }),
  },
  { additionalProperties: false },
);
export type CidrSubtractRequest = Static<typeof CidrSubtractRequest>;

export const CidrSubtractResult = Type.Object(
  {
    family: Family,
    normalizedInclude: Type.Array(CanonicalCidr, { minItems: 1, maxItems: MAX_SUBTRACT_ENTRIES }),
    normalizedExclude: Type.Array(CanonicalCidr, { maxItems: MAX_SUBTRACT_ENTRIES }),
    cidrs: Type.Array(CanonicalCidr, { maxItems: MAX_RESULT_CIDRS }),
    includedAddressCount: Count,
    removedAddressCount: Count,
    remainingAddressCount: Count,
  },
  { additionalProperties: false },
);

export const RangeToCidrsRequest = Type.Object(
  {
    start: Type.String({ minLength: MIN_ENTRY_LENGTH, maxLength: MAX_ENTRY_LENGTH }),
    end: Type.String({ minLength: MIN_ENTRY_LENGTH, maxLength: MAX_ENTRY_LENGTH }),
  },
  { additionalProperties: false },
);
export type RangeToCidrsRequest = Static<typeof RangeToCidrsRequest>;

export const RangeToCidrsResult = Type.Object(
  {
    family: Family,
    range: Range,
    cidrs: Type.Array(CanonicalCidr, { minItems: 1, maxItems: MAX_RANGE_CIDRS }),
    cidrCount: Type.Integer({ minimum: 1, maximum: MAX_RANGE_CIDRS }),
    addressCount: Count,
  },
  { additionalProperties: false },
);

const PathElement = Type.Union([Type.String({ minLength: 1 }), Type.Integer({ minimum: 0 })]);

export const ErrorIssue = Type.Object(
  {
    message: Type.String(),
    path: Type.Optional(Type.Array(PathElement)),
    index: Type.Optional(Type.Integer({ minimum: 0 })),
    list: Type.Optional(Type.String({ minLength: 1 })),
    field: Type.Optional(Type.String({ minLength: 1 })),
    location: Type.Optional(
      Type.Object(
        {
          line: Type.Integer({ minimum: 1 }),
          offset: Type.Integer({ minimum: 0 }),
          end: Type.Integer({ minimum: 0 }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const ErrorResponse = Type.Object(
  {
    error: Type.Object(
      {
        code: Type.String(),
        message: Type.String(),
        issues: Type.Optional(Type.Array(ErrorIssue)),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

/**
 * What the operator's MaxMind-format databases know of the reported address (CONTRACT §8.10):
 * each field absent (never null) when no database holds it.
 */
const NetworkFacts = {
  asn: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 4_294_967_295,
      description: "`autonomous_system_number` of the GEOIP_ASN_DB database's record.",
    }),
  ),
  asnOrg: Type.Optional(
    Type.String({ minLength: 1, description: "`autonomous_system_organization` of that record." }),
  ),
  country: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        "`country.iso_code` of the GEOIP_COUNTRY_DB database's record (ISO 3166-1 alpha-2, as stored).",
    }),
  ),
  attribution: Type.Optional(
    Type.Literal(DBIP_ATTRIBUTION, {
      description: "DB-IP's credit (CC BY 4.0), present when a field above came from a DB-IP database.",
    }),
  ),
};

export const PublicIpResult = Type.Union([
  Type.Object(
    { family: Type.Literal("ipv4"), ip: Type.String({ format: "ipv4" }), ...NetworkFacts },
    { additionalProperties: false },
  ),
  Type.Object(
    { family: Type.Literal("ipv6"), ip: Type.String({ format: "ipv6" }), ...NetworkFacts },
    { additionalProperties: false },
  ),
]);

export const PublicIpDatabasesResult = Type.Object(
  {
    databases: Type.Array(
      Type.Object(
        {
          variable: Type.Union([Type.Literal("GEOIP_ASN_DB"), Type.Literal("GEOIP_COUNTRY_DB")], {
            description: "The environment variable that names the file.",
          }),
          databaseType: Type.String({ description: "The metadata's `database_type`, as stored." }),
          buildDate: Type.String({
            format: "date-time",
            description: "The metadata's `build_epoch`: RFC 3339, UTC, to the second.",
          }),
          ipVersion: Type.Union([Type.Literal(4), Type.Literal(6)], {
            description: "The metadata's `ip_version`: an IPv4-only database (4) answers no IPv6 address.",
          }),
          attribution: Type.Union([Type.Literal(DBIP_ATTRIBUTION), Type.Null()], {
            description:
              "DB-IP's credit for a database whose `database_type` contains `dbip` (any case); null otherwise.",
          }),
        },
        { additionalProperties: false },
      ),
      { maxItems: 2, description: "One entry per configured variable: GEOIP_ASN_DB, then GEOIP_COUNTRY_DB." },
    ),
  },
  { additionalProperties: false },
);

/** `GET /v1/reference-roots` (CONTRACT §9.2): the reference store this process judges against. */
export const ReferenceRootsResult = Type.Object(
  {
    source: Type.Union([Type.Literal("built-in"), Type.Literal("file")], {
      description:
        "`built-in`: the committed snapshot of Mozilla's roots with their distrust dates; `file`: the operator's REFERENCE_ROOTS_FILE.",
    }),
    version: Type.String({
      description: "The snapshot's version text (its sources and versions), or the file's base name.",
    }),
    certificates: Type.Integer({ minimum: 0, description: "How many roots the store holds." }),
    distrustDates: Type.Integer({
      minimum: 0,
      description:
        "How many roots carry a distrust date (Firefox's server distrust-after or Chrome's SCT not-after).",
    }),
    sha256: Type.String({
      pattern: "^[0-9a-f]{64}$",
      description: "SHA-256, lowercase hex, over the roots' DER concatenated in store order.",
    }),
  },
  { additionalProperties: false },
);
