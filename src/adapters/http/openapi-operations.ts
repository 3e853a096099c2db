/**
 * Per operation, the prose the OpenAPI document needs beyond the operations table's facts: summary,
 * tag, descriptions, extra error codes and realistic examples, one file per operation id in
 * operation-docs/. Every example is a real exchange: tests/docs/openapi.test.ts sends each one to
 * the running server and expects exactly the documented response. A new operation needs an entry
 * here, keyed by its id (it does not compile without one).
 */
import type { OperationDocs } from "./openapi-document.ts";
import { certificateBundleDoc } from "./operation-docs/certificate-bundle.ts";
import { certificateChainDoc } from "./operation-docs/certificate-chain.ts";
import { cidrAllocateDoc } from "./operation-docs/cidr-allocate.ts";
import { cidrCompareDoc } from "./operation-docs/cidr-compare.ts";
import { cidrContainsDoc } from "./operation-docs/cidr-contains.ts";
import { cidrCoverDoc } from "./operation-docs/cidr-cover.ts";
import { cidrMergeDoc } from "./operation-docs/cidr-merge.ts";
import { cidrSplitDoc } from "./operation-docs/cidr-split.ts";
import { cidrSubnetsDoc } from "./operation-docs/cidr-subnets.ts";
import { cidrSubtractDoc } from "./operation-docs/cidr-subtract.ts";
import { cidrUsageDoc } from "./operation-docs/cidr-usage.ts";
import { crlDoc } from "./operation-docs/crl.ts";
import { csrDoc } from "./operation-docs/csr.ts";
import { healthDoc } from "./operation-docs/health.ts";
import { ipDoc } from "./operation-docs/ip.ts";
import { publicIpDoc } from "./operation-docs/public-ip.ts";
import { publicIpDatabasesDoc } from "./operation-docs/public-ip-databases.ts";
import { rangeToCidrsDoc } from "./operation-docs/range-to-cidrs.ts";
import { referenceRootsDoc } from "./operation-docs/reference-roots.ts";
import { reverseZonesDoc } from "./operation-docs/reverse-zones.ts";

/** Operation id → its prose. */
export const OPERATION_DOCS: OperationDocs = {
  health: healthDoc,
  cidrCover: cidrCoverDoc,
  cidrSubtract: cidrSubtractDoc,
  rangeToCidrs: rangeToCidrsDoc,
  certificateBundle: certificateBundleDoc,
  certificateChain: certificateChainDoc,
  publicIp: publicIpDoc,
  cidrMerge: cidrMergeDoc,
  cidrSplit: cidrSplitDoc,
  cidrContains: cidrContainsDoc,
  cidrAllocate: cidrAllocateDoc,
  ip: ipDoc,
  csr: csrDoc,
  publicIpDatabases: publicIpDatabasesDoc,
  reverseZones: reverseZonesDoc,
  cidrSubnets: cidrSubnetsDoc,
  cidrCompare: cidrCompareDoc,
  crl: crlDoc,
  referenceRoots: referenceRootsDoc,
  cidrUsage: cidrUsageDoc,
};
