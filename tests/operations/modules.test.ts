/**
 * An operation is one folder (ADR 0059): `src/operations/<name>/` holds its row (row.ts), its
 * use-case binding (use-case.ts) and its OpenAPI prose (docs.ts), and three assembly modules,
 * generated from the folders by scripts/generate-operations.ts (ADR 0063; tests/operations/
 * generated.test.ts keeps them current), list them: the table (src/operations/table.ts), the use
 * cases (src/operations/use-cases.ts) and the docs (src/operations/docs.ts). These rules fail when
 * an operation is added the old way:
 * a row, a binding, a cost or a docs entry written into a registry outside its folder, or a folder
 * the assembly forgets.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { idOfFolder, PARTS_OF_AN_OPERATION } from "../../scripts/generate-operations.ts";
import { DerRevocationListDecoder } from "../../src/adapters/crypto/crl-decoder.ts";
import { OPERATION_LIST, OPERATIONS } from "../../src/contract/operations.ts";
import { OPERATION_DOCS } from "../../src/operations/docs.ts";
import { bindUseCases } from "../../src/operations/use-cases.ts";
import { fakeDecoder } from "../fakes/certificates.ts";
import { fixedClock } from "../fakes/clock.ts";
import { fakeRootStore } from "../fakes/roots.ts";
import { scriptedVerifier } from "../fakes/verifier.ts";

const SRC = resolve(import.meta.dir, "../../src");
const OPERATIONS_DIR = join(SRC, "operations");

/** The folder an operation lives in: its path after `/v1/`, slashes as hyphens. */
function folderOfPath(path: string): string {
  return path.replace(/^\/v1\//, "").replaceAll("/", "-");
}

const FOLDERS = readdirSync(OPERATIONS_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

const FILES_OF_AN_OPERATION = [...PARTS_OF_AN_OPERATION].sort();

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** The relative imports of a module, as written. */
function relativeImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/from\s+["'](\.[^"']+)["']/g)].map((match) => match[1] ?? "");
}

describe("an operation is one folder", () => {
  test("there are operations to check", () => {
    expect(FOLDERS.length).toBeGreaterThan(15);
  });

  test("the folders are the table's operations, each named by its path, its id the folder's name in camelCase", () => {
    expect(OPERATION_LIST.map((operation) => folderOfPath(operation.path)).sort()).toEqual(FOLDERS);
    for (const operation of OPERATION_LIST)
      expect(`${operation.id} ← ${idOfFolder(folderOfPath(operation.path))}`).toBe(
        `${operation.id} ← ${operation.id}`,
      );
  });

  test.each(FOLDERS)("%s holds its row, its use-case binding and its docs, and nothing else", (folder) => {
    expect(readdirSync(join(OPERATIONS_DIR, folder)).sort()).toEqual(FILES_OF_AN_OPERATION);
  });

  test.each(FOLDERS)(
    "%s: the table's row, the use case and the docs are the folder's own",
    async (folder) => {
      const id = idOfFolder(folder);
      const { row } = (await import(join(OPERATIONS_DIR, folder, "row.ts"))) as { row: unknown };
      const { docs } = (await import(join(OPERATIONS_DIR, folder, "docs.ts"))) as { docs: unknown };
      const { bind } = (await import(join(OPERATIONS_DIR, folder, "use-case.ts"))) as { bind: unknown };
      expect(Object.hasOwn(OPERATIONS, id)).toBe(true);
      expect((OPERATIONS as Record<string, unknown>)[id]).toBe(row);
      expect((OPERATION_DOCS as Record<string, unknown>)[id]).toBe(docs);
      expect(typeof bind).toBe("function");
    },
  );

  test.each([
    ["table.ts", "row.ts"],
    ["use-cases.ts", "use-case.ts"],
    ["docs.ts", "docs.ts"],
  ])("the assembly %s imports each folder's %s once, and no other file of a folder", (assembly, file) => {
    const fromFolders = relativeImports(join(OPERATIONS_DIR, assembly)).filter((specifier) =>
      /^\.\/[a-z-]+\//.test(specifier),
    );
    expect(fromFolders.sort()).toEqual(FOLDERS.map((folder) => `./${folder}/${file}`).sort());
  });

  test("the assembled use cases are one per operation, bound for both scopes", () => {
    const deps = {
      clock: { now: () => new Date(0) },
      decoder: fakeDecoder([]),
      roots: fakeRootStore(),
      revocationLists: new DerRevocationListDecoder(),
    };
    for (const scope of ["api", "local"] as const) {
      const useCases = bindUseCases(deps, scope);
      expect(Object.keys(useCases).sort()).toEqual(OPERATION_LIST.map((operation) => operation.id).sort());
      for (const useCase of Object.values(useCases)) expect(typeof useCase).toBe("function");
    }
  });

  test("binding reads none of the outbound ports: the CLI's are built on first use, its roots change per run", () => {
    const read: string[] = [];
    const deps = {
      get clock() {
        read.push("clock");
        return fixedClock("2026-06-01T00:00:00Z");
      },
      get decoder() {
        read.push("decoder");
        return fakeDecoder([]);
      },
      get roots() {
        read.push("roots");
        return fakeRootStore();
      },
      get revocationLists() {
        read.push("revocationLists");
        return new DerRevocationListDecoder();
      },
    };
    const useCases = bindUseCases(deps, "local");
    expect(read).toEqual([]);
    // Not vacuous: running a use case does read them.
    const context = {
      observeClient: () => {
        throw new Error("reference-roots does not observe the client");
      },
      verifier: scriptedVerifier(),
    };
    useCases.referenceRoots(undefined, context);
    expect(read).toEqual(["roots"]);
  });
});

describe("nothing outside the folders states an operation's facts", () => {
  const outside = sourceFiles(SRC).filter((file) => !file.startsWith(`${OPERATIONS_DIR}/`));
  const ids = OPERATION_LIST.map((operation) => operation.id);

  test("no module outside src/operations/ keys an object by operation ids (a registry of rows, costs, bindings or docs)", () => {
    expect(outside.length).toBeGreaterThan(50);
    const registries = outside.flatMap((file) => {
      const text = readFileSync(file, "utf8");
      const keys = ids.filter((id) => new RegExp(`^\\s*${id}\\s*:`, "m").test(text));
      return keys.length >= 3 ? [`${file.slice(SRC.length + 1)}: ${keys.join(", ")}`] : [];
    });
    expect(registries).toEqual([]);
  });

  test("an operation's OpenAPI prose is written only in its folder's docs.ts", () => {
    const written = sourceFiles(SRC).filter((file) =>
      /:\s*OperationDoc\s*=/.test(readFileSync(file, "utf8")),
    );
    expect(written.sort()).toEqual(FOLDERS.map((folder) => join(OPERATIONS_DIR, folder, "docs.ts")).sort());
  });

  test("a row is declared only in its folder's row.ts", () => {
    const declared = sourceFiles(SRC).filter((file) =>
      /satisfies\s+Operation<"/.test(readFileSync(file, "utf8")),
    );
    expect(declared.sort()).toEqual(FOLDERS.map((folder) => join(OPERATIONS_DIR, folder, "row.ts")).sort());
  });
});
