/**
 * CONTRACT §8.3: `--connect --starttls PROTO` for the ten protocols, against the small fake
 * servers of tests/support/starttls-server.ts (each speaks its plain part, then TLS with a
 * misordered list): the list in wire order after the upgrade, TLS 1.3-only servers through
 * `openssl s_client -starttls`, refusals and foreign answers quoted and escaped, `--identity`,
 * the implicit-TLS port note, one deadline; smtp, imap and postgres also read by `openssl
 * s_client -starttls` itself (the fake servers satisfy the reference client); and the CLI's lines
 * and exit codes.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer as createTlsServer } from "node:tls";
import fc from "fast-check";
import {
  firstLine,
  guessProtocol,
  IMPLICIT_TLS_PORTS,
  MAX_QUOTE_CHARACTERS,
  quote,
} from "../../src/adapters/tls/starttls.ts";
import { parseTarget } from "../../src/adapters/tls/target.ts";
import { fetchServerCertificates } from "../../src/adapters/tls/tls-certificates.ts";
import type { ConnectOptions } from "../../src/local/ports.ts";
import {
  parseStartTlsProtocol,
  STARTTLS_DEFAULT_PORTS,
  type StartTlsProtocol,
} from "../../src/local/starttls-protocols.ts";
import { certPem, GENERATED_DIR, pemToDers } from "../fixtures/fixtures.ts";
import { startStartTlsServer } from "../support/starttls-server.ts";
import { runNettools } from "./run.ts";

const PROTOCOLS = Object.keys(STARTTLS_DEFAULT_PORTS) as StartTlsProtocol[];
/** Misordered on purpose: an unrelated certificate second, the root before its intermediate, a repeat. */
const SENT = ["chain-leaf", "chain-unrelated", "chain-int2", "chain-root", "chain-int2"];
const SENT_PEM = SENT.map(certPem).join("");
const KEY_PEM = readFileSync(`${GENERATED_DIR}/keys/leaf-ec.key`, "utf8");
const hex = (ders: Uint8Array[]) => ders.map((der) => Buffer.from(der).toString("hex"));
const SENT_HEX = hex(pemToDers(SENT_PEM));
const scratch = mkdtempSync(join(tmpdir(), "nettools-starttls-"));

const servers: { stop(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
});

async function fake(protocol: StartTlsProtocol, options: { offer?: boolean; tls13Only?: boolean } = {}) {
  const server = await startStartTlsServer({
    protocol,
    certificatesPem: SENT_PEM,
    keyPem: KEY_PEM,
    ...options,
  });
  servers.push(server);
  return server;
}

async function read(
  port: number,
  protocol: StartTlsProtocol,
  identity = "localhost",
  options: ConnectOptions = {},
) {
  const target = parseTarget(`127.0.0.1:${port}`, "chain.example.com");
  if (!target.ok) throw new Error(target.message);
  return fetchServerCertificates(target.target, {
    deadline: Date.now() + 5000,
    startTls: { protocol, identity },
    ...options,
  });
}

const failure = (message: string) => ({ ok: false as const, message });

/** A TCP server on 127.0.0.1 running `onConnection` for each client; closed after the file. */
async function plainServer(onConnection: (socket: Socket) => void): Promise<number> {
  const server: Server = createServer((socket) => {
    socket.on("error", () => {});
    onConnection(socket);
    setTimeout(() => socket.destroy(), 10_000).unref();
  });
  servers.push({ stop: () => new Promise<void>((resolve) => server.close(() => resolve())) });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as { port: number }).port;
}

