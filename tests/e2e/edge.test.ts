/**
 * The serving edge against the real process, the way production traffic meets it:
 * - CONTRACT §1.6: any `Host` (one letter, with a port, empty, none on HTTP/1.0) routes the same;
 * - CONTRACT §6: a request written on a keep-alive connection just before or during the drain is
 *   answered with `Connection: close`, never reset; SHUTDOWN_DELAY_MS keeps serving first.
 * The work bounds of CONTRACT §1.7 under floods are in admission.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rawConnect, rawRequest } from "./raw-http.ts";
import { type RunningServer, startServer } from "./server.ts";

const COVER_BODY = '{"inputs":["10.0.0.0/24","10.0.1.7"]}';

function post(path: string, body: string, host: string): string {
  return `POST ${path} HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

describe("routing depends on the path alone (CONTRACT §1.6)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  const hosts: [string, string][] = [
    ["Host: api", "Host: api\r\n"],
    ["Host: a", "Host: a\r\n"],
    ["Host: api:80", "Host: api:80\r\n"],
    ["an empty Host", "Host: \r\n"],
    ["Host: localhost", "Host: localhost\r\n"],
  ];
  test.each(hosts)("%s: health, a POST, 404 and 405 behave as with localhost", async (_name, host) => {
    const health = await rawRequest(server.port, `GET /v1/health HTTP/1.1\r\n${host}\r\n`);
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toEqual({ status: "ok" });
    expect(health.headers["x-request-id"]).toBeTruthy();

    const cover = await rawRequest(server.port, post("/v1/cidr-cover", COVER_BODY, host));
    expect(cover.status).toBe(200);
    expect(JSON.parse(cover.body).cidr).toBe("10.0.0.0/23");

    const missing = await rawRequest(server.port, `GET /v1/nope HTTP/1.1\r\n${host}\r\n`);
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body).error.message).toBe("No endpoint exists at /v1/nope.");

    const wrong = await rawRequest(server.port, `DELETE /v1/health HTTP/1.1\r\n${host}\r\n`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe("GET, HEAD, OPTIONS");

    const preflight = await rawRequest(server.port, `OPTIONS /v1/cidr-cover HTTP/1.1\r\n${host}\r\n`);
    expect(preflight.status).toBe(204);
  });

  test("HTTP/1.0 without any Host header", async () => {
    const health = await rawRequest(server.port, "GET /v1/health HTTP/1.0\r\n\r\n");
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toEqual({ status: "ok" });
    const cover = await rawRequest(
      server.port,
      post("/v1/cidr-cover", COVER_BODY, "").replace("HTTP/1.1", "HTTP/1.0"),
    );
    expect(cover.status).toBe(200);
    const missing = await rawRequest(server.port, "GET /health HTTP/1.0\r\n\r\n");
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body).error.message).toBe("No endpoint exists at /health.");
  });

  // With a Host, Bun resolves dot segments itself; without one the edge does, the same way.
  const dotTargets: [string, string, number][] = [
    ["GET", "/v1/x/../health", 200],
    ["GET", "/v1/./health", 200],
    ["GET", "/v1/x/%2e%2e/health", 200],
    ["GET", "/v1/x/.%2E/health", 200],
    ["POST", "/v1/x/../cidr-cover", 200],
    ["GET", "/v1/x/../cidr-cover", 405],
    ["GET", "/v1/x/..%2fhealth", 404],
  ];
  test.each(dotTargets)(
    "%s %s answers %d with a Host, with an empty Host and on HTTP/1.0 without one",
    async (method, target, status) => {
      const variants = [
        ["Host: a", "HTTP/1.1", "Host: a\r\n"],
        ["an empty Host", "HTTP/1.1", "Host: \r\n"],
        ["HTTP/1.0 without Host", "HTTP/1.0", ""],
      ];
      for (const [name, version, host] of variants) {
        const request =
          method === "POST"
            ? post(target, COVER_BODY, host ?? "").replace("HTTP/1.1", version ?? "HTTP/1.1")
            : `${method} ${target} ${version}\r\n${host}\r\n`;
        const response = await rawRequest(server.port, request);
        expect({ name, status: response.status }).toEqual({ name, status });
        if (status === 200 && method === "GET") expect(JSON.parse(response.body)).toEqual({ status: "ok" });
        if (status === 200 && method === "POST") expect(JSON.parse(response.body).cidr).toBe("10.0.0.0/23");
      }
    },
  );

  test("an absolute-form request target routes by its path", async () => {
    const health = await rawRequest(
      server.port,
      "GET http://elsewhere.example/v1/health?x=1 HTTP/1.1\r\nHost: a\r\n\r\n",
    );
    expect(health.status).toBe(200);
  });
});

describe("graceful stop loses nothing (CONTRACT §6)", () => {
  test("requests written on keep-alive connections just before and during the drain are answered with Connection: close", async () => {
    const server = await startServer();
    // One slow request in flight: a body that trickles in.
    const slow = await rawConnect(server.port);
    const slowBody = COVER_BODY;
    slow.write(
      `POST /v1/cidr-cover HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: ${slowBody.length}\r\n\r\n${slowBody.slice(0, 5)}`,
    );
    const connections = await Promise.all(Array.from({ length: 10 }, () => rawConnect(server.port)));
    for (const connection of connections) connection.write("GET /v1/health HTTP/1.1\r\nHost: api\r\n\r\n");
    for (const connection of connections) expect((await connection.responses(1))[0]?.status).toBe(200);
    // Second requests ~30 ms before the signal on half of them, ~30 ms after it on the others.
    for (const connection of connections.slice(0, 5))
      connection.write("GET /v1/health HTTP/1.1\r\nHost: api\r\n\r\n");
    await Bun.sleep(30);
    server.process.kill("SIGTERM");
    await Bun.sleep(30);
    for (const connection of connections.slice(5))
      connection.write("GET /v1/health HTTP/1.1\r\nHost: api\r\n\r\n");
    slow.write(slowBody.slice(5));
    for (const [position, connection] of connections.entries()) {
      const [, second] = await connection.responses(2);
      expect(second?.status).toBe(200);
      // Written after the signal: the answer says the connection closes. Written before it, the
      // server may have answered before it saw the signal; either way the server closes cleanly.
      if (position >= 5) expect(second?.headers.connection).toBe("close");
      expect(await connection.ended()).toBe("closed");
    }
    const [slowAnswer] = await slow.responses(1);
    expect(slowAnswer?.status).toBe(200);
    expect(await server.process.exited).toBe(0);
  }, 30_000);

  test("SHUTDOWN_DELAY_MS keeps serving new connections, with Connection: close, before the drain", async () => {
    const server = await startServer({ SHUTDOWN_DELAY_MS: "600" });
    const signalled = performance.now();
    server.process.kill("SIGTERM");
    await Bun.sleep(200);
    const during = await fetch(`${server.url}/v1/health`);
    expect(during.status).toBe(200);
    expect(during.headers.get("connection")).toBe("close");
    expect(await server.process.exited).toBe(0);
    expect(performance.now() - signalled).toBeGreaterThanOrEqual(600);
  }, 20_000);
});
