/**
 * The operations of the wire contract run in this process, on the user's own machine: the use cases
 * of src/operations/use-cases.ts bound with the local limits (the `local` scope), each request
 * checked as the server checks it but with the API's size bounds lifted, and a refusal turned into
 * the error envelope the server would answer. The command-line tool runs its operations through one
 * of these (src/cli/run-operation.ts) when no `--server` is given; it prints nothing itself.
 *
 * The ports are read only when a use case runs, never at binding: the certificate adapters are
 * built on first use (a CIDR command never indexes the root store), and the root store of a run
 * changes with the caller's own roots (`cert --roots`, {@link LocalOperationRunner.supplyRoots}).
 */
import type { TSchema } from "@sinclair/typebox";
import { ValueErrorType } from "@sinclair/typebox/errors";
import { Value } from "@sinclair/typebox/value";
import { type ErrorEnvelope, envelopeOf, schemaRejection } from "../contract/envelope.ts";
import { STATUS_OF } from "../contract/errors.ts";
import {
  OPERATIONS,
  type Operation,
  type OperationId,
  type RequestOf,
  type ResultOf,
} from "../contract/operations.ts";
import type { CertificateBundleDeps } from "../domain/certificates/inspect.ts";
import type { CertificateData } from "../domain/certificates/model.ts";
import { RequestRootStore, readSuppliedRoots } from "../domain/certificates/trust-anchors.ts";
import { DomainError } from "../domain/errors.ts";
import { LOCAL_CERTIFICATE_LIMITS } from "../domain/limits.ts";
import type { RevocationListDecoder, SignatureVerifier, WorkBudget } from "../domain/ports.ts";
import { withLocalBounds } from "../local/local-bounds.ts";
import { bindUseCases, type UseCaseContext, type UseCases } from "./use-cases.ts";

/** The answer of an in-process run, shaped as the client's `ApiResult` (src/client/index.ts). */
export type LocalAnswer<T> =
  | { ok: true; status: 200; value: T }
  | { ok: false; status: number; error: ErrorEnvelope["error"] };

/** The outbound ports of in-process runs, read when a use case runs. */
export interface LocalRunnerPorts {
  /** The certificate adapters (decoder, verifier, clock, reference roots), built on first use. */
  certificates(): CertificateBundleDeps;
  /** The strict CRL reader (`crl`, `chain --crl`). */
  readonly revocationLists: RevocationListDecoder;
}

/**
 * The bound of an in-process run (src/local/deadline.ts, CONTRACT §7.3): the verifier it wraps and
 * the budget the path search asks.
 */
export interface LocalWorkBound extends WorkBudget {
  verifier(inner: SignatureVerifier): SignatureVerifier;
}

/**
 * The request checked as the server checks it, with the API's size bounds lifted (list lengths,
 * the length of a whole text field; src/local/local-bounds.ts): a local run has the larger limits
 * of src/domain/limits.ts, which the use cases enforce. Every other rule of the schema applies,
 * with or without --json, so the same bad entry always gets the same error.
 */
function checkLocally(schema: TSchema | null, request: unknown, legacyLocators: boolean): void {
  if (schema === null) return;
  const local = withLocalBounds(schema);
  if (Value.Check(local, request)) return;
  const failures = [...Value.Errors(local, request)].filter(
    (failure) =>
      failure.type !== ValueErrorType.ArrayMaxItems &&
      !(failure.type === ValueErrorType.StringMaxLength && failure.path.lastIndexOf("/") === 0),
  );
  if (failures.length > 0) throw schemaRejection(failures, legacyLocators);
}

/** Runs the wire contract's operations in this process, with the local limits. */
export class LocalOperationRunner {
  #useCases: UseCases | null = null;
  /** The caller's own roots for this run (`cert --roots`), composed with the reference ones. */
  #suppliedRoots: CertificateData[] = [];
  readonly #context: UseCaseContext;

  constructor(private readonly ports: LocalRunnerPorts) {
    this.#context = {
      observeClient: () => ({
        ok: false,
        reason: "nettools runs in this process, with no connection to observe; pass --server URL",
      }),
      get verifier() {
        return ports.certificates().verifier;
      },
    };
  }

  /**
   * Adds the caller's roots (PEM text) to the reference root store of the runs that follow
   * (CONTRACT §7.2: the bundle operation has no `roots` field, so only a local `cert` run can
   * apply them). Returns the error envelope of bad roots text (issues with path ["roots"]), or
   * null. With `checkOnly` the roots are read and judged but not applied (a default that may be
   * skipped).
   */
  async supplyRoots(pem: string, checkOnly = false): Promise<LocalAnswer<never> | null> {
    const read = await readSuppliedRoots(pem, this.ports.certificates().decoder, LOCAL_CERTIFICATE_LIMITS);
    if (read.issues.length > 0) {
      const error = new DomainError("INVALID_INPUT", read.issues[0]!.message, read.issues);
      if (read.issues.length > 1)
        Object.assign(error, { message: `The roots have ${read.issues.length} problems.` });
      return { ok: false, status: 400, error: envelopeOf(error).error };
    }
    if (!checkOnly) this.#suppliedRoots = read.roots;
    return null;
  }

  /**
   * Runs operation `id` with `request`. `bound` limits the run's signature checks and path search;
   * it may throw the domain's `WorkAbandoned`, which the bound's owner catches. A refusal of the
   * domain is answered as its error envelope; anything else is thrown.
   */
  async run<Id extends OperationId>(
    id: Id,
    request: RequestOf<Id>,
    bound?: LocalWorkBound,
  ): Promise<LocalAnswer<ResultOf<Id>>> {
    try {
      const row: Operation<OperationId> = OPERATIONS[id];
      checkLocally(row.request, request, row.legacyLocators === true);
      const useCase = this.#bound()[id] as (input: RequestOf<Id>, context: UseCaseContext) => unknown;
      const context: UseCaseContext =
        bound === undefined
          ? this.#context
          : {
              observeClient: this.#context.observeClient,
              verifier: bound.verifier(this.ports.certificates().verifier),
              budget: bound,
            };
      return { ok: true, status: 200, value: (await useCase(request, context)) as ResultOf<Id> };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return { ok: false, status: STATUS_OF[error.code], error: envelopeOf(error).error };
    }
  }

  /** The use cases, bound on the first run with ports read only when a use case runs. */
  #bound(): UseCases {
    const { ports } = this;
    const rootStore = () => this.#rootStore();
    this.#useCases ??= bindUseCases(
      {
        get clock() {
          return ports.certificates().clock;
        },
        get decoder() {
          return ports.certificates().decoder;
        },
        get revocationLists() {
          return ports.revocationLists;
        },
        get roots() {
          return rootStore();
        },
      },
      "local",
    );
    return this.#useCases;
  }

  /** The reference roots, with the caller's own added when there are any. */
  #rootStore() {
    const reference = this.ports.certificates().roots;
    return this.#suppliedRoots.length === 0
      ? reference
      : new RequestRootStore(reference, this.#suppliedRoots);
  }
}