describe("the list in wire order after the upgrade", () => {
  for (const protocol of PROTOCOLS) {
    test(`${protocol}: TLS 1.2 at the record layer, and a TLS 1.3-only server through openssl s_client -starttls`, async () => {
      const server = await fake(protocol);
      const result = await read(server.port, protocol, "client.example.net");
      expect(result.ok && result.value.via).toBe("tls1.2-record-layer");
      expect(result.ok && hex(result.value.ders)).toEqual(SENT_HEX);

      const modern = await fake(protocol, { tls13Only: true });
      const viaOpenssl = await read(modern.port, protocol, "client.example.net");
      expect(viaOpenssl.ok && viaOpenssl.value.via).toBe("openssl-s_client");
      expect(viaOpenssl.ok && hex(viaOpenssl.value.ders)).toEqual(SENT_HEX);
      // Both readers sent --identity where the protocol has a place for it.
      const said = { smtp: "EHLO", lmtp: "LHLO" } as Record<string, string>;
      if (protocol in said) {
        expect(server.heard).toEqual([`${said[protocol]} client.example.net`]);
        expect(modern.heard).toEqual([
          `${said[protocol]} client.example.net`,
          `${said[protocol]} client.example.net`,
        ]);
      }
      if (protocol.startsWith("xmpp"))
        expect(modern.heard).toEqual(["to='client.example.net'", "to='client.example.net'"]);
    }, 30_000);
  }
});

describe("openssl s_client -starttls, the reference client, reads the same list from the fake servers", () => {
  for (const protocol of ["smtp", "imap", "postgres"] as const) {
    test(protocol, async () => {
      const server = await fake(protocol);
      // Run beside the fake server (a synchronous spawn would stop this process, and the server);
      // stdin at its end, so that s_client leaves once the handshake is done.
      const child = spawn(
        "openssl",
        [
          "s_client",
          "-connect",
          `127.0.0.1:${server.port}`,
          "-starttls",
          protocol,
          "-showcerts",
          "-servername",
          "chain.example.com",
        ],
        { stdio: ["ignore", "pipe", "ignore"], timeout: 10_000 },
      );
      let stdout = "";
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString("latin1");
      });
      await new Promise((resolve) => child.on("close", resolve));
      const ran = { stdout };
      expect(hex(pemToDers(ran.stdout))).toEqual(SENT_HEX);
      const ours = await read(server.port, protocol);
      expect(ours.ok && hex(ours.value.ders)).toEqual(hex(pemToDers(ran.stdout)));
    }, 30_000);
  }
});

describe("a server that does not offer STARTTLS is refused cleanly, its words quoted", () => {
  const refusals: Record<StartTlsProtocol, string> = {
    smtp: '"502 5.5.1 STARTTLS not offered"',
    lmtp: '"502 5.5.1 STARTTLS not offered"',
    pop3: '"-ERR STLS not available"',
    imap: '". BAD STARTTLS not supported"',
    ftp: '"530 Please login with USER and PASS."',
    postgres: '"N"',
    mysql: '"8.0.36-fake"',
    ldap: '"resultCode 2 (protocolError): unsupported extended operation"',
    xmpp: `"<stream:features><mechanisms xmlns='urn:ietf:params:xml:ns:xmpp-sasl'><mechanism"`,
    "xmpp-server": `"<stream:features><mechanisms xmlns='urn:ietf:params:xml:ns:xmpp-sasl'><mechanism"`,
  };
  for (const protocol of PROTOCOLS) {
    test(protocol, async () => {
      const server = await fake(protocol, { offer: false });
      expect(await read(server.port, protocol)).toEqual(
        failure(`the server refused STARTTLS: ${refusals[protocol]}`),
      );
    });
  }

  test("the quote is escaped (control characters, DEL, non-ASCII as \\xHH) and cut at 80 characters", async () => {
    const greeting = Buffer.concat([
      Buffer.from("554 \x1b[31mgo away\x1b[0m ", "latin1"),
      Buffer.from("é", "utf8"),
      Buffer.from(` ${"x".repeat(100)}\r\n`, "latin1"),
    ]);
    const port = await plainServer((socket) => socket.write(greeting));
    const expected = `554 \\x1b[31mgo away\\x1b[0m \\xc3\\xa9 ${"x".repeat(44)}`;
    expect(expected).toHaveLength(80);
    expect(await read(port, "smtp")).toEqual(failure(`the server refused STARTTLS: "${expected}"`));
  });
});

