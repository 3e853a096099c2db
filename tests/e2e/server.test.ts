/**
 * End to end: the real process, real sockets on 127.0.0.1, plain fetch.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { shellWords } from "../cli/run.ts";
import { launchServer, type RunningServer, runServerCommand, serverCommand, startServer } from "./server.ts";

const ROOT = new URL("../..", import.meta.url).pathname;
/** This process's whole environment: npm needs more than PATH (HOME, its own settings). */
const inherited = Object.fromEntries(
  Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
);

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

describe("the running server", () => {
  test("health answers over a real socket", async () => {
    const response = await fetch(`${server.url}/v1/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  test("a CIDR operation round-trips JSON", async () => {
    const response = await fetch(`${server.url}/v1/range-to-cidrs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ start: "10.0.0.1", end: "10.0.0.6" }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { cidrs: string[]; addressCount: string };
    expect(body.cidrs).toEqual(["10.0.0.1/32", "10.0.0.2/31", "10.0.0.4/31", "10.0.0.6/32"]);
    expect(body.addressCount).toBe("6");
  });

  test("a declared oversized body is refused with 413 and an envelope", async () => {
    const response = await fetch(`${server.url}/v1/cidr-cover`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ inputs: ["1.1.1.1"], pad: "x".repeat(70_000) }),
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("PAYLOAD_TOO_LARGE");
  });

  test("a chunked body past 64 KiB is refused with 413", async () => {
    let sent = 0;
    const body = new ReadableStream({
      pull(controller) {
        if (sent > 200_000) return controller.close();
        sent += 16_384;
        controller.enqueue(new Uint8Array(16_384).fill(0x20));
      },
    });
    const response = await fetch(`${server.url}/v1/cidr-cover`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
  });

  test("every request is one JSON access-log line on stdout", async () => {
    await fetch(`${server.url}/v1/health`, { headers: { "x-request-id": "e2e-log-check" } });
    await Bun.sleep(100);
    const line = server.lines
      .map((text) => JSON.parse(text))
      .find((record) => record.requestId === "e2e-log-check");
    expect(line).toMatchObject({ level: "info", method: "GET", route: "/v1/health", status: 200 });
    for (const key of ["time", "level", "msg", "requestId", "method", "route", "status", "durationMs"]) {
      expect(line).toHaveProperty(key);
    }
  });
});

