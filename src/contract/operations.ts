/**
 * The operations table: every API operation once, with its method, path, request and result
 * schemas and the policy the serving edge applies to it. The routes, the OpenAPI document, the
 * typed client, the CLI and the page are all derived from this table, and no other module states
 * any of these facts. The use case behind each operation is bound to it in src/use-cases.ts (for
 * the server and for the CLI's local runs alike), so this module stays free of the domain's use
 * cases and bundles for the browser. A new operation is one row here, one use-case binding, and
 * its docs prose (one file per operation, registered in src/adapters/http/openapi-operations.ts).
 */
import type { Static, TSchema } from "@sinclair/typebox";
import { CertificateBundleRequest, CertificateBundleResult } from "./certificate-schemas.ts";
import { CertificateChainRequest, CertificateChainResult } from "./chain-schemas.ts";
import {
  CidrAllocateRequest,
  CidrAllocateResult,
  CidrCompareRequest,
  CidrCompareResult,
  CidrContainsRequest,
  CidrContainsResult,
  CidrMergeRequest,
  CidrMergeResult,
  CidrSplitRequest,
  CidrSplitResult,
  CidrUsageRequest,
  CidrUsageResult,
} from "./cidr-list-schemas.ts";
import { COSTS } from "./costs.ts";
import { CrlRequest, CrlResult } from "./crl-schemas.ts";
import { CsrRequest, CsrResult } from "./csr-schemas.ts";
import {
  CidrSubnetsRequest,
  CidrSubnetsResult,
  ReverseZonesRequest,
  ReverseZonesResult,
} from "./planning-schemas.ts";
import {
  CidrCoverRequest,
  CidrCoverResult,
  CidrSubtractRequest,
  CidrSubtractResult,
  HealthResult,
  PublicIpDatabasesResult,
  PublicIpResult,
  RangeToCidrsRequest,
  RangeToCidrsResult,
  ReferenceRootsResult,
} from "./schemas.ts";

/** The version of the interface this table describes (spec part 9), shown in the OpenAPI document. */
export const INTERFACE_VERSION = "0.5.0";

/** How an operation's 200 answer is represented. */
export type Representation =
  /** JSON only. */
  | "json"
  /** JSON, or `text/plain` when `Accept` prefers it (CONTRACT §5); answers carry `Vary: Accept`. */
  | "json-or-text"
  /** Always `text/plain`, whatever `Accept` says (CONTRACT §7.5); errors stay JSON envelopes. */
  | "text";

/** What the serving edge applies to every request of an operation. */
export interface OperationPolicy {
  /** `Cache-Control: no-store` on every response, errors included (CONTRACT §1.2). */
  readonly noStore: boolean;
  /** Subject to the optional per-client rate limit (CONTRACT §1.5); the health probe is not. */
  readonly rateLimited: boolean;
  /**
   * How the work is admitted (CONTRACT §1.7): `immediate` work is tiny and runs on the request's
   * own turn (never refused for load: health, public-ip); `metered` work (the CIDR operations, up
   * to milliseconds of the event loop's time) also runs on the request's own turn, when the loop's
   * work budget has room for its cost, and is refused at once with 503 `OVERLOADED` otherwise;
   * `queued` work (signature checks, up to hundreds of milliseconds) waits in the bounded
   * admission queue and is refused with 503 `OVERLOADED` when it cannot start, or finish, in time.
   * `metered` and `queued` rows declare their {@link Operation.cost}.
   */
  readonly admission: "immediate" | "metered" | "queued";
  readonly representation: Representation;
}

/**
 * One row of the table: every fact about an operation lives here and only here. `request` is
 * null for operations without a body (GET). The OpenAPI components are named after the id
 * ({@link schemaNamesOf}); prose and examples live in the docs table, keyed by id.
 */
export interface Operation<
  Id extends string = string,
  Request extends TSchema | null = TSchema | null,
  Result extends TSchema = TSchema,