describe("an answer that is not the protocol: did not speak PROTO", () => {
  for (const protocol of PROTOCOLS) {
    test(`${protocol}: an HTTP server's answer`, async () => {
      const port = await plainServer((socket) => socket.write("HTTP/1.1 400 Bad Request\r\n\r\n"));
      expect(await read(port, protocol)).toEqual(
        failure(`the server did not speak ${protocol}: "HTTP/1.1 400 Bad Request"`),
      );
    });
  }

  test("a TLS record on a plain port (an alert), escaped", async () => {
    const port = await plainServer((socket) =>
      socket.once("data", () => socket.end(Buffer.from([0x15, 3, 1, 0, 2, 2, 10]))),
    );
    expect(await read(port, "postgres")).toEqual(
      failure('the server did not speak postgres: "\\x15\\x03\\x01\\x00\\x02\\x02\\x0a"'),
    );
  });

  test("after STARTTLS, an answer that is not TLS is quoted too", async () => {
    const port = await plainServer((socket) => {
      let packets = 0;
      socket.on("data", () => (++packets === 1 ? socket.write("S") : socket.end("ERROR: nope\n")));
    });
    expect(await read(port, "postgres")).toEqual(
      failure('the server did not answer with TLS after STARTTLS: "ERROR: nope"'),
    );
  });
});

describe("protocol corners, each server scripted byte for byte", () => {
  /**
   * A server that answers the client's n-th packet with `replies[n]` (a greeting first when
   * `greeting` is given) and ends the connection with "OK" when a TLS ClientHello comes: that
   * answer proves the upgrade was accepted.
   */
  async function scripted(replies: (string | Buffer)[], greeting?: string | Buffer) {
    return plainServer((socket) => {
      if (greeting !== undefined) socket.write(greeting);
      let packets = 0;
      socket.on("data", (data: Buffer) => {
        if (data[0] === 0x16) socket.end("OK");
        else socket.write(replies[packets++] ?? "");
      });
    });
  }
  const upgraded = failure('the server did not answer with TLS after STARTTLS: "OK"');

  test("smtp: a multi-line greeting and EHLO answer", async () => {
    const port = await scripted(
      ["250-one\r\n250-STARTTLS\r\n250 two\r\n", "220 go\r\n"],
      "220-first\r\n220 second\r\n",
    );
    expect(await read(port, "smtp")).toEqual(upgraded);
  });

  test("smtp: a greeting other than 220 is a refusal; a reply that is not SMTP is not smtp", async () => {
    expect(await read(await scripted([], "554 5.7.1 no service here\r\n"), "smtp")).toEqual(
      failure('the server refused STARTTLS: "554 5.7.1 no service here"'),
    );
    expect(await read(await scripted(["250 ok\r\n", "hello there\r\n"], "220 hi\r\n"), "smtp")).toEqual(
      failure('the server did not speak smtp: "hello there"'),
    );
  });

  test("imap: a PREAUTH greeting allows no STARTTLS", async () => {
    expect(await read(await scripted([], "* PREAUTH logged in already\r\n"), "imap")).toEqual(
      failure('the server refused STARTTLS: "* PREAUTH logged in already"'),
    );
  });

  test("postgres: an ErrorResponse is quoted by its message field", async () => {
    const fields = Buffer.from("SFATAL\0C28000\0Mno pg_hba.conf entry for host\0\0", "latin1");
    const error = Buffer.concat([Buffer.from([0x45, 0, 0, 0, fields.length + 4]), fields]);
    expect(await read(await scripted([error]), "postgres")).toEqual(
      failure('the server refused STARTTLS: "no pg_hba.conf entry for host"'),
    );
  });

  test("mysql: an ERR packet instead of the handshake is quoted by its message", async () => {
    const payload = Buffer.concat([
      Buffer.from([0xff, 0x6a, 0x04]),
      Buffer.from("Host '10.0.0.9' is not allowed", "latin1"),
    ]);
    const packet = Buffer.concat([Buffer.from([payload.length, 0, 0, 0]), payload]);
    expect(await read(await scripted([], packet), "mysql")).toEqual(
      failure(`the server refused STARTTLS: "Host '10.0.0.9' is not allowed"`),
    );
  });

  test("ldap: lengths in the long form (as Active Directory writes them) are read", async () => {
    // LDAPMessage { 1, ExtendedResponse { success, "", "" } } with 4-byte lengths throughout.
    const result = Buffer.from([0x0a, 0x01, 0x00, 0x04, 0x84, 0, 0, 0, 0, 0x04, 0x84, 0, 0, 0, 0]);
    const response = Buffer.concat([
      Buffer.from([0x02, 0x01, 0x01, 0x78, 0x84, 0, 0, 0, result.length]),
      result,
    ]);
    const message = Buffer.concat([Buffer.from([0x30, 0x84, 0, 0, 0, response.length]), response]);
    expect(await read(await scripted([message]), "ldap")).toEqual(upgraded);
  });

  test("xmpp: double-quoted attributes, and a <failure/> after <starttls/>", async () => {
    const features =
      '<?xml version="1.0"?><stream:stream xmlns="jabber:client" xmlns:stream="http://etherx.jabber.org/streams" version="1.0">' +
      '<stream:features><starttls xmlns="urn:ietf:params:xml:ns:xmpp-tls"/></stream:features>';
    const failed = '<failure xmlns="urn:ietf:params:xml:ns:xmpp-tls"/></stream:stream>';
    expect(await read(await scripted([features, failed]), "xmpp")).toEqual(
      failure(`the server refused STARTTLS: "<failure xmlns="urn:ietf:params:xml:ns:xmpp-tls"/>"`),
    );
    const proceed = "<proceed xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>";
    expect(await read(await scripted([features, proceed]), "xmpp")).toEqual(upgraded);
  });
});

