/**
 * CONTRACT §6 against the real process: a request no route matched is logged with its path —
 * without the query, at most 200 characters, control characters escaped — so a scan or a broken
 * client can be found; matched requests carry their route and no path.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rawRequest } from "./raw-http.ts";
import { type RunningServer, startServer } from "./server.ts";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

interface AccessLine {
  msg: string;
  requestId?: string;
  route?: string | null;
  path?: string;
  status?: number;
}

/** The access-log line of the request with this id, once the logger has flushed it. */
async function lineOf(requestId: string): Promise<{ record: AccessLine; raw: string }> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const raw = server.lines.find((line) => line.includes(`"requestId":"${requestId}"`));
    if (raw !== undefined) return { record: JSON.parse(raw) as AccessLine, raw };
    await Bun.sleep(10);
  }
  throw new Error(`no log line for ${requestId}`);
}

/** Whether a text holds a C0 control, DEL or a C1 control character. */
function hasControl(text: string): boolean {
  for (let at = 0; at < text.length; at++) {
    const unit = text.charCodeAt(at);
    if (unit < 0x20 || (unit >= 0x7f && unit <= 0x9f)) return true;
  }
  return false;
}

describe("unmatched paths in the access log", () => {
  test("a 404 names its path, without the query", async () => {
    const answer = await fetch(`${server.url}/wp-login.php?user=admin&token=s3cret`, {
      headers: { "x-request-id": "scan-1" },
    });
    expect(answer.status).toBe(404);
    const { record, raw } = await lineOf("scan-1");
    expect(record).toMatchObject({ msg: "request", route: null, path: "/wp-login.php", status: 404 });
    expect(raw).not.toContain("s3cret");
    expect(raw).not.toContain("user=");
  });

  test("a long path is cut to 200 characters", async () => {
    const long = `/${"a".repeat(150)}/${"b".repeat(150)}`;
    await (await fetch(`${server.url}${long}`, { headers: { "x-request-id": "long-1" } })).arrayBuffer();
    const { record } = await lineOf("long-1");
    expect(record.path).toBe(long.slice(0, 200));
    expect(record.path?.length).toBe(200);
  });

  test("control characters in the request target never reach the line raw", async () => {
    // Bytes a client can put in a request target by hand: DEL, and C1 characters as UTF-8. Bun
    // percent-encodes them before the edge sees the URL; the logger escapes whatever remains
    // (tests/process/logger.test.ts covers the escaping itself).
    const response = await rawRequest(
      server.port,
      "GET /probe\x7f/\u0085x/\u009b31m HTTP/1.1\r\nHost: a\r\nX-Request-Id: ctl-1\r\n\r\n",
    );
    const { record, raw } = await lineOf("ctl-1");
    expect(response.status).toBe(404);
    expect(record.route).toBeNull();
    expect(record.path).toBe("/probe%7F/%C2%85x/%C2%9B31m");
    expect(hasControl(raw)).toBe(false);
  });

  test("matched requests, 405s and preflights on known paths carry their route and no path", async () => {
    await (await fetch(`${server.url}/v1/health`, { headers: { "x-request-id": "ok-1" } })).arrayBuffer();
    await (
      await fetch(`${server.url}/v1/health`, { method: "DELETE", headers: { "x-request-id": "wrong-1" } })
    ).arrayBuffer();
    for (const id of ["ok-1", "wrong-1"]) {
      const { record } = await lineOf(id);
      expect(record.route).toBe("/v1/health");
      expect(record.path).toBeUndefined();
    }
  });
});
