/**
 * TypeBox schemas of the planning operations (CONTRACT §8.8–8.9): reverse-zones (the reverse DNS
 * zones of a block) and cidr-subnets (Terraform's `cidrsubnets`). Like schemas.ts, the one source
 * for request validation and for the OpenAPI document. The range of each `newbits` (1 to 32, and
 * the prefix length plus it at most 32 or 128, which depends on the prefix's family) is the use
 * case's, so that every such issue at `["newbits", i]` reads in Terraform's words.
 */
import { Type } from "@sinclair/typebox";
import { MAX_ENTRY_LENGTH, MAX_LIST_ENTRIES, MIN_ENTRY_LENGTH } from "../domain/limits.ts";
import { CanonicalCidr } from "./schemas.ts";

/** An address or CIDR field (CONTRACT §2), described for its operation. */
const entryField = (description: string) =>
  Type.String({ minLength: MIN_ENTRY_LENGTH, maxLength: MAX_ENTRY_LENGTH, description });

export const ReverseZonesRequest = Type.Object(
  { cidr: entryField("The block: a CIDR, or an address (a /32 or /128).") },
  { additionalProperties: false },
);

export const ReverseZonesResult = Type.Object(
  {
    cidr: CanonicalCidr,
    zones: Type.Array(Type.String({ minLength: 1, maxLength: 80, pattern: "\\.arpa\\.$" }), {
      minItems: 1,
      maxItems: 128,
      description:
        "The minimal reverse zones covering exactly the block, by address, each ending with a dot: whole octets under in-addr.arpa. (RFC 2317 FIRST/p names for IPv4 /25 to /31), whole nibbles under ip6.arpa.",
    }),
  },
  { additionalProperties: false },
);

export const CidrSubnetsRequest = Type.Object(
  {
    prefix: entryField("The block to pack from: a CIDR or an address; host bits are cleared."),
    newbits: Type.Array(
      Type.Integer({
        description:
          "Bits added to the prefix length for this block (Terraform's newbits): 1 to 32. The use case checks the range, in Terraform's words, with the family's bound.",
      }),
      {
        maxItems: MAX_LIST_ENTRIES,
        description:
          "One entry per block, in order; the prefix length plus each must be at most 32 (IPv4) or 128 (IPv6).",
      },
    ),
  },
  { additionalProperties: false },
);

export const CidrSubnetsResult = Type.Object(
  {
    prefix: CanonicalCidr,
    cidrs: Type.Array(CanonicalCidr, {
      maxItems: MAX_LIST_ENTRIES,
      description:
        "One block per newbits entry, in the same order, packed as Terraform's cidrsubnets packs them.",
    }),
  },
  { additionalProperties: false },
);
