/**
 * The container-image CI step (scripts/image-ci.sh). The real proof is the step itself, which
 * `.ci/run` runs after the test suite (it builds and runs the image, minutes); these checks keep
 * it wired in, consistent with the Dockerfile and the manifests, and honest when it cannot run.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");
const SCRIPT = join(ROOT, "scripts/image-ci.sh");
const script = readFileSync(SCRIPT, "utf8");
const ci = readFileSync(join(ROOT, ".ci/run"), "utf8");
const dockerfileFroms = readFileSync(join(ROOT, "Dockerfile"), "utf8")
  .split("\n")
  .filter((line) => line.startsWith("FROM "))
  .map((line) => line.split(/\s+/)[1] as string);

/**
 * Runs the script as an unprivileged user (dropping root when the tests run as root). That user
 * may not be able to read the checkout (a clone in /root, or under `mktemp -d`), so the script
 * runs from a copy in a world-readable temporary folder, with that folder as working directory;
 * the copy is the same bytes, and it stops at the root check before it reads anything else.
 */
function runUnprivileged(): { exitCode: number; output: string } {
  const dir = mkdtempSync(join(tmpdir(), "image-ci-"));
  try {
    mkdirSync(join(dir, "scripts"));
    const copy = join(dir, "scripts/image-ci.sh");
    writeFileSync(copy, script);
    chmodSync(dir, 0o755);
    chmodSync(join(dir, "scripts"), 0o755);
    chmodSync(copy, 0o644);
    const asNobody =
      process.getuid?.() === 0 ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : [];
    const result = Bun.spawnSync([...asNobody, "bash", copy], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: "/nonexistent" },
      stdout: "pipe",
      stderr: "pipe",
    });
    return { exitCode: result.exitCode, output: `${result.stdout.toString()}${result.stderr.toString()}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("scripts/image-ci.sh", () => {
  test("is valid bash", () => {
    const result = Bun.spawnSync(["bash", "-n", SCRIPT], { stderr: "pipe" });
    expect(result.stderr.toString()).toBe("");
    expect(result.exitCode).toBe(0);
  });

  test(".ci/run runs it as its own step after the test suite; npm run image:ci runs it too", () => {
    const testSuite = ci.indexOf("npm cit");
    const imageStep = ci.indexOf("bash scripts/image-ci.sh");
    expect(testSuite).toBeGreaterThan(0);
    expect(imageStep).toBeGreaterThan(testSuite);
    expect(ci.slice(0, imageStep)).toMatch(/step "container image[^"]*"\s*\n(#[^\n]*\n)*$/);
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts["image:ci"]).toBe("bash scripts/image-ci.sh");
  });

  test("stands in for exactly the Dockerfile's base images", () => {
    expect(dockerfileFroms).toHaveLength(2);
    expect(dockerfileFroms[0]).toMatch(/^oven\/bun:\d+\.\d+\.\d+$/);
    // The Bun tag is derived from package-lock.json at run time and compared with the Dockerfile;
    // the runtime image name is a constant of the script.
    expect(script).toContain('BUN_IMAGE="docker.io/oven/bun:$BUN_VERSION"');
    expect(script).toContain(`RUNTIME_IMAGE="${dockerfileFroms[1]}"`);
  });

  test("builds the real Dockerfile without registries, keeping HEALTHCHECK (docker format)", () => {
    const bud = /bud --isolation chroot [^\n]*/.exec(script)?.[0] ?? "";
    expect(bud).toContain("--format docker");
    expect(bud).toContain("--pull=never");
    expect(script).toMatch(/--file Dockerfile \./);
  });

  test("runs the image as the Deployment's user, read-only, and checks the promised behaviour", () => {
    const deployment = readFileSync(join(ROOT, "deploy/kubernetes/deployment.yaml"), "utf8");
    const uid = /runAsUser: (\d+)/.exec(deployment)?.[1];
    expect(uid).toBe("65532");
    expect(script).toContain(`chroot --userspec=${uid}:${uid}`);
    expect(script).toContain("remount,bind,ro");
    for (const probe of ["/v1/health", "/docs", "kill -TERM", "HEALTHCHECK"]) expect(script).toContain(probe);
    expect(script).toMatch(/if \(\(FAILURES > 0\)\); then\n[^\n]*\n\s*exit 1\n/);
  });

  test("without root it prints a loud SKIPPED note and exits 0", () => {
    const { exitCode, output } = runUnprivileged();
    expect(output).toContain("SKIPPED: image-ci: needs root");
    expect(output).not.toContain("PASS:");
    expect(exitCode).toBe(0);
  });
});
