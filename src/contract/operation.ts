/**
 * The shape of one row of the operations table ({@link Operation}) and the policies rows are built
 * from. Each operation states its row in its own folder (`src/operations/<id>/row.ts`); the table
 * that lists them is src/operations/table.ts, and src/contract/operations.ts derives the types
 * every adapter reads from it. It imports only a TypeBox type: a row imports it without a cycle.
 */
import type { TSchema } from "@sinclair/typebox";
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
 * One row of the table: every fact about an operation the serving edge, the client and the CLI
 * read, stated once, in the operation's folder (`src/operations/<id>/row.ts`). `request` is null
 * for operations without a body (GET). The OpenAPI components are named after the id
 * (`schemaNamesOf` in src/contract/operations.ts); prose and examples live beside the row, in
 * the folder's `docs.ts`.
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
   * against the row's schema by `CostMismatches` in src/contract/operations.ts); admission turns it into time.
   */
  readonly cost?: (input: never) => number;
  /**
   * The text body of a `text` or `json-or-text` answer, from the row's own result type (checked by
   * `TextMismatches` in src/contract/operations.ts); declared by those rows and only them.
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

/** A JSON answer, admitted at once, rate-limited, cacheable: the base of every row's policy. */
export const JSON_ANSWER = {
  noStore: false,
  rateLimited: true,
  admission: "immediate",
  representation: "json",
} as const;
/** A CIDR operation: admitted by its cost on the request's own turn (CONTRACT §1.7). */
export const METERED_JSON_ANSWER = { ...JSON_ANSWER, admission: "metered" } as const;
/** An answer about the client's own address: never stored by a cache (CONTRACT §1.2). */
export const CLIENT_ADDRESS = { ...JSON_ANSWER, noStore: true } as const;
