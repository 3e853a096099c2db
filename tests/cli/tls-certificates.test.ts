/**
 * CONTRACT §7.3: the certificate list exactly as a local server sends it (wire order, extra,
 * repeated and unrelated certificates kept), SNI, TLS 1.3-only servers, and failures named by
 * their observed cause (refused, closed or reset after N bytes, not TLS, timed out after N s, no
 * certificate, more certificates than the local limit), one line and exit 3 through the CLI.
 * Servers: `openssl s_server` on 127.0.0.1 (tests/support/tls-server.ts) and small hostile
 * node:net servers written here, each bounded by its test.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { createServer, type Server, type Socket } from "node:net";
import { HandshakeReader } from "../../src/adapters/tls/record-reader.ts";
import { parseTarget } from "../../src/adapters/tls/target.ts";
import { fetchServerCertificates } from "../../src/adapters/tls/tls-certificates.ts";
import { LOCAL_CERTIFICATE_LIMITS } from "../../src/domain/limits.ts";
import type { ConnectOptions } from "../../src/local/ports.ts";
import { certPem, GENERATED_DIR, pemToDers } from "../fixtures/fixtures.ts";
import { startTlsServer, type TlsServer } from "../support/tls-server.ts";
import { runNettools } from "./run.ts";

const key = (name: string) => `${GENERATED_DIR}/keys/${name}.key`;
const pems = (...names: string[]) => names.map(certPem).join("");
const hex = (ders: Uint8Array[]) => ders.map((der) => Buffer.from(der).toString("hex"));
const started: TlsServer[] = [];
afterAll(async () => {
  await Promise.all(started.map((server) => server.stop()));
});

async function fetchFrom(port: number, servername?: string, options: ConnectOptions = {}) {
  const target = parseTarget(`127.0.0.1:${port}`, servername);
  if (!target.ok) throw new Error(target.message);
  return fetchServerCertificates(target.target, { deadline: Date.now() + 5000, ...options });
}

describe("the list as sent, in wire order", () => {
  const cases: [string, string, string, string[]][] = [
    ["[leaf]", "chain-leaf", "leaf-ec", []],
    ["[intermediate, leaf]", "chain-int2", "chain-int2", ["chain-leaf"]],
    ["[leaf, intermediate, root]", "chain-leaf", "leaf-ec", ["chain-int2", "chain-int1", "chain-root"]],
    ["[leaf, unrelated, intermediate]", "chain-leaf", "leaf-ec", ["chain-unrelated", "chain-int2"]],
    ["[leaf, intermediate, intermediate] (a repeat)", "chain-leaf", "leaf-ec", ["chain-int2", "chain-int2"]],
  ];
  for (const [label, presented, keyName, rest] of cases) {
    test(label, async () => {
      const server = await startTlsServer({
        certPem: certPem(presented),
        keyPath: key(keyName),
        ...(rest.length > 0 ? { extraPem: pems(...rest) } : {}),
      });
      started.push(server);
      const result = await fetchFrom(server.port);
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.value.via).toBe("tls1.2-record-layer");
      expect(hex(result.value.ders)).toEqual(hex(pemToDers(pems(presented, ...rest))));
    }, 30_000);
  }

  test("SNI: two certificates on one port, each name gets its own", async () => {
    const server = await startTlsServer({
      certPem: certPem("chain-leaf"),
      keyPath: key("leaf-ec"),
      sni: {
        name: "other.chain.example.com",
        certPem: certPem("chain-leaf-other"),
        keyPath: key("leaf-other"),
      },
    });
    started.push(server);
    const plain = await fetchFrom(server.port, "chain.example.com");
    const other = await fetchFrom(server.port, "other.chain.example.com");
    expect(plain.ok && other.ok).toBe(true);
    if (!plain.ok || !other.ok) return;
    expect(hex(plain.value.ders.slice(0, 1))).toEqual(hex(pemToDers(certPem("chain-leaf"))));
    expect(hex(other.value.ders.slice(0, 1))).toEqual(hex(pemToDers(certPem("chain-leaf-other"))));
  }, 30_000);

  test("a TLS 1.3-only server is read through openssl s_client, still in wire order", async () => {
    const server = await startTlsServer({
      certPem: certPem("chain-int2"),
      keyPath: key("chain-int2"),
      extraPem: pems("chain-leaf", "chain-unrelated"),
      args: ["-tls1_3"],
    });
    started.push(server);
    const result = await fetchFrom(server.port, "chain.example.com");
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.via).toBe("openssl-s_client");
    expect(hex(result.value.ders)).toEqual(
      hex(pemToDers(pems("chain-int2", "chain-leaf", "chain-unrelated"))),
    );
  }, 30_000);

  test("a Certificate message spread over many records is read whole (a 400-certificate list)", () => {
    const ders = Array.from({ length: 400 }, () => pemToDers(certPem("chain-int2"))[0]!);
    const reader = new HandshakeReader();
    const bytes = Buffer.concat([serverHello(), certificateMessage(ders)]);
    let result: ReturnType<HandshakeReader["push"]> = null;
    // Arrives in odd-sized pieces, as TCP delivers it.
    for (let at = 0; at < bytes.length && result === null; at += 1000) {
      result = reader.push(bytes.subarray(at, at + 1000));
    }
    expect(result?.ok).toBe(true);
    if (result?.ok) expect(hex(result.value.ders)).toEqual(hex(ders));
  });
});

// ---- hostile servers -------------------------------------------------------------------------

const u24 = (n: number) => [(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];

/** Handshake bytes as TLS 1.2 records of at most 16 KiB. */
function records(handshake: Buffer): Buffer {
  const out: Buffer[] = [];
  for (let at = 0; at < handshake.length; at += 16384) {
    const fragment = handshake.subarray(at, at + 16384);
    out.push(Buffer.from([0x16, 3, 3, fragment.length >> 8, fragment.length & 0xff]), fragment);
  }
  return Buffer.concat(out);
}

