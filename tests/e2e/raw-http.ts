/**
 * Raw HTTP/1.x over a TCP socket, for what `fetch` cannot send: odd or missing `Host` headers,
 * HTTP/1.0, and keep-alive connections whose requests are written at a chosen moment.
 */
import type { Socket } from "bun";

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Parses every complete response in `text` (Content-Length framing only, as the server uses).
 * `text` holds one character per byte received (latin1), so that Content-Length counts bytes;
 * each body is then decoded as UTF-8.
 */
export function parseResponses(text: string): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = text;
  for (;;) {
    const headEnd = rest.indexOf("\r\n\r\n");
    if (headEnd === -1) return responses;
    const [statusLine = "", ...lines] = rest.slice(0, headEnd).split("\r\n");
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(":");
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers["content-length"] ?? 0);
    const bodyStart = headEnd + 4;
    if (rest.length < bodyStart + length) return responses;
    responses.push({
      status: Number(statusLine.split(" ")[1]),
      headers,
      body: Buffer.from(rest.slice(bodyStart, bodyStart + length), "latin1").toString("utf8"),
    });
    rest = rest.slice(bodyStart + length);
  }
}

/** A raw connection that collects everything the server sends and notes how it ended. */
export interface RawConnection {
  write(text: string): void;
  /** Everything received so far. */
  readonly received: string;
  /** "open", "closed" (orderly FIN) or "error" (reset or other socket error). */
  readonly state: "open" | "closed" | "error";
  /** Resolves once `count` complete responses have arrived (or rejects after `timeoutMs`). */
  responses(count: number, timeoutMs?: number): Promise<RawResponse[]>;
  /** Resolves once the server has closed the connection (or after `timeoutMs`, with the state then). */
  ended(timeoutMs?: number): Promise<"open" | "closed" | "error">;
  close(): void;
}

export async function rawConnect(port: number): Promise<RawConnection> {
  let received = "";
  let state: "open" | "closed" | "error" = "open";
  let socket: Socket<undefined> | null = null;
  socket = await Bun.connect({
    hostname: "127.0.0.1",
    port,
    socket: {
      data(_socket, data) {
        received += Buffer.from(data).toString("latin1"); // one character per byte: see parseResponses
      },
      close() {
        if (state === "open") state = "closed";
      },
      error() {
        state = "error";
      },
      connectError() {
        state = "error";
      },
    },
  });
  const wait = async <T>(done: () => T | null, timeoutMs: number, what: string): Promise<T> => {
    const until = performance.now() + timeoutMs;
    for (;;) {
      const value = done();
      if (value !== null) return value;
      if (performance.now() > until) throw new Error(`timed out waiting for ${what}; state ${state}`);
      await Bun.sleep(5);
    }
  };
  return {
    write: (text) => void socket?.write(text),
    get received() {
      return received;
    },
    get state() {
      return state;
    },
    responses: (count, timeoutMs = 10_000) =>
      wait(
        () => {
          const parsed = parseResponses(received);
          return parsed.length >= count ? parsed : null;
        },
        timeoutMs,
        `${count} responses`,
      ),
    ended: async (timeoutMs = 10_000) => {
      try {
        return await wait(() => (state === "open" ? null : state), timeoutMs, "the connection to end");
      } catch {
        return state;
      }
    },
    close: () => socket?.end(),
  };
}

/** Sends one raw request on a new connection and returns the first response. */
export async function rawRequest(port: number, request: string): Promise<RawResponse> {
  const connection = await rawConnect(port);
  try {
    connection.write(request);
    const [response] = await connection.responses(1);
    if (response === undefined) throw new Error("no response");
    return response;
  } finally {
    connection.close();
  }
}
