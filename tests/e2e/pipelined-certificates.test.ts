/**
 * Certificate requests pipelined on one keep-alive connection, against the real process (RFC 9112
 * §9.3.2: pipelined requests are answered in order; ADR 68). A certificate operation checks
 * signatures; when those checks ended on a later turn of the event loop (WebCrypto), Bun 1.4.5
 * closed the connection without a byte as soon as a request was pipelined behind one (the
 * tripwire in tests/hardening/bun-parser-tripwire.test.ts pins that runtime limit). Each
 * certificate operation's documented example, followed by a health check in the same write, gets
 * both answers, in order, on a connection that stays open, the first the same as the example's
 * answer sent alone; so do the four of them written twice in one go.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { OPERATION_DOCS } from "../../src/operations/docs.ts";
import { OPERATIONS } from "../../src/operations/table.ts";
import { rawConnect } from "./raw-http.ts";
import { type RunningServer, startServer } from "./server.ts";

const CERTIFICATE_OPERATIONS = ["certificateBundle", "certificateChain", "csr", "crl"] as const;
const HEALTH = "GET /v1/health HTTP/1.1\r\nHost: api\r\n\r\n";

function post(path: string, body: unknown): string {
  const text = JSON.stringify(body);
  return `POST ${path} HTTP/1.1\r\nHost: api\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`;
}

interface PipelinedRequest {
  /** The raw request. */
  text: string;
  /** Its answer when sent alone with `fetch` (the instant of evaluation left out). */
  alone: unknown;
}

/** The answer's fields, but the instant it was made at (a request sent a moment later differs there). */
function withoutInstant(text: string): unknown {
  const { evaluatedAt: _instant, ...rest } = JSON.parse(text) as Record<string, unknown>;
  return rest;
}

/** The operation's first documented example answered 200, and its answer when sent alone. */
async function documentedRequest(id: (typeof CERTIFICATE_OPERATIONS)[number]): Promise<PipelinedRequest> {
  const examples = Object.values(OPERATION_DOCS[id].examples ?? {});
  const example = examples.find((candidate) => candidate.status === 200);
  if (example === undefined) throw new Error(`${id} documents no 200 example`);
  const answer = await fetch(`${server.url}${OPERATIONS[id].path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(example.request),
  });
  expect(answer.status).toBe(200);
  return { text: post(OPERATIONS[id].path, example.request), alone: withoutInstant(await answer.text()) };
}

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

describe("certificate requests with a request pipelined behind them", () => {
  for (const id of CERTIFICATE_OPERATIONS) {
    test(`${OPERATIONS[id].path}, then a health check in the same write: both answered, in order`, async () => {
      const { text, alone } = await documentedRequest(id);
      const connection = await rawConnect(Number(new URL(server.url).port));
      try {
        connection.write(text + HEALTH);
        const answers = await connection.responses(2, 5_000);
        expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
        expect(withoutInstant(answers[0]!.body)).toEqual(alone);
        expect(JSON.parse(answers[1]!.body)).toMatchObject({ status: "ok" });
        expect(connection.state).toBe("open");
      } finally {
        connection.close();
      }
    });
  }

  test("the four operations pipelined in one write, twice, then a health check: nine answers in order", async () => {
    const requests = await Promise.all(CERTIFICATE_OPERATIONS.map(documentedRequest));
    const connection = await rawConnect(Number(new URL(server.url).port));
    try {
      connection.write(
        requests
          .map((request) => request.text)
          .join("")
          .repeat(2) + HEALTH,
      );
      const answers = await connection.responses(9, 10_000);
      expect(answers.map((answer) => answer.status)).toEqual(Array(9).fill(200));
      const expected = [...requests, ...requests].map((request) => request.alone);
      expect(answers.slice(0, 8).map((answer) => withoutInstant(answer.body))).toEqual(expected);
      expect(connection.state).toBe("open");
    } finally {
      connection.close();
    }
  });
});
