/**
 * The slow, obvious model of the body rules after size and media type (CONTRACT §1): decode
 * UTF-8, `JSON.parse` everything, walk it for nesting, then validate the whole value. The body
 * reader must give the same answer for every body, at a cost that does not grow with how wrong
 * the body is.
 */
import type { TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { MAX_JSON_DEPTH } from "../../src/adapters/http/json-body.ts";
import { envelopeOf, schemaRejection } from "../../src/contract/envelope.ts";
import { HttpError } from "../../src/contract/errors.ts";
import { DomainError, invalidInput } from "../../src/domain/errors.ts";

/** Whether `value` nests arrays/objects deeper than `limit`; iterative, so any depth is safe. */
export function nestingExceeds(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [node, depth] = next;
    if (node === null || typeof node !== "object") continue;
    if (depth >= limit) return true;
    const children = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) {
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** The envelope (or the value) the model gives a body of `bytes` for a request `schema`. */
export function modelOutcome(bytes: Uint8Array, schema: TSchema): unknown {
  try {
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      throw new HttpError("INVALID_JSON", "The request body is not valid UTF-8.");
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new HttpError(
        "INVALID_JSON",
        text.trim() === ""
          ? "The request body is empty; a JSON object is required."
          : "The request body is not valid JSON.",
      );
    }
    if (nestingExceeds(value, MAX_JSON_DEPTH)) {
      throw invalidInput([
        {
          message: `The request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep; no request needs more than 2.`,
          path: [],
        },
      ]);
    }
    const checker = TypeCompiler.Compile(schema);
    if (!checker.Check(value)) throw schemaRejection(checker.Errors(value));
    return { value };
  } catch (error) {
    if (error instanceof DomainError || error instanceof HttpError) return envelopeOf(error);
    throw error;
  }
}
