/**
 * `runOperation(run, id, request)`: the one way a `nettools` command runs an operation of the
 * wire contract — in this process, through the same use cases the server binds (with the local
 * limits of a run on the user's own machine), or with `--server` through the typed client. Either
 * way the answer has the client's shape, so a command prints it the same way; and `report` prints
 * it, choosing the exit code.
 */
import type { TSchema } from "@sinclair/typebox";
import { ValueErrorType } from "@sinclair/typebox/errors";
import { Value } from "@sinclair/typebox/value";
import { type ApiResult, type ErrorIssue, isClientError } from "../client/index.ts";
import { envelopeOf, schemaRejection } from "../contract/envelope.ts";
import { STATUS_OF } from "../contract/errors.ts";
import {
  OPERATIONS,
  type Operation,
  type OperationId,
  type RequestOf,
  type ResultOf,
} from "../contract/operations.ts";
import type { CertificateData } from "../domain/certificates/model.ts";
import { RequestRootStore, readSuppliedRoots } from "../domain/certificates/trust-anchors.ts";
import { DomainError } from "../domain/errors.ts";
import { LOCAL_CERTIFICATE_LIMITS } from "../domain/limits.ts";
import type { SignatureVerifier, WorkBudget } from "../domain/ports.ts";
import { withLocalBounds } from "../local/local-bounds.ts";
import { bindUseCases, type UseCaseContext, type UseCases } from "../operations/use-cases.ts";
import type { Run } from "./args.ts";
import { localCertificateDeps as deps, revocationListDecoder } from "./composition-root.ts";
import { type GivenLists, renderInputError } from "./input-errors.ts";
import { EXIT } from "./io.ts";
import { renderError, type Style } from "./render.ts";

let localUseCases: UseCases | null = null;
/** The caller's own roots for this run (`cert --roots`), composed with the shipped ones. */
let suppliedRoots: CertificateData[] = [];

/**
 * Adds the caller's roots (PEM text) to the reference root store of in-process runs (CONTRACT
 * §7.2: the bundle operation has no `roots` field, so only a local `cert` run can apply them).
 * Returns the error envelope of bad roots text (issues with path ["roots"]), or null. With
 * `checkOnly` the roots are read and judged but not applied (a default that may be skipped).
 */
export async function supplyRoots(pem: string, checkOnly = false): Promise<ApiResult<never> | null> {
  const read = await readSuppliedRoots(pem, deps().decoder, LOCAL_CERTIFICATE_LIMITS);
  if (read.issues.length > 0) {
    const error = new DomainError("INVALID_INPUT", read.issues[0]!.message, read.issues);
    if (read.issues.length > 1)
      Object.assign(error, { message: `The roots have ${read.issues.length} problems.` });
    return { ok: false, status: 400, error: envelopeOf(error).error };
  }
  if (!checkOnly) suppliedRoots = read.roots;
  return null;
}
const LOCAL_CONTEXT: UseCaseContext = {
  observeClient: () => ({
    ok: false,
    reason: "nettools runs in this process, with no connection to observe; pass --server URL",
  }),
  get verifier() {
    return deps().verifier;
  },
};

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

/**
 * The bound of an in-process run (src/local/deadline.ts, CONTRACT §7.3): the verifier it wraps and
 * the budget the path search asks.
 */
export interface LocalWorkBound extends WorkBudget {
  verifier(inner: SignatureVerifier): SignatureVerifier;
}

/**
 * Runs operation `id` with `request`: in this process, or through the client with --server.
 * `bound` limits an in-process run's signature checks and path search; it may throw the domain's
 * `WorkAbandoned`, which the bound's owner catches.
 */
export async function runOperation<Id extends OperationId>(
  run: Run,
  id: Id,
  request: RequestOf<Id>,
  bound?: LocalWorkBound,
): Promise<ApiResult<ResultOf<Id>>> {
  if (run.client !== null) {
    const call = run.client[id] as (...args: unknown[]) => Promise<ApiResult<ResultOf<Id>>>;
    return OPERATIONS[id].request === null ? call() : call(request);
  }
  try {
    const row: Operation<OperationId> = OPERATIONS[id];
    checkLocally(row.request, request, row.legacyLocators === true);
    localUseCases ??= bindUseCases(
      {
        get clock() {
          return deps().clock;
        },
        get decoder() {
          return deps().decoder;
        },
        get revocationLists() {
          return revocationListDecoder;
        },
        get roots() {
          return suppliedRoots.length === 0
            ? deps().roots
            : new RequestRootStore(deps().roots, suppliedRoots);
        },
      },
      "local",
    );
    const useCase = localUseCases[id] as (input: RequestOf<Id>, context: UseCaseContext) => unknown;
    const context: UseCaseContext =
      bound === undefined
        ? LOCAL_CONTEXT
        : {
            observeClient: LOCAL_CONTEXT.observeClient,
            verifier: bound.verifier(deps().verifier),
            budget: bound,
          };
    return { ok: true, status: 200, value: (await useCase(request, context)) as ResultOf<Id> };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { ok: false, status: STATUS_OF[error.code], error: envelopeOf(error).error };
  }
}

/** Exit code of a failed call: 2 when the input was rejected, 3 for anything else. */
export function failureExit(result: Exclude<ApiResult<unknown>, { ok: true }>): number {
  if (result.error.code === "NETWORK_ERROR" || result.error.code === "INVALID_RESPONSE") return EXIT.failure;
  return result.status === 400 || result.status === 413 || result.status === 415
    ? EXIT.invalidInput
    : EXIT.failure;
}

/**
 * Prints a result; returns the exit code. `source` is the user's PEM, for showing located lines;
 * `lists` say where each address entry came from; `plain` is the --plain form of a result. A
 * `list` result (a list of CIDRs) prints in its plain form whenever stdout is not a terminal, one
 * CIDR a line with nothing else, as aggregate6 and mapcidr do (CONTRACT §7.4).
 */
export function report<T>(
  result: ApiResult<T>,
  run: Run,
  render: (value: T, style: Style) => string,
  extra: { source?: string; lists?: GivenLists; plain?: (value: T) => string; list?: boolean } = {},
): number {
  if (result.ok) {
    const plain = run.plain || (extra.list === true && !run.io.stdoutIsTty);
    const text = run.json
      ? `${JSON.stringify(result.value)}\n`
      : plain && extra.plain
        ? extra.plain(result.value)
        : render(result.value, run.out);
    run.io.stdout(text);
    return EXIT.ok;
  }
  const error = result.error as { code: string; message: string; issues?: ErrorIssue[] };
  if (run.json) run.io.stdout(`${JSON.stringify({ error: result.error })}\n`);
  else if (extra.lists && !isClientError(error))
    run.io.stderr(renderInputError(error, extra.lists, run.err, run.client !== null));
  else run.io.stderr(renderError(error, run.err, extra.source));
  return failureExit(result);
}
