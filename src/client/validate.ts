/**
 * Response validation for the typed client: the server's own TypeBox schemas, compiled once.
 *
 * Runs in Bun, Node and browsers, without Elysia. The issues of a mismatch come from
 * schema-mismatch.ts, which walks the schema as JSON Schema (the client package, built without
 * TypeBox, reports the same). Two details make the check work:
 * - TypeBox checks `format` keywords through its global FormatRegistry, which Elysia fills on
 *   the server. Without Elysia nothing is registered and every formatted string would fail, so
 *   the formats the result schemas use (`ipv4`, `ipv6`, `date-time`) are registered here when
 *   missing — and never replaced when present.
 * - The compiled checker is generated code (`new Function`). A page whose Content-Security-Policy
 *   forbids `unsafe-eval` (ours does) refuses that, so in a browser (and wherever compiling fails)
 *   the checker is TypeBox's interpreted `Value.Check`, which accepts exactly the same values.
 */
import { FormatRegistry, type Static, type TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { Value } from "@sinclair/typebox/value";
import { FORMATS } from "../contract/formats.ts";
import { type JsonSchema, type MismatchIssue, mismatchesOf } from "./schema-mismatch.ts";

export type { MismatchIssue } from "./schema-mismatch.ts";

for (const [name, check] of Object.entries(FORMATS)) {
  if (!FormatRegistry.Has(name)) FormatRegistry.Set(name, check);
}

export interface Checker<T extends TSchema> {
  check(value: unknown): value is Static<T>;
  /** The first few reasons why `value` does not match, each with its path. */
  issues(value: unknown): MismatchIssue[];
}

/** Compiles `schema` once (or, under a CSP without `unsafe-eval`, prepares the interpreted check). */
export function checkerOf<T extends TSchema>(schema: T): Checker<T> {
  let check: (value: unknown) => boolean = (value) => Value.Check(schema, value);
  // In a page, do not even try: a CSP refusal is also reported as a console error.
  if (typeof document === "undefined") {
    try {
      const compiled = TypeCompiler.Compile(schema);
      check = (value) => compiled.Check(value);
    } catch {
      // generated code refused (no eval): keep the interpreted check
    }
  }
  return {
    check: check as (value: unknown) => value is Static<T>,
    // TypeBox's schemas are JSON Schema once their symbols are set aside.
    issues: (value) => mismatchesOf(schema as JsonSchema, value),
  };
}

/** A checker compiled on first use, then kept: modules that never call an operation pay nothing. */
export function lazyChecker<T extends TSchema>(schema: T): Checker<T> {
  let checker: Checker<T> | undefined;
  const get = () => {
    checker ??= checkerOf(schema);
    return checker;
  };
  return {
    check: ((value: unknown) => get().check(value)) as Checker<T>["check"],
    issues: (value) => get().issues(value),
  };
}
