/**
 * The use cases of every operation, assembled from the folders' bindings
 * (`src/operations/<id>/use-case.ts`), once, for every inbound adapter that runs operations
 * in-process: the HTTP composition root (src/app.ts) with the API's limits, the command-line tool
 * (src/cli/) and the certificate watch with the local ones. Each binding runs here, at assembly,
 * never per request. A missing binding does not compile (the result is typed by every id);
 * tests/operations/modules.test.ts checks that each comes from its own folder.
 */
import { type OperationPorts, portsOf, type Scope, type UseCaseDeps, type UseCases } from "./binding.ts";
import { bind as certificateBundle } from "./certificate-bundle/use-case.ts";
import { bind as certificateChain } from "./certificate-chain/use-case.ts";
import { bind as cidrAllocate } from "./cidr-allocate/use-case.ts";
import { bind as cidrCompare } from "./cidr-compare/use-case.ts";
import { bind as cidrContains } from "./cidr-contains/use-case.ts";
import { bind as cidrCover } from "./cidr-cover/use-case.ts";
import { bind as cidrMerge } from "./cidr-merge/use-case.ts";
import { bind as cidrSplit } from "./cidr-split/use-case.ts";
import { bind as cidrSubnets } from "./cidr-subnets/use-case.ts";
import { bind as cidrSubtract } from "./cidr-subtract/use-case.ts";
import { bind as cidrUsage } from "./cidr-usage/use-case.ts";
import { bind as crl } from "./crl/use-case.ts";
import { bind as csr } from "./csr/use-case.ts";
import { bind as health } from "./health/use-case.ts";
import { bind as ip } from "./ip/use-case.ts";
import { bind as publicIp } from "./public-ip/use-case.ts";
import { bind as publicIpDatabases } from "./public-ip-databases/use-case.ts";
import { bind as rangeToCidrs } from "./range-to-cidrs/use-case.ts";
import { bind as referenceRoots } from "./reference-roots/use-case.ts";
import { bind as reverseZones } from "./reverse-zones/use-case.ts";

export type { Scope, UseCaseContext, UseCaseDeps, UseCases } from "./binding.ts";

/**
 * The use cases of every operation for `scope`. `deps` are the certificate use cases' outbound
 * ports, the CRL reader and the public-ip's network facts; the verifier of each run comes from its
 * context.
 */
export function bindUseCases(deps: UseCaseDeps, scope: Scope): UseCases {
  const ports: OperationPorts = portsOf(deps, scope);
  return {
    health: health(ports),
    cidrCover: cidrCover(ports),
    cidrSubtract: cidrSubtract(ports),
    rangeToCidrs: rangeToCidrs(ports),
    certificateBundle: certificateBundle(ports),
    certificateChain: certificateChain(ports),
    publicIp: publicIp(ports),
    cidrMerge: cidrMerge(ports),
    cidrSplit: cidrSplit(ports),
    cidrContains: cidrContains(ports),
    cidrAllocate: cidrAllocate(ports),
    reverseZones: reverseZones(ports),
    cidrSubnets: cidrSubnets(ports),
    cidrCompare: cidrCompare(ports),
    cidrUsage: cidrUsage(ports),
    ip: ip(ports),
    csr: csr(ports),
    publicIpDatabases: publicIpDatabases(ports),
    crl: crl(ports),
    referenceRoots: referenceRoots(ports),
  };
}
