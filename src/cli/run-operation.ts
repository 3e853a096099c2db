/**
 * `runOperation(run, id, request)`: the one way a `nettools` command runs an operation of the
 * wire contract — in this process, through the same use cases the server binds with the local
 * limits of a run on the user's own machine (src/operations/local-runner.ts), or with `--server`
 * through the typed client. Either way the answer has the client's shape, so a command prints it
 * the same way; and `report` prints it, choosing the exit code.
 */
import { type ApiResult, type ErrorIssue, isClientError } from "../client/index.ts";
import { OPERATIONS, type OperationId, type RequestOf, type ResultOf } from "../contract/operations.ts";
import type { GivenLists } from "../local/input-issue-words.ts";
import { LocalOperationRunner, type LocalWorkBound } from "../operations/local-runner.ts";
import type { Run } from "./args.ts";
import { localCertificateDeps, revocationListDecoder } from "./composition-root.ts";
import { renderInputError } from "./input-errors.ts";
import { EXIT } from "./io.ts";
import { renderError, type Style } from "./render.ts";

/** The in-process runs of this process (src/operations/local-runner.ts), on the composition root's adapters. */
const local = new LocalOperationRunner({
  certificates: localCertificateDeps,
  revocationLists: revocationListDecoder,
});

/**
 * Adds the caller's roots (PEM text) to the reference root store of in-process runs (`cert
 * --roots`); the error envelope of bad roots text, or null. With `checkOnly` they are only judged.
 */
export const supplyRoots = (pem: string, checkOnly = false): Promise<ApiResult<never> | null> =>
  local.supplyRoots(pem, checkOnly);

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
  if (run.client === null) return local.run(id, request, bound);
  const call = run.client[id] as (...args: unknown[]) => Promise<ApiResult<ResultOf<Id>>>;
  return OPERATIONS[id].request === null ? call() : call(request);
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
