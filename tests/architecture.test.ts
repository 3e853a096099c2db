/**
 * The dependency rules (docs/architecture.md): the domain imports only the domain and speaks no
 * transport; the wire contract (src/contract/ and the operations' rows, src/operations/<id>/row.ts,
 * with their table) imports only itself, the domain and TypeBox, and the rows are the only place a
 * route's facts are stated; the client only the contract, the domain and TypeBox; the CLI never
 * the server entry point nor the HTTP adapter; adapters never each other; an operation's folder
 * (src/operations/<id>/use-case.ts) is the only module that runs its use case (ADR 0059);
 * nothing reaches into Elysia's internals. The
 * user's machine (ADR 0050): nothing imports src/cli/; src/local/ and src/web/ never import from it;
 * the CLI and the page reach adapters only through src/local/'s ports, bound in their composition
 * roots (src/cli/composition-root.ts, src/web/app.ts); no import cycle anywhere in src/.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { OPERATION_LIST } from "../src/contract/operations.ts";
import type { SignatureVerifier } from "../src/domain/ports.ts";
import { createMemoryLogger } from "../src/process/logger.ts";
import { chain } from "./domain/certificate-helpers.ts";
import { bundleOf, fakeDecoder } from "./fakes/certificates.ts";
import { loopbackClient } from "./fakes/client-address.ts";
import { testApp } from "./http/helpers.ts";

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
      expect(text).not.toMatch(
        /\bBun\.|\bprocess\.|\bBuffer\b|\bsetImmediate\b|new Date\(\)|Date\.now\(\)|\bcrypto\.subtle\b/,
      );
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

const inside = (path: string, folder: string) => path.startsWith(join(SRC, folder));

/** The operations' rows (src/operations/<id>/row.ts): the wire contract's facts, one folder each (ADR 0059). */
const ROWS = sourceFiles(join(SRC, "operations")).filter((file) => file.endsWith("/row.ts"));
/** The wire contract: src/contract/, the rows and the table that lists them (src/operations/table.ts). */
const WIRE_CONTRACT = [...sourceFiles(join(SRC, "contract")), ...ROWS, join(SRC, "operations/table.ts")];
/**
 * Domain functions that a binding runs and that another module calls for a purpose of its own
 * (named, so the list can only shrink): the CLI's and the page's router formats collapse the
 * printed list with the merge (src/local/list-render.ts), not as the merge operation.
 */
const DOMAIN_CALLS_BESIDE_THE_BINDINGS: readonly string[] = [
  "local/list-render.ts → domain/cidr/merge-mixed.ts#mergeMixedCidrs",
];
/** The operations' use-case bindings (src/operations/<id>/use-case.ts). */
const BINDINGS = sourceFiles(join(SRC, "operations")).filter((file) => file.endsWith("/use-case.ts"));

/** The adapter groups: each implements ports and imports no other group. */
const ADAPTER_GROUPS = [
  "http",
  "crypto",
  "system",
  "geoip",
  "tls",
  "keys-node",
  "keys-webcrypto",
  "files-node",
  "openssl",
  "process-node",
];

