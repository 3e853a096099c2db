/**
 * The openssl fallback reads the handshake only (issue 30, CONTRACT §7.3, §8.3): a TLS 1.3-only
 * server (its Certificate message encrypted, so `openssl s_client -showcerts` reads it) that sends
 * PEM certificates as application data right after its handshake, with and without STARTTLS.
 * The list is the one certificate of the handshake, 20 runs out of 20, and `--save` writes it alone.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer as createPlainServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSecureContext, createServer, TLSSocket } from "node:tls";
import { handshakeSection } from "../../src/adapters/tls/openssl-fallback.ts";
import { parseTarget } from "../../src/adapters/tls/target.ts";
import { fetchServerCertificates } from "../../src/adapters/tls/tls-certificates.ts";
import { runNettools } from "../cli/run.ts";
import { certPem, GENERATED_DIR, pemToDers } from "../fixtures/fixtures.ts";

const LEAF = certPem("chain-int2");
const KEY = readFileSync(`${GENERATED_DIR}/keys/chain-int2.key`, "utf8");
/** 40 certificates as application data: what the attack's server sent after its handshake. */
const AFTER = [...Array(40)].map((_, i) => certPem(i % 2 === 0 ? "chain-int1" : "chain-unrelated")).join("");
const context = createSecureContext({ key: KEY, cert: LEAF, minVersion: "TLSv1.3" });

const servers: Server[] = [];
afterAll(() => {
  for (const server of servers) server.close();
});

function listen(server: Server): Promise<number> {
  servers.push(server);
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      resolve(typeof address === "object" && address !== null ? address.port : 0);
    });
  });
}

/** TLS 1.3 only; application data written the moment the handshake is done. */
async function implicitTls(): Promise<number> {
  const server = createServer({ key: KEY, cert: LEAF, minVersion: "TLSv1.3" }, (socket) => {
    socket.on("error", () => {});
    socket.write(AFTER);
  });
  return listen(server);
}

/** SMTP with STARTTLS, then the same TLS 1.3 server. */
async function smtp(): Promise<number> {
  const server = createPlainServer((plain) => {
    plain.on("error", () => {});
    plain.write("220 mail.example ESMTP\r\n");
    let buffered = "";
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString("latin1");
      if (/^EHLO .*\r?\n/m.test(buffered) && !buffered.includes("STARTTLS")) {
        plain.write("250-mail.example\r\n250 STARTTLS\r\n");
      }
      if (/^STARTTLS\r?\n/m.test(buffered)) {
        plain.off("data", onData);
        plain.write("220 go ahead\r\n");
        const secure = new TLSSocket(plain, {
          isServer: true,
          secureContext: context,
          minVersion: "TLSv1.3",
        });
        secure.on("error", () => {});
        secure.on("secure", () => secure.write(AFTER));
      }
    };
    plain.on("data", onData);
  });
  return listen(server);
}

const LEAF_HEX = pemToDers(LEAF).map((der) => Buffer.from(der).toString("hex"));

describe("the openssl fallback stops at the end of the handshake", () => {
  test("the chain section of s_client's output, and nothing after it", () => {
    const output = `CONNECTED(00000003)\n---\nCertificate chain\n 0 s:CN = a\n${LEAF}---\nServer certificate\n${AFTER}`;
    expect(handshakeSection(output)).toBe(`\n 0 s:CN = a\n${LEAF}`);
    expect(handshakeSection(`Certificate chain\n${LEAF}`)).toBeNull();
    expect(handshakeSection(AFTER)).toBeNull();
  });

  for (const [name, start, starttls] of [
    ["TLS 1.3 only", implicitTls, null],
    ["STARTTLS smtp, then TLS 1.3 only", smtp, "smtp"],
  ] as const) {
    test(`${name}: 20 runs, each the handshake's one certificate`, async () => {
      const port = await start();
      const target = parseTarget(`127.0.0.1:${port}`, "chain.example.com");
      if (!target.ok) throw new Error(target.message);
      const counts: number[] = [];
      for (let run = 0; run < 20; run++) {
        const result = await fetchServerCertificates(target.target, {
          deadline: Date.now() + 10_000,
          ...(starttls === null ? {} : { startTls: { protocol: starttls, identity: "localhost" } }),
        });
        if (!result.ok) throw new Error(result.message);
        expect(result.value.via).toBe("openssl-s_client");
        expect(result.value.ders.map((der) => Buffer.from(der).toString("hex"))).toEqual(LEAF_HEX);
        counts.push(result.value.ders.length);
      }
      expect(counts).toEqual(Array(20).fill(1));
    }, 120_000);
  }

  test("--save writes exactly the handshake's list", async () => {
    const port = await implicitTls();
    const dir = mkdtempSync(join(tmpdir(), "after-handshake-"));
    const saved = join(dir, "saved.pem");
    const ran = await runNettools([
      "cert",
      "--connect",
      `127.0.0.1:${port}`,
      "--servername",
      "chain.example.com",
      "--save",
      saved,
    ]);
    expect(ran.stderr).not.toContain("INTERNAL_ERROR");
    expect(readFileSync(saved, "utf8")).toBe(LEAF);
  }, 60_000);
});