function handshakeMessage(type: number, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from([type, ...u24(body.length)]), body]);
}

/** A ServerHello choosing ECDHE-RSA-AES128-GCM-SHA256, no extensions. */
function serverHello(): Buffer {
  const body = Buffer.from([3, 3, ...new Array<number>(32).fill(7), 0, 0xc0, 0x2f, 0]);
  return records(handshakeMessage(2, body));
}

function certificateMessage(ders: Uint8Array[]): Buffer {
  const list = Buffer.concat(ders.map((der) => Buffer.concat([Buffer.from(u24(der.length)), der])));
  return records(handshakeMessage(11, Buffer.concat([Buffer.from(u24(list.length)), list])));
}

const hostiles: Server[] = [];
afterAll(() => {
  for (const server of hostiles) server.close();
});

/** A TCP server on 127.0.0.1 that calls `answer` with each client's first bytes (its ClientHello). */
async function hostile(
  answer: (socket: Socket, first: Buffer) => void,
  onConnect?: (socket: Socket) => void,
) {
  const server = createServer((socket) => {
    socket.on("error", () => {});
    onConnect?.(socket);
    socket.once("data", (first: Buffer) => answer(socket, first));
    setTimeout(() => socket.destroy(), 10_000).unref();
  });
  hostiles.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as { port: number }).port;
}

/** A port nothing listens on: one just freed. */
async function freedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const failure = (message: string) => ({ ok: false as const, message });

