/**
 * Binds each operation of the wire contract (src/contract/operations.ts) to its domain use case,
 * once, for every inbound adapter that runs operations in-process: the HTTP composition root
 * (src/app.ts) with the API's limits, and the command-line tool (src/cli/) with the larger local
 * limits of a run on the user's own machine. A new operation is one row of the table and one
 * entry here.
 */
import type { OperationId, RequestOf, ResultOf } from "./contract/operations.ts";
import { buildCertificateChain } from "./domain/certificates/chain.ts";
import { inspectCertificationRequest } from "./domain/certificates/csr.ts";
import { type CertificateBundleDeps, inspectCertificateBundle } from "./domain/certificates/inspect.ts";
import { describeReferenceRoots } from "./domain/certificates/reference-roots.ts";
import { inspectRevocationList } from "./domain/certificates/revocation.ts";
import { allocateCidrs } from "./domain/cidr/allocate.ts";
import { compareCidrs } from "./domain/cidr/compare.ts";
import { cidrsContain } from "./domain/cidr/contains.ts";
import { coverCidrs } from "./domain/cidr/cover.ts";
import { mergeMixedCidrs } from "./domain/cidr/merge-mixed.ts";
import { rangeToCidrs } from "./domain/cidr/range-to-cidrs.ts";
import { reverseZones } from "./domain/cidr/reverse-zones.ts";
import { splitCidr } from "./domain/cidr/split.ts";
import { subtractCidrs } from "./domain/cidr/subtract.ts";
import { cidrSubnets } from "./domain/cidr/terraform-subnets.ts";
import { API_USAGE_LIMITS, cidrUsage } from "./domain/cidr/usage.ts";
import {
  API_ALLOCATE_LIMITS,
  API_LIST_LIMITS,
  LOCAL_ALLOCATE_LIMITS,
  LOCAL_CERTIFICATE_LIMITS,
  LOCAL_CIDR_LIMITS,
} from "./domain/limits.ts";
import { NO_NETWORK_FACTS } from "./domain/network-facts.ts";
import type {
  ClientAddressResult,
  NetworkFacts,
  RevocationListDecoder,
  SignatureVerifier,
  WorkBudget,
} from "./domain/ports.ts";
import { describeAddressDatabases, observePublicIp } from "./domain/public-ip.ts";

/**
 * Where an operation runs, which decides its limits: `api` keeps the specification's (1000
 * entries, 49,152-character PEM …); `local` is a `nettools` run on the user's own machine, with
 * room for a routing table or a system CA bundle (src/domain/limits.ts).
 */
export type Scope = "api" | "local";

/** What one run of a use case gets besides its validated input. */
export interface UseCaseContext {
  /** The address the request's connection is observed from (public-ip); asked only when needed. */
  observeClient(): ClientAddressResult;
  /** The verifier for this run: the HTTP edge passes one that stops at the request's deadline. */
  readonly verifier: SignatureVerifier;
  /** The HTTP edge's request deadline as a budget for long searches; none for the CLI. */
  readonly budget?: WorkBudget;
}

/** The use case of every operation. */
export type UseCases = {
  [Id in OperationId]: (
    input: RequestOf<Id>,
    context: UseCaseContext,
  ) => ResultOf<Id> | Promise<ResultOf<Id>>;
};

/** Frozen: the Responder serializes a frozen constant answer once. */
const HEALTHY = Object.freeze({ status: "ok" as const });

/** The outbound ports the use cases need besides each run's context. */
export interface UseCaseDeps extends Omit<CertificateBundleDeps, "verifier"> {
  /** The operator's GeoIP databases (public-ip); none when absent, as in every CLI run. */
  networkFacts?: NetworkFacts;
  /** The strict CRL reader (POST /v1/crl). */
  revocationLists: RevocationListDecoder;
}

/**
 * The use cases of every operation for `scope`. `deps` are the certificate use case's outbound
 * ports and the public-ip's network facts; the verifier of each run comes from its context.
 */
export function bindUseCases(deps: UseCaseDeps, scope: Scope): UseCases {
  const cidr = scope === "local" ? LOCAL_CIDR_LIMITS : undefined;
  const certificates = scope === "local" ? LOCAL_CERTIFICATE_LIMITS : undefined;
  const lists = scope === "local" ? LOCAL_CIDR_LIMITS : API_LIST_LIMITS;
  const allocation = scope === "local" ? LOCAL_ALLOCATE_LIMITS : API_ALLOCATE_LIMITS;
  const networkFacts = deps.networkFacts ?? NO_NETWORK_FACTS;
  return {
    health: () => HEALTHY,
    cidrCover: (body) => coverCidrs(body.inputs, cidr),
    cidrSubtract: (body) => subtractCidrs(body.include, body.exclude, cidr),
    rangeToCidrs: (body) => rangeToCidrs(body.start, body.end),
    certificateBundle: (body, context) =>
      inspectCertificateBundle(body, { ...deps, verifier: context.verifier }, certificates),
    certificateChain: (body, context) =>
      buildCertificateChain(
        body,
        { ...deps, verifier: context.verifier, ...(context.budget ? { budget: context.budget } : {}) },
        certificates,
      ),
    publicIp: (_, context) => observePublicIp(context.observeClient(), networkFacts),
    cidrMerge: (body) => mergeMixedCidrs(body.inputs, lists, body),
    cidrSplit: (body) => splitCidr(body.cidr, body.prefixLength, lists, body),
    cidrContains: (body) =>
      cidrsContain(
        body.cidrs.map((block) => (typeof block === "string" ? block : block.cidr)),
        body.entries,
        lists,
        body.cidrs.map((block) => (typeof block === "string" ? null : block.label)),
      ),
    cidrAllocate: (body) => allocateCidrs(body, allocation),
    reverseZones: (body) => reverseZones(body.cidr),
    cidrSubnets: (body) => cidrSubnets(body, lists),
    cidrCompare: (body) => compareCidrs(body.a, body.b, lists),
    cidrUsage: (body) =>
      cidrUsage(
        body.pool,
        body.used,
        scope === "local" ? { maxPool: lists.maxEntries, maxUsed: lists.maxEntries } : API_USAGE_LIMITS,
      ),
    ip: (_, context) => observePublicIp(context.observeClient()),
    csr: (body, context) =>
      inspectCertificationRequest(body, { decoder: deps.decoder, verifier: context.verifier }, certificates),
    publicIpDatabases: () => describeAddressDatabases(networkFacts),
    crl: (body, context) =>
      inspectRevocationList(
        body,
        {
          decoder: deps.decoder,
          revocationLists: deps.revocationLists,
          verifier: context.verifier,
          clock: deps.clock,
        },
        certificates,
      ),
    referenceRoots: () => describeReferenceRoots(deps.roots),
  };
}
