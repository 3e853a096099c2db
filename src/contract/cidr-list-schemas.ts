/**
 * TypeBox schemas of the CIDR additions (CONTRACT §7.4–7.5, §8.4–8.5): cidr-merge (with
 * `excludeSpecial`), cidr-split (with its page), cidr-contains, cidr-allocate and cidr-compare
 * (`GET /v1/ip` answers PublicIpResult as text). Like schemas.ts, the one
 * source for request validation and for the OpenAPI document. Each list is bounded here on its own;
 * the bound on two lists together (1000 entries) cannot be said in JSON Schema and is the use
 * case's (one issue at `[]`).
 */
import { type Static, Type } from "@sinclair/typebox";
import { MAX_ALLOCATE_COUNT, MAX_LIST_ENTRIES, MAX_RESULT_CIDRS } from "../domain/limits.ts";
import { AddressEntry, CanonicalCidr, Count, DECIMAL_COUNT } from "./schemas.ts";

/** A prefix length of either family; the family's own bound (32 for IPv4) is the use case's. */
const PrefixLength = Type.Integer({
  minimum: 0,
  maximum: 128,
  description: "A prefix length: 0 to 32 for IPv4, 0 to 128 for IPv6.",
});

const entryList = (minItems: number, description: string) =>
  Type.Array(AddressEntry, { minItems, maxItems: MAX_LIST_ENTRIES, description });

