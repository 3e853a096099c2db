/**
 * The dependency rules (docs/architecture.md): the domain imports only the domain; the wire
 * contract only itself, the domain and TypeBox; the client only the contract, the domain and
 * TypeBox; the CLI never the server entry point nor the HTTP adapter; adapters never each
 * other; app.ts is the only module that wires adapters to use cases.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const DOMAIN = join(ROOT, "src/domain");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

describe("dependency rule", () => {
  const files = sourceFiles(DOMAIN);

  test("there is a domain to check", () => {
    expect(files.length).toBeGreaterThan(5);
  });

  test.each(files.map((file) => [file.slice(ROOT.length + 1), file]))(
    "%s imports only the domain",
    (_name, file) => {
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(IMPORT)) {
        const specifier = match[1] ?? match[2] ?? "";
        expect(specifier.startsWith(".")).toBe(true);
        expect(resolve(dirname(file), specifier).startsWith(DOMAIN)).toBe(true);
      }
      expect(text).not.toMatch(/\bBun\.|\bprocess\.|new Date\(\)|Date\.now\(\)|\bcrypto\.subtle\b/);
    },
  );
});

/** Every import specifier of a file: [specifier, resolved path or the bare name]. */
function importsOf(file: string): [string, string][] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(IMPORT)].map((match) => {
    const specifier = match[1] ?? match[2] ?? "";
    return [specifier, specifier.startsWith(".") ? resolve(dirname(file), specifier) : specifier];
  });
}

const SRC = join(ROOT, "src");
/**
 * Re-exports left where process plumbing used to live, for two callers that are being reworked
 * elsewhere (src/app.ts, src/cli/main.ts); deleted once those import src/process directly.
 */
const TEMPORARY_REEXPORTS = new Set(["adapters/system/logger.ts", "adapters/system/cpus.ts"]);
const inside = (path: string, folder: string) => path.startsWith(join(SRC, folder));

describe("the edge's arrows", () => {
  test.each(sourceFiles(join(SRC, "contract")).map((file) => [file.slice(ROOT.length + 1), file]))(
    "%s (wire contract) imports only the contract, the domain and TypeBox",
    (_name, file) => {
      for (const [specifier, target] of importsOf(file)) {
        if (!specifier.startsWith(".")) expect(specifier).toMatch(/^@sinclair\/typebox(\/|$)/);
        else expect(inside(target, "contract/") || inside(target, "domain/")).toBe(true);
      }
    },
  );

  test.each(sourceFiles(join(SRC, "client")).map((file) => [file.slice(ROOT.length + 1), file]))(
    "%s (client) imports only the client, the contract, the domain and TypeBox",
    (_name, file) => {
      for (const [specifier, target] of importsOf(file)) {
        if (!specifier.startsWith(".")) expect(specifier).toMatch(/^@sinclair\/typebox(\/|$)/);
        else {
          expect(inside(target, "client/") || inside(target, "contract/") || inside(target, "domain/")).toBe(
            true,
          );
        }
      }
    },
  );

  test.each(sourceFiles(join(SRC, "cli")).map((file) => [file.slice(ROOT.length + 1), file]))(
    "%s (CLI) never imports main.ts or the HTTP adapter",
    (_name, file) => {
      for (const [, target] of importsOf(file)) {
        expect(target).not.toBe(join(SRC, "main.ts"));
        expect(target).not.toBe(join(SRC, "app.ts"));
        expect(inside(target, "adapters/http/")).toBe(false);
      }
    },
  );

  const groups = ["http", "crypto", "system"];
  const adapterFiles = groups.flatMap((group) =>
    sourceFiles(join(SRC, "adapters", group)).map(
      (file) => [file.slice(ROOT.length + 1), file, group] as const,
    ),
  );
  test.each(adapterFiles)(
    "%s imports no other adapter group and no composition root",
    (_name, file, group) => {
      for (const [, target] of importsOf(file)) {
        for (const other of groups)
          if (other !== group) expect(inside(target, `adapters/${other}/`)).toBe(false);
        for (const root of ["app.ts", "main.ts", "server.ts", "config.ts"])
          expect(target).not.toBe(join(SRC, root));
      }
    },
  );

  test("only the composition root binds use cases to the HTTP adapter", () => {
    const useCases = ["domain/cidr/cover.ts", "domain/cidr/subtract.ts", "domain/certificates/inspect.ts"];
    for (const file of sourceFiles(join(SRC, "adapters", "http"))) {
      for (const [, target] of importsOf(file)) {
        for (const useCase of useCases) expect(target).not.toBe(join(SRC, useCase));
      }
    }
  });

  const processFiles = sourceFiles(join(SRC, "process")).map((file) => [file.slice(ROOT.length + 1), file]);
  test.each(processFiles)(
    "%s (process plumbing) imports only process plumbing and the runtime",
    (_name, file) => {
      for (const [specifier, target] of importsOf(file)) {
        if (specifier.startsWith(".")) expect(inside(target, "process/")).toBe(true);
        else expect(specifier).toMatch(/^(bun|node:[a-z_/]+)$/);
      }
    },
  );

  test("no adapter imports process plumbing (adapters are ports and transports, not the process)", () => {
    for (const group of groups)
      for (const file of sourceFiles(join(SRC, "adapters", group))) {
        // The two temporary re-exports below are the only exception, until their callers move.
        if (TEMPORARY_REEXPORTS.has(file.slice(SRC.length + 1))) continue;
        for (const [, target] of importsOf(file)) expect(inside(target, "process/")).toBe(false);
      }
  });

  test("src/adapters/system holds only port implementations (each implements a port of src/domain/ports.ts or serves one)", () => {
    const files = sourceFiles(join(SRC, "adapters", "system")).map((file) => file.slice(SRC.length + 1));
    const ports = files.filter((file) => !TEMPORARY_REEXPORTS.has(file));
    expect(ports.sort()).toEqual([
      "adapters/system/client-address.ts",
      "adapters/system/clock.ts",
      "adapters/system/trusted-proxies.ts",
    ]);
    for (const file of ["adapters/system/client-address.ts", "adapters/system/clock.ts"])
      expect(importsOf(join(SRC, file)).some(([, target]) => target === join(SRC, "domain/ports.ts"))).toBe(
        true,
      );
    // A temporary re-export is one line of re-export from src/process and nothing else.
    for (const file of files.filter((name) => TEMPORARY_REEXPORTS.has(name))) {
      const code = readFileSync(join(SRC, file), "utf8").replace(/\/\*\*[\s\S]*?\*\/\s*/, "");
      expect(code).toMatch(/^export (type )?\{[^}]*\} from "\.\.\/\.\.\/process\/[a-z-]+\.ts";\n$/);
    }
  });

  test("every file group exists (the rules above are not vacuous)", () => {
    for (const folder of [
      "contract",
      "client",
      "cli",
      "adapters/http",
      "adapters/crypto",
      "adapters/system",
      "process",
    ]) {
      expect(sourceFiles(join(SRC, folder)).length).toBeGreaterThan(0);
    }
  });
});