> {
  /** Also the OpenAPI operationId, the client's method name and the metrics label. */
  readonly id: Id;
  readonly method: "GET" | "POST";
  readonly path: string;
  readonly request: Request;
  /** The JSON result (for `text` operations: the value whose text is sent, see {@link Operation.text}). */
  readonly result: Result;
  readonly policy: OperationPolicy;
  /**
   * Issues carry the spec's legacy locators (`index`, `list`, `field`) beside `path` (CONTRACT
   * §1.1): the spec's CIDR operations only. The additions of CONTRACT §7 carry `path` alone.
   */
  readonly legacyLocators?: boolean;
  /**
   * The size of a request's work, from its validated body, before any of it is done (CONTRACT
   * §1.7): entries in, and the answer's size where the body tells it; for certificate work, the
   * PEM blocks. Declared by `metered` and `queued` rows with their own request type (checked
   * against the row's schema by {@link CostMismatches}); admission turns it into time.
   */
  readonly cost?: (input: never) => number;
  /**
   * The text body of a `text` or `json-or-text` answer, from the row's own result type (checked by
   * {@link TextMismatches}); declared by those rows and only them.
   */
  readonly text?: (result: never) => string;
  /**
   * How the JSON answer is written at the HTTP edge (src/adapters/http/encoders/), by the shape of
   * the result; `JSON.stringify` when absent. `deferredLists`: a result whose list fields the
   * domain keeps as its own values (prefixes as words; `resultWith` in src/domain/list-fields.ts);
   * `constant`: one frozen answer, the same every time, serialized once.
   */
  readonly encoder?: ResultEncoder;
}

/** The encoders a row may name ({@link Operation.encoder}). */
export type ResultEncoder = "deferredLists" | "constant";

/**
 * The policy of every path that is not an operation: the page, the docs and their assets, and
 * unknown paths. They spend a token of the optional rate limit like the API (CONTRACT §1.5); only
 * the health probe and CORS preflights never do.
 */
export const SITE_POLICY: Pick<OperationPolicy, "noStore" | "rateLimited"> = {
  noStore: false,
  rateLimited: true,
};

const JSON_ANSWER = {
  noStore: false,
  rateLimited: true,
  admission: "immediate",
  representation: "json",
} as const;
/** A CIDR operation: admitted by its cost on the request's own turn (CONTRACT §1.7). */
const METERED_JSON_ANSWER = { ...JSON_ANSWER, admission: "metered" } as const;
const CLIENT_ADDRESS = { ...JSON_ANSWER, noStore: true } as const;

/** The text of a public-ip answer: the address and a line feed (CONTRACT §5, §7.5). */
function addressLine(result: Static<typeof PublicIpResult>): string {
  return `${result.ip}\n`;
}

