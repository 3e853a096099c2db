/**
 * Writes the three assembly modules of src/operations/ from its folders (ADR 0063): the table
 * (`table.ts`, the rows), the use cases (`use-cases.ts`, the bindings) and the docs (`docs.ts`, the
 * OpenAPI prose). Each operation is a folder `src/operations/<name>/` holding `row.ts`,
 * `use-case.ts` and `docs.ts` (ADR 0059); its `row.ts` also exports `position`, its place in the
 * table, which is the order of the OpenAPI document, the client and the routes. The assemblies
 * must import every folder statically (the compiled binary and the client's and the page's
 * bundles cannot glob), so they are generated source, committed, never written by hand.
 *
 *   bun run generate:operations            rewrite the three modules
 *   bun run generate:operations --check    exit 1 naming each module that is out of date
 *
 * tests/operations/generated.test.ts fails when a committed module differs from what this script
 * writes now, and the script refuses a folder missing one of its three files, two folders with one
 * position, or a row whose id is not its folder's name in camelCase.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

/** src/operations/, where the folders and the three assembly modules live. */
export const OPERATIONS_DIR = resolve(import.meta.dir, "../src/operations");

/** The files every operation folder holds. */
export const PARTS_OF_AN_OPERATION = ["docs.ts", "row.ts", "use-case.ts"] as const;

/** The assembly modules this script writes, by file name in src/operations/. */
export type AssemblyFile = "table.ts" | "use-cases.ts" | "docs.ts";

/** One operation folder as the assemblies need it. */
export interface OperationFolder {
  /** The folder's name: the operation's path after `/v1/`, slashes as hyphens. */
  readonly folder: string;
  /** The operation's id: the folder's name in camelCase. */
  readonly id: string;
  /** Its place in the table, from its `row.ts`. */
  readonly position: number;
}

/** `public-ip-databases` → `publicIpDatabases`. */
export function idOfFolder(folder: string): string {
  return folder.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/**
 * The operation folders under `dir`, by name. Throws, naming each, when a folder lacks one of
 * {@link PARTS_OF_AN_OPERATION}.
 */
export function operationFolderNames(dir: string = OPERATIONS_DIR): string[] {
  const folders = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort(byName);
  const missing = folders.flatMap((folder) =>
    PARTS_OF_AN_OPERATION.filter((part) => !existsSync(join(dir, folder, part))).map(
      (part) => `src/operations/${folder}/${part}`,
    ),
  );
  if (missing.length > 0)
    throw new Error(
      `an operation folder holds row.ts, use-case.ts and docs.ts; missing: ${missing.join(", ")}`,
    );
  return folders;
}

/**
 * Reads each folder's `position` and row id from its `row.ts`. Throws when a row's id is not its
 * folder's name in camelCase or its position is not a positive whole number.
 */
export async function readOperationFolders(dir: string = OPERATIONS_DIR): Promise<OperationFolder[]> {
  const folders: OperationFolder[] = [];
  for (const folder of operationFolderNames(dir)) {
    const module = (await import(join(dir, folder, "row.ts"))) as {
      position?: unknown;
      row?: { id?: unknown };
    };
    const id = idOfFolder(folder);
    if (module.row?.id !== id)
      throw new Error(`src/operations/${folder}/row.ts: the row's id must be "${id}" (its folder's name)`);
    const position = module.position;
    if (typeof position !== "number" || !Number.isSafeInteger(position) || position < 1)
      throw new Error(
        `src/operations/${folder}/row.ts must export its place in the table: \`export const position = <1, 2, …>;\``,
      );
    folders.push({ folder, id, position });
  }
  return folders;
}

/**
 * The folders in table order: by position. Throws when two folders share a position, naming them
 * and the next free one.
 */
export function inTableOrder(folders: readonly OperationFolder[]): OperationFolder[] {
  const ordered = [...folders].sort((a, b) => a.position - b.position);
  const clashes: string[] = [];
  for (let index = 1; index < ordered.length; index++) {
    const previous = ordered[index - 1];
    const current = ordered[index];
    if (previous !== undefined && current !== undefined && previous.position === current.position)
      clashes.push(`${previous.folder} and ${current.folder} both take position ${current.position}`);
  }
  if (clashes.length > 0) {
    const next = Math.max(...ordered.map((entry) => entry.position)) + 1;
    throw new Error(`${clashes.join("; ")} (the next free position is ${next})`);
  }
  return ordered;
}

/**
 * Folder names in the order Biome sorts their imports: character by character, runs of digits as
 * numbers (`a2` before `a10`), a name before its longer names (`ip` before `ip-…`). The test
 * checks this order against Biome itself.
 */
export function byName(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = /^\d+/.exec(a.slice(i))?.[0];
    const y = /^\d+/.exec(b.slice(j))?.[0];
    if (x !== undefined && y !== undefined) {
      if (Number(x) !== Number(y)) return Number(x) - Number(y);
      i += x.length;
      j += y.length;
    } else if (a[i] !== b[j]) {
      return (a[i] ?? "") < (b[j] ?? "") ? -1 : 1;
    } else {
      i++;
      j++;
    }
  }
  return a.length - i - (b.length - j);
}