describe("one deadline, closes, and the implicit-TLS ports", () => {
  test("timed out after N s waiting for the greeting", async () => {
    const port = await plainServer(() => {});
    expect(await read(port, "smtp", "localhost", { deadline: Date.now() + 300 })).toEqual(
      failure("timed out after 0.3 s waiting for the smtp greeting"),
    );
  });

  test("the deadline is the whole read's: a slow upgrade leaves less for the handshake", async () => {
    // Greets at once, answers EHLO after 200 ms and STARTTLS after 200 ms more, then says nothing.
    const port = await plainServer((socket) => {
      socket.write("220 slow ESMTP\r\n");
      socket.on("data", (data: Buffer) => {
        const reply = data.toString().startsWith("EHLO") ? "250 slow\r\n" : "220 go ahead\r\n";
        setTimeout(() => socket.write(reply), 200);
      });
    });
    const begun = Date.now();
    expect(await read(port, "smtp", "localhost", { deadline: Date.now() + 600 })).toEqual(
      failure("timed out after 0.6 s waiting for its certificates"),
    );
    expect(Date.now() - begun).toBeLessThan(900);
  });

  test("closed after N bytes in the middle of the upgrade", async () => {
    const port = await plainServer((socket) => {
      socket.write("220 hi\r\n");
      socket.once("data", () => socket.end());
    });
    expect(await read(port, "smtp")).toEqual(
      failure("the server closed the connection after 8 bytes, before the answer to EHLO"),
    );
  });

  test("--starttls on an implicit-TLS port: the failure line says to drop it (RFC 8314)", async () => {
    // An implicit-TLS server on the first of these ports this machine lets us bind.
    const server = createTlsServer({ cert: SENT_PEM, key: KEY_PEM });
    server.on("tlsClientError", () => {});
    let bound: number | null = null;
    for (const port of [5223, ...IMPLICIT_TLS_PORTS]) {
      const ok = await new Promise<boolean>((resolve) => {
        server.once("error", () => resolve(false));
        server.listen(port, "127.0.0.1", () => resolve(true));
      });
      if (ok) {
        bound = port;
        break;
      }
    }
    servers.push({ stop: () => new Promise<void>((resolve) => server.close(() => resolve())) });
    expect(bound).not.toBeNull();
    const result = await read(bound!, "imap", "localhost", { deadline: Date.now() + 300 });
    expect(result).toEqual(
      failure(
        `timed out after 0.3 s waiting for the imap greeting; port ${bound} is implicit TLS: drop --starttls`,
      ),
    );
  });
});