export const OPERATIONS = {
  health: {
    id: "health",
    method: "GET",
    path: "/v1/health",
    request: null,
    result: HealthResult,
    policy: { ...JSON_ANSWER, rateLimited: false },
    encoder: "constant",
  },
  cidrCover: {
    id: "cidrCover",
    method: "POST",
    path: "/v1/cidr-cover",
    request: CidrCoverRequest,
    result: CidrCoverResult,
    policy: METERED_JSON_ANSWER,
    legacyLocators: true,
    cost: COSTS.cidrCover,
    encoder: "deferredLists",
  },
  cidrSubtract: {
    id: "cidrSubtract",
    method: "POST",
    path: "/v1/cidr-subtract",
    request: CidrSubtractRequest,
    result: CidrSubtractResult,
    policy: METERED_JSON_ANSWER,
    legacyLocators: true,
    cost: COSTS.cidrSubtract,
    encoder: "deferredLists",
  },
  rangeToCidrs: {
    id: "rangeToCidrs",
    method: "POST",
    path: "/v1/range-to-cidrs",
    request: RangeToCidrsRequest,
    result: RangeToCidrsResult,
    policy: METERED_JSON_ANSWER,
    legacyLocators: true,
    cost: COSTS.rangeToCidrs,
    encoder: "deferredLists",
  },
  certificateBundle: {
    id: "certificateBundle",
    method: "POST",
    path: "/v1/certificate-bundle",
    request: CertificateBundleRequest,
    result: CertificateBundleResult,
    policy: { ...JSON_ANSWER, noStore: true, admission: "queued" },
    cost: COSTS.certificateBundle,
  },
  certificateChain: {
    id: "certificateChain",
    method: "POST",
    path: "/v1/certificate-chain",
    request: CertificateChainRequest,
    result: CertificateChainResult,
    policy: { ...JSON_ANSWER, noStore: true, admission: "queued" },
    cost: COSTS.certificateChain,
  },
  publicIp: {
    id: "publicIp",
    method: "GET",
    path: "/v1/public-ip",
    request: null,
    result: PublicIpResult,
    policy: { ...CLIENT_ADDRESS, representation: "json-or-text" },
    text: addressLine,
  },
  cidrMerge: {
    id: "cidrMerge",
    method: "POST",
    path: "/v1/cidr-merge",
    request: CidrMergeRequest,
    result: CidrMergeResult,
    policy: METERED_JSON_ANSWER,
    cost: COSTS.cidrMerge,
    encoder: "deferredLists",
  },
  cidrSplit: {
    id: "cidrSplit",
    method: "POST",
    path: "/v1/cidr-split",
    request: CidrSplitRequest,
    result: CidrSplitResult,
    policy: METERED_JSON_ANSWER,
    cost: COSTS.cidrSplit,
    encoder: "deferredLists",
  },
  cidrContains: {
    id: "cidrContains",
    method: "POST",
    path: "/v1/cidr-contains",
    request: CidrContainsRequest,
    result: CidrContainsResult,
    policy: METERED_JSON_ANSWER,
    cost: COSTS.cidrContains,
  },
  cidrAllocate: {
    id: "cidrAllocate",
    method: "POST",
    path: "/v1/cidr-allocate",
    request: CidrAllocateRequest,
    result: CidrAllocateResult,
    policy: METERED_JSON_ANSWER,
    cost: COSTS.cidrAllocate,
    encoder: "deferredLists",
  },
  reverseZones: {
    id: "reverseZones",
    method: "POST",
    path: "/v1/reverse-zones",
    request: ReverseZonesRequest,
    result: ReverseZonesResult,
    policy: METERED_JSON_ANSWER,
    cost: COSTS.reverseZones,
    encoder: "deferredLists",
  },
  cidrSubnets: {
    id: "cidrSubnets",
    method: "POST",
    path: "/v1/cidr-subnets",
    request: CidrSubnetsRequest,
    result: CidrSubnetsResult,
    policy: METERED_JSON_ANSWER,
    cost: COSTS.cidrSubnets,
    encoder: "deferredLists",
  },
  cidrCompare: {
    id: "cidrCompare",
    method: "POST",
    path: "/v1/cidr-compare",
    request: CidrCompareRequest,
    result: CidrCompareResult,
    policy: METERED_JSON_ANSWER,
    cost: COSTS.cidrCompare,
    encoder: "deferredLists",
  },
  ip: {
    id: "ip",
    method: "GET",
    path: "/v1/ip",
    request: null,
    result: PublicIpResult,
    policy: { ...CLIENT_ADDRESS, representation: "text" },
    text: addressLine,
  },
  csr: {
    id: "csr",
    method: "POST",
    path: "/v1/csr",
    request: CsrRequest,
    result: CsrResult,
    policy: { ...JSON_ANSWER, noStore: true, admission: "queued" },
    cost: COSTS.csr,
  },
  publicIpDatabases: {
    id: "publicIpDatabases",
    method: "GET",
    path: "/v1/public-ip/databases",
    request: null,
    result: PublicIpDatabasesResult,
    // no-store: a SIGHUP reload changes the answer at any moment (CONTRACT §8.10).
    policy: { ...JSON_ANSWER, noStore: true },
  },
  crl: {
    id: "crl",
    method: "POST",
    path: "/v1/crl",
    request: CrlRequest,
    result: CrlResult,
    // A signature check: queued like the other certificate operations (CONTRACT §10.2).
    policy: { ...JSON_ANSWER, noStore: true, admission: "queued" },
    cost: COSTS.crl,
  },
  referenceRoots: {
    id: "referenceRoots",
    method: "GET",
    path: "/v1/reference-roots",
    request: null,
    result: ReferenceRootsResult,
    // no-store: the answer describes this process's configuration (CONTRACT §9.2).
    policy: { ...JSON_ANSWER, noStore: true },
  },
  cidrUsage: {
    id: "cidrUsage",
    method: "POST",
    path: "/v1/cidr-usage",
    request: CidrUsageRequest,
    result: CidrUsageResult,
    policy: METERED_JSON_ANSWER,
    cost: COSTS.cidrUsage,
  },
} as const satisfies { [Id in string]: Operation<Id> };

