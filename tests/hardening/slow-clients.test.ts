/**
 * Slow and abusive clients against the real server on 127.0.0.1 (issue 7, item 4), with raw
 * sockets. The server runs with IDLE_TIMEOUT_SECONDS=2:
 * - an idle keep-alive connection is closed;
 * - a connection that never sends a request is closed (Bun's fixed header-phase timeout);
 * - a slowloris header trickle and a slowloris body trickle are cut off before they finish;
 * - meanwhile other clients are served normally, and the server stays healthy afterwards.
 * Nothing here asserts a duration: each wait is only an upper bound so a broken build fails
 * instead of hanging.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect, type Socket } from "node:net";
import { type RunningServer, runServerCommand, startServer } from "../e2e/server.ts";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ IDLE_TIMEOUT_SECONDS: "2" });
});
afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

/** Longest any connection may live here before the test gives up on the server closing it. */
const GIVE_UP_MS = 25_000;

interface RawClient {
  socket: Socket;
  /** Everything the server sent, as latin1 text. */
  received(): string;
  /** Resolves when the server closes the connection (or GIVE_UP_MS passes: `closedByServer` false). */
  closed: Promise<{ closedByServer: boolean }>;
  write(text: string): boolean;
}

function rawClient(port: number): Promise<RawClient> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let data = "";
    let resolveClosed: (value: { closedByServer: boolean }) => void = () => {};
    const closed = new Promise<{ closedByServer: boolean }>((r) => {
      resolveClosed = r;
    });
    const giveUp = setTimeout(() => {
      resolveClosed({ closedByServer: false });
      socket.destroy();
    }, GIVE_UP_MS);
    socket.on("data", (chunk) => {
      data += chunk.toString("latin1");
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(giveUp);
      resolveClosed({ closedByServer: true });
    });
    socket.once("connect", () =>
      resolve({
        socket,
        received: () => data,
        closed,
        write: (text) => !socket.destroyed && socket.write(text),
      }),
    );
    socket.once("error", reject);
  });
}

/** Writes `text` one byte every `everyMs` until done or the socket closes; says whether it finished. */
async function trickle(client: RawClient, text: string, everyMs: number): Promise<boolean> {
  for (const byte of text) {
    if (client.socket.destroyed || client.socket.writableEnded) return false;
    client.write(byte);
    await Bun.sleep(everyMs);
  }
  return !client.socket.destroyed;
}