describe("process lifecycle", () => {
  test("SIGTERM drains and exits 0", async () => {
    const own = await startServer();
    expect((await fetch(`${own.url}/v1/health`)).status).toBe(200);
    expect(await own.stop("SIGTERM")).toBe(0);
  });

  test("a second single-process instance on a port in use fails instead of sharing it", async () => {
    const own = await startServer();
    const second = await runServerCommand([], { HOST: "127.0.0.1", PORT: String(own.port) }, 10_000);
    expect(second.code).toBe(2);
    // One clear line, never minified source or a stack trace.
    const stderr = second.stderr;
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toContain(`127.0.0.1:${own.port}`);
    expect(stderr).toContain("already in use");
    expect(stderr).not.toMatch(/\bat\s|\{|=>/);
    expect(await own.stop()).toBe(0);
  });

  test("WORKERS=2 on a port in use: the supervisor checks once, one line, exit 2 (CONTRACT §12)", async () => {
    const own = await startServer();
    const second = await runServerCommand(
      [],
      { HOST: "127.0.0.1", PORT: String(own.port), WORKERS: "2" },
      15_000,
    );
    expect(second.code).toBe(2);
    expect(second.stderr.trim().split("\n")).toEqual([
      `network-tools-api: cannot listen on 127.0.0.1:${own.port}: the port is already in use (another server is running there?); choose another with PORT=…`,
    ]);
    expect(second.stdout).not.toContain("worker");
    expect(await own.stop()).toBe(0);
  });

  test("npm start stops cleanly when SIGTERM goes to npm: exit 0, nothing left serving", async () => {
    const marker = `nettools-e2e-${process.pid}-${Date.now()}`;
    const npm = await launchServer(["npm", "start", "--silent", "--", `--marker=${marker}`], {
      cwd: ROOT,
      env: { ...inherited, HOST: "127.0.0.1", PORT: "0" },
      timeoutMs: 20_000,
    });
    expect(npm.lines.join("\n")).toContain('"msg":"listening"');
    const running = () => Bun.spawnSync(["pgrep", "-f", marker], { stdout: "pipe" }).stdout.toString().trim();
    expect(running()).not.toBe("");
    expect(await npm.stop("SIGTERM")).toBe(0);
    for (let i = 0; i < 50 && running() !== ""; i++) await Bun.sleep(100);
    expect(running()).toBe("");
  }, 40_000);

  test("npx nettools serve (npm exec → sh -c → bun) stops when SIGTERM goes to npx: nothing left serving", async () => {
    const npx = await launchServer(["npx", "--yes", "nettools", "serve"], {
      cwd: ROOT,
      env: { ...inherited, HOST: "127.0.0.1", PORT: "0" },
      timeoutMs: 30_000,
    });
    let output = npx.lines.join("\n");
    expect(output).toContain('"msg":"listening"');
    const port = Number(/"port":(\d+)/.exec(output)?.[1]);
    expect((await fetch(`http://127.0.0.1:${port}/v1/health`)).status).toBe(200);
    // The server is a grandchild: npm's shell sits between them and does not pass the signal on.
    const children = (pid: number): number[] =>
      Bun.spawnSync(["pgrep", "-P", String(pid)], { stdout: "pipe" })
        .stdout.toString()
        .split("\n")
        .filter((line) => line !== "")
        .map(Number);
    const descendants = children(npx.process.pid).flatMap((child) => [child, ...children(child)]);
    expect(descendants.length).toBeGreaterThanOrEqual(1);
    // A zombie waiting for init to reap it counts as ended.
    const alive = (pid: number) =>
      !/^\s*(Z|$)/.test(
        Bun.spawnSync(["ps", "-o", "stat=", "-p", String(pid)], { stdout: "pipe" }).stdout.toString(),
      );
    try {
      await npx.stop("SIGTERM");
      const reachable = async () => {
        try {
          await fetch(`http://127.0.0.1:${port}/v1/health`, { signal: AbortSignal.timeout(1_000) });
          return true;
        } catch {
          return false;
        }
      };
      for (let i = 0; i < 50 && (await reachable()); i++) await Bun.sleep(100);
      expect(await reachable()).toBe(false);
      // Every process npx started has ended.
      for (let i = 0; i < 50 && descendants.some(alive); i++) await Bun.sleep(100);
      expect(descendants.filter(alive)).toEqual([]);
      await npx.outputEnded;
      output = npx.lines.join("\n");
      expect(output).toContain('"msg":"stopped"');
    } finally {
      // Should the server survive (the defect), it does not outlive the test.
      for (const pid of descendants) if (alive(pid)) process.kill(pid, "SIGKILL");
    }
  }, 60_000);

  test("on a terminal: one human line with the page, docs and health URLs; JSON log unchanged", async () => {
    // `script` gives the server a pseudo-terminal as stdout and stderr.
    const onTerminal = await launchServer(["script", "-qec", shellWords(serverCommand()), "/dev/null"], {
      env: { HOST: "127.0.0.1", PORT: "0" },
      stdin: "pipe",
    });
    await onTerminal.stop("SIGTERM");
    await onTerminal.outputEnded;
    const output = onTerminal.lines.join("\n");
    const human = output.split(/\r?\n/).find((line) => line.startsWith("Network Tools API listening on"));
    expect(human).toBeDefined();
    const port = /"port":(\d+)/.exec(output)?.[1];
    expect(human).toContain(`http://127.0.0.1:${port}/docs`);
    expect(human).toContain(`http://127.0.0.1:${port}/v1/health`);
    expect(human).toContain(`http://127.0.0.1:${port}/ `);
  }, 30_000);

  test("not on a terminal: only the JSON lines", async () => {
    const own = await startServer();
    expect(own.lines.some((line) => line.includes("Network Tools API listening"))).toBe(false);
    expect(own.lines.some((line) => line.includes('"msg":"listening"'))).toBe(true);
    expect(await own.stop()).toBe(0);
  });

  test("SIGINT exits 0 too", async () => {
    const own = await startServer();
    expect(await own.stop("SIGINT")).toBe(0);
  });

  test.each([
    ["PORT", "70000"],
    ["PORT", "abc"],
    ["LOG_LEVEL", "loud"],
    ["WORKERS", "0"],
    ["SHUTDOWN_TIMEOUT_MS", "-1"],
    ["SHUTDOWN_DELAY_MS", "soon"],
    ["TRUSTED_PROXIES", "10.0.0.0/33"],
    ["CORS_ORIGINS", "not an origin"],
  ])("a bad %s=%s stops the process with exit code 2 and a clear message", async (name, value) => {
    const result = await runServerCommand([], { HOST: "127.0.0.1", PORT: "0", [name]: value });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(name);
  });
});
