/**
 * Answers a hostile or broken server may give, checked on any build of the client: the source
 * client (client.test.ts) and the installed package with its generated validators
 * (package.test.ts) must treat them alike (CONTRACT §5, issue 24 item 9):
 * - an envelope carrying NETWORK_ERROR or INVALID_RESPONSE, the client's own codes, is a protocol
 *   violation: INVALID_RESPONSE, never the server's error passed through;
 * - a `__proto__` (or `constructor`) field is a field like any other: listed in the issues;
 * - a body past `maxResponseBytes` is INVALID_RESPONSE, and reading stops there (the fake server
 *   counts what was pulled from it).
 */
import { afterAll, describe, expect, test } from "bun:test";
import type * as SourceClient from "../../src/client/index.ts";

type ClientModule = Pick<
  typeof SourceClient,
  "createClient" | "isClientError" | "invalidResponseOf" | "DEFAULT_MAX_RESPONSE_BYTES"
>;

const MiB = 1024 * 1024;

/** A JSON answer given as raw text, so that a `__proto__` key stays an own key on the wire. */
function rawJson(text: string, status = 200): Response {
  return new Response(text, { status, headers: { "content-type": "application/json" } });
}

export function describeHostileAnswers(label: string, load: () => Promise<ClientModule>): void {
  describe(`${label}: answers that break the protocol`, () => {
    const servers: { stop(force?: boolean): unknown }[] = [];
    afterAll(() => {
      for (const server of servers) server.stop(true);
    });
    const fake = (respond: (request: Request) => Response): string => {
      const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: respond });
      servers.push(server);
      return `http://127.0.0.1:${server.port}`;
    };

    for (const code of ["NETWORK_ERROR", "INVALID_RESPONSE"]) {
      test(`a server-sent ${code} is the client's own INVALID_RESPONSE, not the server's error`, async () => {
        const { createClient, invalidResponseOf } = await load();
        const url = fake(() => Response.json({ error: { code, message: "upstream down" } }, { status: 503 }));
        const result = await createClient({ baseUrl: url }).cidrCover({ inputs: ["10.0.0.1"] });
        expect(result.ok).toBe(false);
        expect(result.status).toBe(503);
        const error = invalidResponseOf(result);
        expect(error?.code).toBe("INVALID_RESPONSE");
        expect(error?.message).toContain("only the client itself reports");
        expect(error?.issues.map((issue) => issue.path)).toEqual([["error", "code"]]);
        // Nothing of the server's envelope comes through as if the client had said it.
        expect(JSON.stringify(result)).not.toContain("upstream down");
      });
    }

    test("a server's own error code still comes through as the server's, and is not a client error", async () => {
      const { createClient, isClientError } = await load();
      const url = fake(() =>
        Response.json({ error: { code: "OVERLOADED", message: "busy" } }, { status: 503 }),
      );
      const result = await createClient({ baseUrl: url }).health();
      expect(result).toMatchObject({
        ok: false,
        status: 503,
        error: { code: "OVERLOADED", message: "busy" },
      });
      if (!result.ok) expect(isClientError(result.error)).toBe(false);
    });

    test("a __proto__ field in a 400 envelope is listed in the issues", async () => {
      const { createClient, invalidResponseOf } = await load();
      const url = fake(() =>
        rawJson('{"error":{"code":"INVALID_INPUT","message":"bad","__proto__":{"x":1}}}', 400),
      );
      const result = await createClient({ baseUrl: url }).cidrCover({ inputs: ["10.0.0.1"] });
      expect(result.status).toBe(400);
      expect(invalidResponseOf(result)?.issues).toEqual([
        { message: "/error/__proto__: is not allowed", path: ["error", "__proto__"] },
      ]);
    });

    test("__proto__ and constructor fields in a 200 body are listed in the issues", async () => {
      const { createClient, invalidResponseOf } = await load();
      const url = fake(() => rawJson('{"status":"ok","__proto__":{"status":"ok"},"constructor":1}'));
      const result = await createClient({ baseUrl: url }).health();
      expect(invalidResponseOf(result)?.issues.map((issue) => issue.path)).toEqual([
        ["__proto__"],
        ["constructor"],
      ]);
    });

    test("a body up to maxResponseBytes is read; one byte more is INVALID_RESPONSE, declared or not", async () => {
      const { createClient, invalidResponseOf } = await load();
      const body = (bytes: number) => `{"status":"ok"}${" ".repeat(bytes - 15)}`;
      /** The body's size is the base URL's path: `/100/v1/health`. */
      const sizeOf = (request: Request) => Number(new URL(request.url).pathname.split("/")[1]);
      const declared = fake((request) => rawJson(body(sizeOf(request))));
      const chunked = fake((request) => {
        const text = body(sizeOf(request));
        const halves = [text.slice(0, 10), text.slice(10)].map((part) => new TextEncoder().encode(part));
        return new Response(
          new ReadableStream({
            pull(controller) {
              const next = halves.shift();
              if (next === undefined) controller.close();
              else controller.enqueue(next);
            },
          }),
          { headers: { "content-type": "application/json" } },
        );
      });
      for (const base of [declared, chunked]) {
        const client = (bytes: number) =>
          createClient({ baseUrl: `${base}/${bytes}`, maxResponseBytes: 100 });
        expect(await client(100).health()).toMatchObject({ ok: true, value: { status: "ok" } });
        const over = invalidResponseOf(await client(101).health());
        expect(over?.message).toContain("larger than the client's limit of 100 bytes");
        expect(over?.issues).toEqual([{ message: "body: longer than 100 bytes", path: [] }]);
      }
    });

    test("a 100 MB answer: reading stops at the default 4 MiB limit", async () => {
      const { createClient, invalidResponseOf, DEFAULT_MAX_RESPONSE_BYTES } = await load();
      expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(4 * MiB);
      const chunk = new TextEncoder().encode(`[${" ".repeat(64 * 1024 - 1)}`);
      let pulled = 0;
      const url = fake(
        () =>
          new Response(
            new ReadableStream({
              pull(controller) {
                if (pulled >= 100 * MiB) return controller.close();
                pulled += chunk.byteLength;
                controller.enqueue(chunk);
              },
            }),
            { headers: { "content-type": "application/json" } },
          ),
      );
      const started = performance.now();
      const result = await createClient({ baseUrl: url }).cidrMerge({ inputs: ["10.0.0.0/8"] });
      expect(invalidResponseOf(result)?.message).toContain(`limit of ${4 * MiB} bytes`);
      expect(performance.now() - started).toBeLessThan(5_000);
      await Bun.sleep(200);
      // What the server could push past the limit is only what the sockets buffer.
      expect(pulled).toBeLessThan(4 * MiB + 16 * MiB);
    });

    test("a declared Content-Length over the limit is refused before the body is read", async () => {
      const { createClient, invalidResponseOf } = await load();
      let written = 0;
      const listener = Bun.listen({
        hostname: "127.0.0.1",
        port: 0,
        socket: {
          data(socket) {
            written += socket.write(
              "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 104857600\r\n\r\n[",
            );
          },
        },
      });
      servers.push(listener);
      const result = await createClient({ baseUrl: `http://127.0.0.1:${listener.port}` }).cidrMerge({
        inputs: ["10.0.0.0/8"],
      });
      expect(written).toBeGreaterThan(0);
      expect(invalidResponseOf(result)?.message).toContain("declares a body larger than the client's limit");
    });
  });
}
