/**
 * The operations table: every API operation once, with its method, path, request and result
 * schemas and the policy the serving edge applies to it. The Elysia routes, the OpenAPI
 * document, the typed client and the CLI are all derived from this table; the use case behind
 * each operation is bound to it in the composition root (src/app.ts), so this module stays free
 * of the domain's use cases and bundles for the browser.
 */
import type { Static, TSchema } from "@sinclair/typebox";
import { CertificateBundleRequest, CertificateBundleResult } from "./certificate-schemas.ts";
import {
  CidrCoverRequest,
  CidrCoverResult,
  CidrSubtractRequest,
  CidrSubtractResult,
  HealthResult,
  PublicIpResult,
  RangeToCidrsRequest,
  RangeToCidrsResult,
} from "./schemas.ts";

/**
 * How expensive an operation's work can be, which decides how the edge admits it:
 * - `light`: bounded, sub-millisecond to a few milliseconds of CPU on the request's own turn;
 * - `queued`: signature checks that may take hundreds of milliseconds; run through the bounded
 *   admission queue and refused with 503 `OVERLOADED` when they cannot start in time
 *   (CONTRACT §1.7).
 */
export type CostClass = "light" | "queued";

export interface OperationPolicy {
  /** `Cache-Control: no-store` on every response, errors included (CONTRACT §1.2). */
  readonly noStore: boolean;
  /** Subject to the optional per-client rate limit (CONTRACT §1.5); the health probe is not. */
  readonly rateLimited: boolean;
  /** Never refused for load (CONTRACT §1.7: health and public-ip). */
  readonly cost: CostClass;
  /** A `text/plain` representation chosen by `Accept` (public-ip), with `Vary: Accept`. */
  readonly textAlternative: boolean;
}

/** One row of the table. `request` is null for operations without a body (GET). */
export interface Operation<
  Request extends TSchema | null = TSchema | null,
  Result extends TSchema = TSchema,
> {
  /** Also the OpenAPI operationId and the client's method name. */
  readonly id: string;
  readonly method: "GET" | "POST";
  readonly path: string;
  readonly request: Request;
  readonly result: Result;
  /** Component names of the schemas in the OpenAPI document. */
  readonly requestName: string | null;
  readonly resultName: string;
  readonly policy: OperationPolicy;
  readonly summary: string;
  readonly description?: string;
  readonly tag: "CIDR" | "Certificates" | "Diagnostics" | "Platform";
}

const LIGHT: OperationPolicy = { noStore: false, rateLimited: true, cost: "light", textAlternative: false };

export const OPERATIONS = {
  health: {
    id: "health",
    method: "GET",
    path: "/v1/health",
    request: null,
    result: HealthResult,
    requestName: null,
    resultName: "HealthResult",
    policy: { ...LIGHT, rateLimited: false },
    summary: "Liveness and readiness probe",
    tag: "Platform",
  },
  cidrCover: {
    id: "cidrCover",
    method: "POST",
    path: "/v1/cidr-cover",
    request: CidrCoverRequest,
    result: CidrCoverResult,
    requestName: "CidrCoverRequest",
    resultName: "CidrCoverResult",
    policy: LIGHT,
    summary: "Smallest single CIDR covering every input",
    tag: "CIDR",
  },
  cidrSubtract: {
    id: "cidrSubtract",
    method: "POST",
    path: "/v1/cidr-subtract",
    request: CidrSubtractRequest,
    result: CidrSubtractResult,
    requestName: "CidrSubtractRequest",
    resultName: "CidrSubtractResult",
    policy: LIGHT,
    summary: "Included address space minus excluded ranges, as minimal CIDRs",
    tag: "CIDR",
  },
  rangeToCidrs: {
    id: "rangeToCidrs",
    method: "POST",
    path: "/v1/range-to-cidrs",
    request: RangeToCidrsRequest,
    result: RangeToCidrsResult,
    requestName: "RangeToCidrsRequest",
    resultName: "RangeToCidrsResult",
    policy: LIGHT,
    summary: "Inclusive address range as a minimal CIDR list",
    tag: "CIDR",
  },
  certificateBundle: {
    id: "certificateBundle",
    method: "POST",
    path: "/v1/certificate-bundle",
    request: CertificateBundleRequest,
    result: CertificateBundleResult,
    requestName: "CertificateBundleRequest",
    resultName: "CertificateBundleResult",
    policy: { ...LIGHT, noStore: true, cost: "queued" },
    summary: "Inspect a PEM certificate bundle",
    description:
      "Reports every certificate, every candidate issuer link with its signature outcome, possible leaves, an optional hostname check and findings. An observation, not RFC 5280 path validation.",
    tag: "Certificates",
  },
  publicIp: {
    id: "publicIp",
    method: "GET",
    path: "/v1/public-ip",
    request: null,
    result: PublicIpResult,
    requestName: null,
    resultName: "PublicIpResult",
    policy: { ...LIGHT, noStore: true, textAlternative: true },
    summary: "The IP address this connection is observed from",
    description:
      "`Accept: text/plain` returns the address and a line feed; anything else returns JSON. Never cached.",
    tag: "Diagnostics",
  },
} as const satisfies Record<string, Operation>;

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

/** Every operation, in table order. */
export const OPERATION_LIST: readonly Operation[] = Object.values(OPERATIONS);