describe("names, ports, quotes", () => {
  test("openssl's -starttls names, psql for postgres, the table's default ports", () => {
    expect(STARTTLS_DEFAULT_PORTS).toEqual({
      smtp: 25,
      lmtp: 24,
      pop3: 110,
      imap: 143,
      ftp: 21,
      postgres: 5432,
      mysql: 3306,
      ldap: 389,
      xmpp: 5222,
      "xmpp-server": 5269,
    });
    expect(parseStartTlsProtocol("psql")).toBe("postgres");
    expect(parseStartTlsProtocol("SMTP")).toBe("smtp");
    expect(parseStartTlsProtocol("xmpp-server")).toBe("xmpp-server");
    expect(parseStartTlsProtocol("http")).toBeNull();
    expect(parseStartTlsProtocol("toString")).toBeNull();
    expect([...IMPLICIT_TLS_PORTS].sort((a, b) => a - b)).toEqual([465, 636, 990, 993, 995, 5223]);
  });

  test("the protocol a greeting suggests", () => {
    const table: [string, StartTlsProtocol[]][] = [
      ["220 mx.example.com ESMTP Postfix", ["smtp"]],
      ["220 host Microsoft ESMTP MAIL Service ready", ["smtp"]],
      ["220 (vsFTPd 3.0.3)", ["ftp"]],
      ["220-FileZilla Server 1.7.0", ["smtp", "ftp"]],
      ["220 ready", ["smtp", "ftp"]],
      ["+OK Dovecot ready.", ["pop3"]],
      ["* OK [CAPABILITY IMAP4rev1] Dovecot ready.", ["imap"]],
      ["SSH-2.0-OpenSSH_9.6", []],
      ["HTTP/1.1 400 Bad Request", []],
    ];
    for (const [greeting, protocol] of table)
      expect([greeting, guessProtocol(greeting)]).toEqual([greeting, protocol]);
  });

  test("quote: escapes, never cuts inside an escape, at most 80 characters", () => {
    expect(quote(Buffer.from('a\tb\x7f\xff"\\', "latin1"))).toBe('"a\\x09b\\x7f\\xff"\\"');
    expect(quote(Buffer.from(`${"a".repeat(78)}\x01`, "latin1"))).toBe(`"${"a".repeat(78)}"`);
    expect(firstLine(Buffer.from("one\r\ntwo"))).toEqual(Buffer.from("one"));
    // Property, against the obvious model: escape every byte, keep whole escapes up to 80 characters.
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const pieces = [...bytes].map((byte) =>
          byte >= 0x20 && byte <= 0x7e
            ? String.fromCharCode(byte)
            : `\\x${byte.toString(16).padStart(2, "0")}`,
        );
        let model = "";
        for (const piece of pieces) {
          if (model.length + piece.length > MAX_QUOTE_CHARACTERS) break;
          model += piece;
        }
        const quoted = quote(bytes);
        expect(quoted).toBe(`"${model}"`);
        expect(quoted.length).toBeLessThanOrEqual(MAX_QUOTE_CHARACTERS + 2);
        expect(/^[\x20-\x7e]*$/.test(quoted)).toBe(true);
      }),
    );
  });
});

