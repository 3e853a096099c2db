/**
 * What in a value does not match a schema, found by walking the schema as plain JSON Schema
 * (the subset the API's schemas serialize to: type, const, enum, anyOf, properties, required,
 * patternProperties, additionalProperties, items, min/maxItems, min/maxLength, pattern, minimum/maximum, format).
 *
 * It needs no TypeBox, so the client package (built without TypeBox) and the source client report
 * the same issues. It runs only once a body has already failed the check, so it favours clear
 * answers over speed: for `anyOf` it reports the alternative that comes closest (fewest issues).
 */
import { hasFormat } from "../contract/formats.ts";

/** What did not match: a sentence and where (a path from the body's root, like the server's issues). */
export interface MismatchIssue {
  message: string;
  path: (string | number)[];
}

/** The part of JSON Schema the walker reads. */
export interface JsonSchema {
  type?: string;
  const?: unknown;
  enum?: readonly unknown[];
  anyOf?: readonly JsonSchema[];
  properties?: Readonly<Record<string, JsonSchema>>;
  required?: readonly string[];
  patternProperties?: Readonly<Record<string, JsonSchema>>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  format?: string;
}

/** Largest number of mismatches reported for one body. */
export const MAX_MISMATCHES = 20;

function pointerOf(path: readonly (string | number)[]): string {
  return path.map((part) => `/${String(part).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}

function typeMatches(type: string, value: unknown): boolean {
  switch (type) {
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "array":
      return Array.isArray(value);
    case "string":
      return typeof value === "string";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
    default:
      return false;
  }
}

function walk(schema: JsonSchema, value: unknown, path: (string | number)[], out: MismatchIssue[]): void {
  const add = (message: string, at: (string | number)[] = path) => {
    const where = at.length === 0 ? "body" : pointerOf(at);
    out.push({ message: `${where}: ${message}`, path: at });
  };
  if (schema.anyOf !== undefined) {
    const failures: MismatchIssue[][] = [];
    for (const alternative of schema.anyOf) {
      const issues: MismatchIssue[] = [];
      walk(alternative, value, path, issues);
      if (issues.length === 0) return;
      failures.push(issues);
    }
    // Every alternative refused the value itself (a wrong constant or type): one issue naming them all.
    const expectations = failures.map((issues) => {
      const [only] = issues;
      if (issues.length !== 1 || only === undefined || only.path.length !== path.length) return undefined;
      return /: expected (.*)$/.exec(only.message)?.[1];
    });
    if (expectations.length > 0 && expectations.every((text) => text !== undefined)) {
      add(`expected ${[...new Set(expectations)].join(" or ")}`);
      return;
    }
    let closest = failures[0];
    for (const issues of failures)
      if (closest === undefined || issues.length < closest.length) closest = issues;
    if (closest === undefined) add("matches none of the alternatives");
    else out.push(...closest);
    return;
  }
  if (schema.const !== undefined && value !== schema.const) {
    add(`expected ${JSON.stringify(schema.const)}`);
    return;
  }
  if (schema.enum !== undefined && !schema.enum.includes(value)) {
    add(`expected one of ${schema.enum.map((item) => JSON.stringify(item)).join(", ")}`);
    return;
  }
  if (schema.type !== undefined && !typeMatches(schema.type, value)) {
    add(`expected ${schema.type}`);
    return;
  }
  if (typeof value === "string") {
    if (schema.minLength !== undefined && value.length < schema.minLength) {
      add(`expected a string of at least ${schema.minLength} characters`);
    }
    if (schema.maxLength !== undefined && value.length > schema.maxLength) {
      add(`expected a string of at most ${schema.maxLength} characters`);
    }
    if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(value)) {
      add(`expected a string matching ${schema.pattern}`);
    }
    if (schema.format !== undefined && !hasFormat(schema.format, value)) {
      add(`expected a string of format ${schema.format}`);
    }
  } else if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) add(`expected at least ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) add(`expected at most ${schema.maximum}`);
  } else if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) {
      add(`expected at least ${schema.minItems} items`);
    }
    if (schema.maxItems !== undefined && value.length > schema.maxItems) {
      add(`expected at most ${schema.maxItems} items`);
    }
    if (schema.items !== undefined) {
      for (const [index, item] of value.entries()) walk(schema.items, item, [...path, index], out);
    }
  } else if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    const properties = schema.properties ?? {};
    for (const name of schema.required ?? []) {
      if (!Object.hasOwn(record, name)) add("is required", [...path, name]);
    }
    const patterns = Object.entries(schema.patternProperties ?? {}).map(
      ([pattern, property]) => [new RegExp(pattern), property] as const,
    );
    for (const [name, item] of Object.entries(record)) {
      // Own properties only: `__proto__`, `constructor`, `toString` are field names like any other.
      const property = Object.hasOwn(properties, name) ? properties[name] : undefined;
      const matching = patterns.filter(([pattern]) => pattern.test(name));
      if (property !== undefined) walk(property, item, [...path, name], out);
      if (matching.length > 0) for (const [, each] of matching) walk(each, item, [...path, name], out);
      if (property !== undefined || matching.length > 0) continue;
      if (schema.additionalProperties === false) add("is not allowed", [...path, name]);
      else if (typeof schema.additionalProperties === "object") {
        walk(schema.additionalProperties, item, [...path, name], out);
      }
    }
  }
}

/**
 * The first {@link MAX_MISMATCHES} reasons why `value` does not match `schema`, each with its
 * path; empty when it matches.
 */
export function mismatchesOf(schema: JsonSchema, value: unknown): MismatchIssue[] {
  const out: MismatchIssue[] = [];
  walk(schema, value, [], out);
  return out.slice(0, MAX_MISMATCHES);
}
