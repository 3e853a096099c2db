/**
 * Per operation, the prose the OpenAPI document needs beyond the operations table's facts
 * (summary, tag, descriptions, extra error codes and realistic examples), assembled from the
 * folders' `docs.ts`. Every example is a real exchange: tests/docs/openapi.test.ts sends each one
 * to the running server and expects exactly the documented response. A missing entry does not
 * compile (the map is typed by every id); tests/operations/modules.test.ts checks that each comes
 * from its own folder.
 */
import type { OperationDocs } from "../adapters/http/openapi-document.ts";
import { docs as certificateBundle } from "./certificate-bundle/docs.ts";
import { docs as certificateChain } from "./certificate-chain/docs.ts";
import { docs as cidrAllocate } from "./cidr-allocate/docs.ts";
import { docs as cidrCompare } from "./cidr-compare/docs.ts";
import { docs as cidrContains } from "./cidr-contains/docs.ts";
import { docs as cidrCover } from "./cidr-cover/docs.ts";
import { docs as cidrMerge } from "./cidr-merge/docs.ts";
import { docs as cidrSplit } from "./cidr-split/docs.ts";
import { docs as cidrSubnets } from "./cidr-subnets/docs.ts";
import { docs as cidrSubtract } from "./cidr-subtract/docs.ts";
import { docs as cidrUsage } from "./cidr-usage/docs.ts";
import { docs as crl } from "./crl/docs.ts";
import { docs as csr } from "./csr/docs.ts";
import { docs as health } from "./health/docs.ts";
import { docs as ip } from "./ip/docs.ts";
import { docs as publicIp } from "./public-ip/docs.ts";
import { docs as publicIpDatabases } from "./public-ip-databases/docs.ts";
import { docs as rangeToCidrs } from "./range-to-cidrs/docs.ts";
import { docs as referenceRoots } from "./reference-roots/docs.ts";
import { docs as reverseZones } from "./reverse-zones/docs.ts";

/** Operation id → its prose. */
export const OPERATION_DOCS: OperationDocs = {
  health,
  cidrCover,
  cidrSubtract,
  rangeToCidrs,
  certificateBundle,
  certificateChain,
  publicIp,
  cidrMerge,
  cidrSplit,
  cidrContains,
  cidrAllocate,
  ip,
  csr,
  publicIpDatabases,
  reverseZones,
  cidrSubnets,
  cidrCompare,
  crl,
  referenceRoots,
  cidrUsage,
};
