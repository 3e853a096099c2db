/**
 * One TCP connection to a server for `--connect` (CONTRACT §7.3, §8.3), read chunk by chunk under
 * one deadline. Every way it can end early becomes a {@link ConnectionFailure} whose message names
 * what was observed: refused, unreachable, reset or closed after N bytes, timed out after N s.
 * The STARTTLS dialogues (starttls.ts) and the TLS record reader (tls-certificates.ts) both read
 * from it, so the bytes counted and the deadline are those of the whole read.
 */
import { connect, type Socket } from "node:net";

/**
 * A connection that ended before its reader had what it needed; the message is the observed cause.
 * `kind`: the deadline passed (`timeout`), the server closed or reset it (`ended`), or another
 * failure (refused, unreachable, a flood).
 */
export class ConnectionFailure extends Error {
  constructor(
    message: string,
    readonly kind: "timeout" | "ended" | "other" = "other",
  ) {
    super(message);
  }
}

/** Seconds as people read them: whole when whole, else one decimal ("10", "0.5"). */
export function seconds(ms: number): string {
  return String(Math.round(Math.max(0, ms) / 100) / 10);
}

function describeSocketError(error: NodeJS.ErrnoException, received: number): string {
  switch (error.code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EAI_NONAME":
      return "the host name does not resolve";
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "the host is unreachable";
    case "ECONNRESET":
    case "EPIPE":
      return `the server reset the connection after ${bytes(received)}`;
    default:
      return `the connection failed (${error.code ?? "unknown error"})`;
  }
}

const bytes = (n: number) => (n === 1 ? "1 byte" : `${n} bytes`);

/** Most bytes a connection holds unread before the reader takes them (a hostile server's flood). */
const MAX_BUFFERED_BYTES = 32 * 1024 * 1024;

export class PlainConnection {
  /** Bytes received from the server so far. */
  received = 0;
  private readonly socket: Socket;
  private readonly chunks: Buffer[] = [];
  private buffered = 0;
  private ended: ConnectionFailure | null = null;
  private waiter: (() => void) | null = null;
  private readonly timer: ReturnType<typeof setTimeout>;

  private constructor(
    socket: Socket,
    private readonly startedAt: number,
    private readonly deadline: number,
  ) {
    this.socket = socket;
    this.timer = setTimeout(() => this.fail(this.timedOut()), Math.max(0, deadline - Date.now()));
    socket.on("data", (chunk: Buffer) => {
      this.received += chunk.length;
      this.buffered += chunk.length;
      this.chunks.push(chunk);
      if (this.buffered > MAX_BUFFERED_BYTES) {
        this.fail(new ConnectionFailure(`the server sent more than ${MAX_BUFFERED_BYTES >> 20} MiB`));
      }
      this.wake();
    });
    socket.on("error", (error: NodeJS.ErrnoException) => {
      const reset = error.code === "ECONNRESET" || error.code === "EPIPE";
      this.fail(new ConnectionFailure(describeSocketError(error, this.received), reset ? "ended" : "other"));
    });
    socket.on("close", () =>
      this.fail(
        new ConnectionFailure(`the server closed the connection after ${bytes(this.received)}`, "ended"),
      ),
    );
  }

  /**
   * Connects to HOST:PORT; rejects with a {@link ConnectionFailure} when the server refuses, cannot
   * be reached, or does not accept before `deadline` (an absolute time, `Date.now()`'s clock).
   * `startedAt` is when the whole read began: a timeout's message gives the seconds since then.
   */
  static open(
    host: string,
    port: number,
    deadline: number,
    startedAt = Date.now(),
  ): Promise<PlainConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host, port });
      const timer = setTimeout(
        () => {
          socket.destroy();
          reject(
            new ConnectionFailure(`timed out after ${seconds(deadline - startedAt)} s connecting`, "timeout"),
          );
        },
        Math.max(0, deadline - startedAt),
      );
      const refused = (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        socket.destroy();
        reject(new ConnectionFailure(describeSocketError(error, 0)));
      };
      socket.once("error", refused);
      socket.once("connect", () => {
        clearTimeout(timer);
        socket.off("error", refused);
        resolve(new PlainConnection(socket, startedAt, deadline));
      });
    });
  }

  /** Sends bytes (nothing happens once the connection has ended: the next read says why). */
  write(data: Uint8Array | string): void {
    if (this.ended === null) this.socket.write(data);
  }

  /**
   * The next bytes the server sent (everything buffered), waiting for some. `awaited` names what
   * is awaited, for the failure's message: "timed out after 10 s waiting for the smtp greeting",
   * "the server closed the connection after 0 bytes, before the smtp greeting".
   */
  async next(awaited: string): Promise<Buffer> {
    for (;;) {
      if (this.chunks.length > 0) {
        const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
        this.chunks.length = 0;
        this.buffered = 0;
        return all;
      }
      if (this.ended !== null) {
        const { message, kind } = this.ended;
        if (kind === "timeout") throw new ConnectionFailure(`${message} waiting for ${awaited}`, kind);
        if (kind === "ended") throw new ConnectionFailure(`${message}, before ${awaited}`, kind);
        throw this.ended;
      }
      await new Promise<void>((resolve) => {
        this.waiter = resolve;
      });
    }
  }

  /** Puts bytes back in front of what is buffered: they were read past the end of a reply. */
  unread(data: Uint8Array): void {
    if (data.length === 0) return;
    this.chunks.unshift(Buffer.from(data));
    this.buffered += data.length;
  }

  /** Closes the connection; idempotent. */
  close(): void {
    clearTimeout(this.timer);
    if (this.ended === null) this.ended = new ConnectionFailure("the connection was closed");
    this.socket.destroy();
    this.wake();
  }

  private timedOut(): ConnectionFailure {
    return new ConnectionFailure(`timed out after ${seconds(this.deadline - this.startedAt)} s`, "timeout");
  }

  private fail(failure: ConnectionFailure): void {
    if (this.ended !== null) return;
    this.ended = failure;
    clearTimeout(this.timer);
    // A timeout or flood ends the connection; a close or reset already has.
    this.socket.destroy();
    this.wake();
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.();
  }
}
