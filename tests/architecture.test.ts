/**
 * The dependency rule (docs/architecture.md): the domain imports only the domain.
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