describe("failures name the cause observed", () => {
  test("refused", async () => {
    expect(await fetchFrom(await freedPort())).toEqual(failure("connection refused"));
  });

  test("closed after N bytes, at once: no detour through openssl (the known bad case)", async () => {
    const early = await hostile((socket) => socket.end());
    const begun = Date.now();
    expect(await fetchFrom(early)).toEqual(
      failure("the server closed the connection after 0 bytes, before its certificates"),
    );
    expect(Date.now() - begun).toBeLessThan(1000);
    const partial = await hostile((socket) => socket.end(Buffer.from([0x16, 3, 3, 0, 0x40, 2, 0, 0])));
    expect(await fetchFrom(partial)).toEqual(
      failure("the server closed the connection after 8 bytes, before its certificates"),
    );
  });

  test("reset after N bytes", async () => {
    const port = await hostile((socket) => {
      socket.write(Buffer.from([0x16, 3, 3, 0, 0x40]));
      setTimeout(() => socket.resetAndDestroy(), 50);
    });
    expect(await fetchFrom(port)).toEqual(
      failure("the server reset the connection after 5 bytes, before its certificates"),
    );
  });

  test("timed out after N s", async () => {
    const silent = await hostile(() => {});
    expect(await fetchFrom(silent, undefined, { deadline: Date.now() + 300 })).toEqual(
      failure("timed out after 0.3 s waiting for its certificates"),
    );
  });

  test("not TLS: the server's first line quoted, with a --starttls hint for plain text", async () => {
    const answers: [string | Buffer, string][] = [
      [
        "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n",
        'the server did not answer with TLS: "HTTP/1.1 400 Bad Request" (plain text: --starttls PROTO upgrades a plain-text protocol)',
      ],
      [
        "220 mx.example.com ESMTP Postfix\r\n",
        'the server did not answer with TLS: "220 mx.example.com ESMTP Postfix" (plain text: try --starttls smtp)',
      ],
      [
        "220 ProFTPD Server (Debian)\r\n",
        'the server did not answer with TLS: "220 ProFTPD Server (Debian)" (plain text: try --starttls ftp)',
      ],
      [
        "+OK Dovecot ready.\r\n",
        'the server did not answer with TLS: "+OK Dovecot ready." (plain text: try --starttls pop3)',
      ],
      [
        "* OK [CAPABILITY IMAP4rev1] ready\r\n",
        'the server did not answer with TLS: "* OK [CAPABILITY IMAP4rev1] ready" (plain text: try --starttls imap)',
      ],
      [
        "hi",
        'the server did not answer with TLS: "hi" (plain text: --starttls PROTO upgrades a plain-text protocol)',
      ],
      [
        Buffer.from([0x00, 0x1b, 0x7f, 0xff, 0x0a, 0x41]),
        'the server did not answer with TLS: "\\x00\\x1b\\x7f\\xff\\x0aA"',
      ],
    ];
    for (const [said, message] of answers) {
      const port = await hostile((socket) => socket.end(said));
      expect(await fetchFrom(port)).toEqual(failure(message));
    }
    // A server that speaks first is heard the same way.
    const greeter = await hostile(
      () => {},
      (socket) => socket.write("220 mail.example.com ESMTP\r\n"),
    );
    expect(await fetchFrom(greeter)).toEqual(
      failure(
        'the server did not answer with TLS: "220 mail.example.com ESMTP" (plain text: try --starttls smtp)',
      ),
    );
  });

  test("sent no certificate (a ServerHello, then ServerHelloDone) and an empty list", async () => {
    const anonymous = await hostile((socket) =>
      socket.write(Buffer.concat([serverHello(), records(handshakeMessage(14, Buffer.alloc(0)))])),
    );
    expect(await fetchFrom(anonymous)).toEqual(failure("the server sent no certificate"));
    const empty = await hostile((socket) =>
      socket.write(Buffer.concat([serverHello(), certificateMessage([])])),
    );
    expect(await fetchFrom(empty)).toEqual(failure("the server sent no certificate"));
  });

  test("a fatal alert that is not about the version: no openssl detour", async () => {
    const port = await hostile((socket) => socket.end(Buffer.from([0x15, 3, 3, 0, 2, 2, 112])));
    expect(await fetchFrom(port)).toEqual(
      failure("the server refused a TLS 1.2 handshake (unrecognized_name)"),
    );
  });

  const thousand = () => Array.from({ length: 1000 }, () => pemToDers(certPem("chain-int2"))[0]!);

  test("more certificates than the local limit: how many, and the limit", async () => {
    const port = await hostile((socket) =>
      socket.write(Buffer.concat([serverHello(), certificateMessage(thousand())])),
    );
    expect(await fetchFrom(port)).toEqual(
      failure(
        `the server sent 1000 certificates, more than the ${LOCAL_CERTIFICATE_LIMITS.maxBlocks} nettools reads`,
      ),
    );
    // The limit on the PEM text too: 1000 times the fixture's PEM.
    const kib = Math.ceil((1000 * certPem("chain-int2").length) / 1024);
    expect(await fetchFrom(port, undefined, { maxCertificates: 1000, maxPemLength: 100 * 1024 })).toEqual(
      failure(`the server sent ${kib} KiB of certificates (as PEM), more than the 100 KiB nettools reads`),
    );
  });

  test("through the CLI: one line on stderr, exit 3, for cert and chain", async () => {
    const tooMany = await hostile((socket) =>
      socket.write(Buffer.concat([serverHello(), certificateMessage(thousand())])),
    );
    const early = await hostile((socket) => socket.end());
    const refused = await freedPort();
    const expected: [number, string][] = [
      [
        tooMany,
        `the server sent 1000 certificates, more than the ${LOCAL_CERTIFICATE_LIMITS.maxBlocks} nettools reads`,
      ],
      [early, "the server closed the connection after 0 bytes, before its certificates"],
      [refused, "connection refused"],
    ];
    for (const [port, message] of expected) {
      for (const command of ["cert", "chain"]) {
        const ran = await runNettools([command, "--connect", `127.0.0.1:${port}`]);
        expect(ran.code).toBe(3);
        expect(ran.stdout).toBe("");
        expect(ran.stderr).toBe(`127.0.0.1:${port}: ${message}\n`);
      }
    }
  }, 30_000);
});

describe("HOST[:PORT]", () => {
  test("SNI defaults: HOST unless an IP literal; --servername overrides; the default port is given", () => {
    expect(parseTarget("example.com", undefined)).toEqual({
      ok: true,
      target: { host: "example.com", port: 443, servername: "example.com" },
    });
    expect(parseTarget("example.com", undefined, 25)).toEqual({
      ok: true,
      target: { host: "example.com", port: 25, servername: "example.com" },
    });
    expect(parseTarget("192.0.2.1:8443", undefined)).toEqual({
      ok: true,
      target: { host: "192.0.2.1", port: 8443, servername: null },
    });
    expect(parseTarget("[2001:db8::1]:444", "x.example")).toEqual({
      ok: true,
      target: { host: "2001:db8::1", port: 444, servername: "x.example" },
    });
    expect(parseTarget("2001:db8::1", undefined)).toEqual({
      ok: true,
      target: { host: "2001:db8::1", port: 443, servername: null },
    });
    expect(parseTarget("example.com:99999", undefined).ok).toBe(false);
    expect(parseTarget("example.com:https", undefined).ok).toBe(false);
  });
});
