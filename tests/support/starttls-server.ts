/**
 * Small fake servers for `--connect --starttls` tests (CONTRACT §8.3): a TCP server on 127.0.0.1
 * that speaks the plain part of one protocol (as Postfix, Dovecot, vsftpd, PostgreSQL, MySQL,
 * OpenLDAP and Prosody do, closely enough for `openssl s_client -starttls` too) and then hands
 * the socket to a node:tls server whose certificate list is deliberately misordered, so that a
 * reader that keeps the wire order can be told from one that does not. With `offer: false` the
 * server refuses STARTTLS the protocol's own way. What the client sent in the plain part (its
 * EHLO name, its XMPP `to`) is kept in `heard`. Bounded: every socket is destroyed by `stop()`.
 */
import { createServer, type Server, type Socket } from "node:net";
import { createSecureContext, TLSSocket } from "node:tls";
import type { StartTlsProtocol } from "../../src/local/starttls-protocols.ts";

export interface FakeServerOptions {
  protocol: StartTlsProtocol;
  /** The certificates to send, PEM, in this order (the first is the server's own). */
  certificatesPem: string;
  keyPem: string;
  /** Offer STARTTLS (default true); false refuses it. */
  offer?: boolean;
  /** Speak only TLS 1.3 after the upgrade (the client then needs openssl). */
  tls13Only?: boolean;
  /** Port to listen on (default: any free one). */
  port?: number;
}

export interface FakeServer {
  port: number;
  /** What each connection's client said in the plain part, in order (`EHLO name`, `to='…'` …). */
  heard: string[];
  stop(): Promise<void>;
}

/** Reads a client's plain-text part line by line (or byte counts for binary protocols). */
class Plain {
  private data = Buffer.alloc(0);
  private wake: (() => void) | null = null;
  private closed = false;

  constructor(readonly socket: Socket) {
    socket.on("data", (chunk: Buffer) => {
      this.data = Buffer.concat([this.data, chunk]);
      this.wake?.();
    });
    socket.on("close", () => {
      this.closed = true;
      this.wake?.();
    });
    socket.on("error", () => {});
  }