export const CidrMergeRequest = Type.Object(
  {
    inputs: entryList(1, "Addresses or CIDRs; IPv4 and IPv6 may mix."),
    excludeSpecial: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          "Remove first every address whose most specific row in the IANA special-purpose registries is not globally reachable (private, loopback, documentation …); the result then lists them in `excluded`.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type CidrMergeRequest = Static<typeof CidrMergeRequest>;

/** The cidrs and counts of a set of addresses of both families, as cidr-merge writes it. */
const cidrSetFields = (cidrsDescription: string) => ({
  cidrs: Type.Array(CanonicalCidr, { maxItems: MAX_RESULT_CIDRS, description: cidrsDescription }),
  ipv4AddressCount: Count,
  ipv6AddressCount: Count,
});

const ExcludedBlock = Type.Object(
  {
    cidr: CanonicalCidr,
    block: Type.String({ minLength: 1, description: "The deciding registry row's block." }),
    name: Type.String({ minLength: 1, description: "The row's name." }),
    rfc: Type.String({ minLength: 1, description: "The RFC that defines the row." }),
  },
  { additionalProperties: false },
);

export const CidrMergeResult = Type.Object(
  {
    ...cidrSetFields(
      "The minimal CIDR list covering exactly the union of the inputs: IPv4 blocks first, then IPv6, each by network address.",
    ),
    excluded: Type.Optional(
      Type.Array(ExcludedBlock, {
        maxItems: MAX_RESULT_CIDRS,
        description:
          "Only with excludeSpecial: the removed addresses, per deciding row as its minimal CIDR list, all by network address, IPv4 first.",
      }),
    ),
  },
  { additionalProperties: false },
);

export const CidrSplitRequest = Type.Object(
  {
    cidr: Type.String({
      minLength: 1,
      maxLength: 64,
      description: "The block to split: a CIDR, or an address (a /32 or /128).",
    }),
    prefixLength: Type.Integer({
      minimum: 0,
      maximum: 128,
      description: "Length of every subnet: from the block's own length to 32 (IPv4) or 128 (IPv6).",
    }),
    offset: Type.Optional(
      Type.String({
        pattern: DECIMAL_COUNT,
        maxLength: 39,
        default: "0",
        description:
          "The number of the first subnet to answer, from 0, as a decimal string; below subnetCount.",
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_RESULT_CIDRS,
        description:
          "Answer at most this many subnets, from offset on; the answer is then never RESULT_TOO_LARGE.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type CidrSplitRequest = Static<typeof CidrSplitRequest>;

export const CidrSplitResult = Type.Object(
  {
    network: CanonicalCidr,
    prefixLength: PrefixLength,
    subnetCount: Count,
    cidrs: Type.Array(CanonicalCidr, {
      minItems: 1,
      maxItems: MAX_RESULT_CIDRS,
      description: "Every subnet of the block, by network address (with offset or limit, those of the page).",
    }),
  },
  { additionalProperties: false },
);

/** A block with its label (CONTRACT §12): which network matched, in the caller's words. */
const LabelledBlock = Type.Object(
  {
    cidr: AddressEntry,
    label: Type.String({
      minLength: 1,
      maxLength: 256,
      description: "The block's label (1–256 characters).",
    }),
  },
  { additionalProperties: false },
);

export const CidrContainsRequest = Type.Object(
  {
    cidrs: Type.Array(Type.Union([AddressEntry, LabelledBlock]), {
      minItems: 1,
      maxItems: MAX_LIST_ENTRIES,
      description: "The blocks, each an address or CIDR or a { cidr, label } object; IPv4 and IPv6 may mix.",
    }),
    entries: entryList(1, "The addresses or CIDRs to look up; together with cidrs at most 1000."),
  },
  { additionalProperties: false },
);
export type CidrContainsRequest = Static<typeof CidrContainsRequest>;

const Containment = Type.Object(
  {
    entry: CanonicalCidr,
    contained: Type.Boolean({ description: "The whole entry lies inside one block." }),
    overlaps: Type.Boolean({ description: "The entry shares at least one address with a block." }),
    matchedCidr: Type.Union([CanonicalCidr, Type.Null()], {
      description: "The most specific block holding the whole entry, or null.",
    }),
    label: Type.Union([Type.String(), Type.Null()], {
      description: "The label of matchedCidr (its first labelled occurrence), or null.",
    }),
  },
  { additionalProperties: false },
);

export const CidrContainsResult = Type.Object(
  {
    results: Type.Array(Containment, {
      minItems: 1,
      maxItems: MAX_LIST_ENTRIES,
      description: "One answer per entry, in input order.",
    }),
  },
  { additionalProperties: false },
);

export const CidrAllocateRequest = Type.Object(
  {
    within: entryList(1, "The pool: blocks of one family; they may overlap or abut."),
    used: Type.Optional(entryList(0, "Blocks already taken (default none); they may reach outside within.")),
    prefixLength: PrefixLength,
    count: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_ALLOCATE_COUNT,
        default: 1,
        description: "How many blocks to allocate.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type CidrAllocateRequest = Static<typeof CidrAllocateRequest>;

export const CidrAllocateResult = Type.Object(
  {
    cidrs: Type.Array(CanonicalCidr, {
      minItems: 1,
      maxItems: MAX_ALLOCATE_COUNT,
      description: "The lowest-addressed free blocks of the length asked for, lowest first.",
    }),
    freeAddressCount: Count,
  },
  { additionalProperties: false },
);

export const CidrCompareRequest = Type.Object(
  {
    a: entryList(0, "The first list: addresses or CIDRs; IPv4 and IPv6 may mix."),
    b: entryList(0, "The second list; together with a at most 1000 entries."),
  },
  { additionalProperties: false },
);
export type CidrCompareRequest = Static<typeof CidrCompareRequest>;

const CidrSet = Type.Object(
  cidrSetFields(
    "The minimal CIDR list of these addresses: IPv4 blocks first, then IPv6, each by network address.",
  ),
  { additionalProperties: false },
);

export const CidrCompareResult = Type.Object(
  {
    onlyA: CidrSet,
    onlyB: CidrSet,
    both: CidrSet,
    equal: Type.Boolean({
      description: "The two lists cover the same addresses (onlyA and onlyB are empty).",
    }),
  },
  { additionalProperties: false },
);

/** cidr-usage (CONTRACT §12): how full a pool is. */
export const CidrUsageRequest = Type.Object(
  {
    pool: Type.Array(AddressEntry, {
      minItems: 1,
      maxItems: 1000,
      description: "The pool: 1–1000 addresses or CIDRs of one family, merged as a set.",
    }),
    used: Type.Array(AddressEntry, {
      minItems: 0,
      maxItems: 10_000,
      description:
        "What is taken: 0–10000 addresses or CIDRs of the pool's family; parts outside the pool count in outsidePool only.",
    }),
  },
  { additionalProperties: false },
);
export type CidrUsageRequest = Static<typeof CidrUsageRequest>;

export const CidrUsageResult = Type.Object(
  {
    total: Count,
    used: Count,
    free: Count,
    outsidePool: Count,
    percentUsed: Type.Number({
      minimum: 0,
      maximum: 100,
      description: "used / total in percent, two decimals, rounded half up.",
    }),
    largestFree: Type.Union([CanonicalCidr, Type.Null()], {
      description: "The largest aligned free CIDR, the lowest on a tie; null when the pool is full.",
    }),
    freeBySize: Type.Array(
      Type.Object(
        {
          prefixLength: Type.Integer({ minimum: 0, maximum: 128 }),
          blocks: Count,
        },
        { additionalProperties: false },
      ),
      {
        maxItems: 64,
        description:
          "For each prefix length from largestFree's to 32 or 128 (at most 64): how many aligned blocks of that length fit in the free space.",
      },
    ),
  },
  { additionalProperties: false },
);
