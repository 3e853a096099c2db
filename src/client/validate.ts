/**
 * Response validation for the typed client: the server's own TypeBox schemas, compiled once.
 *
 * Runs in Bun, Node and browsers, without Elysia. Two details make that work:
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
import { pointerToPath } from "../contract/envelope.ts";

const IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6_CHARS = /^[0-9A-Fa-f:.]+$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

/** RFC 4291 text (hex groups, one `::`, optional dotted IPv4 tail); the WHATWG URL parser decides. */
function isIpv6(value: string): boolean {
  if (!value.includes(":") || !IPV6_CHARS.test(value)) return false;
  try {
    new URL(`http://[${value}]/`);
    return true;
  } catch {
    return false;
  }
}

function isDateTime(value: string): boolean {
  return DATE_TIME.test(value) && !Number.isNaN(Date.parse(value));
}

const FORMATS: Record<string, (value: string) => boolean> = {
  ipv4: (value) => IPV4.test(value),
  ipv6: isIpv6,
  "date-time": isDateTime,
};
for (const [name, check] of Object.entries(FORMATS)) {
  if (!FormatRegistry.Has(name)) FormatRegistry.Set(name, check);
}

/** What did not match: a sentence and where (a path from the body's root, like the server's issues). */
export interface MismatchIssue {
  message: string;
  path: (string | number)[];
}

/** Largest number of mismatches reported for one body. */
const MAX_MISMATCHES = 20;

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
    issues(value) {
      const out: MismatchIssue[] = [];
      for (const error of Value.Errors(schema, value)) {
        const path = pointerToPath(error.path);
        const where = error.path === "" ? "body" : error.path;
        out.push({ message: `${where}: ${error.message}`, path });
        if (out.length === MAX_MISMATCHES) break;
      }
      return out;
    },
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