describe("the CLI", () => {
  test("cert --starttls smtp: the list as sent, --save byte for byte, the read named on stderr", async () => {
    const server = await fake("smtp");
    const saved = join(scratch, "smtp.pem");
    const ran = await runNettools([
      "cert",
      "--json",
      "--connect",
      `127.0.0.1:${server.port}`,
      "--starttls",
      "smtp",
      "--servername",
      "chain.example.com",
      "--save",
      saved,
    ]);
    expect(ran.stderr).toBe(
      `127.0.0.1:${server.port} sent 5 certificates (read from its TLS 1.2 handshake after STARTTLS (smtp))\n`,
    );
    expect(hex(pemToDers(readFileSync(saved, "utf8")))).toEqual(SENT_HEX);
    expect((JSON.parse(ran.stdout) as { certificates: unknown[] }).certificates).toHaveLength(5);
    expect(server.heard).toEqual(["EHLO localhost"]);
  }, 30_000);

  test("chain --start-tls psql (the alias and the other name); xmpp's `to` defaults to --servername, else HOST", async () => {
    const postgres = await fake("postgres");
    const ran = await runNettools([
      "chain",
      "--json",
      "--connect",
      `127.0.0.1:${postgres.port}`,
      "--start-tls",
      "psql",
    ]);
    expect(ran.stderr).toBe(
      `127.0.0.1:${postgres.port} sent 5 certificates (read from its TLS 1.2 handshake after STARTTLS (postgres))\n`,
    );
    expect(JSON.parse(ran.stdout)).toHaveProperty("status");

    const xmpp = await fake("xmpp");
    await runNettools([
      "cert",
      "--connect",
      `127.0.0.1:${xmpp.port}`,
      "--starttls",
      "xmpp",
      "--servername",
      "im.example",
    ]);
    await runNettools(["cert", "--connect", `127.0.0.1:${xmpp.port}`, "--starttls", "xmpp"]);
    await runNettools([
      "cert",
      "--connect",
      `127.0.0.1:${xmpp.port}`,
      "--starttls",
      "xmpp",
      "--identity",
      "chat.example",
    ]);
    expect(xmpp.heard).toEqual(["to='im.example'", "to='127.0.0.1'", "to='chat.example'"]);
  }, 30_000);

  test("a refusal: one line, exit 3, for cert and chain", async () => {
    const server = await fake("imap", { offer: false });
    for (const command of ["cert", "chain"]) {
      const ran = await runNettools([command, "--connect", `127.0.0.1:${server.port}`, "--starttls", "imap"]);
      expect(ran).toEqual({
        code: 3,
        stdout: "",
        stderr: `127.0.0.1:${server.port}: the server refused STARTTLS: ". BAD STARTTLS not supported"\n`,
      });
    }
  }, 30_000);

  test("PORT defaults to the protocol's", async () => {
    // Whatever listens on this machine's port 25 (usually nothing), the line names 127.0.0.1:25.
    const ran = await runNettools(["cert", "--connect", "127.0.0.1", "--starttls", "smtp"]);
    expect(ran.stderr).toContain("127.0.0.1:25");
  }, 30_000);

  test("the help names every protocol with its default port", async () => {
    for (const command of ["cert", "chain"]) {
      const help = (await runNettools([command, "--help"])).stdout.replace(/\s+/g, " ");
      for (const [name, port] of Object.entries(STARTTLS_DEFAULT_PORTS))
        expect(help).toContain(` ${name} ${port}`);
      expect(help).toContain("--start-tls");
      expect(help).toContain("--identity NAME");
    }
  });

  test("usage errors: exit 2", async () => {
    const cases: [string[], string][] = [
      [["--connect", "127.0.0.1:1", "--starttls", "gopher"], '--starttls: "gopher" is not one of'],
      [["--connect", "127.0.0.1:1", "--identity", "x"], "--identity goes with --starttls"],
      [["--starttls", "smtp", "-"], "--starttls go with --connect"],
      [["--connect", "127.0.0.1:1", "--starttls", "smtp", "--identity", "a b"], "--identity must be a name"],
      [["--connect", "127.0.0.1:1", "--starttls", "smtp", "--start-tls", "imap"], "not both"],
    ];
    for (const [args, message] of cases) {
      const ran = await runNettools(["cert", ...args]);
      expect([args, ran.code]).toEqual([args, 2]);
      expect(ran.stderr).toContain(message);
    }
  }, 30_000);
});
