/**
 * Build-time validators for the client (issue 19): a Bun bundler plugin that replaces, in the
 * bundle of src/client/index.ts, the three imports that carry TypeBox — the operations table,
 * the error envelope's schema (src/contract/schemas.ts) and the checker module (validate.ts) —
 * with one generated module. It holds each result schema as plain JSON Schema, its checker as
 * the standalone JavaScript `TypeCompiler.Code` emits (whose only free function, `format`, is
 * src/contract/formats.ts) and the issues finder src/client/schema-mismatch.ts. Nothing is
 * compiled at run time, so the bundle needs no TypeBox and runs under a CSP without
 * `unsafe-eval`. It lives beside the page's build, not in src/client/, because it is build
 * tooling (Bun's bundler, Node's path), which the client itself must never import.
 *
 * Used by scripts/build-client-package.ts (the client package) and build-app.ts (the
 * page's script). Runs at build time only: it is never part of a bundle.
 */
import { join } from "node:path";
import type { TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import type { BunPlugin } from "bun";
import { OPERATION_LIST } from "../contract/operations.ts";
import { ErrorResponse } from "../contract/schemas.ts";

const HERE = import.meta.dir;

/** Keywords that change neither the check, the issues nor the type: left out of the bundle. */
const PROSE = new Set(["description", "default", "examples", "title"]);

/** The schema as plain JSON (TypeBox's symbols dropped), without its prose. */
function plain(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema), (key, value) => (PROSE.has(key) ? undefined : value));
}

/** The checker of `schema`: TypeBox's generated code, which refers to nothing but `format`. */
function checkerCode(schema: TSchema): string {
  const code = TypeCompiler.Code(schema, [], { language: "javascript" });
  if (/\b(kind|hash)\(/.test(code)) throw new Error("generated checker needs TypeBox's kind/hash");
  return `(function () {\n${code}\n})()`;
}

// ---- the generated module that stands in for the operations table, schemas.ts and validate.ts

function generatedContract(): string {
  const schemas = new Map<TSchema, string>();
  const lines: string[] = [
    `import { hasFormat as format } from ${JSON.stringify(join(HERE, "../contract/formats.ts"))};`,
    `import { mismatchesOf } from ${JSON.stringify(join(HERE, "../client/schema-mismatch.ts"))};`,
  ];
  const nameOf = (schema: TSchema): string => {
    let name = schemas.get(schema);
    if (name === undefined) {
      name = `schema${schemas.size}`;
      schemas.set(schema, name);
      lines.push(`const ${name} = ${JSON.stringify(plain(schema))};`);
      lines.push(`const ${name}Check = ${checkerCode(schema)};`);
    }
    return name;
  };
  const rows = OPERATION_LIST.map(
    (operation) =>
      `  { id: ${JSON.stringify(operation.id)}, method: ${JSON.stringify(operation.method)}, path: ${JSON.stringify(operation.path)}, request: ${operation.request === null ? "null" : "{}"}, result: ${nameOf(operation.result)}, policy: { representation: ${JSON.stringify(operation.policy.representation)} } },`,
  );
  const errorName = nameOf(ErrorResponse);
  lines.push(
    `export const ErrorResponse = ${errorName};`,
    `export const OPERATION_LIST = [\n${rows.join("\n")}\n];`,
    "export const OPERATIONS = Object.fromEntries(OPERATION_LIST.map((operation) => [operation.id, operation]));",
    `const CHECKS = new Map([${[...schemas.values()].map((name) => `[${name}, ${name}Check]`).join(", ")}]);`,
    "export function checkerOf(schema) {",
    "  const check = CHECKS.get(schema);",
    '  if (check === undefined) throw new Error("no generated checker for this schema");',
    "  return { check, issues: (value) => mismatchesOf(schema, value) };",
    "}",
    "export const lazyChecker = checkerOf;",
  );
  return lines.join("\n");
}

/** The client's imports that carry TypeBox, and the one generated module that replaces them. */
const REPLACED = /^(\.\.\/contract\/operations\.ts|\.\.\/contract\/schemas\.ts|\.\/validate\.ts)$/;
export const withGeneratedContract: BunPlugin = {
  name: "generated-contract",
  setup(build) {
    build.onResolve({ filter: REPLACED }, (args) =>
      args.importer.endsWith(join("src", "client", "index.ts"))
        ? { path: "client-contract", namespace: "generated" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "generated" }, () => ({
      loader: "js",
      contents: generatedContract(),
    }));
  },
};