describe("the edge's arrows", () => {
  test.each(WIRE_CONTRACT.map((file) => [file.slice(ROOT.length + 1), file]))(
    "%s (wire contract) imports only the contract, the rows, the domain and TypeBox",
    (_name, file) => {
      for (const [specifier, target] of importsOf(file)) {
        if (!specifier.startsWith(".")) expect(specifier).toMatch(/^@sinclair\/typebox(\/|$)/);
        else
          expect(
            `${specifier}: ${inside(target, "contract/") || inside(target, "domain/") || WIRE_CONTRACT.includes(target)}`,
          ).toBe(`${specifier}: true`);
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

  test.each(sourceFiles(join(SRC, "local")).map((file) => [file.slice(ROOT.length + 1), file]))(
    "%s (the user's machine, for the CLI and the page) imports only local/, the domain (its DER reader included) and the contract, and no runtime API",
    (_name, file) => {
      for (const [specifier, target] of importsOf(file)) {
        expect(specifier.startsWith(".")).toBe(true);
        expect(
          `${specifier}: ${inside(target, "local/") || inside(target, "domain/") || inside(target, "contract/")}`,
        ).toBe(`${specifier}: true`);
      }
      // Code only: the comments may name what the code does not use.
      const code = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
      expect(code).not.toMatch(/\bBun\.|\bprocess\.|\bBuffer\b|\bdocument\.|\bwindow\.|from "node:/);
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

  const groups = ADAPTER_GROUPS;
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

  test("only an operation's folder (src/operations/<id>/use-case.ts) runs its use case", () => {
    /** Each domain function a binding runs, as `module#name`: read from the bindings' own imports. */
    const useCases = new Set<string>();
    const NAMED = /import\s+\{([^}]*)\}\s+from\s+["']([^"']+)["']/g;
    const valuesImported = (file: string) =>
      [...readFileSync(file, "utf8").matchAll(NAMED)].flatMap((match) =>
        (match[1] ?? "")
          .split(",")
          .map((name) => name.trim())
          .filter((name) => name !== "" && !name.startsWith("type "))
          .map((name) => `${resolve(dirname(file), match[2] ?? "")}#${name.split(/\s+as\s+/)[0]}`),
      );
    for (const binding of BINDINGS)
      for (const imported of valuesImported(binding)) if (inside(imported, "domain/")) useCases.add(imported);
    // Not vacuous: the bindings run the domain (every operation but health).
    expect(useCases.size).toBeGreaterThan(15);
    expect(useCases).toContain(`${join(SRC, "domain/cidr/compare.ts")}#compareCidrs`);
    const outside = sourceFiles(SRC).filter((file) => !inside(file, "domain/") && !BINDINGS.includes(file));
    expect(outside.length).toBeGreaterThan(20);
    const found = outside.flatMap((file) =>
      valuesImported(file)
        .filter((imported) => useCases.has(imported))
        .map((imported) => `${relativeToSrc(file)} → ${relativeToSrc(imported)}`),
    );
    expect(found).toEqual([...DOMAIN_CALLS_BESIDE_THE_BINDINGS]);
  });

  test("no module but an operation's row states a route's path, and none but the rows and the contract a policy", () => {
    const pathLiteral = /["'`]\/v1\/[a-z][a-z-/]*["'`]/;
    const policyLiteral =
      /\b(?:noStore|rateLimited)\s*:\s*(?:true|false)\b|\badmission\s*:\s*["'](?:queued|immediate|metered)["']|\brepresentation\s*:\s*["'](?:json|text|json-or-text)["']/;
    expect(ROWS.length).toBeGreaterThan(15);
    for (const file of sourceFiles(SRC).filter((candidate) => !ROWS.includes(candidate))) {
      const text = readFileSync(file, "utf8");
      expect(`${file}: ${pathLiteral.exec(text)?.[0] ?? "no path literal"}`).toBe(`${file}: no path literal`);
      if (!inside(file, "contract/"))
        expect(`${file}: ${policyLiteral.exec(text)?.[0] ?? "no policy"}`).toBe(`${file}: no policy`);
    }
  });

  test("the domain speaks no transport: no HTTP code, status or Fetch response", () => {
    const transport =
      /\b(?:NOT_FOUND|METHOD_NOT_ALLOWED|PAYLOAD_TOO_LARGE|UNSUPPORTED_MEDIA_TYPE|INVALID_JSON|RATE_LIMITED|OVERLOADED|INTERNAL_ERROR|retryAfter\w*|new Response|Headers)\b/;
    for (const file of sourceFiles(DOMAIN)) {
      const text = readFileSync(file, "utf8");
      expect(`${file}: ${transport.exec(text)?.[0] ?? "none"}`).toBe(`${file}: none`);
    }
  });

  test("nothing imports Elysia's internals: no elysia/* subpath, and a plugin only by its declared exports", () => {
    for (const file of sourceFiles(SRC)) {
      for (const [specifier] of importsOf(file)) {
        expect(`${file}: ${specifier}`).not.toMatch(/: elysia\//);
        const plugin = /^(@elysiajs\/[^/]+)(\/.+)?$/.exec(specifier);
        if (plugin?.[2] === undefined) continue;
        const manifest = JSON.parse(
          readFileSync(join(ROOT, "node_modules", plugin[1] ?? "", "package.json"), "utf8"),
        ) as { exports?: Record<string, unknown> };
        expect(`${file}: ${specifier} is a declared export`).toBe(
          `${file}: ${specifier} is ${Object.hasOwn(manifest.exports ?? {}, `.${plugin[2]}`) ? "a declared" : "not an"} export`,
        );
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
        for (const [, target] of importsOf(file)) expect(inside(target, "process/")).toBe(false);
      }
  });

  test("src/adapters/system holds only port implementations (each implements a port of src/domain/ports.ts or serves one)", () => {
    const files = sourceFiles(join(SRC, "adapters", "system")).map((file) => file.slice(SRC.length + 1));
    expect(files.sort()).toEqual([
      "adapters/system/client-address.ts",
      "adapters/system/clock.ts",
      "adapters/system/trusted-proxies.ts",
    ]);
    for (const file of ["adapters/system/client-address.ts", "adapters/system/clock.ts"])
      expect(importsOf(join(SRC, file)).some(([, target]) => target === join(SRC, "domain/ports.ts"))).toBe(
        true,
      );
  });

  test("every file group exists (the rules above are not vacuous)", () => {
    for (const folder of [
      "contract",
      "client",
      "cli",
      "local",
      "web",
      "adapters/tls",
      "adapters/keys-node",
      "adapters/keys-webcrypto",
      "adapters/files-node",
      "adapters/openssl",
      "adapters/process-node",
      "adapters/http",
      "adapters/crypto",
      "adapters/system",
      "adapters/geoip",
      "process",
    ]) {
      expect(sourceFiles(join(SRC, folder)).length).toBeGreaterThan(0);
    }
  });
});

/** `src/…` of an absolute path, for messages. */
const relativeToSrc = (path: string) => path.slice(SRC.length + 1);

/**
 * The most lines src/cli/ may hold (every line of its .ts files, counted as `wc -l` counts them).
 * Issue 32 asks for under 4,000: the logic that is not the CLI's moved to src/local/, the
 * operations' local runner, the certificate watch and the adapters (ADR 0058), then each option
 * was declared once, by its line of help, and what the commands repeated became one function
 * each (ADR 0062). This ceiling is where that left the CLI; it only goes down. What remains is
 * the commands (their help texts are about 800 lines), their options and the terminal's rendering.
 */
const CLI_LINE_CEILING = 3_994;

/** The modules of src/local/ an adapter may import: the ports, and the words they speak (ports.ts imports them). */
const PORT_WORDS: readonly string[] = [
  "local/ports.ts",
  "local/input-limits.ts",
  "local/starttls-protocols.ts",
];

/**
 * Imports of src/local/ by adapters that are not its ports (named, so the list can only shrink):
 * the key readers share the PEM and PKCS#8 helpers of private-keys.ts and the PBES2 tables of
 * pbes2.ts, and STARTTLS quotes a server's words with the terminal's escaping; each waits for the
 * key formats' own module below both.
 */
const ADAPTER_IMPORTS_OF_LOCAL_AWAITING_A_MOVE: readonly string[] = [
  "adapters/keys-node/key-decryption.ts → local/pbes2.ts",
  "adapters/keys-node/node-public-keys.ts → local/private-keys.ts",
  "adapters/keys-webcrypto/webcrypto-public-keys.ts → local/private-keys.ts",
  "adapters/tls/starttls.ts → local/terminal-text.ts",
];

describe("the user's machine: src/local, the CLI and the page (ADR 0050)", () => {
  const all = sourceFiles(SRC);

  test("nothing outside src/cli/ imports from it", () => {
    const found: string[] = [];
    for (const file of all.filter((candidate) => !inside(candidate, "cli/")))
      for (const [, target] of importsOf(file))
        if (inside(target, "cli/")) found.push(`${relativeToSrc(file)} → ${relativeToSrc(target)}`);
    expect(found).toEqual([]);
  });

  test.each(
    [...sourceFiles(join(SRC, "local")), ...sourceFiles(join(SRC, "web"))].map((file) => [
      relativeToSrc(file),
      file,
    ]),
  )("%s never imports from src/cli/", (_name, file) => {
    for (const [specifier, target] of importsOf(file))
      expect(`${specifier}: ${inside(target, "cli/")}`).toBe(`${specifier}: false`);
  });

  test.each(sourceFiles(join(SRC, "cli")).map((file) => [relativeToSrc(file), file]))(
    "%s (CLI) reaches adapters only through src/local's ports, bound in src/cli/composition-root.ts",
    (name, file) => {
      for (const [specifier, target] of importsOf(file)) {
        if (!inside(target, "adapters/")) continue;
        expect(`${name} → ${specifier}`).toBe(
          name === "cli/composition-root.ts" ? `${name} → ${specifier}` : `${name} → (no adapter)`,
        );
      }
    },
  );

  test(`src/cli/ (commands, arguments, rendering for a terminal) stays within ${CLI_LINE_CEILING} lines`, () => {
    const lines = sourceFiles(join(SRC, "cli")).reduce(
      (sum, file) => sum + readFileSync(file, "utf8").split("\n").length - 1,
      0,
    );
    expect(lines).toBeGreaterThan(1000);
    expect(lines).toBeLessThanOrEqual(CLI_LINE_CEILING);
  });

  test.each(
    ADAPTER_GROUPS.flatMap((group) =>
      sourceFiles(join(SRC, "adapters", group)).map((file) => [relativeToSrc(file), file] as const),
    ),
  )("%s imports src/local/ only for its ports (ports.ts and the words its ports speak)", (name, file) => {
    for (const [specifier, target] of importsOf(file)) {
      if (!inside(target, "local/")) continue;
      const allowed =
        PORT_WORDS.includes(relativeToSrc(target)) ||
        ADAPTER_IMPORTS_OF_LOCAL_AWAITING_A_MOVE.includes(`${name} → ${relativeToSrc(target)}`);
      expect(`${name} → ${specifier}: ${allowed}`).toBe(`${name} → ${specifier}: true`);
    }
  });

  test("src/local/ reaches no adapter: it imports none, and the adapters of the user's machine come to it as ports", () => {
    for (const file of sourceFiles(join(SRC, "local")))
      for (const [, target] of importsOf(file))
        expect(`${relativeToSrc(file)} → ${inside(target, "adapters/")}`).toBe(
          `${relativeToSrc(file)} → false`,
        );
  });

  test("the CLI's composition root binds every port of the user's machine, and main.ts calls it once per process", () => {
    const root = readFileSync(join(SRC, "cli/composition-root.ts"), "utf8");
    for (const adapter of [
      "adapters/tls/",
      "adapters/keys-node/",
      "adapters/files-node/",
      "adapters/openssl/",
      "adapters/process-node/",
    ])
      expect(root).toContain(adapter);
    const main = readFileSync(join(SRC, "cli/main.ts"), "utf8");
    expect(main.match(/\bcomposeCli\(\)/g)?.length).toBe(1);
    // Nothing else in the CLI composes: commands receive the ports through their Io.
    for (const file of sourceFiles(join(SRC, "cli")).filter(
      (candidate) => !candidate.endsWith("/main.ts") && !candidate.endsWith("/composition-root.ts"),
    ))
      expect(`${relativeToSrc(file)}: ${/\bcomposeCli\(\)/.test(readFileSync(file, "utf8"))}`).toBe(
        `${relativeToSrc(file)}: false`,
      );
  });

  /** The page's build-time modules: they run under Bun while the bundle is built, never in the browser. */
  const PAGE_BUILD = ["web/bundle.ts", "web/build-app.ts", "web/precompress.ts", "web/generated-contract.ts"];

  test.each(
    sourceFiles(join(SRC, "web"))
      .map((file) => [relativeToSrc(file), file])
      .filter(([name]) => !PAGE_BUILD.includes(name!)),
  )(
    "%s (the page) imports only the page, the client, src/local and the domain; app.ts (its composition root) the WebCrypto key adapter too; no runtime module",
    (name, file) => {
      for (const [specifier, target] of importsOf(file)) {
        const allowed =
          specifier.startsWith(".") &&
          (inside(target, "web/") ||
            inside(target, "client/") ||
            inside(target, "local/") ||
            inside(target, "domain/") ||
            (name === "web/app.ts" && inside(target, "adapters/keys-webcrypto/")));
        expect(`${name} → ${specifier}: ${allowed}`).toBe(`${name} → ${specifier}: true`);
      }
    },
  );

  test.each(PAGE_BUILD.map((name) => [name, join(SRC, name)]))(
    "%s (the page's build) imports only the page, the contract, TypeBox and the runtime",
    (name, file) => {
      for (const [specifier, target] of importsOf(file)) {
        const allowed = specifier.startsWith(".")
          ? inside(target, "web/") || inside(target, "contract/")
          : /^(bun|node:[a-z_/]+|@sinclair\/typebox(\/.*)?)$/.test(specifier);
        expect(`${name} → ${specifier}: ${allowed}`).toBe(`${name} → ${specifier}: true`);
      }
    },
  );

  test("the adapters of the user's machine implement src/local's ports", () => {
    for (const [file, port] of [
      ["adapters/tls/tls-certificates.ts", "ServerCertificateSource"],
      ["adapters/keys-node/node-public-keys.ts", "PublicKeyReader"],
      ["adapters/keys-webcrypto/webcrypto-public-keys.ts", "PublicKeyReader"],
      ["adapters/files-node/local-files.ts", "LocalFiles"],
      ["adapters/openssl/legacy-pkcs12.ts", "LegacyPkcs12Reader"],
      ["adapters/process-node/resident-memory.ts", "ResidentMemory"],
    ] as const) {
      const text = readFileSync(join(SRC, file), "utf8");
      expect(`${file}: ${new RegExp(`: ${port} = \\{`).test(text)}`).toBe(`${file}: true`);
      expect(importsOf(join(SRC, file)).some(([, target]) => target === join(SRC, "local/ports.ts"))).toBe(
        true,
      );
    }
  });
});

describe("no import cycle", () => {
  test("the imports of src/ form no cycle (strongly connected components of one module)", () => {
    const graph = new Map(
      sourceFiles(SRC).map((file) => [
        file,
        importsOf(file)
          .map(([, target]) => target)
          .filter((target) => target.endsWith(".ts")),
      ]),
    );
    // Tarjan's strongly connected components.
    let counter = 0;
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const cycles: string[] = [];
    const visit = (node: string): void => {
      index.set(node, counter);
      low.set(node, counter);
      counter++;
      stack.push(node);
      onStack.add(node);
      for (const next of graph.get(node) ?? []) {
        if (!graph.has(next)) continue;
        if (!index.has(next)) {
          visit(next);
          low.set(node, Math.min(low.get(node)!, low.get(next)!));
        } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
      if (low.get(node) !== index.get(node)) return;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(relativeToSrc(member));
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node))
        cycles.push(component.sort().join(" ↔ "));
    };
    for (const node of graph.keys()) if (!index.has(node)) visit(node);
    expect(graph.size).toBeGreaterThan(100);
    expect(cycles.sort()).toEqual([]);
  });
});

describe("one Elysia application serves everything (docs/architecture.md, ADR 13)", () => {
  test("every row of the operations table is a route of the application, answered by the row's handler", async () => {
    const { app, api } = testApp().app;
    for (const row of OPERATION_LIST) {
      const route = app.routes.find(
        (candidate) => candidate.method === row.method && candidate.path === row.path,
      );
      expect(route === undefined ? `${row.id}: missing` : `${row.id}: declared`).toBe(`${row.id}: declared`);
      const declared = api.find((candidate) => candidate.operation.id === row.id);
      expect((route?.hooks as { detail?: { operationId?: string } } | undefined)?.detail?.operationId).toBe(
        row.id,
      );
      expect(declared?.detail.operationId).toBe(row.id);
    }
    // The route's handler is the row's: a GET row answered by calling the route's handler itself.
    const health = app.routes.find((route) => route.path === "/v1/health");
    const handler = health?.handler as (context: { request: Request }) => Response;
    const answer = handler({ request: new Request("http://localhost/v1/health") });
    expect(await answer.text()).toBe('{"status":"ok"}');
  });

  test("nothing outside the HTTP adapter serves routes with Bun.serve; the metrics listener alone calls it", () => {
    for (const file of sourceFiles(SRC)) {
      const text = readFileSync(file, "utf8");
      const serves = /\bBun\.serve\s*\(/.test(text);
      const relative = file.slice(SRC.length + 1);
      expect(`${relative}: ${serves ? "calls Bun.serve" : "no"}`).toBe(
        `${relative}: ${relative === "process/metrics-listener.ts" ? "calls Bun.serve" : "no"}`,
      );
      if (serves) expect(text).not.toMatch(/\broutes\s*:/);
    }
  });

  test("no function of the composition root (src/app.ts) runs while a request is answered", async () => {
    const stacks: string[] = [];
    const remember = () => stacks.push(new Error("where").stack ?? "");
    const certs = chain();
    const verifier: SignatureVerifier = {
      verify: async () => {
        remember();
        return { outcome: "verified" };
      },
    };
    const logger = createMemoryLogger();
    const { app } = testApp({
      decoder: fakeDecoder([certs.root, certs.intermediate, certs.leaf]),
      verifier,
      clientAddress: {
        clientAddress: () => {
          remember();
          return loopbackClient.clientAddress();
        },
      },
      logger: {
        ...logger,
        access: (...args: Parameters<typeof logger.access>) => {
          remember();
          logger.access(...args);
        },
      },
    });
    const post = (path: string, body: unknown) =>
      app.handle(
        new Request(`http://localhost${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
      );
    expect(
      (await post("/v1/certificate-bundle", { pem: bundleOf([certs.leaf, certs.intermediate]) })).status,
    ).toBe(200);
    expect((await post("/v1/cidr-cover", { inputs: ["10.0.0.1"] })).status).toBe(200);
    expect((await app.handle(new Request("http://localhost/v1/public-ip"))).status).toBe(200);
    expect((await app.handle(new Request("http://localhost/v1/nope"))).status).toBe(404);
    // Stacks were taken in the verifier, the client-address port and the access log.
    expect(stacks.length).toBeGreaterThanOrEqual(6);
    for (const stack of stacks) expect(stack).not.toContain("/src/app.ts");
    expect(stacks.some((stack) => stack.includes("/src/adapters/http/"))).toBe(true);
  });
});