export type Operations = typeof OPERATIONS;
export type OperationId = keyof Operations;

type RequestTypes = {
  [Id in OperationId]: Operations[Id]["request"] extends null
    ? undefined
    : Static<NonNullable<Operations[Id]["request"]>>;
};
type ResultTypes = { [Id in OperationId]: Static<Operations[Id]["result"]> };

/** The request body type of an operation (`undefined` for operations without one). */
export type RequestOf<Id extends OperationId> = RequestTypes[Id];
/** The JSON result type of an operation. */
export type ResultOf<Id extends OperationId> = ResultTypes[Id];

/**
 * The ids of the rows whose `cost` does not take the row's own request type: none (a compile
 * error below names such a row).
 */
export type CostMismatches = {
  [Id in OperationId]: Operations[Id] extends { cost: (input: infer Input) => number }
    ? [RequestOf<Id>] extends [Input]
      ? [Input] extends [RequestOf<Id>]
        ? never
        : Id
      : Id
    : never;
}[OperationId];
const costsFitRequests: [CostMismatches] extends [never] ? true : CostMismatches = true;
void costsFitRequests;

/**
 * The ids of the rows whose `text` does not take the row's own result type, or that answer in
 * text without one, or declare one without answering in text: none (a compile error names them).
 */
export type TextMismatches = {
  [Id in OperationId]: Operations[Id] extends { text: (result: infer Result) => string }
    ? Operations[Id]["policy"]["representation"] extends "json"
      ? Id
      : [ResultOf<Id>] extends [Result]
        ? [Result] extends [ResultOf<Id>]
          ? never
          : Id
        : Id
    : Operations[Id]["policy"]["representation"] extends "json"
      ? never
      : Id;
}[OperationId];
const textsFitResults: [TextMismatches] extends [never] ? true : TextMismatches = true;
void textsFitResults;

/** Every operation, in table order. */
export const OPERATION_LIST: readonly Operation<OperationId>[] = Object.values(OPERATIONS);

/** Ids of the operations without a request body (GET). */
export type BodylessOperationId = {
  [Id in OperationId]: Operations[Id]["request"] extends null ? Id : never;
}[OperationId];

/** Ids of the operations with a given representation of their answer. */
export type OperationIdWith<R extends Representation> = {
  [Id in OperationId]: Operations[Id]["policy"]["representation"] extends R ? Id : never;
}[OperationId];

/** The OpenAPI component names of an operation's schemas: `cidrCover` → `CidrCoverRequest`, `CidrCoverResult`. */
export function schemaNamesOf(id: string): { request: string; result: string } {
  const base = id.charAt(0).toUpperCase() + id.slice(1);
  return { request: `${base}Request`, result: `${base}Result` };
}
