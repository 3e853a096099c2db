/**
 * The client package (packages/client, issue 19) as another project gets it: built by
 * scripts/build-client-package.ts, packed, installed with `npm install <tarball>` into a fresh
 * project, then used under Node 20, Node 22 and Bun against the real server process and against
 * fake servers that break the protocol (hostile-answers.ts), bundled for a browser, and
 * type-checked by a consumer's own TypeScript. It must add at most 1 MB to
 * `node_modules`, with no dependency, no `bin` and none of the server.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { OPERATION_LIST } from "../../src/contract/operations.ts";
import { OPERATION_DOCS } from "../../src/operations/docs.ts";
import { type RunningServer, startServer } from "../e2e/server.ts";
import { chainPem } from "../fixtures/fixtures.ts";
import { describeHostileAnswers } from "./hostile-answers.ts";

const ROOT = resolve(import.meta.dir, "../..");
const work = mkdtempSync(join(tmpdir(), "nettools-client-package-"));
const consumer = join(work, "consumer");
const INSTALLED = join(consumer, "node_modules/network-tools-api-client");
let server: RunningServer;
let packed: string[] = [];
/** Node major version → its binary (this machine's node, and others from npm's `node` package). */
const nodes = new Map<number, string>();

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
  run([process.execPath, "scripts/build-client-package.ts"], ROOT);
  const pack = JSON.parse(
    run(["npm", "pack", "--json", "--pack-destination", work, "./packages/client"], ROOT),
  ) as { filename: string; files: { path: string }[] }[];
  const tarball = join(work, pack[0]?.filename ?? "");
  packed = (pack[0]?.files ?? []).map((file) => file.path).sort();
  mkdirSync(consumer);
  writeFileSync(
    join(consumer, "package.json"),
    JSON.stringify({ name: "consumer", private: true, type: "module" }),
  );
  run(["npm", "install", "--no-audit", "--no-fund", "--prefer-offline", tarball], consumer);

  const systemNode = Bun.which("node");
  if (systemNode === null) throw new Error("no node on PATH");
  nodes.set(Number(run([systemNode, "-p", "process.versions.node.split('.')[0]"], work).trim()), systemNode);
  for (const major of [20, 22]) {
    if (nodes.has(major)) continue;
    const home = join(work, `npm-node${major}`);
    mkdirSync(home);
    writeFileSync(join(home, "package.json"), JSON.stringify({ private: true }));
    run(["npm", "install", "--no-audit", "--no-fund", "--prefer-offline", `node@${major}`], home);
    nodes.set(major, join(home, "node_modules/node/bin/node"));
  }
}, 300_000);

afterAll(async () => {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
});

/** Calls four operations, one failing on purpose and one with date-time formats, and prints what came back. */
const SCRIPT = `
import { createClient } from "network-tools-api-client";
const api = createClient({ baseUrl: process.env.API_URL });
const health = await api.health();
const cover = await api.cidrCover({ inputs: ["10.0.0.0/24", "10.0.1.7"] });
const invalid = await api.cidrCover({ inputs: ["10.0.0.256"] });
const bundle = await api.certificateBundle({ pem: process.env.PEM });
const version = process.versions.node;
console.log(JSON.stringify({ health, cover, invalid, bundle, version }));
`;

function expectAnswers(stdout: string) {
  const { health, cover, invalid, bundle } = JSON.parse(stdout);
  expect(health).toMatchObject({ ok: true, status: 200, value: { status: "ok" } });
  expect(cover).toMatchObject({ ok: true, value: { cidr: "10.0.0.0/23", additionalAddressCount: "255" } });
  expect(invalid.ok).toBe(false);
  expect(invalid.status).toBe(400);
  expect(invalid.error.code).toBe("INVALID_INPUT");
  expect(invalid.error.issues[0].message).toContain("octet 256 is above 255");
  expect(bundle.ok).toBe(true);
  expect(bundle.value.certificates).toHaveLength(3);
}

