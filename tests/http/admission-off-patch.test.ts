/**
 * bench/admission-off.patch makes the "without admission" side of bench/admission-cost.sh and
 * bench/admission-micro.sh (issue 30: what the work meter costs at a load that sheds nothing). It
 * must keep applying to the route it patches, and keep taking out every gate of the meter, or the
 * measurement silently compares the service with itself.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const patchPath = "bench/admission-off.patch";

describe("the admission-off patch of the benchmarks", () => {
  test("applies to the present src/adapters/http/api-routes.ts", () => {
    // git apply works outside a repository too (a plain patch), so this needs no clone.
    const check = Bun.spawnSync(["git", "apply", "--check", "--verbose", patchPath], { cwd: root });
    expect({ exitCode: check.exitCode, stderr: check.stderr.toString() }).toEqual({
      exitCode: 0,
      stderr: expect.stringContaining("Checking patch src/adapters/http/api-routes.ts"),
    });
  });

  test("takes out the four gates, the Content-Length read and the clock reading, and adds no call of its own", () => {
    const lines = readFileSync(`${root}/${patchPath}`, "utf8").split("\n");
    const removed = lines.filter((line) => line.startsWith("-") && !line.startsWith("---")).join("\n");
    const added = lines.filter((line) => line.startsWith("+") && !line.startsWith("+++"));
    for (const call of [
      "meter.arrive(",
      "declaredBodyBytes(",
      "meter.read(",
      "budget.now()",
      "meter.work(",
      "meter.end(",
    ])
      expect(removed).toContain(call);
    expect(added.join("\n")).not.toMatch(/meter\.|budget\./);
  });
});
