/**
 * The client as another project gets it (issue 13): `npm pack` (whose prepack builds
 * dist/client), `npm install <tarball>` into a fresh project, then the installed package used
 * under Node and under Bun against the real server process, and a TypeScript consumer checked by
 * tsc against the installed declarations.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type RunningServer, startServer } from "../e2e/server.ts";

const ROOT = resolve(import.meta.dir, "../..");
const work = mkdtempSync(join(tmpdir(), "nettools-package-"));
const consumer = join(work, "consumer");
let server: RunningServer;
let tarball = "";
let packed: string[] = [];

function run(command: string[], cwd: string, env: Record<string, string> = {}) {
  const result = Bun.spawnSync(command, {
    cwd,
    env: { ...process.env, NO_COLOR: "1", npm_config_update_notifier: "false", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const stdout = result.stdout.toString();
  const stderr = result.stderr.toString();
  if (result.exitCode !== 0) {
    throw new Error(`${command.join(" ")} exited ${result.exitCode}:\n${stdout}\n${stderr}`);
  }
  return stdout;
}

beforeAll(async () => {
  server = await startServer();
  const pack = JSON.parse(run(["npm", "pack", "--json", "--pack-destination", work], ROOT)) as {
    filename: string;
    files: { path: string }[];
  }[];
  tarball = join(work, pack[0]!.filename);
  packed = pack[0]!.files.map((file) => file.path);
  mkdirSync(consumer);
  writeFileSync(
    join(consumer, "package.json"),
    JSON.stringify({ name: "consumer", private: true, type: "module" }),
  );
  run(["npm", "install", "--no-audit", "--no-fund", "--prefer-offline", tarball], consumer);
}, 180_000);

afterAll(async () => {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
});

/** Calls three operations, one of them failing on purpose, and prints what came back. */
const SCRIPT = `
import { createClient } from "network-tools-api/client";
const api = createClient({ baseUrl: process.env.API_URL });
const health = await api.health();
const cover = await api.cidrCover({ inputs: ["10.0.0.0/24", "10.0.1.7"] });
const invalid = await api.cidrCover({ inputs: ["10.0.0.256"] });
console.log(JSON.stringify({ health, cover, invalid }));
`;

function expectAnswers(stdout: string) {
  const { health, cover, invalid } = JSON.parse(stdout);
  expect(health).toMatchObject({ ok: true, status: 200, value: { status: "ok" } });
  expect(cover).toMatchObject({ ok: true, value: { cidr: "10.0.0.0/23", additionalAddressCount: "255" } });
  expect(invalid.ok).toBe(false);
  expect(invalid.status).toBe(400);
  expect(invalid.error.code).toBe("INVALID_INPUT");
  expect(invalid.error.issues[0].message).toContain("octet 256 is above 255");
}

describe("the packed client", () => {
  test("the tarball holds the built client and its declarations, not the server", () => {
    expect(packed).toContain("dist/client/index.js");
    expect(packed).toContain("dist/client/types/client/index.d.ts");
    expect(packed.filter((path) => path.startsWith("src/") && path !== "src/cli/main.ts")).toEqual([]);
  });

  test("package.json exports ./client with types and import conditions on built files", async () => {
    const pkg = await Bun.file(join(ROOT, "package.json")).json();
    const entry = pkg.exports["./client"];
    expect(entry.types).toBe("./dist/client/types/client/index.d.ts");
    expect(entry.import).toBe("./dist/client/index.js");
    expect(entry.development).toBe("./src/client/index.ts");
    expect(pkg.scripts.prepack).toContain("build:client");
  });

  test("the built file imports nothing but TypeBox", async () => {
    const built = await Bun.file(join(ROOT, "dist/client/index.js")).text();
    const imports = [...built.matchAll(/^import .* from "([^"]+)";$/gm)].map((match) => match[1]);
    expect(imports.length).toBeGreaterThan(0);
    for (const specifier of imports) expect(specifier).toMatch(/^@sinclair\/typebox(\/|$)/);
    expect(built).not.toMatch(/\bBun\.|\brequire\(|from "(node:|bun)/);
  });

  test("installed, it works under Node against the real server", () => {
    writeFileSync(join(consumer, "use.mjs"), SCRIPT);
    expectAnswers(run(["node", "use.mjs"], consumer, { API_URL: server.url }));
  }, 60_000);

  test("installed, it works under Bun against the real server", () => {
    writeFileSync(join(consumer, "use-bun.mjs"), SCRIPT);
    expectAnswers(run([process.execPath, "use-bun.mjs"], consumer, { API_URL: server.url }));
  }, 60_000);

  test("in the repository, the development condition resolves to the source", () => {
    const out = run(
      [
        process.execPath,
        "--conditions=development",
        "-e",
        'console.log(import.meta.resolve("network-tools-api/client"))',
      ],
      ROOT,
    );
    expect(out.trim()).toEndWith("/src/client/index.ts");
  });

  test("a TypeScript consumer type-checks against the installed declarations, and a wrong type fails", () => {
    const tsc = join(ROOT, "node_modules/.bin/tsc");
    writeFileSync(
      join(consumer, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "nodenext",
          moduleResolution: "nodenext",
          strict: true,
          noEmit: true,
          lib: ["ES2023", "DOM"],
          types: [],
        },
        files: ["consumer.ts"],
      }),
    );
    const source = (cidrType: string) => `
import { type ApiResult, type CidrCoverResultType, createClient } from "network-tools-api/client";
const api = createClient({ baseUrl: "http://127.0.0.1:3000", timeoutMs: 1000 });
const result: ApiResult<CidrCoverResultType> = await api.cidrCover({ inputs: ["10.0.0.0/24"] });
if (result.ok) {
  const cidr: ${cidrType} = result.value.cidr;
  console.log(cidr);
} else console.log(result.error.code, result.status);
export {};
`;
    writeFileSync(join(consumer, "consumer.ts"), source("string"));
    run([tsc, "-p", "."], consumer);
    writeFileSync(join(consumer, "consumer.ts"), source("number"));
    expect(() => run([tsc, "-p", "."], consumer)).toThrow(/TS2322/);
  }, 60_000);
});