describe("slow and abusive clients", () => {
  test(
    "idle and trickling connections are cut off while other clients are served",
    async () => {
      // An idle keep-alive connection after one complete request.
      const keepAlive = await rawClient(server.port);
      keepAlive.write("GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");

      // A connection that never sends a byte.
      const silent = await rawClient(server.port);

      // Slowloris headers: one byte every 250 ms, 60 s worth of header.
      const slowHeaders = await rawClient(server.port);
      const headerText = `GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${"a".repeat(240)}\r\n\r\n`;
      const headersDone = trickle(slowHeaders, headerText, 250);

      // Slowloris body: a declared 1000-byte body sent one byte every 250 ms (250 s worth).
      const slowBody = await rawClient(server.port);
      slowBody.write(
        "POST /v1/cidr-cover HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n",
      );
      const bodyDone = trickle(
        slowBody,
        `{"inputs":[${'"10.0.0.1",'.repeat(90)}"10.0.0.2"]}`.padEnd(1000),
        250,
      );

      // Meanwhile: ordinary clients on fresh connections, until every slow one is gone.
      let allClosed = false;
      const statuses: number[] = [];
      const ordinary = (async () => {
        while (!allClosed) {
          const response = await fetch(`${server.url}/v1/range-to-cidrs`, {
            method: "POST",
            headers: { "content-type": "application/json", connection: "close" },
            body: JSON.stringify({ start: "10.0.0.0", end: "10.0.0.255" }),
          });
          statuses.push(response.status);
          await response.arrayBuffer();
          await Bun.sleep(100);
        }
      })();

      const results = await Promise.all([
        keepAlive.closed,
        silent.closed,
        slowHeaders.closed,
        slowBody.closed,
      ]);
      allClosed = true;
      await ordinary;

      expect(results.map((r) => r.closedByServer)).toEqual([true, true, true, true]);
      expect(keepAlive.received()).toStartWith("HTTP/1.1 200");
      expect(silent.received()).toBe("");
      expect(await headersDone).toBe(false);
      expect(await bodyDone).toBe(false);
      // A body that does not arrive in full in time is answered before the connection is closed.
      expect(slowBody.received()).toStartWith("HTTP/1.1 400");
      expect(slowBody.received().toLowerCase()).toContain("connection: close");

      expect(statuses.length).toBeGreaterThan(5);
      expect(new Set(statuses)).toEqual(new Set([200]));
      const health = await fetch(`${server.url}/v1/health`);
      expect(health.status).toBe(200);
      await Bun.sleep(100);
      expect(server.lines.filter((line) => line.includes('"level":"error"'))).toEqual([]);
    },
    GIVE_UP_MS + 10_000,
  );

  test(
    "a body arriving steadily at 3 KB/s is answered 400 INVALID_JSON with Connection: close before the connection is cut",
    async () => {
      // 64 KiB at 3 KB/s would take 21 s; the body must arrive within IDLE_TIMEOUT_SECONDS (2 s)
      // less a quarter, at most 250 ms: 1.75 s (docs/decisions/0019-slow-bodies.md).
      const client = await rawClient(server.port);
      const body = `{"inputs":[${Array(5_000).fill('"10.0.0.1"').join(",")}]}`;
      const start = performance.now();
      client.write(
        `POST /v1/cidr-cover HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      let sent = 0;
      while (!client.socket.destroyed && sent < body.length && !client.received().includes("\r\n\r\n")) {
        client.write(body.slice(sent, sent + 300)); // 300 bytes every 100 ms
        sent += 300;
        await Bun.sleep(100);
      }
      const { closedByServer } = await client.closed;
      const answeredAfter = performance.now() - start;
      expect(closedByServer).toBe(true);
      const received = client.received();
      expect(received).toStartWith("HTTP/1.1 400");
      expect(received.toLowerCase()).toContain("connection: close");
      const envelope = JSON.parse(received.slice(received.indexOf("\r\n\r\n") + 4));
      expect(envelope).toEqual({
        error: {
          code: "INVALID_JSON",
          message: "The request body did not arrive in full within 1.75 s; send it faster, or a smaller one.",
        },
      });
      expect(answeredAfter).toBeGreaterThanOrEqual(1_700);
      expect(answeredAfter).toBeLessThan(GIVE_UP_MS);
      expect(sent).toBeLessThan(body.length);
    },
    GIVE_UP_MS + 5_000,
  );

  test("a request after a few hostile ones on the same server still works", async () => {
    const hostile = [
      "GARBAGE\r\n\r\n",
      "GET / HTTP/9.9\r\n\r\n",
      `GET /${"a".repeat(70_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      "POST /v1/cidr-cover HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\n{}",
      "POST /v1/cidr-cover HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n",
      "POST /v1/cidr-cover HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
      "A /v1/health HTTP/1.1\r\nHost: x\r\n\r\n",
      "GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Bad: \u0000\u0001\r\n\r\n",
      "POST /v1/cidr-cover HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2000000\r\n\r\n{",
    ];
    for (const request of hostile) {
      const client = await rawClient(server.port);
      client.write(request);
      await Bun.sleep(50);
      client.socket.destroy();
      const reply = client.received();
      if (reply !== "") expect(reply).not.toStartWith("HTTP/1.1 500");
    }
    const response = await fetch(`${server.url}/v1/cidr-cover`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ inputs: ["10.0.0.0/24", "10.0.1.0/24"] }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { cidr: string }).cidr).toBe("10.0.0.0/23");
  });
});

describe("IDLE_TIMEOUT_SECONDS is validated at start", () => {
  for (const bad of ["0", "256", "-1", "2.5", "soon"]) {
    test(`${JSON.stringify(bad)} stops the process with exit code 2`, async () => {
      const ran = await runServerCommand([], { HOST: "127.0.0.1", PORT: "0", IDLE_TIMEOUT_SECONDS: bad });
      expect(ran.code).toBe(2);
      expect(ran.stderr).toContain("IDLE_TIMEOUT_SECONDS");
    });
  }
});
