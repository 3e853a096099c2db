/**
 * The cost of each admitted operation's work, read from its validated body before any of it is
 * done (CONTRACT §1.7, docs/decisions/0037-admission-for-all-work.md). A cost is a count of units
 * whose time the admission measures: for the CIDR operations, the entries read plus the entries
 * the answer will hold where the body says so (a split's page, a subnets plan, an allocation); for
 * the certificate operations, the PEM blocks (the queue admits n blocks for n² signature checks).
 *
 * Each function is typed with its operation's request, and the operations table checks that the
 * row's schema and the function agree. They are arithmetic on the body only: no allocation.
 */
import type { Static } from "@sinclair/typebox";
import { MAX_RESULT_CIDRS } from "../domain/limits.ts";
import type { CertificateBundleRequest } from "./certificate-schemas.ts";
import type { CertificateChainRequest } from "./chain-schemas.ts";
import type {
  CidrAllocateRequest,
  CidrCompareRequest,
  CidrContainsRequest,
  CidrMergeRequest,
  CidrSplitRequest,
  CidrUsageRequest,
} from "./cidr-list-schemas.ts";
import type { CrlRequest } from "./crl-schemas.ts";
import type { CsrRequest } from "./csr-schemas.ts";
import type { CidrSubnetsRequest, ReverseZonesRequest } from "./planning-schemas.ts";
import type { CidrCoverRequest, CidrSubtractRequest, RangeToCidrsRequest } from "./schemas.ts";

/** PEM blocks in a text, counted by their BEGIN lines (the scanner itself runs later, in the use case). */
export function pemBlockCount(pem: string): number {
  let count = 0;
  for (let at = pem.indexOf("-----BEGIN"); at !== -1; at = pem.indexOf("-----BEGIN", at + 10)) count++;
  return count;
}

/**
 * How many subnets a split answers, known from the body before splitting: 2^(prefixLength − the
 * block's own length), at most the page's `limit` (or the result bound; a larger split is refused
 * as RESULT_TOO_LARGE, which costs less than this says). An unreadable block costs 1: the use case
 * refuses it at once.
 */
export function splitAnswerSize(input: Static<typeof CidrSplitRequest>): number {
  const slash = input.cidr.indexOf("/");
  const own = slash === -1 ? (input.cidr.includes(":") ? 128 : 32) : Number(input.cidr.slice(slash + 1));
  const bits = input.prefixLength - own;
  if (!Number.isInteger(bits) || bits < 0) return 1;
  return Math.min(input.limit ?? MAX_RESULT_CIDRS, 2 ** Math.min(bits, 30));
}

/** The cost of each operation that is admitted by cost, keyed by operation id. */
export const COSTS = {
  cidrCover: (input: Static<typeof CidrCoverRequest>) => input.inputs.length,
  cidrSubtract: (input: Static<typeof CidrSubtractRequest>) => input.include.length + input.exclude.length,
  // At most 2 × 128 CIDRs whatever the range.
  rangeToCidrs: (_input: Static<typeof RangeToCidrsRequest>) => 1,
  cidrMerge: (input: Static<typeof CidrMergeRequest>) => input.inputs.length,
  cidrSplit: (input: Static<typeof CidrSplitRequest>) => splitAnswerSize(input),
  cidrContains: (input: Static<typeof CidrContainsRequest>) => input.cidrs.length + input.entries.length,
  cidrAllocate: (input: Static<typeof CidrAllocateRequest>) =>
    input.within.length + (input.used?.length ?? 0) + (input.count ?? 1),
  // At most 128 zones whatever the block.
  reverseZones: (_input: Static<typeof ReverseZonesRequest>) => 1,
  cidrSubnets: (input: Static<typeof CidrSubnetsRequest>) => Math.max(1, input.newbits.length),
  cidrCompare: (input: Static<typeof CidrCompareRequest>) => Math.max(1, input.a.length + input.b.length),
  cidrUsage: (input: Static<typeof CidrUsageRequest>) => input.pool.length + input.used.length,
  certificateBundle: (input: Static<typeof CertificateBundleRequest>) => pemBlockCount(input.pem),
  certificateChain: (input: Static<typeof CertificateChainRequest>) => pemBlockCount(input.pem),
  csr: (input: Static<typeof CsrRequest>) => pemBlockCount(input.pem),
  // One signature check (the list's, with issuerPem) and the certificates looked up.
  crl: (input: Static<typeof CrlRequest>) => 1 + pemBlockCount(input.certificatePem ?? ""),
} as const;
