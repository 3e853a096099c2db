/**
 * CONTRACT §7.3: the certificate list exactly as a local server sends it (wire order, extra,
 * repeated and unrelated certificates kept), SNI, TLS 1.3-only servers, and one-line failures.
 * Servers: `openssl s_server` on 127.0.0.1 (tests/support/tls-server.ts).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { createServer } from "node:net";
import { fetchServerCertificates, parseTarget } from "../../src/cli/tls-certificates.ts";
import { certPem, GENERATED_DIR, pemToDers } from "../fixtures/fixtures.ts";
import { startTlsServer, type TlsServer } from "../support/tls-server.ts";

const key = (name: string) => `${GENERATED_DIR}/keys/${name}.key`;
const pems = (...names: string[]) => names.map(certPem).join("");
const hex = (ders: Uint8Array[]) => ders.map((der) => Buffer.from(der).toString("hex"));
const started: TlsServer[] = [];
afterAll(async () => {
  await Promise.all(started.map((server) => server.stop()));
});

async function fetchFrom(server: TlsServer, servername?: string) {
  const target = parseTarget(`127.0.0.1:${server.port}`, servername);
  if (!target.ok) throw new Error(target.message);
  return fetchServerCertificates(target.target, 5000);
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
      const result = await fetchFrom(server);
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
    const plain = await fetchFrom(server, "chain.example.com");
    const other = await fetchFrom(server, "other.chain.example.com");
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
    const result = await fetchFrom(server, "chain.example.com");
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.via).toBe("openssl-s_client");
    expect(hex(result.value.ders)).toEqual(
      hex(pemToDers(pems("chain-int2", "chain-leaf", "chain-unrelated"))),
    );
  }, 30_000);
});

describe("failures are one line", () => {
  test("refused, not TLS, and silent servers", async () => {
    const refused = parseTarget("127.0.0.1:1", undefined);
    if (!refused.ok) throw new Error(refused.message);
    expect(await fetchServerCertificates(refused.target, 2000)).toEqual({
      ok: false,
      message: "connection refused",
    });

    const http = createServer((socket) => socket.end("HTTP/1.1 400 Bad Request\r\n\r\n"));
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const port = (server: typeof http) => (server.address() as { port: number }).port;
      const notTls = parseTarget(`127.0.0.1:${port(http)}`, undefined);
      const quiet = parseTarget(`127.0.0.1:${port(silent)}`, undefined);
      if (!notTls.ok || !quiet.ok) throw new Error("target");
      const a = await fetchServerCertificates(notTls.target, 2000);
      expect(a).toEqual({ ok: false, message: "the server did not answer with TLS" });
      const b = await fetchServerCertificates(quiet.target, 500);
      expect(b).toEqual({ ok: false, message: "no TLS answer within 1 s" });
    } finally {
      http.close();
      silent.close();
    }
  }, 30_000);

  test("HOST[:PORT] and SNI defaults: HOST unless an IP literal; --servername overrides", () => {
    expect(parseTarget("example.com", undefined)).toEqual({
      ok: true,
      target: { host: "example.com", port: 443, servername: "example.com" },
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
