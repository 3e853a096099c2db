/**
 * What an operation's use-case binding (`src/operations/<id>/use-case.ts`) is given and must
 * return. A binding is a function of the ports, run once when a composition root assembles the
 * use cases (src/operations/use-cases.ts): the server's (src/app.ts) with the API's limits, the
 * command-line tool's with the larger local limits of a run on the user's own machine. What it
 * returns runs per request, so whatever a binding can work out from its ports it works out here,
 * once, not on each call.
 */
import type { OperationId, RequestOf, ResultOf } from "../contract/operations.ts";
import type { CertificateBundleDeps } from "../domain/certificates/inspect.ts";
import { API_USAGE_LIMITS } from "../domain/cidr/usage.ts";
import {
  API_ALLOCATE_LIMITS,
  API_LIST_LIMITS,
  LOCAL_ALLOCATE_LIMITS,
  LOCAL_CERTIFICATE_LIMITS,
  LOCAL_CIDR_LIMITS,
} from "../domain/limits.ts";
import { NO_NETWORK_FACTS } from "../domain/network-facts.ts";
import type {
  ClientAddressResult,
  NetworkFacts,
  RevocationListDecoder,
  SignatureVerifier,
  WorkBudget,
} from "../domain/ports.ts";

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

/** The outbound ports the use cases need besides each run's context. */
export interface UseCaseDeps extends Omit<CertificateBundleDeps, "verifier"> {
  /** The operator's GeoIP databases (public-ip); none when absent, as in every CLI run. */
  networkFacts?: NetworkFacts;
  /** The strict CRL reader (POST /v1/crl). */
  revocationLists: RevocationListDecoder;
}

/** The limits of a scope, for each family of use cases (src/domain/limits.ts). */
function limitsOf(scope: Scope) {
  const local = scope === "local";
  return {
    /** cover and subtract: the spec's own bounds through the API (none passed), the local ones here. */
    cidr: local ? LOCAL_CIDR_LIMITS : undefined,
    /** The certificate operations: the spec's PEM bounds through the API (none passed). */
    certificates: local ? LOCAL_CERTIFICATE_LIMITS : undefined,
    /** merge, split, contains, subnets, compare. */
    lists: local ? LOCAL_CIDR_LIMITS : API_LIST_LIMITS,
    allocation: local ? LOCAL_ALLOCATE_LIMITS : API_ALLOCATE_LIMITS,
    usage: local
      ? { maxPool: LOCAL_CIDR_LIMITS.maxEntries, maxUsed: LOCAL_CIDR_LIMITS.maxEntries }
      : API_USAGE_LIMITS,
  } as const;
}

/** What every binding is given: its scope, its scope's limits, and the outbound ports. */
export interface OperationPorts {
  readonly scope: Scope;
  /**
   * The outbound ports, read when a use case runs, never at binding: the CLI's are getters, built
   * on first use, and its root store changes with each run's `--roots` (src/cli/run-operation.ts).
   */
  readonly deps: UseCaseDeps;
  /** The operator's GeoIP databases, or none (an empty set of facts), as at binding. */
  readonly networkFacts: NetworkFacts;
  readonly limits: ReturnType<typeof limitsOf>;
}

/** The ports of every binding for `scope`, worked out once per assembly. */
export function portsOf(deps: UseCaseDeps, scope: Scope): OperationPorts {
  return { scope, deps, networkFacts: deps.networkFacts ?? NO_NETWORK_FACTS, limits: limitsOf(scope) };
}

/** An operation's binding: its use case, given the ports. */
export type Binding<Id extends OperationId> = (ports: OperationPorts) => UseCases[Id];
