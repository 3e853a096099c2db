/**
 * The operations table, assembled: one row per folder of src/operations/, in the order the
 * OpenAPI document, the client and the routes list them. Each row is stated in its folder
 * (`<id>/row.ts`); src/contract/operations.ts derives the table's types from this object. Like the
 * rows, this module imports only the wire contract and TypeBox (no use case, no prose), so the
 * client and the page can bundle the table. tests/operations/modules.test.ts checks that every
 * folder is listed here, under its own id, and nothing else is.
 */
import type { Operation } from "../contract/operation.ts";
import { row as certificateBundle } from "./certificate-bundle/row.ts";
import { row as certificateChain } from "./certificate-chain/row.ts";
import { row as cidrAllocate } from "./cidr-allocate/row.ts";
import { row as cidrCompare } from "./cidr-compare/row.ts";
import { row as cidrContains } from "./cidr-contains/row.ts";
import { row as cidrCover } from "./cidr-cover/row.ts";
import { row as cidrMerge } from "./cidr-merge/row.ts";
import { row as cidrSplit } from "./cidr-split/row.ts";
import { row as cidrSubnets } from "./cidr-subnets/row.ts";
import { row as cidrSubtract } from "./cidr-subtract/row.ts";
import { row as cidrUsage } from "./cidr-usage/row.ts";
import { row as crl } from "./crl/row.ts";
import { row as csr } from "./csr/row.ts";
import { row as health } from "./health/row.ts";
import { row as ip } from "./ip/row.ts";
import { row as publicIp } from "./public-ip/row.ts";
import { row as publicIpDatabases } from "./public-ip-databases/row.ts";
import { row as rangeToCidrs } from "./range-to-cidrs/row.ts";
import { row as referenceRoots } from "./reference-roots/row.ts";
import { row as reverseZones } from "./reverse-zones/row.ts";

export const OPERATIONS = {
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
  reverseZones,
  cidrSubnets,
  cidrCompare,
  ip,
  csr,
  publicIpDatabases,
  crl,
  referenceRoots,
  cidrUsage,
} as const satisfies { [Id in string]: Operation<Id> };