const HEADER =
  "// Generated by scripts/generate-operations.ts from the folders of src/operations/ (ADR 0063).\n" +
  "// Do not edit: add or change a folder, then run `bun run generate:operations`.\n";

/** `import { <name> as <id> } from "./<folder>/<file>";` for each folder, in Biome's order. */
function importsOf(folders: readonly OperationFolder[], name: string, file: string): string[] {
  return [...folders]
    .sort((a, b) => byName(a.folder, b.folder))
    .map(({ folder, id }) => `import { ${name} as ${id} } from "./${folder}/${file}";`);
}

function tableModule(folders: readonly OperationFolder[]): string {
  return [
    HEADER,
    "/**",
    " * The operations table, assembled: one row per folder of src/operations/, in the order of each",
    " * row's `position`, which is the order the OpenAPI document, the client and the routes list them.",
    " * Each row is stated in its folder (`<id>/row.ts`); src/contract/operations.ts derives the table's",
    " * types from this object. Like the rows, this module imports only the wire contract and TypeBox",
    " * (no use case, no prose), so the client and the page can bundle the table.",
    " */",
    'import type { Operation } from "../contract/operation.ts";',
    ...importsOf(folders, "row", "row.ts"),
    "",
    "export const OPERATIONS = {",
    ...folders.map(({ id }) => `  ${id},`),
    "} as const satisfies { [Id in string]: Operation<Id> };",
    "",
  ].join("\n");
}

function useCasesModule(folders: readonly OperationFolder[]): string {
  return [
    HEADER,
    "/**",
    " * The use cases of every operation, assembled from the folders' bindings",
    " * (`src/operations/<id>/use-case.ts`), once, for every inbound adapter that runs operations",
    " * in-process: the HTTP composition root (src/app.ts) with the API's limits, the command-line tool",
    " * (src/cli/) and the certificate watch with the local ones. Each binding runs here, at assembly,",
    " * never per request. A missing binding does not compile (the result is typed by every id).",
    " */",
    'import { type OperationPorts, portsOf, type Scope, type UseCaseDeps, type UseCases } from "./binding.ts";',
    ...importsOf(folders, "bind", "use-case.ts"),
    "",
    'export type { Scope, UseCaseContext, UseCaseDeps, UseCases } from "./binding.ts";',
    "",
    "/**",
    " * The use cases of every operation for `scope`. `deps` are the certificate use cases' outbound",
    " * ports, the CRL reader and the public-ip's network facts; the verifier of each run comes from its",
    " * context.",
    " */",
    "export function bindUseCases(deps: UseCaseDeps, scope: Scope): UseCases {",
    "  const ports: OperationPorts = portsOf(deps, scope);",
    "  return {",
    ...folders.map(({ id }) => `    ${id}: ${id}(ports),`),
    "  };",
    "}",
    "",
  ].join("\n");
}

function docsModule(folders: readonly OperationFolder[]): string {
  return [
    HEADER,
    "/**",
    " * Per operation, the prose the OpenAPI document needs beyond the operations table's facts",
    " * (summary, tag, descriptions, extra error codes and realistic examples), assembled from the",
    " * folders' `docs.ts`. Every example is a real exchange: tests/docs/openapi.test.ts sends each one",
    " * to the running server and expects exactly the documented response. A missing entry does not",
    " * compile (the map is typed by every id).",
    " */",
    'import type { OperationDocs } from "../adapters/http/openapi-document.ts";',
    ...importsOf(folders, "docs", "docs.ts"),
    "",
    "/** Operation id → its prose. */",
    "export const OPERATION_DOCS: OperationDocs = {",
    ...folders.map(({ id }) => `  ${id},`),
    "};",
    "",
  ].join("\n");
}

/** The text of each assembly module for `folders` (any order: they are put in table order). */
export function assemblyModules(folders: readonly OperationFolder[]): Record<AssemblyFile, string> {
  const ordered = inTableOrder(folders);
  return {
    "table.ts": tableModule(ordered),
    "use-cases.ts": useCasesModule(ordered),
    "docs.ts": docsModule(ordered),
  };
}

/** The assembly modules under `dir` whose committed text differs from what the folders give now. */
export async function staleModules(dir: string = OPERATIONS_DIR): Promise<AssemblyFile[]> {
  const modules = assemblyModules(await readOperationFolders(dir));
  return (Object.keys(modules) as AssemblyFile[]).filter((file) => {
    const path = join(dir, file);
    return !existsSync(path) || readFileSync(path, "utf8") !== modules[file];
  });
}

if (import.meta.main) {
  if (process.argv.includes("--check")) {
    const stale = await staleModules();
    if (stale.length > 0) {
      console.error(
        `out of date: ${stale.map((file) => `src/operations/${file}`).join(", ")}; run \`bun run generate:operations\``,
      );
      process.exit(1);
    }
  } else {
    const modules = assemblyModules(await readOperationFolders());
    for (const [file, text] of Object.entries(modules)) writeFileSync(join(OPERATIONS_DIR, file), text);
    console.log(`wrote src/operations/{${Object.keys(modules).join(",")}}`);
  }
}
