/**
 * The command catalog (src/cli/commands/catalog.ts) loads each command only when it runs: every
 * entry must load the command of its own name, and `nettools match` must start without the
 * modules the other commands need (the client, the schemas, the server).
 */
import { describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { COMMAND_CATALOG } from "../../src/cli/commands/catalog.ts";

describe("the command catalog", () => {
  test("each entry loads the command of its name, with its help", async () => {
    expect(new Set(COMMAND_CATALOG.map((entry) => entry.name)).size).toBe(COMMAND_CATALOG.length);
    for (const entry of COMMAND_CATALOG) {
      const command = await entry.load();
      expect(command.name).toBe(entry.name);
      expect(command.help).toStartWith(`Usage: nettools ${entry.name}`);
      expect(entry.summary.length).toBeGreaterThan(10);
    }
  });

  test("match loads neither the client, nor TypeBox, nor the use cases", () => {
    const root = resolve(import.meta.dir, "../..");
    const probe = `
      const before = new Set(Object.keys(require.cache));
      await import(${JSON.stringify(`${root}/src/cli/main.ts`)});
      const { COMMAND_CATALOG } = await import(${JSON.stringify(`${root}/src/cli/commands/catalog.ts`)});
      await COMMAND_CATALOG.find((c) => c.name === "match").load();
      console.log(JSON.stringify(Object.keys(require.cache).filter((k) => !before.has(k))));`;
    const ran = Bun.spawnSync([process.execPath, "-e", probe], { cwd: root });
    expect(ran.exitCode).toBe(0);
    const loaded = JSON.parse(ran.stdout.toString()) as string[];
    expect(loaded.some((path) => path.endsWith("src/cli/match.ts"))).toBe(true);
    for (const unwanted of [
      "src/client/index.ts",
      "@sinclair/typebox",
      "src/operations/use-cases.ts",
      "src/server.ts",
    ]) {
      expect(loaded.filter((path) => path.includes(unwanted))).toEqual([]);
    }
  });
});
