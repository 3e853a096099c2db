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

export const PublicIpResult = Type.Union([
  Type.Object(
    { family: Type.Literal("ipv4"), ip: Type.String({ format: "ipv4" }) },
    { additionalProperties: false },
  ),
  Type.Object(
    { family: Type.Literal("ipv6"), ip: Type.String({ format: "ipv6" }) },
    { additionalProperties: false },
  ),
]);
