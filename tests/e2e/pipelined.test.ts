/**
 * Requests pipelined on one keep-alive connection, against the real process (RFC 9112 §9.3.2:
 * pipelined requests are answered in order; ADR 68). Bun 1.4.5 closes the connection without a
 * byte when it reads a pipelined request while the answer ahead of it is still pending, i.e. when
 * a handler answers on a later turn of the event loop (the tripwire in
 * tests/hardening/bun-parser-tripwire.test.ts pins that runtime limit). The certificate operations
 * did, their WebCrypto checks ending a turn later. Every operation (a POST with its documented
 * example, a GET of its path), followed by a health check in the same write, gets both answers,
 * in order, on a connection that stays open, the first the same as its answer sent alone; so do
 * the four certificate operations written twice in one go.
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
  /** Its answer's status and body when sent alone with `fetch` (the instant of evaluation left out). */
  status: number;
  alone: unknown;
}

/**
 * A JSON answer's fields but the instant it was made at (a request sent a moment later differs
 * there); a text answer (GET /v1/ip) as it is.
 */
function withoutInstant(text: string): unknown {
  if (!text.startsWith("{")) return text;
  const { evaluatedAt: _instant, ...rest } = JSON.parse(text) as Record<string, unknown>;
  return rest;
}

type OperationId = keyof typeof OPERATIONS;

/**
 * The operation's request (a POST with its first documented example answered 200; a GET of its
 * path), and its answer when sent alone.
 */
async function documentedRequest(id: OperationId): Promise<PipelinedRequest> {
  const { method, path } = OPERATIONS[id];
  if (method === "GET") {
    const answer = await fetch(`${server.url}${path}`);
    const text = `GET ${path} HTTP/1.1\r\nHost: api\r\n\r\n`;
    return { text, status: answer.status, alone: withoutInstant(await answer.text()) };
  }
  const examples = Object.values(OPERATION_DOCS[id].examples);
  const example = examples.find((candidate) => candidate.status === 200);
  if (example === undefined) throw new Error(`${id} documents no 200 example`);
  const answer = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(example.request),
  });
  expect(answer.status).toBe(200);
  return {
    text: post(path, example.request),
    status: answer.status,
    alone: withoutInstant(await answer.text()),
  };
}

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

describe("requests with a request pipelined behind them", () => {
  for (const id of Object.keys(OPERATIONS) as OperationId[]) {
    test(`${OPERATIONS[id].path}, then a health check in the same write: both answered, in order`, async () => {
      const { text, status, alone } = await documentedRequest(id);
      const connection = await rawConnect(Number(new URL(server.url).port));
      try {
        connection.write(text + HEALTH);
        const answers = await connection.responses(2, 5_000);
        expect(answers.map((answer) => answer.status)).toEqual([status, 200]);
        expect(withoutInstant(answers[0]!.body)).toEqual(alone);
        expect(JSON.parse(answers[1]!.body)).toMatchObject({ status: "ok" });
        expect(connection.state).toBe("open");
      } finally {
        connection.close();
      }
    });
  }

  test("the four certificate operations pipelined in one write, twice, then a health check: nine answers in order", async () => {
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
