/**
 * The operations table: every API operation once, with its method, path, request and result
 * schemas and the policy the serving edge applies to it. The routes, the OpenAPI document, the
 * typed client, the CLI and the page are all derived from this table. Its rows are not written
 * here: each operation is one folder, `src/operations/<id>/` (its row, its use-case binding and
 * its OpenAPI prose), and src/operations/table.ts lists the rows (docs/decisions/0059). This
 * module gives the table the types every adapter reads (`OperationId`, `RequestOf`, `ResultOf` …)
 * and checks at compile time that each row's `cost` and `text` fit its own schemas. It stays free
 * of the domain's use cases and bundles for the browser (the client's build replaces it with
 * generated checkers: src/web/generated-contract.ts).
 */
import type { Static } from "@sinclair/typebox";
import { OPERATIONS } from "../operations/table.ts";
import type { Operation, Representation } from "./operation.ts";

export type { Operation, OperationPolicy, Representation, ResultEncoder } from "./operation.ts";
export { SITE_POLICY } from "./operation.ts";
export { OPERATIONS };

/** The version of the interface this table describes (spec part 9), shown in the OpenAPI document. */
export const INTERFACE_VERSION = "0.5.0";

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