describe("the client package", () => {
  test("the tarball holds one script, its declarations, a README and the manifest: no bin, no server", async () => {
    expect(packed).toEqual(["README.md", "index.d.ts", "index.js", "package.json"]);
    const manifest = await Bun.file(join(INSTALLED, "package.json")).json();
    expect(manifest.bin).toBeUndefined();
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.peerDependencies).toBeUndefined();
    expect(manifest.optionalDependencies).toBeUndefined();
  });

  test("installed into a fresh project it adds at most 1 MB, and nothing but itself", () => {
    const entries = readdirSync(join(consumer, "node_modules")).filter(
      (name) => name !== ".package-lock.json",
    );
    expect(entries).toEqual(["network-tools-api-client"]);
    const kib = Number(run(["du", "-sk", "node_modules"], consumer).split("\t")[0]);
    expect(kib).toBeGreaterThan(0);
    expect(kib).toBeLessThanOrEqual(1024);
  });

  test("the script imports nothing and compiles no code at run time (CSP without unsafe-eval)", async () => {
    const built = await Bun.file(join(INSTALLED, "index.js")).text();
    expect(built).not.toMatch(/^\s*import\s/m);
    expect(built).not.toMatch(/\bimport\(|\brequire\(|\bBun\.|node:/);
    expect(built).not.toMatch(/new Function|\beval\(/);
    expect(built).not.toMatch(/typebox|elysia/i);
  });

  for (const major of [20, 22]) {
    test(`installed, it works under Node ${major} against the real server`, () => {
      const node = nodes.get(major);
      if (node === undefined) throw new Error(`no node ${major}`);
      writeFileSync(join(consumer, "use.mjs"), SCRIPT);
      const stdout = run([node, "use.mjs"], consumer, { API_URL: server.url, PEM: chainPem("rsa-sha256") });
      expect(JSON.parse(stdout).version).toStartWith(`${major}.`);
      expectAnswers(stdout);
    }, 60_000);
  }

  test("as the README says: an ES module, loaded from CommonJS with import() in an async function", () => {
    const node = nodes.get(20);
    if (node === undefined) throw new Error("no node 20");
    writeFileSync(
      join(consumer, "use.cjs"),
      `(async () => {
  const { createClient } = await import("network-tools-api-client");
  const health = await createClient({ baseUrl: process.env.API_URL }).health();
  console.log(JSON.stringify(health));
})();
`,
    );
    expect(JSON.parse(run([node, "use.cjs"], consumer, { API_URL: server.url }))).toMatchObject({
      ok: true,
      value: { status: "ok" },
    });
  }, 60_000);

  test("installed, it works under Bun against the real server", () => {
    writeFileSync(join(consumer, "use-bun.mjs"), SCRIPT);
    expectAnswers(
      run([process.execPath, "use-bun.mjs"], consumer, { API_URL: server.url, PEM: chainPem("rsa-sha256") }),
    );
  }, 60_000);

  test("a body that breaks the schema is INVALID_RESPONSE with located issues, formats included", async () => {
    const { createClient, invalidResponseOf } = await import(join(INSTALLED, "index.js"));
    const answering = (body: unknown) =>
      createClient({ baseUrl: "http://api.test", fetch: async () => Response.json(body) });
    const cover = await answering({
      family: "ipv5",
      normalizedInputs: [],
      cidr: "x",
      range: {},
      inputAddressCount: "01",
    }).cidrCover({ inputs: ["10.0.0.1"] });
    const paths = invalidResponseOf(cover).issues.map((issue: { path: unknown[] }) => issue.path.join("/"));
    expect(paths).toContain("family");
    expect(paths).toContain("normalizedInputs");
    expect(paths).toContain("inputAddressCount");
    expect(paths).toContain("coveredAddressCount");
    expect(paths).toContain("range/first");

    const address = await answering({ family: "ipv4", ip: "::1" }).publicIp();
    expect(invalidResponseOf(address).issues).toEqual([
      { message: "/ip: expected a string of format ipv4", path: ["ip"] },
    ]);
    expect(await answering({ family: "ipv6", ip: "2001:db8::1" }).publicIp()).toMatchObject({ ok: true });

    const good = await createClient({ baseUrl: server.url }).certificateBundle({
      pem: chainPem("rsa-sha256"),
    });
    expect(good.ok).toBe(true);
    const broken = structuredClone(good.value);
    broken.certificates[1].notAfter = "tomorrow";
    const dated = await answering(broken).certificateBundle({ pem: "x" });
    expect(invalidResponseOf(dated).issues.map((issue: { path: unknown[] }) => issue.path)).toEqual([
      ["certificates", 1, "notAfter"],
    ]);
  }, 60_000);

  test("it bundles for a browser", async () => {
    writeFileSync(
      join(consumer, "page.js"),
      'import { createClient } from "network-tools-api-client";\nglobalThis.api = createClient({ baseUrl: "" });\n',
    );
    const build = await Bun.build({ entrypoints: [join(consumer, "page.js")], target: "browser" });
    expect(build.success).toBe(true);
    expect(build.outputs).toHaveLength(1);
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
import { type ApiResult, type CidrCoverResultType, createClient } from "network-tools-api-client";
const api = createClient({ baseUrl: "http://127.0.0.1:3000", timeoutMs: 1000 });
const result: ApiResult<CidrCoverResultType> = await api.cidrCover({ inputs: ["10.0.0.0/24"] });
if (result.ok) {
  const cidr: ${cidrType} = result.value.cidr;
  console.log(cidr);
} else console.log(result.error.code, result.status);
const text = await api.publicIpText();
if (text.ok) console.log(text.value.toUpperCase());
const bundle = await api.certificateBundle({ pem: "" });
if (bundle.ok) console.log(bundle.value.certificates.length);
export {};
`;
    writeFileSync(join(consumer, "consumer.ts"), source("string"));
    run([tsc, "-p", "."], consumer);
    writeFileSync(join(consumer, "consumer.ts"), source("number"));
    expect(() => run([tsc, "-p", "."], consumer)).toThrow(/TS2322/);
  }, 60_000);
});

// The same protocol checks as the source client's, on the installed script with its generated validators.
describeHostileAnswers("the installed package", () => import(join(INSTALLED, "index.js")));

describe("the written-out declarations", () => {
  test("each method carries its operation's summary, from the docs prose, as JSDoc", () => {
    const declarations = readFileSync(join(ROOT, "packages/client/index.d.ts"), "utf8");
    for (const operation of OPERATION_LIST) {
      const summary = OPERATION_DOCS[operation.id].summary;
      expect(declarations).toContain(
        `  /** ${summary}: \`${operation.method} ${operation.path}\`. */\n  ${operation.id}(`,
      );
    }
  });

  test("are the source client's types, operation by operation (each way assignable)", () => {
    const folder = mkdtempSync(join(ROOT, "node_modules/.cache-declarations-"));
    try {
      writeFileSync(
        join(folder, "built.d.ts"),
        readFileSync(join(ROOT, "packages/client/index.d.ts"), "utf8"),
      );
      const same = (source: string, built: string) => `Same<Source.${source}, Built.${built}>`;
      const checks: string[] = [
        same("Client", "Client"),
        same("ApiResult<string>", "ApiResult<string>"),
        same("ServerError", "ServerError"),
        same("ServerErrorCode", "ServerErrorCode"),
        same("InvalidResponseError", "InvalidResponseError"),
        same("ClientOptions", "ClientOptions"),
        same("CallOptions", "CallOptions"),
      ];
      for (const operation of OPERATION_LIST) {
        checks.push(same(`ResultOf<"${operation.id}">`, `ResultOf<"${operation.id}">`));
        if (operation.request !== null) {
          checks.push(same(`RequestOf<"${operation.id}">`, `RequestOf<"${operation.id}">`));
        }
      }
      writeFileSync(
        join(folder, "check.ts"),
        `import type * as Source from "${join(ROOT, "src/client/index.ts")}";
import type * as Built from "./built.js";
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const checks: [${checks.join(", ")}] = [${checks.map(() => "true").join(", ")}];
`,
      );
      writeFileSync(
        join(folder, "tsconfig.json"),
        JSON.stringify({
          extends: join(ROOT, "tsconfig.json"),
          compilerOptions: { types: [] },
          include: [],
          files: ["check.ts"],
        }),
      );
      run([join(ROOT, "node_modules/.bin/tsc"), "-p", "."], folder);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 60_000);
});