  /** Bytes up to where `end` says a unit ends; null when the client went away. */
  async read(end: (data: Buffer) => number | null): Promise<Buffer | null> {
    for (;;) {
      const length = end(this.data);
      if (length !== null) {
        const unit = this.data.subarray(0, length);
        this.data = this.data.subarray(length);
        return unit;
      }
      if (this.closed) return null;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }

  async line(): Promise<string | null> {
    const line = await this.read((data) => {
      const lf = data.indexOf(0x0a);
      return lf === -1 ? null : lf + 1;
    });
    return line === null ? null : line.toString("latin1").replace(/\r?\n$/, "");
  }

  bytes(count: number): Promise<Buffer | null> {
    return this.read((data) => (data.length >= count ? count : null));
  }

  write(data: string | Uint8Array): void {
    this.socket.write(data);
  }

  /** Stops reading and gives back what the client sent past its plain part (MySQL's ClientHello). */
  handOver(): Buffer {
    this.socket.removeAllListeners("data");
    this.socket.pause();
    return this.data;
  }
}

const TLS_NS = "urn:ietf:params:xml:ns:xmpp-tls";

/** The server's side of each protocol's plain part; resolves true when it is time for TLS. */
const DIALOGUES: Record<
  StartTlsProtocol,
  (plain: Plain, offer: boolean, heard: string[]) => Promise<boolean>
> = {
  smtp: (plain, offer, heard) => smtpLike(plain, offer, heard, "EHLO"),
  lmtp: (plain, offer, heard) => smtpLike(plain, offer, heard, "LHLO"),
  async pop3(plain, offer) {
    plain.write("+OK fake POP3 server ready\r\n");
    if ((await plain.line()) !== "STLS") return false;
    plain.write(offer ? "+OK Begin TLS negotiation\r\n" : "-ERR STLS not available\r\n");
    return offer;
  },
  async imap(plain, offer) {
    const capabilities = `IMAP4rev1 ${offer ? "STARTTLS " : ""}LOGINDISABLED`;
    plain.write(`* OK [CAPABILITY ${capabilities}] fake IMAP server ready\r\n`);
    for (;;) {
      const line = await plain.line();
      if (line === null) return false;
      const [tag, command] = line.split(" ");
      if (command?.toUpperCase() === "CAPABILITY") {
        plain.write(`* CAPABILITY ${capabilities}\r\n${tag} OK CAPABILITY completed\r\n`);
      } else if (command?.toUpperCase() === "STARTTLS") {
        plain.write(
          offer ? `${tag} OK Begin TLS negotiation now\r\n` : `${tag} BAD STARTTLS not supported\r\n`,
        );
        return offer;
      } else plain.write(`${tag} BAD unknown command\r\n`);
    }
  },
  async ftp(plain, offer) {
    plain.write("220-fake FTP server\r\n220 ready\r\n");
    if ((await plain.line()) !== "AUTH TLS") return false;
    plain.write(offer ? "234 Proceed with negotiation.\r\n" : "530 Please login with USER and PASS.\r\n");
    return offer;
  },
  async postgres(plain, offer) {
    const request = await plain.bytes(8);
    if (request === null || request.readUInt32BE(4) !== 80877103) return false;
    plain.write(offer ? "S" : "N");
    return offer;
  },
  async mysql(plain, offer) {
    const version = Buffer.from("8.0.36-fake\0", "latin1");
    const capabilities = offer ? 0xffff : 0xf7ff;
    const payload = Buffer.concat([
      Buffer.from([10]),
      version,
      Buffer.from([1, 0, 0, 0]),
      Buffer.from("abcdefgh", "latin1"),
      Buffer.from([0]),
      Buffer.from([capabilities & 0xff, capabilities >> 8, 0x21, 2, 0, 0xff, 0xc1, 21]),
      Buffer.alloc(10),
      Buffer.from("ijklmnopqrst\0mysql_native_password\0", "latin1"),
    ]);
    const header = Buffer.from([payload.length & 0xff, (payload.length >> 8) & 0xff, 0, 0]);
    plain.write(Buffer.concat([header, payload]));
    if (!offer) return false;
    const request = await plain.bytes(36);
    return request !== null && request[3] === 1 && (request.readUInt16LE(4) & 0x0800) !== 0;
  },
  async ldap(plain, offer) {
    const request = await plain.read((data) =>
      data.length >= 2 && data.length >= 2 + data[1]! ? 2 + data[1]! : null,
    );
    if (request === null || !request.toString("latin1").includes("1.3.6.1.4.1.1466.20037")) return false;
    const diagnostic = Buffer.from(offer ? "" : "unsupported extended operation", "latin1");
    const result = Buffer.concat([
      Buffer.from([0x0a, 0x01, offer ? 0 : 2, 0x04, 0x00, 0x04, diagnostic.length]),
      diagnostic,
    ]);
    const response = Buffer.concat([Buffer.from([0x02, 0x01, 0x01, 0x78, result.length]), result]);
    plain.write(Buffer.concat([Buffer.from([0x30, response.length]), response]));
    return offer;
  },
  xmpp: (plain, offer, heard) => xmppLike(plain, offer, heard, "client"),
  "xmpp-server": (plain, offer, heard) => xmppLike(plain, offer, heard, "server"),
};

async function smtpLike(plain: Plain, offer: boolean, heard: string[], hello: string): Promise<boolean> {
  plain.write("220 fake.example.com ESMTP ready\r\n");
  const greeting = await plain.line();
  if (greeting === null || !greeting.startsWith(`${hello} `)) return false;
  heard.push(greeting);
  plain.write(`250-fake.example.com\r\n250-PIPELINING\r\n${offer ? "250-STARTTLS\r\n" : ""}250 8BITMIME\r\n`);
  if ((await plain.line()) !== "STARTTLS") return false;
  plain.write(offer ? "220 2.0.0 Ready to start TLS\r\n" : "502 5.5.1 STARTTLS not offered\r\n");
  return offer;
}

async function xmppLike(plain: Plain, offer: boolean, heard: string[], kind: string): Promise<boolean> {
  const header = await plain.read((data) => {
    const at = data.indexOf("<stream:stream");
    const end = at === -1 ? -1 : data.indexOf(">", at);
    return end === -1 ? null : end + 1;
  });
  if (header === null) return false;
  const to = /\bto=(['"])([^'"]*)\1/.exec(header.toString("latin1"))?.[2] ?? "";
  heard.push(`to='${to}'`);
  const starttls = `<starttls xmlns='${TLS_NS}'><required/></starttls>`;
  const sasl =
    "<mechanisms xmlns='urn:ietf:params:xml:ns:xmpp-sasl'><mechanism>PLAIN</mechanism></mechanisms>";
  plain.write(
    `<?xml version='1.0'?><stream:stream xmlns='jabber:${kind}' xmlns:stream='http://etherx.jabber.org/streams' id='fake1' from='${to}' version='1.0'>` +
      `<stream:features>${offer ? starttls : sasl}</stream:features>`,
  );
  if (!offer) return false;
  const request = await plain.read((data) => {
    const end = data.indexOf("/>");
    return end === -1 ? null : end + 2;
  });
  if (request === null || !request.toString("latin1").includes("<starttls")) return false;
  plain.write(`<proceed xmlns='${TLS_NS}'/>`);
  return true;
}

/** Starts a fake server for `options.protocol`; resolves once it listens. */
export async function startStartTlsServer(options: FakeServerOptions): Promise<FakeServer> {
  const secureContext = createSecureContext({
    cert: options.certificatesPem,
    key: options.keyPem,
    ...(options.tls13Only ? { minVersion: "TLSv1.3" as const } : {}),
  });
  const sockets = new Set<Socket>();
  const heard: string[] = [];
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    const plain = new Plain(socket);
    void DIALOGUES[options.protocol](plain, options.offer ?? true, heard).then((upgrade) => {
      if (!upgrade) return;
      // A MySQL client sends its ClientHello right after the SSLRequest, unanswered: put it back.
      const rest = plain.handOver();
      if (rest.length > 0) socket.unshift(rest);
      const tls = new TLSSocket(socket, { isServer: true, secureContext });
      tls.on("error", () => socket.destroy());
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
  const address = server.address();
  if (address === null || typeof address !== "object") throw new Error("the fake server has no port");
  return {
    port: address.port,
    heard,
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
